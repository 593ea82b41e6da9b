"""Access methods on Carla's board: automatic scanning with one switch (Space only), two switches,
select on release with a minimum hold, and dwell. The page's clock is frozen and moved by hand
(window.tagarelaClock, as in the timer), so nothing here waits for real seconds."""
import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, path_of, submit

CARLA = 7
SCREENSHOTS = os.environ.get("TAGARELA_SCREENSHOTS")  # a folder, to look at the highlight


def set_access(page, server, **values):
    """Saves Carla's access settings through the form, as her tutor."""
    log_in(page, server, "bruno")
    page.get(f"{server.url}/patients/{CARLA}/access")
    for name, value in values.items():
        field = page.find_element(By.NAME, name)
        if field.get_attribute("type") == "radio":
            page.find_element(By.CSS_SELECTOR, f"input[name={name}][value='{value}']").click()
        else:
            field.clear()
            field.send_keys(value)
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Formas de acesso salvas."


def open_board(page, server):
    """Patient mode on Carla's main board, with the page's clock frozen."""
    page.get(f"{server.url}/patients/{CARLA}/plans")
    click_and_wait(page, page.find_elements(By.XPATH, "//li[.//strong[text()='Palavras principais']]//button")[0])
    assert path_of(page).startswith("/play/")
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaAccess && !!window.tagarelaPlayer"))
    page.execute_script("window.fakeNow = Date.now(); window.tagarelaClock = () => window.fakeNow;")


def advance(page, ms):
    page.execute_script("window.fakeNow += arguments[0]", ms)


def highlighted(page):
    return page.execute_script("return window.tagarelaAccess.highlighted()")


def strip(page):
    return [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]


def step_until(page, wanted, ms, limit=40):
    """Moves the clock one scan step at a time until the highlight is `wanted` (a predicate)."""
    for _ in range(limit):
        if wanted(highlighted(page)):
            return
        before = highlighted(page)
        advance(page, ms)
        WebDriverWait(page, 2).until(lambda p: highlighted(p) != before)
        assert_clear_of_strip(page)
    raise AssertionError("the scan never reached the target")


def assert_clear_of_strip(page):
    """Whatever the scan highlights is on screen and not under the sticky sentence strip, once the
    page has scrolled it into view (the scroll may still be under way when the highlight moves)."""
    def clear(p):
        return all(top >= strip_bottom - 1 and bottom <= height + 1 for top, bottom, strip_bottom, height in boxes_of(p))
    try:
        WebDriverWait(page, 2).until(clear)
    except TimeoutException:
        pass
    for top, bottom, strip_bottom, height in boxes_of(page):
        assert top >= strip_bottom - 1 and bottom <= height + 1, (top, bottom, strip_bottom, height)


def boxes_of(page):
    return page.execute_script("""
        const strip = document.querySelector('.sentence-strip').getBoundingClientRect();
        return window.tagarelaAccess.highlighted().map((e) => {
          const box = e.getBoundingClientRect();
          return [box.top, box.bottom, strip.bottom, innerHeight];
        });""")


def test_automatic_scanning_selects_a_cell_with_only_the_space_key(demo_server, page):
    set_access(page, demo_server, scanning="row-column", switches="one", scanSeconds="1", cellSize="xlarge",
               labelPosition="hidden")
    open_board(page, demo_server)
    assert serious_accessibility_violations(page) == []
    cells = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")
    target = cells[-1]  # the last row: below the fold with the biggest cells
    label = target.get_attribute("data-label")
    assert target.accessible_name == label, "a hidden label is still the button's name"
    page.execute_script("window.scrollTo(0, 0)")

    step_until(page, lambda marked: len(marked) > 1 and target in marked, 1000)
    ActionChains(page).send_keys(Keys.SPACE).perform()  # this row
    step_until(page, lambda marked: marked == [target], 1000)
    assert "access-scan-item" in target.get_attribute("class")
    assert page.execute_script("return scrollY") == 0, "the whole board is on the screen: nothing to scroll"
    if SCREENSHOTS:
        page.save_screenshot(SCREENSHOTS + "/scan-item.png")
    ActionChains(page).send_keys(Keys.SPACE).perform()  # this cell

    # Said as the child says it: a verb with no subject before it agrees with "eu" ("olhar" → "olho").
    said = page.execute_script("const w = JSON.parse(arguments[0].dataset.word || 'null'); "
                               "return (w && w.c === 'verb' && w.f && w.f['1s']) ? w.f['1s'][0] : arguments[0].dataset.label", target)
    WebDriverWait(page, 5).until(lambda p: strip(p) == [said])
    WebDriverWait(page, 5).until(lambda p: p.execute_script("return window.tagarelaLatencies.length") == 1)  # its clip played
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)
    # After a choice the scan starts again from the top.
    assert highlighted(page) == page.find_elements(By.CSS_SELECTOR, ".strip-actions button")


