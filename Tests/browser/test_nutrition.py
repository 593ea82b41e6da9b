"""The patient's meal check-in on a 360 px phone, then the nutritionist's review."""
import re

from selenium.webdriver.common.by import By

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, submit


def adherence(page, server, patient_id):
    page.get(f"{server.url}/patients/{patient_id}/nutrition")
    return page.find_element(By.CSS_SELECTOR, ".adherence-rate").text


def test_follow_one_meal_refuse_the_next_and_the_nutritionist_sees_it(demo_server, page):
    page.set_window_size(360, 800)
    try:
        log_in(page, demo_server, "nadia")
        page.get(demo_server.url + "/clinician")
        patient_id = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "#main a[href$='/nutrition']")
                      if "Elisa" in a.text][0].split("/")[-2]
        before = adherence(page, demo_server, patient_id)
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".site-nav form[action='/logout'] button"))

        log_in(page, demo_server, "elisa")
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a.tile-meals"))
        first_title = page.find_element(By.ID, "meal-title").text
        assert serious_accessibility_violations(page) == []
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Segui esta refeição"))
        quantity = page.find_element(By.CSS_SELECTOR, ".quantity-field input")
        quantity.clear()
        quantity.send_keys("1,5")
        page.find_element(By.CSS_SELECTOR, "input[name=hunger][value='4']").click()
        submit(page)
        assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Resposta salva: refeição seguida."

        second_title = page.find_element(By.ID, "meal-title").text
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Não segui"))
        submit(page)  # empty: the form says what is missing
        assert "Conte por que não seguiu" in page.find_element(By.ID, "reason-error").text
        page.find_element(By.ID, "reason").send_keys("Almocei na casa da minha mãe")
        page.find_element(By.ID, "instead").send_keys("Lasanha e salada")
        submit(page)
        assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Resposta salva: refeição não seguida."
        overflow = page.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0

        click_and_wait(page, page.find_element(By.LINK_TEXT, "Minhas refeições"))
        items = [item.text for item in page.find_elements(By.CSS_SELECTOR, ".meal-history li")]
        assert first_title in items[0] or first_title in items[1]
        assert any("não seguida" in item for item in items[:2]) and any("✓" in item for item in items[:2])
        click_and_wait(page, page.find_elements(By.CSS_SELECTOR, ".meal-history li a")[0])
        assert "Almocei na casa da minha mãe" in page.find_element(By.TAG_NAME, "main").text \
            or "1,5" in page.find_element(By.TAG_NAME, "main").text
        page.delete_all_cookies()

        log_in(page, demo_server, "nadia")
        after = adherence(page, demo_server, patient_id)
        assert after != before, (before, after)
        assert re.search(r"\d+ %", after)
        assert "Lasanha e salada" in page.find_element(By.TAG_NAME, "main").text
        assert second_title
    finally:
        page.set_window_size(768, 1024)


def test_pasted_weight_lines_are_imported_although_the_file_field_is_empty(demo_server, page):
    """Chromium sends the untouched file field as an empty file; the pasted lines must still count."""
    log_in(page, demo_server, "elisa")
    page.get(demo_server.url + "/measurements")
    page.find_element(By.ID, "csv").send_keys("01/10/2026;80,2\n08/10/2026;79,9")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[action='/measurements/import'] button[type=submit]"))
    assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Importação concluída."
    assert page.current_url.endswith("added=2")
    dates = page.find_element(By.ID, "weights-title").find_element(By.XPATH, "..").text
    assert "01/10/2026" in dates and "08/10/2026" in dates


def test_an_answer_to_a_meal_changed_meanwhile_is_refused_and_keeps_the_text(demo_server, page):
    """The patient's tab is open on the answer form while the nutritionist edits the meal in another."""
    log_in(page, demo_server, "elisa")
    page.get(demo_server.url + "/meals")
    answer_path = page.find_element(By.LINK_TEXT, "Não segui").get_attribute("href")
    meal_id = answer_path.split("/")[-2]
    page.get(answer_path)
    page.find_element(By.ID, "reason").send_keys("Jantei com amigos")
    page.find_element(By.ID, "instead").send_keys("Pizza")
    patient_cookies = page.get_cookies()

    page.delete_all_cookies()
    log_in(page, demo_server, "nadia")
    page.get(demo_server.url + "/clinician")
    patient_id = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "#main a[href$='/nutrition']")
                  if "Elisa" in a.text][0].split("/")[-2]
    page.get(f"{demo_server.url}/patients/{patient_id}/meals/{meal_id}/edit")
    quantity = page.find_element(By.ID, "quantity_0")
    quantity.clear()
    quantity.send_keys("3")
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".flash").text

    # Back in the patient's tab: the same form (still in the page) is sent.
    page.delete_all_cookies()
    for cookie in patient_cookies:
        page.add_cookie({"name": cookie["name"], "value": cookie["value"]})
    page.get(answer_path)
    page.find_element(By.ID, "reason").send_keys("Jantei com amigos")
    page.find_element(By.ID, "instead").send_keys("Pizza")
    page.execute_script("document.querySelector('input[name=version]').value = '1'")  # the version the old tab showed
    submit(page)
    assert "mudou esta refeição" in page.find_element(By.CSS_SELECTOR, ".flash-error").text
    assert page.find_element(By.ID, "reason").get_attribute("value") == "Jantei com amigos"
    assert page.find_element(By.ID, "instead").get_attribute("value") == "Pizza"
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Resposta salva: refeição não seguida."
