"""A child's board says the agreeing form: "eu" then "querer" shows and plays "quero", "mamãe" then
"querer" plays "quer", and a verb after a verb is its own infinitive (issue 19)."""
import json
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_accounts import open_carlas_board, path_of

# Every clip the page starts, by its src, in order.
RECORD_PLAYS = """
window.playedClips = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () { window.playedClips.push(this.src); return play.call(this); };
"""


def cell(page, label):
    return page.find_element(By.CSS_SELECTOR, f".board .cell[data-label='{label}']")


def tap(page, label):
    ActionChains(page).move_to_element(cell(page, label)).click().perform()
    time.sleep(0.4)


def strip(page):
    return [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]


def test_the_board_strip_shows_and_plays_the_form_that_agrees(demo_server, page):
    open_carlas_board(page, demo_server, "Meu dia")
    assert path_of(page).startswith("/play/")
    WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, ".cell[data-label='querer'][data-word]"))
    forms = json.loads(cell(page, "querer").get_attribute("data-word"))["f"]
    page.execute_script(RECORD_PLAYS)
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()

    tap(page, "eu")
    tap(page, "querer")
    assert strip(page) == ["eu", "quero"]
    played = page.execute_script("return window.playedClips")
    assert played[-1].endswith(forms["1s"][1]), (played, forms["1s"])
    assert cell(page, "querer").text == "querer", "the board itself still shows the symbol's own word"

    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    tap(page, "mamãe")
    tap(page, "querer")
    tap(page, "comer")
    assert strip(page) == ["mamãe", "quer", "comer"], "after a noun the third person; after a verb the infinitive"
    played = page.execute_script("return window.playedClips")
    assert played[-2].endswith(forms["3s"][1]), (played, forms["3s"])
    assert played[-1].endswith(cell(page, "comer").get_attribute("data-audio")), "the infinitive is the symbol's own clip"

    # Speak plays the forms in order, and the sentence reaches the server as said.
    page.execute_script("window.scrollTo(0, 0); window.playedClips = []")
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()
    WebDriverWait(page, 15).until(lambda p: len(p.execute_script("return window.playedClips")) >= 3)
    played = page.execute_script("return window.playedClips")
    assert played[1].endswith(forms["3s"][1]), played
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)

    # A reload keeps the strip as it was said (a folder, Back and Home are page loads).
    page.refresh()
    WebDriverWait(page, 10).until(lambda p: len(strip(p)) == 3)
    assert strip(page) == ["mamãe", "quer", "comer"]


# Before the player reads the board, the first-person form of "querer" is given a clip that does not exist.
MISSING = "/media/audio/" + "0" * 32 + ".mp3"
MISSING_FORM = """
new MutationObserver((_, observer) => {
  const cell = document.querySelector(".board .cell[data-label='querer'][data-word]");
  if (!cell) return;
  const word = JSON.parse(cell.dataset.word);
  word.f["1s"][1] = "%s";
  cell.dataset.word = JSON.stringify(word);
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
""" % MISSING


def test_a_form_whose_clip_is_missing_says_the_symbols_own_clip_when_tapped_and_when_spoken(demo_server, page):
    # The clips are made with preload "none": a missing clip is found out only when it is played.
    open_carlas_board(page, demo_server, "Meu dia")
    WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, ".cell[data-label='querer'][data-word]"))
    own = demo_server.url + cell(page, "querer").get_attribute("data-audio")
    missing = demo_server.url + MISSING
    page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MISSING_FORM})
    page.refresh()
    WebDriverWait(page, 10).until(lambda p: MISSING in p.find_element(By.CSS_SELECTOR, ".cell[data-label='querer']").get_attribute("data-word"))
    page.execute_script(RECORD_PLAYS)
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()

    tap(page, "eu")
    tap(page, "querer")
    WebDriverWait(page, 10).until(lambda p: own in p.execute_script("return window.playedClips"))
    played = page.execute_script("return window.playedClips")
    assert played[-2:] == [missing, own], played
    assert strip(page) == ["eu", "quero"], "the strip still shows the form"
    latencies = page.execute_script("return window.tagarelaLatencies")
    assert len(latencies) == 2 and all(0 < latency < 500 for latency in latencies), latencies

    # On a new page the missing clip is not known yet: the sentence tries it, says the own clip, and goes on.
    page.refresh()
    WebDriverWait(page, 10).until(lambda p: strip(p) == ["eu", "quero"])
    page.execute_script(RECORD_PLAYS)
    page.execute_script("window.scrollTo(0, 0)")
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()
    WebDriverWait(page, 15).until(lambda p: own in p.execute_script("return window.playedClips"))
    played = page.execute_script("return window.playedClips")
    assert played[1:] == [missing, own], played
