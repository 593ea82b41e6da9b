"""The sentence builder in patient mode: each step offers only what the word before allows, every
chosen word is heard, and "speak" plays the words in order the first time and the whole sentence's
own clip the next."""
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
    """Taps a word and waits until its own clip is playing."""
    target = cell(page, label)
    audio = target.get_attribute("data-audio")
    before = len(played(page))
    target.click()
    WebDriverWait(page, 5).until(lambda p: audio in played(p)[before:])


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
    assert speak_and_wait(page, 3) == words, "never said before: the words, in order"
    key = page.execute_script("return window.tagarelaSentence.sentenceKey()")
    whole = page.execute_script("return window.tagarelaSentence.knownClips.get(arguments[0])", key)
    assert whole and whole not in words, "the server made the whole sentence's clip"
    assert speak_and_wait(page, 1) == [whole], "said before: one clip for the whole sentence"

    # Back removes the last word and offers its step again; a verb with no complements ends the sentence.
    page.find_element(By.CSS_SELECTOR, ".strip-backspace").click()
    page.find_element(By.CSS_SELECTOR, ".strip-backspace").click()
    assert shown(page) == ["quero", "estou", "terminei"]
    choose(page, "terminei")
    assert shown(page) == [], "the complement step is skipped"


def test_yo_no_quiero_comer_as_a_question(demo_server, page):
    davi = open_builder(page, demo_server, "beatriz", "Davi")
    negation = page.find_element(By.ID, "sentence-player").get_attribute("data-negation-audio")
    choose(page, "yo")
    page.find_element(By.CSS_SELECTOR, ".sentence-no").click()
    assert page.find_element(By.CSS_SELECTOR, ".sentence-no").get_attribute("aria-pressed") == "false", "no verb yet"
    choose(page, "quiero")
    page.find_element(By.CSS_SELECTOR, ".sentence-no").click()
    choose(page, "comer")
    page.find_element(By.CSS_SELECTOR, ".sentence-question").click()
    assert page.find_element(By.CSS_SELECTOR, ".sentence-no").get_attribute("aria-pressed") == "true"
    assert len(page.find_elements(By.CSS_SELECTOR, ".strip-word.is-negated")) == 1, "the verb is crossed"
    marks = [mark.text for mark in page.find_elements(By.CSS_SELECTOR, ".strip-mark")]
    assert marks == ["¿", "?"]
    assert serious_accessibility_violations(page) == []

    words = [cell(page, "yo").get_attribute("data-audio"), negation, cell(page, "quiero").get_attribute("data-audio"),
             cell(page, "comer").get_attribute("data-audio")]
    assert speak_and_wait(page, 4) == words, "'no' is said before the verb"

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
