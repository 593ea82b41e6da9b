"""A child's board in patient mode: three taps speak at once, fill the sentence strip and reach
the tutor's usage history."""
import statistics
import time
from types import SimpleNamespace

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import PLAIN_HTTP_HOST, serious_accessibility_violations
from test_accounts import click_and_wait, log_in, open_carlas_board, path_of, submit
from test_offline import server_gets


def test_three_taps_play_their_clips_fill_the_strip_and_are_logged(demo_server, page):
    carla = open_carlas_board(page, demo_server)
    assert path_of(page).startswith("/play/")
    WebDriverWait(page, 10).until(lambda p: p.execute_script(
        "return Array.from(document.querySelectorAll('.cell[data-audio]')).length >= 3"))
    assert serious_accessibility_violations(page) == []

    cells = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:3]
    labels = [cell.get_attribute("data-label") for cell in cells]
    for cell in cells:
        ActionChains(page).move_to_element(cell).click().perform()
        time.sleep(0.4)

    strip = [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]
    assert strip == labels
    # One latency per tap, measured from the press to the clip's own "playing" event: each clip played.
    latencies = page.execute_script("return window.tagarelaLatencies || []")
    assert len(latencies) == 3, latencies
    assert all(0 < latency < 500 for latency in latencies), latencies
    page.execute_script("window.scrollTo(0, 0)")  # the strip is sticky: the buttons sit just under it
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()  # the whole sentence, logged as one
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)
    print(f"\ntap-to-playing latency: median {statistics.median(latencies):.1f} ms, all {[round(x, 1) for x in latencies]}")

    # Leave patient mode with the tutor's password and read the usage history.
    page.get(demo_server.url + "/patient-mode/exit")
    page.find_element(By.ID, "password").send_keys("ola-tagarela")
    submit(page)
    page.get(carla + "/usage")
    rows = [row.text for row in page.find_elements(By.CSS_SELECTOR, "table tbody tr")][:3]
    assert [label for label in labels if any(label in row for row in rows)] == labels
    assert all("Bruno Costa" in row for row in rows)
    sentences = [item.text for item in page.find_elements(By.CSS_SELECTOR, "#sentences-title + ol li strong")]
    assert " ".join(labels) in sentences


def test_a_clinician_records_a_symbols_voice_in_the_browser(demo_server, page):
    log_in(page, demo_server, "ana")
    page.get(demo_server.url + "/symbols/new?pictogram=1F6B0&name=%C3%A1gua")
    assert page.find_element(By.ID, "name").get_attribute("value") == "água"
    page.find_element(By.ID, "name").clear()
    page.find_element(By.ID, "name").send_keys("água fresquinha")
    page.find_element(By.CSS_SELECTOR, "#categoryId option:nth-child(2)").click()
    page.find_element(By.CSS_SELECTOR, ".recorder-start").click()
    WebDriverWait(page, 12).until(lambda p: p.find_element(By.CSS_SELECTOR, ".recorder-playback").is_displayed())
    assert page.execute_script("return document.getElementById('audio').files.length") == 1
    click_and_wait(page, page.find_element(By.XPATH, "//form[@enctype='multipart/form-data']//button[@type='submit']"))
    assert page.find_element(By.CSS_SELECTOR, ".flash").text.startswith("Símbolo criado")
    card = [c for c in page.find_elements(By.CSS_SELECTOR, ".symbol-card") if "água fresquinha" in c.text][0]
    play = card.find_element(By.CSS_SELECTOR, "button.symbol-play")
    assert "/media/audio/rec-" in play.get_attribute("data-audio"), "the recording, normalised by the server, is the symbol's voice"
    assert card.find_elements(By.TAG_NAME, "audio") == [], "one visible button, not the browser's audio control"
    assert play.accessible_name == "Ouvir: água fresquinha"
    assert play.size["height"] >= 44 and play.size["width"] <= card.size["width"]
    play.click()
    WebDriverWait(page, 5).until(lambda p: p.execute_script("return window.tagarelaSymbolPlayed") == [play.get_attribute("data-audio")])


def test_taps_made_after_the_session_ended_wait_for_the_next_session(demo_server, page):
    open_carlas_board(page, demo_server)
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaPlayer"))

    page.delete_cookie("tagarela_session")  # the tablet slept past the session's lifetime
    page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[0].click()
    page.execute_script("return window.tagarelaPlayer.flush()")
    assert page.execute_script("return window.tagarelaPlayer.queueLength()") == 1, "a refused tap stays queued"


def test_on_plain_http_the_board_reads_its_clips_ahead_once_and_a_tap_fetches_nothing_more(demo_server, page):
    """A clinic's network without https has no service worker to keep the clips: the board reads them into
    the browser's cache as it opens (its players load nothing until played), and a tap plays from there."""
    plain = SimpleNamespace(url=f"http://{PLAIN_HTTP_HOST}:{demo_server.port}")
    before = server_gets(demo_server)
    open_carlas_board(page, plain)
    assert page.execute_script("return window.isSecureContext || 'serviceWorker' in navigator") is False
    clips = {cell.get_attribute("data-audio") for cell in page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")}
    assert len(clips) >= 3

    def fetched_since(counts):
        now = server_gets(demo_server)
        return {clip: now.get(clip, 0) - counts.get(clip, 0) for clip in clips}
    WebDriverWait(page, 10).until(lambda p: all(n == 1 for n in fetched_since(before).values()))

    for cell in page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:3]:
        ActionChains(page).move_to_element(cell).click().perform()
    WebDriverWait(page, 10).until(lambda p: len(p.execute_script("return window.tagarelaLatencies")) == 3)
    assert fetched_since(before) == {clip: 1 for clip in clips}, "each clip fetched once, when the board opened"


def test_a_double_tap_while_its_clip_still_loads_says_it_and_counts_both_taps(demo_server, page):
    """Clips load when first played: a second tap of the same cell can come while the first is still loading,
    which cuts the first play short. The word must still be said, and both taps are in the strip and the log."""
    carla = open_carlas_board(page, demo_server)
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaPlayer"))
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    first, other = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:2]
    label, other_label = first.get_attribute("data-label"), other.get_attribute("data-label")
    # Both taps in one task (as a switch interface's two presses can come): the first play has no data yet.
    cut_short = page.execute_script("""
        const outcomes = [];
        const play = HTMLMediaElement.prototype.play;
        HTMLMediaElement.prototype.play = function () {
          return play.call(this).catch((error) => { outcomes.push(error.name); throw error; });
        };
        arguments[0].click();
        arguments[0].click();
        return new Promise((resolve) => setTimeout(() => resolve(outcomes), 500));""", first)
    assert cut_short == ["AbortError"], cut_short
    WebDriverWait(page, 10).until(lambda p: len(p.execute_script("return window.tagarelaLatencies")) == 1)
    ActionChains(page).move_to_element(other).click().perform()
    WebDriverWait(page, 10).until(lambda p: len(p.execute_script("return window.tagarelaLatencies")) == 2)
    assert [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")] == \
        [label, label, other_label]
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)

    # The tutor's usage history has the three taps: two of the first word, one of the other.
    page.get(demo_server.url + "/patient-mode/exit")
    page.find_element(By.ID, "password").send_keys("ola-tagarela")
    submit(page)
    page.get(carla + "/usage")
    rows = [row.text for row in page.find_elements(By.CSS_SELECTOR, "table tbody tr")][:3]
    assert all(label in row or other_label in row for row in rows), rows
    assert sum(other_label in row for row in rows) == 1, rows
    assert sum(label in row and other_label not in row for row in rows) == 2, rows
