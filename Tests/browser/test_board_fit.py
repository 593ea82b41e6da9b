"""Every board of the demo children fits the screen it is shown on, from a 360 × 640 phone to a
1920 × 1080 monitor: no page scroll, every cell inside the viewport and at least 64 px, every label
whole (never cut, never broken inside a word). One server and one browser for the whole file."""
import os
import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import RunningServer, serious_accessibility_violations
from test_accounts import click_and_wait, log_in, submit

SIZES = [(360, 640), (768, 1024), (1024, 768), (1280, 800), (1920, 1080)]
CARLA, DAVI = 7, 8
SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder: screenshots of a board at every size

# Everything the acceptance asks of one screen, measured by the browser itself.
MEASURE = """
const problems = [];
const page = document.scrollingElement;
if (page.scrollHeight > innerHeight) problems.push(`page scrolls down: ${page.scrollHeight} > ${innerHeight}`);
if (page.scrollWidth > innerWidth) problems.push(`page scrolls sideways: ${page.scrollWidth} > ${innerWidth}`);
const cells = [...document.querySelectorAll('.board .cell')].filter((cell) => !cell.hidden);
for (const cell of cells) {
  const box = cell.getBoundingClientRect();
  const name = cell.dataset.label || cell.textContent.trim() || 'empty cell';
  if (box.left < -0.5 || box.top < -0.5 || box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5)
    problems.push(`${name} outside the screen: ${JSON.stringify(box)}`);
  if (box.width < 63.5 || box.height < 63.5) problems.push(`${name} is ${box.width} × ${box.height}`);
  const label = cell.querySelector('.cell-label');
  if (!label || getComputedStyle(label).position === 'absolute') continue;  // labels hidden by the access setting
  if (label.scrollWidth > label.clientWidth) problems.push(`${name}: label cut (${label.scrollWidth} > ${label.clientWidth})`);
  if (label.scrollHeight > label.clientHeight + 1) problems.push(`${name}: label cut at the bottom`);
  const labelBox = label.getBoundingClientRect();
  if (labelBox.bottom > box.bottom + 0.5 || labelBox.top < box.top - 0.5) problems.push(`${name}: label outside its cell`);
  const text = label.firstChild;
  for (const word of text ? text.data.matchAll(/\\S+/g) : []) {
    const range = document.createRange();
    range.setStart(text, word.index);
    range.setEnd(text, word.index + word[0].length);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (lines.size > 1) problems.push(`${name}: "${word[0]}" broken over ${lines.size} lines`);
  }
}
return {problems, cells: cells.length,
        smallest: Math.min(...cells.map((cell) => Math.min(cell.getBoundingClientRect().width, cell.getBoundingClientRect().height))),
        font: Math.min(...[...document.querySelectorAll('.board .cell:not([hidden]) .cell-label')].map((l) => parseFloat(getComputedStyle(l).fontSize)))};
"""


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-fit-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture
def screen(page):
    """The page with a viewport set exactly (`screen.size(w, h)`), put back to normal afterwards."""
    class Screen:
        def size(self, width, height, scale=1):
            page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                 {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
    yield Screen()
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def patient_mode(page, server, tutor, patient):
    """The tutor opens patient mode on the tablet; answers the child's plans, as their /play/N paths."""
    log_in(page, server, tutor)
    page.get(f"{server.url}/patients/{patient}/plans")
    click_and_wait(page, page.find_elements(By.XPATH, "//form[contains(@action, '/patient-mode')]//button")[0])
    page.get(server.url + "/play")
    return sorted({link.get_attribute("href").split(server.url)[1]
                   for link in page.find_elements(By.CSS_SELECTOR, "main a[href^='/play/'], main a[href*='/play/']")})


def plan_with(page, server, plans, css):
    """The first of `plans` whose page shows `css`."""
    for path in plans:
        page.get(server.url + path)
        if page.find_elements(By.CSS_SELECTOR, css):
            return path
    raise AssertionError(f"no plan shows {css}")


def measured(page):
    WebDriverWait(page, 10).until(lambda p: p.execute_script(
        "const b = document.querySelector('.board'); return !!b && b.dataset.fitted === 'true'"))
    # Two frames: the fit made after a resize is drawn.
    page.execute_script("return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page.execute_script(MEASURE)


def resized(page, screen, width, height):
    """Turns or swaps the device under the open page; the board fits itself again (no reload)."""
    page.execute_script("""const b = document.querySelector('.board');
        if (b && (innerWidth !== arguments[0] || innerHeight !== arguments[1])) b.dataset.fitted = 'false'""", width, height)
    screen.size(width, height)


# The least a cell can measure on the grid area the page gives the board: 64 px where `columns` × `rows` cells
# of 64 px fit in it, else 44 px where those fit, else nothing but the fit (a 6 × 10 core board on a phone
# held upright; docs/decisions.md, "Boards up to 16 × 16").
GEOMETRIC_FLOOR = """
const board = document.querySelector('.board');
const columns = +(board.className.match(/cols-(\\d+)/) || [0, 1])[1], rows = +(board.className.match(/rows-(\\d+)/) || [0, 1])[1];
const box = board.getBoundingClientRect(), style = getComputedStyle(board);
const gapX = parseFloat(style.columnGap) || 0, gapY = parseFloat(style.rowGap) || 0;
for (const floor of [64, 44])
  if (columns * floor + (columns - 1) * gapX <= box.width + 0.5 && rows * floor + (rows - 1) * gapY <= box.height + 0.5) return floor;
return 0;
"""


def held_to_geometry(page, found):
    """The problems of `found`, with a core board's cells held to the floor its screen allows (above)."""
    floor = page.execute_script(GEOMETRIC_FLOOR)
    if floor >= 64:
        return found["problems"]
    problems = [p for p in found["problems"] if " is " not in p or not p.split(" is ")[1][0].isdigit()]
    return problems + ([f"smallest cell {found['smallest']:.1f} px < {floor}"] if found["smallest"] < floor - 0.5 else [])


def check_every_size(page, server, path, failures, sizes=SIZES, screen=None, steps=False):
    """One page load, then every size in turn, as a tablet turned on its side or a window resized."""
    page.get(server.url + path)
    for width, height in sizes:
        resized(page, screen, width, height)
        found = measured(page)
        assert found["cells"] >= 1, path
        problems = held_to_geometry(page, found)
        if problems:
            failures.append((path, f"{width}×{height}", problems[:4]))
        if steps and page.find_elements(By.ID, "sentence-player"):
            # The builder's later steps show other words, in another number: they fit too.
            for _ in range(2):
                shown = [c for c in page.find_elements(By.CSS_SELECTOR, ".sentence-choices .cell") if c.is_displayed()]
                if not shown:
                    break
                page.execute_script("arguments[0].dataset.fitted = 'false'; arguments[1].click()",
                                    page.find_element(By.CSS_SELECTOR, ".board"), shown[-1] if len(shown) > 2 else shown[0])
                found = measured(page)
                if found["problems"]:
                    failures.append((path + " (next step)", f"{width}×{height}", found["problems"][:4]))
            page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    return failures


def test_every_demo_board_fits_every_screen(clinic, page, screen):
    failures = []
    checked = []
    for tutor, patient in (("bruno", CARLA), ("beatriz", DAVI)):
        page.delete_all_cookies()
        plans = patient_mode(page, clinic, tutor, patient)
        # 3 boards, a big-symbol plan and a sentence plan; Carla also has the starter core board set (its root).
        assert len(plans) == (6 if patient == CARLA else 5), plans
        for path in plans:
            check_every_size(page, clinic, path, failures, screen=screen, steps=True)
            checked.append(path)
    assert len(checked) == 11
    assert failures == [], "\n".join(map(str, failures))


def test_a_board_at_five_sizes_looks_right(clinic, page, screen):
    """The board the issue measured (4 × 5 with a folder), smallest cells and label sizes printed;
    screenshots into $TAGARELA_SCREENS when set."""
    plans = patient_mode(page, clinic, "bruno", CARLA)
    day = plan_with(page, clinic, plans, ".board.cols-5.rows-4")
    for width, height in SIZES:
        screen.size(width, height, 0.5 if SCREENS and width >= 768 else 1)  # smaller files for the README
        page.get(clinic.url + day)
        found = measured(page)
        assert found["problems"] == []
        print(f"\n{width}×{height}: smallest cell {found['smallest']:.0f} px, label {found['font']:.1f} px")
        if SCREENS:
            os.makedirs(SCREENS, exist_ok=True)
            page.save_screenshot(os.path.join(SCREENS, f"board-{width}x{height}.png"))
            if (width, height) == (360, 640):
                page.get(clinic.url + plan_with(page, clinic, plans, ".sentence-player"))
                measured(page)
                page.save_screenshot(os.path.join(SCREENS, "sentence-360x640.png"))
    assert serious_accessibility_violations(page) == []


def test_the_sentence_survives_folders_back_and_home(clinic, page, screen):
    screen.size(768, 1024)
    plans = patient_mode(page, clinic, "bruno", CARLA)
    page.execute_script("sessionStorage.clear()")
    day = plan_with(page, clinic, plans, ".board.cols-5.rows-4 .cell-folder")  # the day board, its folder of things
    strip = lambda: [word.text for word in page.find_elements(By.CSS_SELECTOR, ".strip-words .strip-word")]
    first, second = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:2]
    words = [first.get_attribute("data-label"), second.get_attribute("data-label")]
    first.click()
    second.click()
    assert strip() == words
    assert not page.find_elements(By.CSS_SELECTOR, ".player-home, .player-back"), "the root board has no Back or Home"

    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".board .cell-folder"))
    assert strip() == words, "the sentence came along into the folder"
    banana = page.find_element(By.CSS_SELECTOR, ".board .cell[data-label='banana']")
    banana.click()
    assert strip() == words + ["banana"]
    home = page.find_element(By.CSS_SELECTOR, ".player-home")
    assert home.get_attribute("href").endswith(day)
    assert home.accessible_name == "Início"

    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".player-back"))
    assert page.current_url.endswith(day)
    assert strip() == words + ["banana"], "and back out again"
    page.find_element(By.CSS_SELECTOR, ".strip-backspace").click()
    page.get(clinic.url + day)
    assert strip() == words, "Delete is kept too"
    page.find_element(By.CSS_SELECTOR, ".strip-clear").click()
    page.get(clinic.url + day)
    assert strip() == []


