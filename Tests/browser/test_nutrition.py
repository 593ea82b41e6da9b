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
