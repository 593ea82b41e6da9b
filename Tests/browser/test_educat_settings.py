"""Each of the clinician's challenge settings acts on the child's game (issue 46, 2): items on screen,
seconds per question, lives, no time limit, and the pack's language for the end words (issue 46, 3).
The settings are written to the patient's row (the settings form has its own tests); what is checked
is the game the child then plays."""
import datetime
import os
import sqlite3
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_board_fit import screen  # noqa: F401 (a fixture: the viewport set exactly)
from test_educat import advance, end_dialog, hold_clock, item, open_patient_mode, played, state, wrong_item
from conftest import screenshot


def set_carlas_settings(server, seconds=9, lives=3, untimed=False, items=None, streak=None):
    with sqlite3.connect(os.path.join(server.data_dir, "db", "tagarela.sqlite")) as db:
        carla = db.execute("SELECT id FROM user WHERE displayName = 'Carla Costa'").fetchone()[0]
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.000")
        db.execute("""INSERT INTO educatSettings (patientId, secondsPerQuestion, lives, untimed, itemsOnScreen, promotion,
                      promotionValue, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(patientId) DO UPDATE SET
                      secondsPerQuestion = excluded.secondsPerQuestion, lives = excluded.lives, untimed = excluded.untimed,
                      itemsOnScreen = excluded.itemsOnScreen, promotion = excluded.promotion, promotionValue = excluded.promotionValue""",
                   (carla, seconds, lives, 1 if untimed else 0, items, "streak" if streak else "never", streak, now))
        # The numbers at their standard level (2), set now: the answers before do not count towards the next.
        db.execute("""INSERT INTO educatLevel (patientId, area, level, updatedAt) VALUES (?, 'numbers', 2, ?)
                      ON CONFLICT(patientId, area) DO UPDATE SET level = 2, updatedAt = excluded.updatedAt""", (carla, now))


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


def set_carlas_pack(server, language):
    with sqlite3.connect(os.path.join(server.data_dir, "db", "tagarela.sqlite")) as db:
        db.execute("UPDATE educatSettings SET language = ? WHERE patientId = (SELECT id FROM user WHERE displayName = 'Carla Costa')",
                   (language,))


def play_challenge(page, hits):
    """`hits` right answers, then three misses; returns the end pop-up's title and message."""
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    for _ in range(hits):
        item(page, state(page)["target"]).click()
        advance(page, 3700)
    for _ in range(3):
        wrong_item(page).click()
        advance(page, 1300)
    return end_dialog(page)


@pytest.mark.parametrize("language,record,game_over", [
    ("ca", ("NOU RECORD!!", "Felicitats!!"), ("GAME OVER!!", "Fi de partida!!")),
    ("es", ("¡¡NUEVO RÉCORD!!", "¡¡Felicidades!!"), ("¡¡FIN DEL JUEGO!!", "¡¡Fin de la partida!!")),
    ("pt-BR", ("NOVO RECORDE!!", "Parabéns!!"), ("FIM DE JOGO!!", "Fim de partida!!")),
])
def test_the_end_says_the_seeds_words_in_the_childs_pack(demo_server, page, screen, language, record, game_over):
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server)
        set_carlas_pack(demo_server, language)
        for width, height in ((360, 640), (768, 1024)):
            screen.size(width, height)
            open_game(page, demo_server, "/educat/vowels/challenge")
            assert page.find_element(By.ID, "educat").get_attribute("lang") == language
            record_clip = page.find_element(By.ID, "educat").get_attribute("data-new-record-clip")
            game_over_clip = page.find_element(By.ID, "educat").get_attribute("data-game-over-clip")
            assert play_challenge(page, state(page)["record"] + 1) == record
            WebDriverWait(page, 20).until(lambda p: played(p)[-1] == record_clip), "and said aloud"
            if language == "ca":
                screenshot(page, f"educat-end-record-{width}x{height}.png")
            page.find_element(By.CSS_SELECTOR, ".educat-end-ok").click()
            assert play_challenge(page, 0) == game_over
            WebDriverWait(page, 20).until(lambda p: played(p)[-1] == game_over_clip), "and said aloud"
            if language == "ca":
                screenshot(page, f"educat-end-game-over-{width}x{height}.png")
            page.find_element(By.CSS_SELECTOR, ".educat-end-ok").click()
    finally:
        set_carlas_pack(demo_server, None)


