"""The sentence builder in patient mode: each step offers only what the word before allows, in the
form that agrees with the subject ("você quer"), every chosen word is heard, and "speak" plays the
whole sentence's own clip, made while the words were chosen: a question sounds like one the first time."""
import hashlib
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, submit


def open_builder(page, server, tutor, child):
    log_in(page, server, tutor)
    page.get(server.url + "/tutor")
    patient = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".person h3 a") if child in a.text][0]
    page.get(patient + "/plans")
    click_and_wait(page, page.find_elements(By.XPATH, "//li[.//strong[text()='Frases']]//button")[0])
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaSentence"))
    return patient


def shown(page):
    return [cell.get_attribute("data-label") for cell in page.find_elements(By.CSS_SELECTOR, ".sentence-choices .cell")
            if cell.is_displayed()]


def cell(page, label):
    return page.find_element(By.CSS_SELECTOR, f".sentence-choices .cell[data-label='{label}']")


def played(page):
    return page.execute_script("return window.tagarelaSentence.played.slice()")


def choose(page, label):
    """Taps a word and waits until its clip (its own, or its agreeing form's) is playing."""
    target = cell(page, label)
    before = len(played(page))
    target.click()
    WebDriverWait(page, 5).until(lambda p: len(played(p)) > before)
    return played(page)[before]


def clip_file(text, voice):
    """The file name SpeechAudio gives the clip of `text` in `voice` (content address, cache v1)."""
    return hashlib.sha256(f"v1\n{voice}\n{text}".encode()).hexdigest()[:32] + ".mp3"


def speak_once(page):
    """Presses speak and returns every clip that played within the next two seconds after the first."""
    before = len(played(page))
    page.execute_script("window.scrollTo(0, 0)")
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()
    WebDriverWait(page, 15).until(lambda p: len(played(p)) > before)
    import time
    time.sleep(2)
    return played(page)[before:]


def speak_and_wait(page, count):
    before = len(played(page))
    page.execute_script("window.scrollTo(0, 0)")
    page.find_element(By.CSS_SELECTOR, ".strip-speak").click()
    WebDriverWait(page, 15).until(lambda p: len(played(p)) >= before + count)
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaSentence.queueLength()") == 0)
    return played(page)[before:before + count]


def test_eu_quero_brincar_is_built_step_by_step_and_heard(demo_server, page):
    open_builder(page, demo_server, "bruno", "Carla")
    assert serious_accessibility_violations(page) == []
    assert shown(page) == ["eu", "você", "quero", "estou"], "subjects and the two shortcuts open a sentence"

    choose(page, "eu")
    assert shown(page) == ["quero", "estou", "terminei"]
    choose(page, "quero")
    assert shown(page) == ["brincar", "comer", "beber", "dormir"]
    choose(page, "brincar")
    assert shown(page) == [], "nothing follows a complement"
    assert page.find_element(By.CSS_SELECTOR, "#sentence-player").get_attribute("data-step") == "done"
    strip = [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]
    assert strip == ["eu", "quero", "brincar"]

    words = [cell(page, label).get_attribute("data-audio") for label in ["eu", "quero", "brincar"]]
    assert speak_and_wait(page, 1)[0].endswith(clip_file("Eu quero brincar", "pt-br")), "one clip for the whole sentence"
    key = page.execute_script("return window.tagarelaSentence.sentenceKey()")
    whole = page.execute_script("return window.tagarelaSentence.knownClips.get(arguments[0])", key)
    assert whole and whole not in words, "the server made the whole sentence's clip"
    assert speak_and_wait(page, 1) == [whole], "and again"

    # Back removes the last word and offers its step again; a verb with no complements ends the sentence.
    page.find_element(By.CSS_SELECTOR, ".strip-backspace").click()
    page.find_element(By.CSS_SELECTOR, ".strip-backspace").click()
    assert shown(page) == ["quero", "estou", "terminei"]
    choose(page, "terminei")
    assert shown(page) == [], "the complement step is skipped"


