"""Core-vocabulary boards of the sizes other AAC apps use (issue 54, item 1): 6 × 10, 7 × 12 and 8 × 14,
imported as Open Board files another app would write, fit every screen with no scroll and every position
kept; cells are ≥ 64 px where the screen has room and ≥ 44 px wherever the geometry allows it (see
docs/decisions/0079-boards-up-to-16-16.md, "Boards up to 16 × 16"); the editor names the devices below 64 px; each prints on
one page."""
import json
import os
import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import RunningServer
from test_accounts import log_in
from test_print import pages_of, printed
from test_board_fit import CARLA, MEASURE, measured, patient_mode, resized

SIZES = [(360, 640), (640, 360), (768, 1024), (1024, 768), (1280, 800)]
GRIDS = [(6, 10), (7, 12), (8, 14)]
SCREENS = os.environ.get("TAGARELA_SCREENS")
# Core words of different lengths, so the labels' fitting is tried too.
WORDS = ("eu você ele ela nós eles quero gosto vou fazer ajudar parar mais acabou não sim isso aquilo "
         "aqui lá grande pequeno bom ruim quente frio quem que onde quando porque como olá tchau obrigado "
         "comer beber brincar dormir abrir fechar ligar desligar pegar dar colocar ver olhar ouvir falar "
         "ir vir sentir pensar saber precisar achar esperar trocar ler escrever desenhar cantar dançar "
         "correr pular sentar levantar lavar vestir tirar mesmo outro diferente tudo nada algum muito pouco "
         "dentro fora cima baixo perto longe antes depois agora logo amanhã ontem hoje sempre nunca "
         "também mamãe papai escola casa banheiro parque comida água suco banana maçã pão biscoito "
         "feliz triste bravo cansado assustado dor fome sede").split()


def obf(rows, columns):
    """A board as another app writes it: ids that are not ours, a folder by id, one hidden button."""
    buttons, order = [], []
    for row in range(rows):
        line = []
        for column in range(columns):
            index = row * columns + column
            if index == columns - 1:
                line.append(None)  # an empty place stays empty, where it was
                continue
            buttons.append({"id": f"btn_{index}", "label": WORDS[index % len(WORDS)] + ("" if index < len(WORDS) else f" {index}"),
                            "background_color": "rgb(255, 255, 170)" if index % 3 else "#cfc"})
            line.append(f"btn_{index}")
        order.append(line)
    return {"format": "open-board-0.1", "id": f"core{rows}x{columns}", "locale": "pt", "name": f"Núcleo {rows}×{columns}",
            "buttons": buttons, "grid": {"rows": rows, "columns": columns, "order": order}}


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-sizes-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def boards(clinic, browser):
    """The three boards imported into Carla's plans by Ana; their editor paths by grid."""
    page = browser
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    folder = tempfile.mkdtemp(prefix="sizes-obf-")
    editors = {}
    try:
        for rows, columns in GRIDS:
            path = os.path.join(folder, f"core-{rows}x{columns}.obf")
            with open(path, "w") as file:
                json.dump(obf(rows, columns), file, ensure_ascii=False)
            page.get(f"{clinic.url}/patients/{CARLA}/boards/import")
            page.find_element(By.ID, "file").send_keys(path)
            page.find_element(By.ID, "import-submit").click()
            WebDriverWait(page, 300).until(lambda d: "/obf/imports/" in d.current_url)
            WebDriverWait(page, 30).until(lambda d: d.find_elements(By.ID, "import-counts"))
            counts = {dt.text: dd.text for dt, dd in zip(page.find_elements(By.CSS_SELECTOR, "#import-counts dt"),
                                                          page.find_elements(By.CSS_SELECTOR, "#import-counts dd"))}
            assert str(rows * columns - 1) in counts.values(), counts
            editors[(rows, columns)] = page.find_element(By.CSS_SELECTOR, "main a.button").get_attribute("href")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    page.delete_all_cookies()
    return editors


