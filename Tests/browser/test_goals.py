"""Goals in a real browser: a speech therapist sets one on a desktop; the tutor and the patient (in
patient mode) read it on a phone, in plain words, with nothing scrolling sideways."""
import os

from selenium.webdriver.common.by import By

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, path_of
from test_homes import database, open_patient_mode

SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder: screenshots to look at when set

TITLE = "Pede ajuda com uma frase de três palavras"


def sideways(page):
    return page.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def shot(page, name):
    if SCREENS:
        page.save_screenshot(os.path.join(SCREENS, name))


def carla_id(server):
    return database(server).execute("SELECT id FROM user WHERE displayName = 'Carla Costa'").fetchone()[0]


def test_a_clinician_sets_a_goal_that_the_tutor_and_the_child_read_on_a_phone(demo_server, page):
    carla = carla_id(demo_server)
    page.set_window_size(1280, 800)
    log_in(page, demo_server, "ana")
    page.get(demo_server.url + f"/patients/{carla}")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, f"a[href='/patients/{carla}/goals']"))
    assert path_of(page) == f"/patients/{carla}/goals"
    # The demo record is alive: goals in every state.
    statuses = {card.get_attribute("class").split("goal-")[-1] for card in page.find_elements(By.CSS_SELECTOR, ".card.goal")}
    assert statuses >= {"notStarted", "onTrack", "behind", "met", "missed"}, statuses
    shot(page, "goals-clinician-1280.png")
    assert sideways(page) <= 0

    click_and_wait(page, page.find_element(By.CSS_SELECTOR, f"a[href='/patients/{carla}/goals/new']"))
    kinds = [a.get_attribute("href").split("kind=")[1] for a in page.find_elements(By.CSS_SELECTOR, "main a[href*='kind=']")]
    assert "sentences" in kinds and "adherence" not in kinds, kinds
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "main a[href$='kind=sentences']"))
    page.find_element(By.ID, "title").send_keys(TITLE)
    words = page.find_element(By.ID, "minWords")
    words.clear()
    words.send_keys("3")
    page.find_element(By.ID, "target").send_keys("abc")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    error = page.find_element(By.ID, "target-error").text
    assert error.startswith("Alvo:"), error
    assert page.find_element(By.ID, "title").get_attribute("value") == TITLE, "what was typed is kept"
    target = page.find_element(By.ID, "target")
    target.clear()
    target.send_keys("4")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    assert page.find_element(By.TAG_NAME, "h1").text == TITLE
    assert "Frases de pelo menos 3 palavras por semana" in page.find_element(By.TAG_NAME, "main").text
    assert serious_accessibility_violations(page) == []
    shot(page, "goal-clinician-1280.png")
    assert sideways(page) <= 0

    # Bruno, Carla's father, on his phone.
    page.delete_all_cookies()
    page.set_window_size(360, 740)
    log_in(page, demo_server, "bruno")
    page.get(demo_server.url + f"/patients/{carla}/goals")
    assert TITLE in page.find_element(By.TAG_NAME, "main").text
    assert not page.find_elements(By.CSS_SELECTOR, f"a[href='/patients/{carla}/goals/new']"), "tutors do not set goals"
    shot(page, "goals-tutor-360.png")
    assert sideways(page) <= 0
    assert serious_accessibility_violations(page) == []
    click_and_wait(page, page.find_element(By.LINK_TEXT, TITLE))
    note = page.find_element(By.ID, "body")
    note.send_keys("Ela pediu ajuda na escola hoje")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    assert "Ela pediu ajuda na escola hoje" in page.find_element(By.TAG_NAME, "main").text
    assert sideways(page) <= 0
    shot(page, "goal-tutor-360.png")

    # Carla herself, in patient mode on the same phone.
    page.delete_all_cookies()
    open_patient_mode(page, demo_server)
    link = page.find_element(By.CSS_SELECTOR, "a[href='/my-goals']")
    assert link.size["height"] >= 64, "patient pages: targets of 64 px"
    click_and_wait(page, link)
    main = page.find_element(By.TAG_NAME, "main").text
    assert TITLE in main and "Agora:" in main
    assert "Ela pediu ajuda" not in main, "notes are for the adults"
    assert sideways(page) <= 0
    assert serious_accessibility_violations(page) == []
    shot(page, "goals-patient-360.png")
