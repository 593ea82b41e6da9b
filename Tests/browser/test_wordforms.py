"""Word forms on the symbol page: the lexicon's forms offered, a correction saved and then heard in the
builder; the pictogram search in the patients' languages; screenshots at a phone's and a desktop's size."""
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in
from test_board_fit import screen  # noqa: F401 (fixture)
from test_sentence import choose, open_builder

SHOTS = "/tmp/screens"


def shot(page, name):
    os.makedirs(SHOTS, exist_ok=True)
    page.save_screenshot(f"{SHOTS}/{name}.png")


def open_symbol(page, server, name):
    page.get(server.url + "/symbols?q=" + name)
    link = [a for a in page.find_elements(By.CSS_SELECTOR, "main a") if a.text == name][0]
    link.click()
    WebDriverWait(page, 10).until(lambda p: p.find_elements(By.ID, "word-forms"))


def test_a_verb_form_is_corrected_on_the_symbol_page_and_the_builder_says_it(demo_server, page, screen):
    log_in(page, demo_server, "ana")
    open_symbol(page, demo_server, "quero")
    third = page.find_element(By.ID, "form_3s")
    assert third.get_attribute("value") == "quer", "the lexicon's form is offered"
    assert page.find_element(By.ID, "form_inf").get_attribute("value") == "querer"
    for width, height in [(1280, 800), (360, 740)]:
        screen.size(width, height)
        page.find_element(By.ID, "word-forms").location_once_scrolled_into_view
        shot(page, f"symbol-word-forms-{width}")
        overflow = page.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"nothing wider than the screen at {width}px"
    assert serious_accessibility_violations(page) == []

    third.clear()
    third.send_keys("quer<")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#word-forms button[type=submit]"))
    assert "Use só letras" in page.find_element(By.ID, "word-forms").text, "refused, in the user's language"
    third = page.find_element(By.ID, "form_3s")
    assert third.get_attribute("value") == "quer<", "what was typed is kept"
    third.clear()
    third.send_keys("quer mesmo")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#word-forms button[type=submit]"))
    assert page.find_element(By.ID, "form_3s").get_attribute("value") == "quer mesmo"

    page.delete_all_cookies()
    open_builder(page, demo_server, "bruno", "Carla")
    choose(page, "você")
    label = page.find_element(By.CSS_SELECTOR, ".sentence-choices .cell[data-label='quero'] .cell-label")
    assert label.text == "quer mesmo", "the corrected form is offered"
    for width, height in [(1280, 800), (360, 740)]:
        screen.size(width, height)
        shot(page, f"sentence-builder-voce-{width}")


def test_the_pictogram_search_finds_words_in_a_patients_language(demo_server, page):
    log_in(page, demo_server, "ana")
    page.get(demo_server.url + "/symbols/new?q=manzana")
    names = [span.text for span in page.find_elements(By.CSS_SELECTOR, ".pictogram-choice span")]
    assert "manzana" in names, "Davi's Spanish"
    page.get(demo_server.url + "/symbols/new?q=zzqqxx")
    status = page.find_element(By.CSS_SELECTOR, "#library-title ~ p[role=status]")
    assert "Nenhum pictograma encontrado" in status.text