@pytest.fixture
def screen(page):
    class Screen:
        def size(self, width, height, scale=1):
            page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                 {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
    yield Screen()
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# The space the player's chrome leaves the grid on each screen (header, sentence bar, navigation; board.css),
# in px: what geometry allows before any rule of ours.
GRID_AREA = {(360, 640): (346, 360), (640, 360): (484, 286), (768, 1024): (754, 760), (1024, 768): (1010, 530),
             (1280, 800): (1266, 560)}


def floor_for(rows, columns, width, height):
    """The least a cell may measure: 64 px wherever the grid area can hold `columns` × `rows` cells of 64 px
    (so at 1024×768 and 1280×800 for all three, and at 768×1024 for 6 × 10), else 44 px wherever it can hold
    44 px cells, else nothing but the fit (a 10-column grid on a 360 px phone held upright: 10 × 44 px >
    346 px; docs/decisions/0079-boards-up-to-16-16.md, "Boards up to 16 × 16")."""
    area_width, area_height = GRID_AREA[(width, height)]
    for floor in (64, 44):
        if columns * floor + (columns - 1) * 2 <= area_width and rows * floor + (rows - 1) * 2 <= area_height:
            return floor
    return 0


def test_core_boards_fit_every_screen_with_every_position(clinic, page, screen, boards):
    page.delete_all_cookies()
    plans = patient_mode(page, clinic, "bruno", CARLA)
    report, failures = [], []
    for (rows, columns) in GRIDS:
        path = next(p for p in plans if p.endswith("/" + boards[(rows, columns)].rstrip("/").split("/")[-2]))
        page.get(clinic.url + path)
        assert page.find_elements(By.CSS_SELECTOR, f".board.cols-{columns}.rows-{rows}"), path
        for width, height in SIZES:
            resized(page, screen, width, height)
            found = measured(page)
            assert found["cells"] == rows * columns, "every position kept, the empty one too"
            floor = floor_for(rows, columns, width, height)
            board = page.execute_script("const b = document.querySelector('.board');"
                                        "return [b.scrollHeight > b.clientHeight + 1, b.scrollWidth > b.clientWidth + 1]")
            problems = [p for p in found["problems"] if " is " not in p or not p.split(" is ")[1][0].isdigit()]
            if board != [False, False]:
                problems.append(f"the grid scrolls inside itself: {board}")
            if found["smallest"] < floor - 0.5:
                problems.append(f"smallest cell {found['smallest']:.1f} px < {floor}")
            report.append(f"{rows}×{columns} at {width}×{height}: smallest {found['smallest']:.1f} px (floor {floor})")
            if problems:
                failures.append((f"{rows}×{columns}", f"{width}×{height}", problems[:4]))
            if SCREENS and ((rows, columns) == (8, 14) or (width, height) == (640, 360)):
                os.makedirs(SCREENS, exist_ok=True)
                page.save_screenshot(os.path.join(SCREENS, f"board-{rows}x{columns}-{width}x{height}.png"))
    print("\n" + "\n".join(report))
    assert floor_for(6, 10, 768, 1024) == 64 and floor_for(8, 14, 1024, 768) == 64 and floor_for(8, 14, 1280, 800) == 64
    assert floor_for(6, 10, 640, 360) == 44
    assert failures == [], "\n".join(map(str, failures))


def test_the_editor_names_the_devices_below_64_px(clinic, page, boards):
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    page.get(boards[(8, 14)])
    small = [d.text for d in page.find_elements(By.CSS_SELECTOR, ".fit-device.fits-not")]
    fine = [d.text for d in page.find_elements(By.CSS_SELECTOR, ".fit-device:not(.fits-not)")]
    assert len(small) >= 2 and len(fine) >= 2, (small, fine)
    # The editor draws the grid as the child sees it: 14 cells on the first row, not the 8 a narrower editor had.
    page.set_window_size(1280, 800)
    tops = page.execute_script("return [...document.querySelectorAll('main .board > .cell, main .board > li')]"
                               ".map((c) => Math.round(c.getBoundingClientRect().top))")
    assert len(tops) == 8 * 14 and tops.count(tops[0]) == 14, tops[:20]
    page.get(boards[(6, 10)])
    assert len(page.find_elements(By.CSS_SELECTOR, ".fit-device.fits-not")) < len(small) + len(fine)


def test_each_prints_on_one_page(clinic, page, boards):
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    for (rows, columns), editor in boards.items():
        page.get(editor.replace("/edit", "/print"))
        sheets = page.find_elements(By.CSS_SELECTOR, ".print-sheet")
        assert len(sheets) == 1
        grid = page.find_element(By.CSS_SELECTOR, ".print-sheet .print-grid")
        assert len(grid.find_elements(By.CSS_SELECTOR, ".cell")) == rows * columns
        overflow = page.execute_script("const g = arguments[0]; return g.scrollHeight > g.clientHeight + 1 || g.scrollWidth > g.clientWidth + 1", grid)
        assert not overflow, f"{rows}×{columns} overflows its sheet"
        assert len(pages_of(printed(page))) == 1, f"{rows}×{columns} prints on one page"
        assert len(pages_of(printed(page, "Letter"))) == 1


def test_every_demo_plan_sideways_on_a_phone_keeps_44_px_cells(clinic, page, screen, boards):
    """A phone held sideways (640 × 360, issue 54 item 6): the grid takes the height, the controls a column."""
    page.delete_all_cookies()
    plans = patient_mode(page, clinic, "bruno", CARLA)
    failures, report = [], []
    for path in plans:
        page.get(clinic.url + path)
        resized(page, screen, 640, 360)
        found = measured(page)
        problems = [p for p in found["problems"] if " is " not in p or not p.split(" is ")[1][0].isdigit()]
        grid = page.execute_script("const b = document.querySelector('.board'); return b.classList.value")
        if "cols-12" in grid or "cols-14" in grid:
            continue  # 7 × 12 and 8 × 14 cannot hold 44 px here (docs/decisions/README.md); measured above
        if found["smallest"] < 43.5:
            problems.append(f"smallest cell {found['smallest']:.1f} px")
        controls = page.execute_script("""return [...document.querySelectorAll('.player button, .player-nav a, .strip-quiet-label')]
            .filter((e) => e.offsetParent).map((e) => { const r = e.getBoundingClientRect();
              return [e.textContent.trim(), r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5, Math.min(r.width, r.height)] })""")
        problems += [f"{name!r} off the screen" for name, inside, _ in controls if not inside]
        problems += [f"{name!r} is {size:.0f} px" for name, _, size in controls if size < 43.5]
        report.append(f"{path} ({grid}): smallest {found['smallest']:.1f} px")
        if problems:
            failures.append((path, problems[:4]))
        if SCREENS and page.find_elements(By.ID, "sentence-player"):
            page.save_screenshot(os.path.join(SCREENS, "sentence-640x360.png"))
    print("\n" + "\n".join(report))
    assert len(report) >= 5
    assert failures == [], "\n".join(map(str, failures))