def test_a_board_set_two_folders_deep_keeps_back_and_home(clinic, page, screen):
    """A folder inside a folder: Back goes one step, Home to the root; a forged trail is ignored."""
    screen.size(1280, 800)
    plans = patient_mode(page, clinic, "bruno", CARLA)
    ids = [int(path.rsplit("/", 1)[1]) for path in plans]
    root, middle, inner = ids[:3]
    page.get(f"{clinic.url}/play/{inner}?from={root},{middle}")
    assert page.find_element(By.CSS_SELECTOR, ".player-back").get_attribute("href").endswith(f"/play/{middle}?from={root}")
    assert page.find_element(By.CSS_SELECTOR, ".player-home").get_attribute("href").endswith(f"/play/{root}")
    # Another child's board in the trail is dropped, and junk with it.
    page.get(f"{clinic.url}/play/{inner}?from=999999,abc,{root}")
    assert page.find_element(By.CSS_SELECTOR, ".player-back").get_attribute("href").endswith(f"/play/{root}")


def test_the_big_symbol_plan_has_no_sentence_buttons(clinic, page, screen):
    screen.size(360, 640)
    plans = patient_mode(page, clinic, "bruno", CARLA)
    plan_with(page, clinic, plans, ".player.big-symbol")
    assert page.find_elements(By.CSS_SELECTOR, ".strip-speak, .strip-backspace, .strip-clear, .sentence-strip") == []
    found = measured(page)
    assert found["problems"] == []
    assert found["smallest"] >= 300, "one symbol takes the screen"


