"""Voices better than espeak-ng (issue 54, item 5; docs/voices.md): a clinician chooses one of the voices
installed on the server for a patient, the choice survives a reload, and the child's board plays its
words in that voice: a clip of its own (another URL than espeak-ng's), which the browser really plays.
`make test` installs Festival's Catalan voice (scripts/install-voices --free), so at least one voice
other than espeak-ng is always tried here; the non-free ones are tried wherever they are installed."""
import json
import os
import sqlite3
import tempfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in
from test_board_fit import CARLA, DAVI, patient_mode
from test_sentence import choose as choose_word, clip_file, open_builder, played

SCREENS = os.environ.get("TAGARELA_SCREENS")

# The voices of Sources/Tagarela/AAC/SpeechVoices.swift, each with the files that make it installed and
# a board in its language.
VOICES = {
    "festival-ca": (["/usr/bin/text2wave", "/usr/share/festival/voices/catalan/upc_ca_ona_hts"], "ca", ["bon dia", "vull aigua"]),
    "pico-es": (["/usr/bin/pico2wave", "/usr/share/pico/lang/es-ES_zl0_sg.bin"], "es", ["buenos días", "quiero agua"]),
    "rhvoice-pt-br": (["/usr/bin/RHVoice-test", "/usr/share/RHVoice/voices/Leticia-F123"], "pt-BR", ["bom dia", "quero água"]),
}
INSTALLED = sorted(name for name, (files, _, _) in VOICES.items() if all(os.path.exists(f) for f in files))

# Records the source of every clip that reaches "playing" (the player's clips are `new Audio`, outside the page).
WATCH_PLAYING = """
if (!window.playedClips) {
  window.playedClips = [];
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    this.addEventListener('playing', () => window.playedClips.push(new URL(this.currentSrc).pathname), {once: true});
    return play.call(this);
  };
}"""


def board_file(language, words):
    board = {"format": "open-board-0.1", "id": f"voices-{language}", "locale": language, "name": f"Vozes {language}",
             "buttons": [{"id": f"w{n}", "label": word} for n, word in enumerate(words)],
             "grid": {"rows": 1, "columns": len(words), "order": [[f"w{n}" for n in range(len(words))]]}}
    path = os.path.join(tempfile.mkdtemp(prefix="voices-"), f"voices-{language}.obf")
    with open(path, "w", encoding="utf-8") as file:
        json.dump(board, file, ensure_ascii=False)
    return path


def clip_urls(page, server, plans, words):
    """Opens the child's board holding `words`; answers each word's clip URL."""
    for path in plans:
        page.get(server.url + path)
        cells = {cell.get_attribute("data-label"): cell.get_attribute("data-audio")
                 for cell in page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")}
        if all(word in cells for word in words):
            return {word: cells[word] for word in words}
    raise AssertionError(f"no board of {plans} says {words}")


def choose(page, server, voice, patient=DAVI):
    page.get(f"{server.url}/patients/{patient}/access")
    page.find_element(By.CSS_SELECTOR, f"input[name=voice][value='{voice}']").click()
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".access-form button[type=submit]"))


def checked_voice(page):
    return [radio.get_attribute("value") for radio in page.find_elements(By.CSS_SELECTOR, "input[name=voice]") if radio.is_selected()]


