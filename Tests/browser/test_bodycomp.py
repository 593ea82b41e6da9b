"""The trainer's evaluation on a 360 px phone: live results, a draft that survives a reload,
then the saved report and a comparison."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, path_of, submit

SEVEN_SITES = {
    "sf_chest_1": "16", "sf_midaxillary_1": "17,5", "sf_triceps_1": "12", "sf_subscapular_1": "19",
    "sf_abdominal_1": "21", "sf_suprailiac_1": "16", "sf_thigh_1": "15",
}


def tap(page, element):
    """Scrolls an element to the middle of the screen (clear of the sticky action bar) and taps it."""
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def results_text(page):
    return page.find_element(By.ID, "results").text


def test_a_full_seven_site_evaluation_on_a_phone(demo_server, page):
    page.set_window_size(360, 800)
    try:
        log_in(page, demo_server, "dani")
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Gustavo Pereira"))
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Nova avaliação"))
        form_path = path_of(page)
        # 3-site protocol hides the other sites; back to 7 shows all seven.
        tap(page, page.find_element(By.CSS_SELECTOR, "input[name=protocol][value=jp3]"))
        visible = [row for row in page.find_elements(By.CSS_SELECTOR, ".skinfold-row") if row.is_displayed()]
        assert len(visible) == 3
        tap(page, page.find_element(By.CSS_SELECTOR, "input[name=protocol][value=jp7]"))
        assert len([r for r in page.find_elements(By.CSS_SELECTOR, ".skinfold-row") if r.is_displayed()]) == 7

        page.find_element(By.ID, "weight").send_keys("85,4")
        page.find_element(By.ID, "height").send_keys("178")
        first_three = list(SEVEN_SITES.items())[:3]
        for name, value in first_three:
            page.find_element(By.NAME, name).send_keys(value)

        # Mid-entry reload: the draft comes back from this device's storage.
        page.refresh()
        assert page.find_element(By.ID, "weight").get_attribute("value") == "85,4"
        assert page.find_element(By.NAME, "sf_midaxillary_1").get_attribute("value") == "17,5"

        for name, value in list(SEVEN_SITES.items())[3:]:
            page.find_element(By.NAME, name).send_keys(value)
        WebDriverWait(page, 10).until(lambda p: "Gordura" in results_text(p))
        assert "Soma das dobras" in results_text(page) and "116,5 mm" in results_text(page)
        overflow = page.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        assert serious_accessibility_violations(page) == []

        submit(page)
        assert "/evaluations/" in path_of(page)
        assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Avaliação salva."
        assert page.find_element(By.CSS_SELECTOR, "figure svg.chart").is_displayed()
        # The draft is gone once saved: a new form starts empty.
        page.get(demo_server.url + form_path)
        assert page.find_element(By.ID, "weight").get_attribute("value") == ""

        page.get(demo_server.url + form_path.replace("/evaluations/new", ""))
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".compare-form button"))
        rows = [row.text for row in page.find_elements(By.CSS_SELECTOR, "table.comparison tbody th")]
        assert "Peso" in rows and "Gordura" in rows
    finally:
        page.set_window_size(768, 1024)


def evaluation_rows(page):
    return page.find_elements(By.CSS_SELECTOR, "#main table.table tbody tr")


def test_a_double_tap_saves_once_then_the_trainer_corrects_and_deletes_it(demo_server, page):
    log_in(page, demo_server, "dani")
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Gustavo Pereira"))
    client_path = path_of(page)
    before = len(evaluation_rows(page))
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Nova avaliação"))
    page.find_element(By.ID, "weight").send_keys("85,4")
    page.find_element(By.ID, "height").send_keys("178")
    for name, value in SEVEN_SITES.items():
        page.find_element(By.NAME, name).send_keys(value)
    # Two submits of the same form, as a double tap on a slow phone sends them.
    page.execute_script("const f = document.getElementById('evaluation-form'); f.requestSubmit(); f.requestSubmit();")
    WebDriverWait(page, 10).until(lambda p: "/evaluations/" in path_of(p) and "/new" not in path_of(p))
    page.get(demo_server.url + client_path)
    assert len(evaluation_rows(page)) == before + 1

    click_and_wait(page, evaluation_rows(page)[0].find_element(By.TAG_NAME, "a"))
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Corrigir"))
    weight = page.find_element(By.ID, "weight")
    weight.clear()
    weight.send_keys("58,4")
    submit(page)
    assert "Avaliação corrigida" in page.find_element(By.CSS_SELECTOR, ".flash").text
    assert "58,4 kg" in page.find_element(By.TAG_NAME, "main").text

    click_and_wait(page, page.find_element(By.LINK_TEXT, "Excluir"))
    assert "sai do histórico" in page.find_element(By.CSS_SELECTOR, ".flash-error").text
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Avaliação excluída."
    assert len(evaluation_rows(page)) == before
