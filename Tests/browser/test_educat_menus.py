"""eduCAT for a child on switches and small screens (issue 18, the last gaps): the home, the lesson or
game choice and the end-of-game pop-up scan like the games; every lesson fits the screen without page
scroll; a new record is celebrated aloud the moment it is beaten, once."""
import os
import sqlite3
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from test_accounts import log_in, path_of, submit
from test_board_fit import screen  # noqa: F401 (a fixture: the viewport set exactly)
from test_educat import (advance, educat_audio, end_dialog, hold_clock, item, marks, open_patient_mode,  # noqa: F401
                         played, scanning_carla, state, visit, wrong_item)
from conftest import screenshot


def scanned(page, server, path):
    """On a new page: the access script running, the clock held still; the scan's step in ms."""
    WebDriverWait(page, 5).until(lambda p: path_of(p) == path)
    WebDriverWait(page, 5).until(lambda p: p.execute_script("return !!window.tagarelaAccess"))
    hold_clock(page)
    return int(page.find_element(By.ID, "educat").get_attribute("data-access-scan-ms"))


def press_space_on(page, wanted, step_ms):
    """One switch: lets the scan move (the held clock a step at a time) until the highlight is what
    `wanted` (a JS predicate over the highlighted elements) accepts, then Space. Only the keyboard.
    Returns how many elements were highlighted when Space went down."""
    for _ in range(150):
        count = page.execute_script(f"const h = window.tagarelaAccess.highlighted(); return (({wanted}))(h) ? h.length : 0")
        if count:
            ActionChains(page).send_keys(Keys.SPACE).perform()
            return count
        page.execute_script("window.fakeNow += arguments[0];", step_ms)
        time.sleep(0.06)  # access.js looks at the clock every 40 ms
    raise AssertionError(f"the scan never reached {wanted}")


def choose(page, css, step_ms):
    """Row, then item (row-column): the element matching `css`, chosen by Space alone."""
    if press_space_on(page, f"(h) => h.some((e) => e.matches({css!r}))", step_ms) == 1:
        return  # it was alone in its row (or the scan was on it): chosen
    press_space_on(page, f"(h) => h.length === 1 && h[0].matches({css!r})", step_ms)


def test_from_the_home_with_only_the_keyboard_a_switch_user_chooses_a_game_scores_and_goes_back(demo_server, page, screen):
    scanning_carla(page, demo_server)
    page.get(demo_server.url + "/educat")
    step = scanned(page, demo_server, "/educat")
    root = page.find_element(By.ID, "educat")
    assert root.get_attribute("data-access-scan") == "row-column", "the home carries the child's access method"
    assert page.execute_script("return window.tagarelaAccess.highlighted().length") > 0, "the scan runs on the home"
    screenshot(page, "educat-home-scanning-768x1024.png")

    # Only Space from here: the Numbers tile, then "Joc" (the game), then Pregunta and the number asked.
    choose(page, ".educat-tile-numbers", step)
    step = scanned(page, demo_server, "/educat/numbers")
    choose(page, ".educat-tile-game", step)
    step = scanned(page, demo_server, "/educat/numbers/game")
    choose(page, ".educat-question", step)
    target = state(page)["target"]
    assert target is not None
    choose(page, f".educat-item[data-item='{target}']", step)
    assert state(page)["hits"] == 1 and marks(page)[0][0] == "educat-mark-right"

    # The challenge from the game's own link; three wrong numbers end it, and the pop-up is scanned alone.
    choose(page, ".educat-challenge-link", step)
    step = scanned(page, demo_server, "/educat/numbers/challenge")
    assert state(page)["untimed"], "a switch user is never timed out"
    choose(page, ".educat-question", step)
    for lives in (2, 1, 0):
        target = state(page)["target"]
        choose(page, f".educat-item:not([data-item='{target}'])", step)
        assert state(page)["lives"] == lives
        if lives:
            advance(page, 1300)
    end_dialog(page)
    WebDriverWait(page, 5).until(lambda p: p.execute_script(
        "return window.tagarelaAccess.highlighted().length > 0 && "
        "window.tagarelaAccess.highlighted().every((e) => e.closest('dialog[open]'))"))
    in_dialog = page.execute_script("return [...document.querySelectorAll('dialog[open] .educat-button')].map((e) => e.className)")
    assert any("educat-end-ok" in c for c in in_dialog) and any("educat-end-back" in c for c in in_dialog)
    screenshot(page, "educat-end-scanning-768x1024.png")
    # Play again (OK): the pop-up goes, the scan is back on the game, Pregunta is there.
    choose(page, ".educat-end-ok", step)
    assert page.find_element(By.CSS_SELECTOR, ".educat-end").get_attribute("open") is None
    assert page.find_element(By.CSS_SELECTOR, ".educat-question").is_displayed()
    assert not page.execute_script("return window.tagarelaAccess.highlighted().some((e) => e.closest('dialog'))")
    # And back to the numbers' screen by the bar's Tornar, still by switch.
    choose(page, ".educat-back", step)
    scanned(page, demo_server, "/educat/numbers")