def test_a_level_up_is_celebrated_seen_and_heard(demo_server, page, screen):
    open_patient_mode(page, demo_server)
    try:
        for width, height in ((360, 640), (768, 1024)):
            # What earlier games on this tablet left queued arrives first: answers that reach the server after
            # the level is set would count towards its streak.
            open_game(page, demo_server, "/educat/numbers/game")
            WebDriverWait(page, 10).until(lambda p: p.execute_script(
                "return JSON.parse(localStorage.getItem('tagarela-taps') || '[]').length") == 0)
            set_carlas_settings(demo_server, streak=3)
            screen.size(width, height)
            open_game(page, demo_server, "/educat/numbers/game")
            root = page.find_element(By.ID, "educat")
            assert root.get_attribute("data-level") == "2"
            banner = page.find_element(By.CSS_SELECTOR, ".educat-level-up")
            level_up_clip = root.get_attribute("data-level-up-clip")
            for _ in range(2):
                page.find_element(By.CSS_SELECTOR, ".educat-question").click()
                item(page, state(page)["target"]).click()
                advance(page, 1300)
            time.sleep(1)
            assert not banner.is_displayed() and level_up_clip not in played(page), "two right: not yet"
            page.find_element(By.CSS_SELECTOR, ".educat-question").click()
            item(page, state(page)["target"]).click()
            WebDriverWait(page, 10).until(lambda p: banner.is_displayed()), "three right in a row: seen…"
            assert banner.text.strip().endswith("HAS PUJAT DE NIVELL!!")
            WebDriverWait(page, 10).until(lambda p: played(p)[-1] == level_up_clip), "…and heard, after the fanfare"
            assert root.get_attribute("data-next-level") == "3"
            # The banner pops in (educat-pop): shot once it has, not half-transparent.
            WebDriverWait(page, 3).until(lambda p: p.execute_script(
                "return arguments[0].getAnimations({subtree: true}).every((a) => a.playState === 'finished')", banner))
            screenshot(page, f"educat-level-up-{width}x{height}.png")
            advance(page, 3000)
            WebDriverWait(page, 5).until(lambda p: not banner.is_displayed())
            page.get(demo_server.url + "/educat/numbers/game")
            assert page.find_element(By.ID, "educat").get_attribute("data-level") == "3", "the next game plays the new level"
    finally:
        set_carlas_settings(demo_server)


def test_the_timer_goes_back_to_the_full_seconds_and_keys_answer(demo_server, page):
    from selenium.webdriver.common.action_chains import ActionChains
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server, seconds=7)
        open_game(page, demo_server, "/educat/numbers/challenge")
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        advance(page, 3000)
        time_shown = page.find_element(By.CSS_SELECTOR, ".educat-time")
        WebDriverWait(page, 2).until(lambda p: time_shown.text == "4")
        # The number asked, typed on the keyboard: a hit, and the timer back at 7 at once.
        ActionChains(page).send_keys(state(page)["target"]).perform()
        assert state(page)["hits"] == 1
        assert time_shown.text == "7", "the full seconds between questions, not the last value"
        advance(page, 3700)
        target = state(page)["target"]
        assert target is not None
        ActionChains(page).send_keys("x").perform()
        assert state(page)["errors"] == 0, "a key that names no number does nothing"
        wrong = "1" if target != "1" else "2"
        ActionChains(page).send_keys(wrong).perform()
        assert state(page)["errors"] == 1 and state(page)["lives"] == 2, "another number typed is a wrong answer"
    finally:
        set_carlas_settings(demo_server)
