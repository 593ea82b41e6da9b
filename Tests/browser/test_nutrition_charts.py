"""Charts that do not mislead (issue 52, item 5) and the trainer's pages on a phone (item 7): date labels
that never touch at 360 and 1280 px, legends inside their chart, % fat one line per protocol, and a
long name that does not widen /trainer. Screenshots go to TAGARELA_SCREENS (docs/screens)."""
import os
import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import RunningServer, serious_accessibility_violations
from test_accounts import click_and_wait, log_in, submit
from test_nutrition_week import SCREENS, elisa_week, horizontal_overflow

WIDTHS = [(360, 740), (1280, 800)]


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-charts-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


BOXES = """
return Array.from(document.querySelectorAll('svg.chart')).map(svg => {
  const frame = svg.getBoundingClientRect();
  const boxes = sel => Array.from(svg.querySelectorAll(sel)).map(t => {
    const b = t.getBoundingClientRect();
    return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, text: t.textContent};
  });
  return {label: svg.getAttribute('aria-label'), frame: {left: frame.left, right: frame.right, top: frame.top,
          bottom: frame.bottom}, ticks: boxes('text.chart-tick'), legends: boxes('text.chart-legend'),
          polylines: svg.querySelectorAll('polyline').length,
          colours: Array.from(new Set(Array.from(svg.querySelectorAll('circle')).map(c => c.getAttribute('fill'))))};
});
"""


def shot(page, name):
    """The window, taller than a phone's, from the page's first chart down, to look at."""
    if not SCREENS:
        return
    size = page.get_window_size()
    page.set_window_size(size["width"], 1300)
    page.execute_script("""
        const first = document.querySelector('svg.chart');
        (first.closest('figure') || first).scrollIntoView({block: 'start'});
        window.scrollBy(0, -48);""")
    os.makedirs(SCREENS, exist_ok=True)
    page.get_screenshot_as_file(os.path.join(SCREENS, name + ".png"))
    page.set_window_size(size["width"], size["height"])


def charts(page):
    return page.execute_script(BOXES)


def assert_readable(found):
    """No two date labels overlap; every label and legend stays inside its chart."""
    assert found, "charts on the page"
    for chart in found:
        ticks = sorted(chart["ticks"], key=lambda box: box["left"])
        assert ticks, chart["label"]
        for a, b in zip(ticks, ticks[1:]):
            assert a["right"] <= b["left"], (chart["label"], a, b)
        for box in ticks + chart["legends"]:
            assert box["left"] >= chart["frame"]["left"] - 0.5 and box["right"] <= chart["frame"]["right"] + 0.5, \
                (chart["label"], box, chart["frame"])
            assert box["bottom"] <= chart["frame"]["bottom"] + 0.5, (chart["label"], box, chart["frame"])


@pytest.mark.parametrize("width,height", WIDTHS)
def test_the_nutritionists_charts_keep_their_labels_apart(clinic, page, width, height):
    page.set_window_size(width, height)
    try:
        elisa_week(page, clinic)
        assert horizontal_overflow(page) <= 0
        found = charts(page)
        assert_readable(found)
        energy = [chart for chart in found if "kcal" in chart["label"]][0]
        # The energy axis starts at zero: its lowest gridline reads 0.
        axis = page.execute_script("""
            const svg = Array.from(document.querySelectorAll('svg.chart')).find(s => s.getAttribute('aria-label').includes('kcal'));
            return Array.from(svg.querySelectorAll('text[text-anchor=end]')).map(t => t.textContent);""")
        assert axis[0] == "0", axis
        # Elisa's last days hold unanswered meals: the eaten line stops there instead of plunging to 0.
        eaten = page.execute_script("""
            const svg = Array.from(document.querySelectorAll('svg.chart')).find(s => s.getAttribute('aria-label').includes('kcal'));
            return Array.from(svg.querySelectorAll('circle title')).map(t => t.textContent)
              .filter(t => !t.startsWith('Prescrita'));""")
        assert all(not text.endswith(": 0") for text in eaten), eaten
        shot(page, f"nutrition-charts-{width}")
    finally:
        page.set_window_size(768, 1024)