# ---------------------------------------------------------------------------------------------------
# Every lesson fits the screen: no page scroll, the bar and the keys on screen, keys of 64 px at least.

LESSONS = ["numbers", "vowels", "alphabet", "conta-cops"]

LESSON_FIT = """
    const inside = (element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.top >= -0.5 && box.left >= -0.5 && box.bottom <= innerHeight + 0.5 && box.right <= innerWidth + 0.5;
    };
    const keys = [...document.querySelectorAll('.educat-key')];
    const grid = document.querySelector('.educat-grid');
    return {
      scroll: [document.scrollingElement.scrollWidth - innerWidth, document.scrollingElement.scrollHeight - innerHeight],
      bar: [...document.querySelectorAll('.educat-bar .educat-button')].every(inside),
      controls: [...document.querySelectorAll('.educat-controls .educat-button:not([hidden])')].every(inside),
      keys: keys.length, keysInside: keys.filter(inside).length,
      smallest: Math.round(Math.min(...keys.map((k) => Math.min(k.getBoundingClientRect().width, k.getBoundingClientRect().height)))),
      gridScrolls: grid ? grid.scrollHeight > grid.clientHeight + 1 : false,
      firstInside: keys.length ? inside(keys[0]) : true,
      cops: [...document.querySelectorAll('.educat-cops > :not([hidden]), .educat-cops .educat-question')]
        .filter((e) => e.getClientRects().length).every(inside),
    };"""


@pytest.mark.parametrize("width,height", [(360, 740), (768, 1024), (740, 360)])
def test_every_lesson_fits_the_screen(demo_server, page, screen, width, height):
    open_patient_mode(page, demo_server)
    screen.size(width, height)
    for area in LESSONS:
        page.get(demo_server.url + f"/educat/{area}/lesson")
        WebDriverWait(page, 5).until(lambda p: p.execute_script("return !!window.tagarelaAccess"))
        hold_clock(page)
        time.sleep(0.15)  # the keys are sized once the layout is known
        fit = page.execute_script(LESSON_FIT)
        where = f"{area} lesson at {width}×{height}: {fit}"
        assert fit["scroll"][0] <= 0 and fit["scroll"][1] <= 0, where
        assert fit["bar"] and fit["controls"], where
        if area == "conta-cops":
            page.find_element(By.CSS_SELECTOR, ".educat-question").click()
            advance(page, 1600)  # the picture, 1.5 s later the syllables, 3 s after that the count (the seed's timing)
            advance(page, 3100)
            WebDriverWait(page, 3).until(lambda p: p.find_element(By.CSS_SELECTOR, ".educat-count").is_displayed())
            fit = page.execute_script(LESSON_FIT)
            where = f"{area} lesson at {width}×{height}: {fit}"
            assert fit["scroll"][0] <= 0 and fit["scroll"][1] <= 0 and fit["cops"], where
            picture = page.find_element(By.CSS_SELECTOR, ".educat-picture img").size
            assert picture["height"] >= 96, where
        else:
            assert fit["keys"] == fit["keysInside"] and not fit["gridScrolls"], f"every key on screen: {where}"
            assert fit["smallest"] >= 64, where
        screenshot(page, f"educat-lesson-{area}-{width}x{height}.png")