def test_yo_no_quiero_comer_as_a_question(demo_server, page):
    davi = open_builder(page, demo_server, "beatriz", "Davi")
    negation = page.find_element(By.ID, "sentence-player").get_attribute("data-negation-audio")
    assert page.find_element(By.CSS_SELECTOR, ".sentence-no").get_attribute("disabled") is not None, "nothing to negate yet"
    choose(page, "yo")
    # In speaking order (issue 54, item 6): NO right after the subject waits for the verb.
    page.find_element(By.CSS_SELECTOR, ".sentence-no").click()
    assert page.find_element(By.CSS_SELECTOR, ".sentence-no").get_attribute("aria-pressed") == "true"
    assert [mark.text for mark in page.find_elements(By.CSS_SELECTOR, ".strip-mark")] == ["NO"], "shown after yo"
    choose(page, "quiero")
    assert page.find_elements(By.CSS_SELECTOR, ".strip-mark") == [], "now it belongs to the verb"
    choose(page, "comer")
    page.find_element(By.CSS_SELECTOR, ".sentence-question").click()
    assert page.find_element(By.CSS_SELECTOR, ".sentence-no").get_attribute("aria-pressed") == "true"
    assert len(page.find_elements(By.CSS_SELECTOR, ".strip-word.is-negated")) == 1, "the verb is crossed"
    marks = [mark.text for mark in page.find_elements(By.CSS_SELECTOR, ".strip-mark")]
    assert marks == ["¿", "?"]
    assert serious_accessibility_violations(page) == []

    heard = speak_once(page)
    assert len(heard) == 1 and heard[0].endswith(clip_file("¿Yo no quiero comer?", "es")), \
        f"the first time: one clip, the negated question's own ({heard})"
    assert negation not in heard

    page.get(demo_server.url + "/patient-mode/exit")
    page.find_element(By.ID, "password").send_keys("ola-tagarela")
    submit(page)
    page.get(davi + "/usage")
    sentences = [item.text for item in page.find_elements(By.CSS_SELECTOR, "#sentences-title + ol li strong")]
    assert "¿Yo no quiero comer?" in sentences


def test_a_sentence_is_built_by_linear_scanning_with_only_the_space_key(demo_server, page):
    from test_access import set_access, step_until
    set_access(page, demo_server, scanning="linear", switches="one", scanSeconds="1")
    page.get(demo_server.url + "/patients/7/plans")
    click_and_wait(page, page.find_elements(By.XPATH, "//li[.//strong[text()='Frases']]//button")[0])
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaAccess && !!window.tagarelaSentence"))
    page.execute_script("window.fakeNow = Date.now(); window.tagarelaClock = () => window.fakeNow;")

    for label in ["eu", "quero", "brincar"]:
        target = cell(page, label)
        step_until(page, lambda marked: marked == [target], 1000)
        before = len(played(page))
        ActionChains(page).send_keys(Keys.SPACE).perform()
        WebDriverWait(page, 5).until(lambda p: target.get_attribute("data-audio") in played(p)[before:])
    strip = [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]
    assert strip == ["eu", "quero", "brincar"]
    assert all(not c.is_displayed() for c in page.find_elements(By.CSS_SELECTOR, ".sentence-choices .cell")), \
        "the scan offers only what may follow: after a complement, nothing"
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaSentence.queueLength()") == 0)


def test_the_first_question_plays_one_clip_the_question_clip_with_the_agreeing_verb(demo_server, page):
    open_builder(page, demo_server, "bruno", "Carla")
    choose(page, "você")
    labels = [c.find_element(By.CSS_SELECTOR, ".cell-label").text for c in page.find_elements(By.CSS_SELECTOR, ".sentence-choices .cell")
              if c.is_displayed()]
    assert labels == ["quer", "está", "terminou"], "offered in the form that agrees with você"
    heard = choose(page, "quero")
    assert heard.endswith(clip_file("quer", "pt-br")), "the agreeing form is heard"
    choose(page, "brincar")
    page.find_element(By.CSS_SELECTOR, ".sentence-question").click()
    strip = [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]
    assert strip == ["você", "quer", "brincar", "?"]
    heard = speak_once(page)
    assert len(heard) == 1, f"one clip, not the words one by one ({heard})"
    assert heard[0].endswith(clip_file("Você quer brincar?", "pt-br")), "the question's own clip, with its tune"
    assert serious_accessibility_violations(page) == []
