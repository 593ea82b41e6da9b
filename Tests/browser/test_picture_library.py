"""The picture library in a real browser (issue 54, items 3 and 6): Ana searches the whole OpenMoji set from the
cell editor, a picture she chooses becomes Carla's word in the cell, and a folder cell shows a picture, first the
stock folder, then the one she gives it; Carla's player draws both."""
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.support.ui import Select

from test_accounts import click_and_wait, log_in, open_carlas_board, path_of
from test_board_fit import screen  # noqa: F401 (a fixture: the viewport set exactly)

CARLA = 7
SHOTS = os.environ.get("TAGARELA_SHOTS", "/tmp")

LOADED = "return arguments[0].complete && arguments[0].naturalWidth"


def editor_of(page, server, board):
    page.get(f"{server.url}/patients/{CARLA}/plans")
    found = f"//li[.//strong[text()='{board}']]//a[contains(@href, '/edit')]"
    # The list once came without the board in a full run (after patient mode on the same origin); say what came.
    WebDriverWait(page, 10).until(lambda p: p.find_elements(By.XPATH, found),
                                  f"{page.current_url}: {page.title}")
    return page.find_element(By.XPATH, found).get_attribute("href")


def search_library(page, word):
    field = page.find_element(By.ID, "q")
    field.clear()
    field.send_keys(word)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form.search button[type=submit]"))


def choose_picture(page, hexcode):
    button = page.find_element(By.XPATH, f"//form[.//input[@name='pictogram'][@value='{hexcode}']]//button[contains(@class,'library-choice')]")
    click_and_wait(page, button)


def folder_image(page):
    return page.find_element(By.CSS_SELECTOR, ".board a.cell-folder img")


def test_a_folder_cell_shows_its_picture_and_takes_one_from_the_library(demo_server, page, screen):
    screen.size(1280, 800)
    # Carla's day board opens her things through a folder cell that was text only: now a folder picture.
    open_carlas_board(page, demo_server, "Meu dia")
    stock = folder_image(page)
    assert "/pictograms/1F4C2.svg" in stock.get_attribute("src")
    assert page.execute_script(LOADED, stock) > 0
    page.delete_all_cookies()

    log_in(page, demo_server, "ana")
    editor = editor_of(page, demo_server, "Meu dia")
    page.get(editor + "?cell=19")
    search_library(page, "violino")
    assert path_of(page).startswith(editor.split(demo_server.url)[1])
    hint = page.find_element(By.CSS_SELECTOR, ".editor-panel .hint").text
    assert hint, "the panel says a folder keeps its board"
    page.save_screenshot(os.path.join(SHOTS, "picture-library-editor-1280.png"))
    choose_picture(page, "1F3BB")
    cell = page.find_element(By.CSS_SELECTOR, ".editor-board a.cell.is-selected")
    assert "cell-folder" in cell.get_attribute("class"), "still opens its board"
    image = cell.find_element(By.TAG_NAME, "img")
    assert image.get_attribute("src").endswith("/pictograms/1F3BB.svg")
    assert page.execute_script(LOADED, image) > 0
    assert cell.find_element(By.CSS_SELECTOR, ".cell-label").text == "Coisas e comidas", "the board's name stays its word"
    page.delete_all_cookies()

    for width, height in ((1024, 768), (360, 740)):
        screen.size(width, height)
        open_carlas_board(page, demo_server, "Meu dia")
        drawn = folder_image(page)
        assert drawn.get_attribute("src").endswith("/pictograms/1F3BB.svg")
        assert page.execute_script(LOADED, drawn) > 0
        box = page.execute_script("const r = arguments[0].closest('.cell').getBoundingClientRect(); return [r.width, r.height]", drawn)
        assert min(box) >= 44, box
        page.save_screenshot(os.path.join(SHOTS, f"picture-library-folder-{width}.png"))
        click_and_wait(page, drawn.find_element(By.XPATH, "./ancestor::a"))
        assert "/play/" in path_of(page), "the folder still opens Carla's things"
        page.delete_all_cookies()


def test_the_cell_editor_makes_a_word_from_a_picture_found_in_each_language(demo_server, page, screen):
    screen.size(768, 1024)
    log_in(page, demo_server, "ana")
    editor = editor_of(page, demo_server, "Meu dia")
    page.get(editor + "?cell=0")
    # Catalan, Spanish and English words find the same library picture; accents and case do not matter.
    for word in ("VIOLÍ", "violin", "Violín"):
        search_library(page, word)
        assert page.find_elements(By.XPATH, "//input[@name='pictogram'][@value='1F3BB']"), word
    search_library(page, "flamingo")
    choose_picture(page, "1F9A9")
    assert page.find_element(By.CSS_SELECTOR, ".flash").text
    cell = page.find_element(By.CSS_SELECTOR, ".editor-board a.cell.is-selected")
    assert cell.find_element(By.TAG_NAME, "img").get_attribute("src").endswith("/pictograms/1F9A9.svg")
    assert "flamingo" in cell.find_element(By.CSS_SELECTOR, ".cell-label").text.lower()
    page.save_screenshot(os.path.join(SHOTS, "picture-library-made-768.png"))
    # A word nobody has: said plainly, the search kept.
    search_library(page, "zzqqxx")
    assert "zzqqxx" in page.find_element(By.CSS_SELECTOR, ".editor-panel .empty").text
    assert page.find_element(By.ID, "q").get_attribute("value") == "zzqqxx"