def test_the_long_catalan_alphabet_fits_a_tablet_and_never_scrolls_the_page_of_a_phone(demo_server, page, screen):
    # Ana sets Carla's alphabet to lower case: 26 letters, ç, l·l, ny, the accented vowels, ï and ü (38 keys).
    log_in(page, demo_server, "ana")
    page.get(demo_server.url + "/patients/7/educat/settings")
    page.find_element(By.CSS_SELECTOR, "select[name=level-alphabet] option[value='3']").click()
    submit(page)
    page.delete_all_cookies()
    open_patient_mode(page, demo_server)
    for width, height, all_on_screen in [(768, 1024, True), (1024, 768, True), (1920, 1080, True), (360, 640, False),
                                         (640, 360, False)]:
        screen.size(width, height)
        page.get(demo_server.url + "/educat/alphabet/lesson")
        WebDriverWait(page, 5).until(lambda p: p.execute_script("return !!window.tagarelaAccess"))
        time.sleep(0.15)
        fit = page.execute_script(LESSON_FIT)
        where = f"38 letters at {width}×{height}: {fit}"
        assert fit["keys"] == 38, where
        assert fit["scroll"][0] <= 0 and fit["scroll"][1] <= 0 and fit["bar"] and fit["controls"], where
        assert fit["smallest"] >= 64, where
        if all_on_screen:
            assert fit["keysInside"] == 38 and not fit["gridScrolls"], where
        else:
            # Too many for 64 px keys: the keys' own box scrolls (as a wide board does), never the page,
            # and from its first letter: an overflowing box must not be centred (the top would be unreachable).
            assert fit["keysInside"] >= 12 and fit["gridScrolls"] and fit["firstInside"], where
    screenshot(page, "educat-lesson-alphabet-36-640x360.png")


# ---------------------------------------------------------------------------------------------------
# A new record is announced the moment it is beaten, once; the end does not announce it again.

def carlas_first_numbers_challenge(page, server, screen):
    """On a phone, the clock held. Her record is 0, so her first hit beats it. Returns the game's root."""
    open_patient_mode(page, server)
    screen.size(360, 740)
    visit(page, server, "/educat/numbers/challenge")
    hold_clock(page)
    return page.find_element(By.ID, "educat")


def heard(page):
    return page.execute_script("return window.tagarelaEducat.heard.slice()")