def fernanda(page, server):
    log_in(page, server, "dani")
    page.get(server.url + "/trainer")
    click_and_wait(page, page.find_element(By.PARTIAL_LINK_TEXT, "Fernanda"))


@pytest.mark.parametrize("width,height", WIDTHS)
def test_the_trainers_trend_draws_one_line_per_protocol(clinic, page, width, height):
    page.set_window_size(width, height)
    try:
        fernanda(page, clinic)
        assert horizontal_overflow(page) <= 0
        found = charts(page)
        assert_readable(found)
        fat = [chart for chart in found if chart["label"].endswith("(%)")][0]
        # Two JP3 visits, then one JP7: two colours, and only the JP3 pair is joined by a line.
        assert len(fat["colours"]) == 2, fat
        assert fat["polylines"] == 1, fat
        assert len(fat["legends"]) == 2, fat
        masses = [chart for chart in found if chart["label"].startswith("Massa")][0]
        assert len(masses["colours"]) == 4 and masses["polylines"] == 2, masses  # JP3's pair joined, JP7's point alone
        shot(page, f"trainer-trend-{width}")
        # The printed report of her last evaluation keeps the protocols apart as well.
        click_and_wait(page, page.find_elements(By.CSS_SELECTOR, "#main table.table tbody tr a")[0])
        printed = [chart for chart in charts(page) if chart["label"].endswith("(%)")][0]
        assert len(printed["colours"]) == 2 and printed["polylines"] == 1, printed
    finally:
        page.set_window_size(768, 1024)


def test_a_long_name_without_spaces_does_not_widen_the_trainers_page(clinic, page):
    log_in(page, clinic, "dani")
    page.get(clinic.url + "/clients/new")
    name = "Maximiliano" * 6
    page.find_element(By.ID, "displayName").send_keys(name)
    page.execute_script("document.getElementById('birthDate').value = '1990-01-01'")
    page.find_element(By.CSS_SELECTOR, "input[name=sex][value=male]").click()
    submit(page)
    page.set_window_size(360, 740)
    try:
        page.get(clinic.url + "/trainer")
        assert name in page.find_element(By.ID, "main").text
        width = page.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360, width
        page.get(clinic.url + "/trainer?q=Maxi")
        assert page.execute_script("return document.documentElement.scrollWidth") <= 360
        click_and_wait(page, page.find_element(By.PARTIAL_LINK_TEXT, "Maximiliano"))
        assert page.execute_script("return document.documentElement.scrollWidth") <= 360, "the client's own page"
    finally:
        page.set_window_size(768, 1024)


def test_the_daily_target_against_prescribed_and_eaten_on_a_phone_and_a_desktop(clinic, page):
    elisa_week(page, clinic)
    for field, value in [("targetKcal", "1.300"), ("targetProtein", "60"), ("targetCarbohydrate", "160"), ("targetFat", "40")]:
        element = page.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    click_and_wait(page, page.find_element(By.XPATH, "//button[contains(., 'Salvar a meta')]"))
    assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Meta diária salva."
    assert serious_accessibility_violations(page) == []
    for width, height in WIDTHS:
        page.set_window_size(width, height)
        try:
            assert horizontal_overflow(page) <= 0
            table = page.find_element(By.CSS_SELECTOR, ".target-table")
            headers = [th.get_attribute("textContent") for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
            assert any("meta 1.300 kcal" in header for header in headers), headers
            figures = table.find_elements(By.CSS_SELECTOR, ".target-figure")
            assert figures and all(f.get_attribute("class").split()[-1] in ("target-under", "target-within", "target-over")
                                   for f in figures)
            # Colour is not alone: each figure carries its mark.
            assert all(any(mark in f.text for mark in "✓↓↑") for f in figures)
            if SCREENS:
                page.execute_script("document.querySelector('.daily-target').scrollIntoView({block: 'start'})")
                page.save_screenshot(os.path.join(SCREENS, f"nutrition-target-{width}.png"))
        finally:
            page.set_window_size(768, 1024)
