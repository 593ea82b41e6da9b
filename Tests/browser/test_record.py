"""The patient record in a real browser: the overview shows each part the demo patients have, at a
desk (1280 × 800) and on a phone (360 × 740), without scrolling sideways; the worklist orders Carla,
Davi and Elisa as their data says; the progress report prints on A4 through Chromium's print to PDF.
With TAGARELA_SCREENS set to a folder, the overview and the worklist are saved there as PNGs at
360 × 740, 768 × 1024 and 1280 × 800."""
import base64
import os
import re
import shutil
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions

from conftest import RunningServer
from test_accounts import log_in
from test_print import pages_of

SIZES = [(1280, 800), (360, 740)]
SHOT_SIZES = [(360, 740), (768, 1024), (1280, 800)]
SCREENS = os.environ.get("TAGARELA_SCREENS")
A4_POINTS = (595, 842)


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-record-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def patient_path(page, server, name):
    """The overview of a patient, found from the dashboard's links."""
    for link in page.find_elements(By.CSS_SELECTOR, "a[href^='/patients/']"):
        if link.text.strip() == name:
            return re.sub(r"^https?://[^/]+", "", link.get_attribute("href"))
    raise AssertionError(f"no link to {name}")


def worklist(page):
    return [a.text for a in page.find_elements(By.CSS_SELECTOR, ".worklist h4 a")]


def sections(page):
    return {s.get_attribute("aria-labelledby") for s in page.find_elements(By.CSS_SELECTOR, ".record-card")}


def fits(page):
    return page.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def resize(page, width, height):
    page.set_window_size(width, height)
    # The window's outer size includes nothing in headless mode, but make sure of the viewport.
    inner = page.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner[0] != width:
        page.set_window_size(width + (width - inner[0]), height + (height - inner[1]))


def shoot(page, name, width, height):
    if not SCREENS:
        return
    os.makedirs(SCREENS, exist_ok=True)
    resize(page, width, height)
    total = page.execute_script("return document.documentElement.scrollHeight")
    page.set_window_size(page.get_window_size()["width"], min(total + 120, 4000))
    page.save_screenshot(os.path.join(SCREENS, f"{name}-{width}x{height}.png"))
    resize(page, width, height)


@pytest.mark.parametrize("width,height", SIZES)
def test_the_worklist_orders_the_demo_patients_as_their_data_says(clinic, page, width, height):
    resize(page, width, height)
    log_in(page, clinic, "nadia")
    # Elisa: one of Nádia's goals behind and overdue meals; Carla: overdue meals and low adherence (her goals
    # behind are Ana's speech goals, which a nutritionist's worklist does not count).
    assert worklist(page) == ["Elisa Martins", "Carla Costa"], worklist(page)
    reasons = [item.find_element(By.CSS_SELECTOR, ".reasons").text for item in page.find_elements(By.CSS_SELECTOR, ".worklist-item")]
    assert "atrasadas" in reasons[1] and "Adesão baixa" in reasons[1] and "Metas" not in reasons[1], reasons
    assert fits(page)
    for size in SHOT_SIZES:
        shoot(page, "worklist-nadia", *size)
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    assert worklist(page) == ["Carla Costa", "Davi Alves"] or worklist(page) == ["Davi Alves"], worklist(page)
    assert fits(page)
    for size in SHOT_SIZES:
        shoot(page, "worklist-ana", *size)


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("username,patient,expected", [
    # Every demo patient has goals (DemoGoals), and whoever sees a patient sees their goals.
    ("ana", "Carla Costa", {"goals-title", "communication-title", "notes-title"}),
    ("ana", "Davi Alves", {"goals-title", "communication-title", "notes-title"}),
    ("nadia", "Carla Costa", {"goals-title", "meals-title"}),
    ("nadia", "Elisa Martins", {"goals-title", "meals-title", "body-title"}),
    ("bruno", "Carla Costa", {"goals-title", "communication-title", "notes-title"}),
])
def test_the_overview_shows_each_part_without_scrolling_sideways(clinic, page, width, height, username, patient, expected):
    resize(page, width, height)
    log_in(page, clinic, username)
    page.get(clinic.url + patient_path(page, clinic, patient))
    assert sections(page) == expected, (username, patient)
    assert fits(page), (username, patient, width)
    for card in page.find_elements(By.CSS_SELECTOR, ".record-card"):
        assert card.rect["x"] >= 0 and card.rect["x"] + card.rect["width"] <= width + 1
    if "communication-title" in expected:
        line = page.find_element(By.CSS_SELECTOR, ".sparkline polyline").get_attribute("points")
        assert len(line.split()) == 30  # one point a day
    if width == 1280:
        # A wide screen is used: the details sit beside the record, not under it.
        side = page.find_element(By.CSS_SELECTOR, ".record-side").rect
        main = page.find_element(By.CSS_SELECTOR, ".record-main").rect
        assert side["x"] > main["x"] + main["width"] - 1 and side["y"] < main["y"] + 50
    if (username, patient) in (("ana", "Carla Costa"), ("nadia", "Elisa Martins")) and width == 1280:
        for size in SHOT_SIZES:
            shoot(page, f"overview-{username}-{patient.split()[0].lower()}", *size)


def test_the_progress_report_prints_on_a4(clinic, page):
    resize(page, 1280, 800)
    log_in(page, clinic, "ana")
    page.get(clinic.url + patient_path(page, clinic, "Carla Costa") + "/report")
    assert page.find_element(By.TAG_NAME, "h1").text.endswith("Carla Costa")
    assert len(page.find_elements(By.CSS_SELECTOR, "section[aria-labelledby=communication-title] svg.chart")) == 2
    assert len(page.find_elements(By.CSS_SELECTOR, ".goal-chart svg.chart")) >= 2, "the goals' weeks"
    options = PrintOptions()
    options.page_width = 21.0
    options.page_height = 29.7
    options.background = True
    pdf = base64.b64decode(page.print_page(options))
    sheets = pages_of(pdf)
    assert 1 <= len(sheets) <= 4, len(sheets)
    for width, height in sheets:
        assert abs(width - A4_POINTS[0]) < 2 and abs(height - A4_POINTS[1]) < 2, (width, height)
    if SCREENS:
        os.makedirs(SCREENS, exist_ok=True)
        with open(os.path.join(SCREENS, "report-carla.pdf"), "wb") as f:
            f.write(pdf)
    # The period form and the buttons are not printed.
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert not page.find_element(By.CSS_SELECTOR, ".report-period").is_displayed()
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
