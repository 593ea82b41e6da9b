"""The starter core board set (issue 54, item 4): a clinician gives a patient a copy in one step, in the
language she picks, and lands on it to personalise it; the demo's Carla plays hers: 60 cells on one screen
with no scroll, coloured by part of speech, words said in the form that agrees, folders that open.
Screenshots of the board at 1024×768 and 360×640 into $TAGARELA_SCREENS when set (docs/screens)."""
import os
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from test_accounts import click_and_wait, log_in, path_of
from test_board_fit import CARLA, DAVI, GEOMETRIC_FLOOR, clinic, held_to_geometry, measured, patient_mode, plan_with, resized, screen  # noqa: F401

SCREENS = os.environ.get("TAGARELA_SCREENS")


def test_a_clinician_gives_a_patient_the_set_in_catalan_in_one_step(clinic, page):
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    page.get(f"{clinic.url}/patients/{DAVI}/plans")
    if SCREENS:
        page.set_window_size(768, 1024)
        os.makedirs(SCREENS, exist_ok=True)
        page.save_screenshot(os.path.join(SCREENS, "starter-offer-768x1024.png"))
    Select(page.find_element(By.ID, "starter-language")).select_by_value("ca")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".starter-form button[type=submit]"))
    WebDriverWait(page, 240).until(lambda p: path_of(p).endswith("/edit"))
    assert "Nucli 60" in page.find_element(By.TAG_NAME, "h1").text
    labels = [cell.text for cell in page.find_elements(By.CSS_SELECTOR, "main .board > .cell, main .board > li")]
    assert len(labels) == 60, labels
    joined = " ".join(labels)
    assert all(word in joined for word in ("jo", "voler", "si us plau", "què", "Menjar")), joined


def test_carla_plays_her_core_board_on_a_tablet_and_a_phone(clinic, page, screen):
    page.delete_all_cookies()
    plans = patient_mode(page, clinic, "bruno", CARLA)
    core = plan_with(page, clinic, plans, ".board.cols-10.rows-6")
    report, failures = [], []
    for width, height in [(1024, 768), (360, 640), (640, 360), (768, 1024), (1280, 800)]:
        resized(page, screen, width, height)
        found = measured(page)
        assert found["cells"] == 60
        floor = page.execute_script(GEOMETRIC_FLOOR)
        problems = held_to_geometry(page, found)
        report.append(f"{width}×{height}: smallest {found['smallest']:.1f} px, floor {floor}, label {found['font']:.1f} px")
        if problems:
            failures.append((f"{width}×{height}", problems[:4]))
        if SCREENS and (width, height) in [(1024, 768), (360, 640)]:
            os.makedirs(SCREENS, exist_ok=True)
            page.save_screenshot(os.path.join(SCREENS, f"starter-core-{width}x{height}.png"))
    print("\n" + "\n".join(report))
    assert failures == [], "\n".join(map(str, failures))
    assert page.execute_script(GEOMETRIC_FLOOR) == 64, "64 px cells at 1280×800"

    # Coloured by part of speech, the Fitzgerald key: a pronoun yellow, a verb green, a question purple.
    colours = {label: page.find_element(By.CSS_SELECTOR, f".board .cell[data-label='{label}']").get_attribute("class")
               for label in ("eu", "querer", "onde", "não")}
    assert "cat-yellow" in colours["eu"] and "cat-green" in colours["querer"], colours
    assert "cat-purple" in colours["onde"] and "cat-red" in colours["não"], colours

    # The words agree as the child builds the sentence, and a folder opens its board.
    resized(page, screen, 1024, 768)
    measured(page)
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    for label in ("ela", "querer", "abrir"):
        ActionChains(page).move_to_element(page.find_element(By.CSS_SELECTOR, f".board .cell[data-label='{label}']")).click().perform()
        time.sleep(0.4)
    assert [w.text for w in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")] == ["ela", "quer", "abrir"]
    folder = page.find_element(By.CSS_SELECTOR, ".board .cell-folder")  # the first: Comida, on the first row
    assert folder.find_elements(By.CSS_SELECTOR, "img"), "a folder cell shows its picture"
    click_and_wait(page, folder)
    assert page.find_elements(By.CSS_SELECTOR, ".board .cell[data-label='água']")
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    page.get(clinic.url + core)