def test_two_switches_space_moves_and_enter_selects(demo_server, page):
    set_access(page, demo_server, scanning="linear", switches="two")
    open_board(page, demo_server)
    first_cell = page.find_element(By.CSS_SELECTOR, ".board .cell[data-audio]")
    assert highlighted(page) == [page.find_element(By.CSS_SELECTOR, ".strip-speak")]
    advance(page, 60_000)
    page.execute_script("return new Promise((done) => setTimeout(done, 150))")
    assert highlighted(page) == [page.find_element(By.CSS_SELECTOR, ".strip-speak")], "two switches: no automatic steps"
    for _ in range(10):
        if highlighted(page) == [first_cell]:
            break
        ActionChains(page).send_keys(Keys.SPACE).perform()
    assert highlighted(page) == [first_cell]
    assert strip(page) == [], "Space only moves"
    ActionChains(page).send_keys(Keys.ENTER).perform()
    WebDriverWait(page, 5).until(lambda p: strip(p) == [first_cell.get_attribute("data-label")])


def test_select_on_release_ignores_a_press_shorter_than_the_hold_time(demo_server, page):
    set_access(page, demo_server, selectOn="release", holdMs="400")
    open_board(page, demo_server)
    cell = page.find_element(By.CSS_SELECTOR, ".board .cell[data-audio]")
    label = cell.get_attribute("data-label")

    ActionChains(page).click_and_hold(cell).perform()
    advance(page, 150)
    ActionChains(page).release().perform()
    assert strip(page) == [], "a tremor press is ignored"

    ActionChains(page).click_and_hold(cell).perform()
    advance(page, 250)
    WebDriverWait(page, 2).until(lambda p: "access-progress" in cell.get_attribute("class"))
    assert strip(page) == [], "nothing until the finger lifts"
    advance(page, 200)
    ActionChains(page).release().perform()
    WebDriverWait(page, 5).until(lambda p: strip(p) == [label])
    WebDriverWait(page, 5).until(lambda p: p.execute_script("return window.tagarelaLatencies.length") == 1)  # its clip played
    assert "access-progress" not in cell.get_attribute("class")

    # The keyboard still works as usual when scanning is off.
    page.execute_script("arguments[0].focus()", cell)
    ActionChains(page).send_keys(Keys.ENTER).perform()
    WebDriverWait(page, 5).until(lambda p: strip(p) == [label, label])


def test_dwell_selects_a_cell_the_pointer_rests_on_and_shows_its_progress(demo_server, page):
    set_access(page, demo_server, dwellSeconds="1")
    open_board(page, demo_server)
    first, second = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:2]
    # Start from somewhere that is no target, whatever the pointer rested on while the page loaded.
    ActionChains(page).move_to_element(page.find_element(By.CSS_SELECTOR, ".sentence-strip")).perform()
    advance(page, 5000)
    assert strip(page) == []

    ActionChains(page).move_to_element(first).perform()
    advance(page, 500)
    progress = lambda: float(page.execute_script(
        "return arguments[0].style.getPropertyValue('--access-progress') || '0'", first))
    WebDriverWait(page, 2).until(lambda p: "access-progress" in first.get_attribute("class") and progress() > 0)
    assert 0.45 <= progress() <= 0.55, progress()
    assert strip(page) == []
    advance(page, 600)
    WebDriverWait(page, 5).until(lambda p: strip(p) == [first.get_attribute("data-label")])
    advance(page, 5000)
    page.execute_script("return new Promise((done) => setTimeout(done, 150))")
    assert len(strip(page)) == 1, "resting longer does not repeat the word"

    ActionChains(page).move_to_element(second).perform()
    advance(page, 1100)
    WebDriverWait(page, 5).until(lambda p: len(strip(p)) == 2)
    assert strip(page)[1] == second.get_attribute("data-label")


def test_the_running_timer_pauses_by_two_switch_scanning(demo_server, page):
    set_access(page, demo_server, scanning="linear", switches="two")
    open_board(page, demo_server)
    page.get(demo_server.url + "/timer?start=1&symbol=" + page.execute_script(
        "return document.querySelector('.board .cell[data-symbol]').dataset.symbol") + "&minutes=2")
    toggle = page.find_element(By.CSS_SELECTOR, ".timer-toggle")
    WebDriverWait(page, 5).until(lambda p: p.execute_script("return !!window.tagarelaAccess"))
    assert highlighted(page) == [toggle]
    ActionChains(page).send_keys(Keys.ENTER).perform()
    assert toggle.text == "Continuar", "Enter chose the highlighted pause button"
    ActionChains(page).send_keys(Keys.SPACE).perform()
    assert highlighted(page) == [page.find_element(By.CSS_SELECTOR, "a[href='/timer']")]