def test_a_new_record_is_celebrated_aloud_when_it_is_beaten_and_not_again_at_the_end(demo_server, page, screen):
    root = carlas_first_numbers_challenge(page, demo_server, screen)
    celebration, record_clip = root.get_attribute("data-celebration"), root.get_attribute("data-new-record-clip")
    game_over_clip = root.get_attribute("data-game-over-clip")
    praise = set(page.execute_script("return [...document.querySelectorAll('[data-kind=congratulation]')].map(li => li.dataset.clip)"))
    banner = page.find_element(By.CSS_SELECTOR, ".educat-celebration:not(.educat-level-up)")
    assert not banner.is_displayed()

    # Carla's first numbers challenge: the record is 0, so her first hit beats it, there and then.
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    item(page, state(page)["target"]).click()
    assert played(page)[-1] == celebration, "the fanfare instead of the praise…"
    WebDriverWait(page, 15).until(lambda p: played(p)[-1] == record_clip), "…then 'nou record!!' said aloud"
    assert played(page)[-2] == celebration
    assert banner.is_displayed() and "NOU RECORD" in banner.text
    assert state(page)["recordAnnounced"] and page.find_element(By.CSS_SELECTOR, ".educat-record").text == "1"
    # The record clip really plays: the voice's <audio> element fires "playing" on it, mid-game.
    WebDriverWait(page, 15).until(lambda p: any(url.endswith(record_clip) for url in heard(p)))
    assert state(page)["phase"] == "asking", "still mid-game"
    screenshot(page, "educat-record-celebration-360x740.png")
    advance(page, 1300)
    assert state(page)["target"] is None, "the next question waits for the celebration"
    advance(page, 2400)
    assert state(page)["target"] is not None
    assert not banner.is_displayed()

    # The next hit is praised as usual: celebrated once a game.
    count = played(page).count(celebration)
    item(page, state(page)["target"]).click()
    assert played(page)[-1] in praise and played(page).count(celebration) == count
    advance(page, 1300)
    for _ in range(3):
        wrong_item(page).click()
        advance(page, 1300)
    end_dialog(page)
    WebDriverWait(page, 20).until(lambda p: played(p)[-1] == record_clip)
    assert played(page).count(celebration) == count, "no second fanfare"
    assert played(page).count(record_clip) == 2, "said when beaten, and at the end with the seed's words"
    assert end_dialog(page) == ("NOU RECORD!!", "Felicitats!!")
    dialog = page.find_element(By.CSS_SELECTOR, ".educat-end")
    assert "is-record" in dialog.get_attribute("class"), "the pop-up keeps its gold and stars"
    WebDriverWait(page, 5).until(lambda p: state(p)["response"] is not None)
    assert state(page)["response"]["record"] == "2"
    page.find_element(By.CSS_SELECTOR, ".educat-end-ok").click()

    # A challenge left half-way after its record was celebrated says so in what it sends as the page
    # goes (the server then keeps the record the child was shown: EduCATAnnouncedRecordTests).
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    for _ in range(3):
        item(page, state(page)["target"]).click()
        advance(page, 3700)
    assert state(page)["recordAnnounced"] and state(page)["hits"] == 3
    page.find_element(By.CSS_SELECTOR, ".educat-back").click()
    WebDriverWait(page, 5).until(lambda p: path_of(p) == "/educat/numbers")
    # The result went into the patient's queue as the page went, and arrives (once) from there.
    def stored(_):
        with sqlite3.connect(os.path.join(demo_server.data_dir, "db", "tagarela.sqlite")) as db:
            return db.execute("SELECT count(*) FROM educatResult WHERE area = 'numbers' AND mode = 'challenge' "
                              "AND hits = 3 AND livesLeft = 3").fetchone()[0]
    WebDriverWait(page, 20).until(lambda p: stored(p) == 1)


def test_a_record_beaten_while_the_question_is_still_loading_gets_its_fanfare_in_full_then_the_record(demo_server, page, screen):
    # A quick child taps the right number while the question's clip is still loading: that clip is
    # cut short (its play() fails with AbortError), which must not skip the fanfare that cut it.
    root = carlas_first_numbers_challenge(page, demo_server, screen)
    celebration, record_clip = root.get_attribute("data-celebration"), root.get_attribute("data-new-record-clip")
    question_clip = page.execute_script("""
        document.querySelector('.educat-question').click();
        const target = document.querySelector(`.educat-item[data-item='${window.tagarelaEducat.state().target}']`);
        target.click();
        return target.dataset.clip;""")
    assert played(page)[-2:] == [question_clip, celebration]
    WebDriverWait(page, 15).until(lambda p: any(url.endswith(record_clip) for url in heard(p)))
    assert played(page)[-3:] == [question_clip, celebration, record_clip]
    order = [url.rsplit("/", 1)[1] for url in heard(page)]
    assert order[-2:] == [celebration.rsplit("/", 1)[1], record_clip.rsplit("/", 1)[1]], \
        f"the fanfare is heard, then the record ({order})"
    assert question_clip.rsplit("/", 1)[1] not in order, "the question's clip was cut before it played"


def test_a_fanfare_whose_file_is_missing_does_not_hold_back_the_record_said_after_it(demo_server, page, screen):
    root = carlas_first_numbers_challenge(page, demo_server, screen)
    record_clip = root.get_attribute("data-new-record-clip")
    page.execute_script("arguments[0].dataset.celebration = '/media/audio/no-such-fanfare.mp3'", root)
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    item(page, state(page)["target"]).click()
    WebDriverWait(page, 15).until(lambda p: any(url.endswith(record_clip) for url in heard(p)))
    assert played(page)[-2:] == ["/media/audio/no-such-fanfare.mp3", record_clip]
    assert [url for url in heard(page) if "no-such-fanfare" in url] == []