@pytest.mark.parametrize("settings", [
    {"cellSize": "xlarge", "labelPosition": "above", "scanning": "row-column"},
    {"cellSize": "large", "labelPosition": "hidden", "scanning": "linear"},
    {"cellSize": "medium", "labelPosition": "below", "scanning": "off"},
])
def test_every_access_setting_keeps_the_boards_on_the_screen(clinic, page, screen, settings):
    log_in(page, clinic, "bruno")
    page.get(f"{clinic.url}/patients/{CARLA}/access")
    for name, value in settings.items():
        page.find_element(By.CSS_SELECTOR, f"input[name={name}][value='{value}']").click()
    submit(page)
    try:
        page.delete_all_cookies()
        plans = patient_mode(page, clinic, "bruno", CARLA)
        failures = []
        for path in plans:
            check_every_size(page, clinic, path, failures, sizes=[(360, 640), (768, 1024), (1024, 768)], screen=screen)
        if settings["cellSize"] == "xlarge":
            page.get(clinic.url + plans[0])
            buttons = page.find_elements(By.CSS_SELECTOR, ".strip-actions button")
            assert buttons and all(64 <= b.size["height"] <= 80 for b in buttons), "Speak, Delete, Clear stay in their row"
        assert failures == [], "\n".join(map(str, failures))
    finally:
        page.delete_all_cookies()
        log_in(page, clinic, "bruno")
        page.get(f"{clinic.url}/patients/{CARLA}/access")
        for name, value in {"cellSize": "small", "labelPosition": "below", "scanning": "off"}.items():
            page.find_element(By.CSS_SELECTOR, f"input[name={name}][value='{value}']").click()
        submit(page)
