"""The teacher's own pictures (issue 46, 8) in a real browser: she adds "gronxador" with a photo of her
own, sees it in her list, and the child sees it in the conta-cops lesson; adding the game's own "casa"
warns first, keeps what she typed, and adds it once she confirms."""
import os
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import BINARY, ROOT, screenshot
from test_accounts import click_and_wait, log_in, path_of, submit
from test_board_fit import screen  # noqa: F401 (a fixture: the viewport set exactly)
from test_educat import advance, hold_clock, open_patient_mode

CARLA = 7


@pytest.fixture(scope="module", autouse=True)
def educat_audio(tmp_path_factory):
    data = tmp_path_factory.mktemp("educat-audio")
    subprocess.run([BINARY, "educat-audio", "--data", str(data)], cwd=ROOT, check=True, capture_output=True)


@pytest.fixture
def photo(tmp_path):
    """A real picture, as a phone would send it: a JPEG made by ffmpeg."""
    path = tmp_path / "gronxador.jpg"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=1", "-frames:v", "1", str(path)],
                   check=True)
    return str(path)


def fill_word(page, text, syllables, picture_file=None):
    Select(page.find_element(By.ID, "item-area")).select_by_value("conta-cops")
    Select(page.find_element(By.ID, "item-language")).select_by_value("ca")
    for field, value in (("item-text", text), ("item-syllables", syllables)):
        page.find_element(By.ID, field).clear()
        page.find_element(By.ID, field).send_keys(value)
    if picture_file:
        page.find_element(By.ID, "item-image").send_keys(picture_file)


def add_button(page):
    return page.find_element(By.CSS_SELECTOR, "form.educat-add-item button[type=submit]")


def test_the_teacher_illustrates_a_word_with_her_own_picture_and_the_child_sees_it(demo_server, page, screen, photo):
    screen.size(768, 1024)
    log_in(page, demo_server, "ana")
    page.get(f"{demo_server.url}/patients/{CARLA}/educat/settings")
    fill_word(page, "gronxador", "gron-xa-dor", photo)
    click_and_wait(page, add_button(page))  # wait for the answer's page, not the old one
    assert path_of(page) == f"/patients/{CARLA}/educat/settings"
    thumb = page.find_element(By.XPATH, "//li[contains(@class,'educat-added-item')][.//strong[text()='gronxador']]//img")
    src = thumb.get_attribute("src")
    assert src.startswith(f"{demo_server.url}/patients/{CARLA}/educat/items/") and src.endswith("/picture")
    assert page.execute_script("return arguments[0].complete && arguments[0].naturalWidth", thumb) > 0

    # The game's own "casa": a warning, what she typed kept, added once she ticks the box.
    fill_word(page, "casa", "ca-sa", photo)
    click_and_wait(page, add_button(page))  # wait for the answer's page, not the old one
    assert "O jogo já tem “casa”" in page.find_element(By.ID, "item-confirm-warning").text
    assert page.find_element(By.ID, "item-text").get_attribute("value") == "casa"
    assert page.find_element(By.ID, "item-syllables").get_attribute("value") == "ca-sa"
    assert page.find_element(By.CSS_SELECTOR, ".educat-picture-kept").is_displayed()
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", page.find_element(By.CSS_SELECTOR, ".educat-confirm"))
    screenshot(page, "educat-word-exists-768x1024.png")
    page.find_element(By.CSS_SELECTOR, ".educat-confirm input[name=confirm]").click()
    click_and_wait(page, add_button(page))  # wait for the answer's page, not the old one
    assert page.find_element(By.XPATH, "//li[contains(@class,'educat-added-item')][.//strong[text()='casa']]//img")

    page.delete_all_cookies()
    open_patient_mode(page, demo_server)
    page.get(demo_server.url + "/educat/conta-cops/lesson")
    hold_clock(page)
    # The lesson picks a word at random (37 here): the draw is pointed at hers, not left to 120 tries (3.7 % missed it).
    page.execute_script("""const words = [...document.querySelectorAll('.educat-words li')].map((li) => li.dataset.word);
        const at = words.indexOf('gronxador');
        if (at >= 0) Math.random = () => (at + 0.5) / words.length;""")
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    assert page.execute_script("return window.tagarelaEducat.word()") == "gronxador", "her word is in the lesson"
    picture = page.find_element(By.CSS_SELECTOR, ".educat-picture img")
    assert picture.get_attribute("src") == src
    assert page.execute_async_script("""const img = arguments[0]; const done = arguments[arguments.length - 1];
        if (img.complete) done(img.naturalWidth); else img.addEventListener('load', () => done(img.naturalWidth), { once: true });""",
                                     picture) > 0
    screenshot(page, "educat-own-picture-768x1024.png")
