"""Each of the clinician's challenge settings acts on the child's game (issue 46, 2): items on screen,
seconds per question, lives, and no time limit. The settings are written to the patient's row (the
settings form has its own tests); what is checked is the game the child then plays."""
import datetime
import os
import sqlite3

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_educat import advance, hold_clock, open_patient_mode, state


def set_carlas_settings(server, seconds=9, lives=3, untimed=False, items=None):
    with sqlite3.connect(os.path.join(server.data_dir, "db", "tagarela.sqlite")) as db:
        carla = db.execute("SELECT id FROM user WHERE displayName = 'Carla Costa'").fetchone()[0]
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.000")
        db.execute("""INSERT INTO educatSettings (patientId, secondsPerQuestion, lives, untimed, itemsOnScreen, updatedAt)
                      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(patientId) DO UPDATE SET secondsPerQuestion = excluded.secondsPerQuestion,
                      lives = excluded.lives, untimed = excluded.untimed, itemsOnScreen = excluded.itemsOnScreen""",
                   (carla, seconds, lives, 1 if untimed else 0, items, now))


def shown(page):
    return page.execute_script("return window.tagarelaEducat.shown()")


def open_game(page, server, path):
    page.get(server.url + path)
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaEducat?.state"))
    hold_clock(page)


def test_items_on_screen_limits_the_vowels_and_the_dots(demo_server, page):
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server, items=4)
        open_game(page, demo_server, "/educat/vowels/challenge")
        assert len(page.find_elements(By.CSS_SELECTOR, ".educat-item")) == 5
        assert len(shown(page)) == 4, "four of the five vowels"
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        assert state(page)["target"] in shown(page), "the one asked is always on screen"
        assert len(shown(page)) == 4

        open_game(page, demo_server, "/educat/numbers/game")
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        assert len(shown(page)) == 4 and state(page)["target"] in shown(page)

        set_carlas_settings(demo_server, items=None)
        open_game(page, demo_server, "/educat/vowels/challenge")
        assert len(shown(page)) == 5, "without the setting, every vowel"
    finally:
        set_carlas_settings(demo_server)


def test_seconds_and_lives_set_the_countdown_and_the_lives(demo_server, page):
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server, seconds=5, lives=2)
        open_game(page, demo_server, "/educat/vowels/challenge")
        assert page.find_element(By.CSS_SELECTOR, ".educat-lives").text == "* *"
        assert page.find_element(By.CSS_SELECTOR, ".educat-time").text == "5"
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        advance(page, 4000)
        assert state(page)["lives"] == 2, "5 s, not 4"
        advance(page, 1600)
        WebDriverWait(page, 5).until(lambda p: state(p)["lives"] == 1)
        advance(page, 1300)
        WebDriverWait(page, 2).until(lambda p: p.find_element(By.CSS_SELECTOR, ".educat-time").text == "5")
        advance(page, 5600)
        WebDriverWait(page, 5).until(lambda p: state(p)["phase"] == "over"), "two lives, two timeouts: the end"
    finally:
        set_carlas_settings(demo_server)


def test_no_time_limit_never_runs_out(demo_server, page):
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server, untimed=True)
        open_game(page, demo_server, "/educat/vowels/challenge")
        assert state(page)["untimed"]
        assert not page.find_element(By.CSS_SELECTOR, ".educat-time").is_displayed()
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        advance(page, 120_000)
        assert state(page)["lives"] == 3 and state(page)["target"] is not None, "two minutes later, still asking"
    finally:
        set_carlas_settings(demo_server)
