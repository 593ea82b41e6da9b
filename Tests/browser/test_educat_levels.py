"""eduCAT levels and results in a real browser: the clinician sets a level, the child plays it,
every answer reaches the results page (mix-ups, % right, time per answer), shown at a phone's and a
laptop's size (screenshots in docs/screens/)."""
import os
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import BINARY, ROOT, DEMO_PASSWORD, serious_accessibility_violations, screenshot
from test_accounts import log_in, path_of, submit
from test_educat import hold_clock, advance, state, item, wrong_item, open_patient_mode

CARLA = 7


@pytest.fixture(scope="module", autouse=True)
def educat_audio(tmp_path_factory):
    data = tmp_path_factory.mktemp("educat-audio")
    subprocess.run([BINARY, "educat-audio", "--data", str(data)], cwd=ROOT, check=True, capture_output=True)


@pytest.fixture
def screen(page):
    class Screen:
        def size(self, width, height):
            page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                 {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    yield Screen()
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def flush_answers(page):
    return page.execute_async_script(
        "const done = arguments[arguments.length - 1]; window.tagarelaEducat.flushAnswers().then(done);")


def test_the_clinician_sets_a_level_the_child_plays_it_and_every_answer_reaches_the_results(demo_server, page, screen):
    log_in(page, demo_server, "ana")
    page.get(f"{demo_server.url}/patients/{CARLA}/educat")
    page.find_element(By.LINK_TEXT, "Configurar jogos, níveis e palavras").click()
    assert path_of(page) == f"/patients/{CARLA}/educat/settings"
    Select(page.find_element(By.ID, "level-alphabet")).select_by_value("3")
    Select(page.find_element(By.ID, "promotion")).select_by_value("streak")
    streak = page.find_element(By.ID, "streak")
    streak.clear()
    streak.send_keys("30")
    submit(page)
    assert "Configuração dos desafios salva." in page.page_source or page.find_element(By.CSS_SELECTOR, ".flash")
    assert Select(page.find_element(By.ID, "level-alphabet")).first_selected_option.get_attribute("value") == "3"
    assert serious_accessibility_violations(page) == []

    page.delete_all_cookies()
    open_patient_mode(page, demo_server)
    page.get(demo_server.url + "/educat/alphabet/game")
    root = page.find_element(By.ID, "educat")
    assert root.get_attribute("data-level") == "3" and root.get_attribute("data-level-key") == "lower"
    assert root.get_attribute("lang") == "ca"
    symbols = [e.get_attribute("data-item") for e in page.find_elements(By.CSS_SELECTOR, ".educat-item")]
    assert {"ç", "l·l", "ny", "à", "ï", "ü"} <= set(symbols) and len(symbols) == 38, "the Catalan letters at the lower-case level"
    assert item(page, "b").text == "b", "lower case shown"
    hold_clock(page)
    asked = []
    for right in (True, False, True):
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        target = state(page)["target"]
        asked.append(target)
        if right:
            item(page, target).click()
        else:
            wrong = wrong_item(page)
            wrong.click()
            # a wrong tap keeps the question open in a normal game: answer it right too
            item(page, target).click()
        advance(page, 1300)
    response = flush_answers(page)
    assert response == {"level": "3", "levelKey": "lower"}
    assert page.execute_script("return window.tagarelaEducat.pendingAnswers()") == 0

    page.get(demo_server.url + "/patient-mode/exit")
    page.find_element(By.ID, "password").send_keys(DEMO_PASSWORD)
    submit(page)
    page.get(f"{demo_server.url}/patients/{CARLA}/educat")
    rows = [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in page.find_elements(By.CSS_SELECTOR, "table.educat-answers tbody tr")]
    assert len(rows) == 4, rows
    assert [r[3] for r in reversed(rows)] == [asked[0], asked[1], asked[1], asked[2]]
    assert sum(r[5].startswith("✗") for r in rows) == 1 and sum(r[5].startswith("✓") for r in rows) == 3
    assert all(r[1] == "Alfabeto" and r[2] == "3 · Minúsculas" for r in rows)
    assert page.find_elements(By.CSS_SELECTOR, "svg.chart circle"), "% right and time per answer by day"
    assert page.find_element(By.CSS_SELECTOR, "table.educat-answers td[lang='ca']")
    assert serious_accessibility_violations(page) == []

    for width, height in [(360, 740), (1280, 800)]:
        screen.size(width, height)
        page.get(f"{demo_server.url}/patients/{CARLA}/educat")
        overflow = page.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"no sideways scroll at {width} px"
        # The charts' text is read at no less than 11 px at either size.
        smallest = page.execute_script("""
            return Math.min(...[...document.querySelectorAll('svg.chart text')].map((t) => t.getBoundingClientRect().height));""")
        assert smallest >= 11, f"chart text at {width} px is {smallest} px"
        screenshot(page, f"educat-results-{width}x{height}.png")
        charts = page.find_element(By.CSS_SELECTOR, "section[aria-labelledby='educat-charts-title']")
        page.execute_script("arguments[0].scrollIntoView()", charts)
        screenshot(page, f"educat-results-charts-{width}x{height}.png")


def test_the_settings_page_fits_a_phone(demo_server, page, screen):
    log_in(page, demo_server, "ana")
    screen.size(360, 740)
    page.get(f"{demo_server.url}/patients/{CARLA}/educat/settings")
    overflow = page.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert serious_accessibility_violations(page) == []
    page.execute_script("window.scrollTo(0, 0)")
    screenshot(page, "educat-settings-360x740.png")
    page.find_element(By.ID, "item-text").send_keys("gronxador")
    page.find_element(By.ID, "item-syllables").send_keys("gron-xa-dor")
    page.find_element(By.ID, "item-picture").send_keys("casa")
    page.find_element(By.CSS_SELECTOR, ".educat-add-item button[type=submit]").click()
    WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, ".educat-added li"))
    added = page.find_element(By.CSS_SELECTOR, ".educat-added li")
    assert "GRON - XA - DOR" in added.text
    page.execute_script("arguments[0].scrollIntoView()", added)
    screenshot(page, "educat-settings-added-360x740.png")