def test_a_clinician_chooses_each_installed_voice_and_the_board_plays_it(demo_server, page):
    assert "festival-ca" in INSTALLED, "make test installs Festival's Catalan voice (scripts/install-voices --free)"
    boards = {language: words for _, language, words in VOICES.values()}
    log_in(page, demo_server, "ana")
    for language, words in boards.items():
        page.get(f"{demo_server.url}/patients/{DAVI}/boards/import")
        page.find_element(By.ID, "file").send_keys(board_file(language, words))
        page.find_element(By.ID, "import-submit").click()
        WebDriverWait(page, 120).until(lambda p: "/obf/imports/" in p.current_url)

    # The clinician is offered espeak-ng and exactly the voices installed here.
    page.get(f"{demo_server.url}/patients/{DAVI}/access")
    offered = [radio.get_attribute("value") for radio in page.find_elements(By.CSS_SELECTOR, "input[name=voice]")]
    assert offered[0] == "espeak" and sorted(offered[1:]) == INSTALLED, offered
    assert checked_voice(page) == ["espeak"]
    assert page.find_elements(By.ID, "voice-gone") == []

    page.delete_all_cookies()
    plans = patient_mode(page, demo_server, "beatriz", DAVI)
    espeak = {language: clip_urls(page, demo_server, plans, words) for language, words in boards.items()}

    for voice in INSTALLED:
        _, language, words = VOICES[voice]
        page.delete_all_cookies()
        log_in(page, demo_server, "ana")
        choose(page, demo_server, voice)
        assert checked_voice(page) == [voice]
        page.refresh()
        assert checked_voice(page) == [voice], "the choice survives a reload"
        if SCREENS and voice == "festival-ca":
            page.set_window_size(768, 1024)
            page.execute_script("document.getElementById('voice-hint').scrollIntoView()")
            page.save_screenshot(os.path.join(SCREENS, "voices-choice-768x1024.png"))
        assert serious_accessibility_violations(page) == []

        page.delete_all_cookies()
        plans = patient_mode(page, demo_server, "beatriz", DAVI)
        urls = clip_urls(page, demo_server, plans, words)
        for word in words:
            assert urls[word] != espeak[language][word], f"{word}: a clip of its own in {voice}"
            status, kind, size = page.execute_script(
                "return fetch(arguments[0]).then((r) => r.blob().then((b) => [r.status, r.headers.get('Content-Type'), b.size]))",
                urls[word])
            assert status == 200 and kind.startswith("audio/mpeg") and size > 1000, (word, status, kind, size)
        # Words in other languages keep espeak-ng.
        others = [lang for lang in boards if lang != language]
        assert clip_urls(page, demo_server, plans, boards[others[0]]) == espeak[others[0]]

        clip_urls(page, demo_server, plans, words)
        page.execute_script(WATCH_PLAYING)
        cell = page.find_element(By.CSS_SELECTOR, f".board .cell[data-label='{words[1]}']")
        ActionChains(page).move_to_element(cell).click().perform()
        WebDriverWait(page, 10).until(lambda p: urls[words[1]] in p.execute_script("return window.playedClips"))


def test_a_sentence_said_in_patient_mode_plays_the_chosen_voice(demo_server, page):
    """The sentence builder speaks as the board does: each word, and the whole sentence's clip, in the voice."""
    festival = "festival:voice_upc_ca_ona_hts"
    # Carla's sentence plan made Catalan (its first word's language is the plan's): eu, quero, brincar.
    with sqlite3.connect(os.path.join(demo_server.data_dir, "db", "tagarela.sqlite")) as db:
        spoken = dict(db.execute("""
            SELECT symbol.name, symbol.spokenText FROM sentenceWord JOIN symbol ON symbol.id = sentenceWord.symbolId
            JOIN plan ON plan.id = sentenceWord.planId WHERE plan.patientId = ? AND plan.type = 'sentence'
              AND symbol.name IN ('eu', 'quero', 'brincar')""", (CARLA,)).fetchall())
        db.execute("""UPDATE symbol SET voice = 'ca', audioKind = 'generated' WHERE id IN (
            SELECT symbolId FROM sentenceWord JOIN plan ON plan.id = sentenceWord.planId
            WHERE plan.patientId = ? AND plan.type = 'sentence') AND name IN ('eu', 'quero', 'brincar')""", (CARLA,))
    assert sorted(spoken) == ["brincar", "eu", "quero"]
    log_in(page, demo_server, "ana")
    choose(page, demo_server, "festival-ca", CARLA)
    assert checked_voice(page) == ["festival-ca"]

    page.delete_all_cookies()
    open_builder(page, demo_server, "bruno", "Carla")
    negation = page.find_element(By.ID, "sentence-player").get_attribute("data-negation-audio")
    assert negation.endswith(clip_file("no", festival)), negation
    heard = [choose_word(page, word) for word in ["eu", "quero", "brincar"]]
    assert heard[0].endswith(clip_file(spoken["eu"], festival)), heard
    assert heard[2].endswith(clip_file(spoken["brincar"], festival)), heard
    # The whole sentence's clip is made while the words are chosen (Festival takes seconds): wait for it, then speak.
    key = page.execute_script("return window.tagarelaSentence.sentenceKey()")
    WebDriverWait(page, 90).until(lambda p: p.execute_script("return window.tagarelaSentence.knownClips.get(arguments[0])", key))
    whole = page.execute_script("return window.tagarelaSentence.knownClips.get(arguments[0])", key)
    assert whole.endswith(clip_file("Eu quero brincar", festival)), whole
    before = len(played(page))
    page.execute_script("window.scrollTo(0, 0)")
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()
    WebDriverWait(page, 15).until(lambda p: len(played(p)) > before)
    assert played(page)[before] == whole, "the whole sentence, in the voice"
    # Logged: the tap waits on the media pool behind the slow voice's other clips (Festival: seconds each).
    WebDriverWait(page, 90).until(lambda p: p.execute_script("return window.tagarelaSentence.queueLength()") == 0)
