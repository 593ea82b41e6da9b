"""The nutritionist's week on a desktop and on a phone, the weekly meal plan on one A4 page, and the
patient's today and week on a phone. One server with the demo clinic for the whole file."""
import base64
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions

from conftest import RunningServer, serious_accessibility_violations
from test_accounts import click_and_wait, log_in

SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder: the week and the printed plan as PNG


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-week-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def elisa_week(page, server):
    """Nádia's week page of Elisa, found from the dashboard as a nutritionist would."""
    log_in(page, server, "nadia")
    page.get(server.url + "/clinician")
    link = [a for a in page.find_elements(By.CSS_SELECTOR, "#main a[href$='/nutrition']") if "Elisa" in a.text][0]
    url = link.get_attribute("href")
    page.get(url)
    return url


def horizontal_overflow(page):
    return page.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")


def shot(page, name):
    """The whole page, not only what the window shows."""
    if SCREENS:
        os.makedirs(SCREENS, exist_ok=True)
        size = page.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        image = page.execute_cdp_cmd("Page.captureScreenshot", {"captureBeyondViewport": True, "clip": {
            "x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 4000), "scale": 1}})
        with open(os.path.join(SCREENS, name + ".png"), "wb") as file:
            file.write(base64.b64decode(image["data"]))


def printed_a4(page):
    options = PrintOptions()
    options.page_width = 21.0
    options.page_height = 29.7
    options.orientation = "portrait"
    options.background = True
    return base64.b64decode(page.print_page(options))


def page_count(pdf):
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def test_the_week_fills_a_desktop_without_sideways_scrolling(clinic, page):
    page.set_window_size(1280, 800)
    try:
        elisa_week(page, clinic)
        assert horizontal_overflow(page) <= 0
        grid = page.find_element(By.CSS_SELECTOR, ".week-grid")
        assert grid.size["width"] > 900, grid.size  # the desktop's width, not a phone column
        days = page.find_elements(By.CSS_SELECTOR, ".week-grid tbody tr")
        assert len(days) == 7
        headers = [th.text for th in page.find_elements(By.CSS_SELECTOR, ".week-grid thead th")]
        assert "Almoço" in headers and "Jantar" in headers, headers
        # Summaries above the grid, visible without scrolling past the week.
        summary_top = page.find_element(By.ID, "adherence-title").location["y"]
        assert summary_top < grid.location["y"]
        assert re.search(r"\d+ %", page.find_element(By.CSS_SELECTOR, ".adherence-rate").text)
        # Each cell says its status in a word and a mark, not by colour alone.
        blocks = page.find_elements(By.CSS_SELECTOR, ".week-meal")
        assert len(blocks) > 10
        for block in blocks:
            assert block.find_element(By.CSS_SELECTOR, ".week-mark").text.strip()
            assert block.find_element(By.CSS_SELECTOR, ".week-status").text.strip()
        assert page.find_elements(By.CSS_SELECTOR, ".week-meal.status-overdue") or \
            page.find_elements(By.CSS_SELECTOR, ".week-meal.status-upcoming")
        assert serious_accessibility_violations(page) == []
        shot(page, "week-1280")
        # A pending meal is edited in one click from its cell.
        edit = page.find_element(By.CSS_SELECTOR, ".week-meal .week-edit")
        click_and_wait(page, edit)
        assert "/edit" in page.current_url and page.find_element(By.ID, "quantity_0")
        page.back()
        # Older and later weeks are one click away.
        title = page.find_element(By.ID, "week-title").text
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".week-links a[rel=prev]"))
        assert page.find_element(By.ID, "week-title").text != title
        assert "week=" in page.current_url
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Esta semana"))
        assert page.find_element(By.ID, "week-title").text == title
    finally:
        page.set_window_size(768, 1024)


def test_the_week_is_a_list_of_days_on_a_phone(clinic, page):
    page.set_window_size(360, 740)
    try:
        elisa_week(page, clinic)
        assert horizontal_overflow(page) <= 0
        assert not page.find_element(By.CSS_SELECTOR, ".week-grid thead").is_displayed()
        days = [day for day in page.find_elements(By.CSS_SELECTOR, ".week-grid tbody tr") if day.is_displayed()]
        assert len(days) == 7
        first_meal = page.find_element(By.CSS_SELECTOR, ".week-meal")
        label = first_meal.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".cell-type")
        assert label.is_displayed() and label.text  # the meal's kind, which the hidden header said on a desktop
        for element in page.find_elements(By.CSS_SELECTOR, ".week-meal, .week-links a"):
            if element.is_displayed():
                assert element.rect["x"] >= 0 and element.rect["x"] + element.rect["width"] <= 361, element.rect
        shot(page, "week-360")
    finally:
        page.set_window_size(768, 1024)


def test_the_weekly_meal_plan_prints_on_one_a4_page(clinic, page):
    week_url = elisa_week(page, clinic)
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Imprimir o plano da semana"))
    assert page.current_url.startswith(week_url + "/plan")
    assert page.find_element(By.CSS_SELECTOR, "button[data-print]").is_displayed()
    meals = page.find_elements(By.CSS_SELECTOR, ".plan-grid .plan-meal")
    assert len(meals) >= 20, len(meals)
    pdf = printed_a4(page)
    if SCREENS and shutil.which("pdftoppm"):
        os.makedirs(SCREENS, exist_ok=True)
        with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
            file.write(pdf)
            file.flush()
            subprocess.run(["pdftoppm", "-png", "-r", "70", file.name, os.path.join(SCREENS, "plan-a4")], check=True)
    assert page_count(pdf) == 1
    # The patient prints the same plan from her own page.
    page.delete_all_cookies()
    log_in(page, clinic, "elisa")
    page.get(clinic.url + "/meals/plan")
    assert page_count(printed_a4(page)) == 1


def test_the_patient_sees_today_and_the_week_on_a_phone(clinic, page):
    page.set_window_size(360, 740)
    try:
        log_in(page, clinic, "elisa")
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a.tile-plan"))
        assert page.current_url.endswith("/meals/plan")
        today = page.find_element(By.CSS_SELECTOR, ".meal-plan-today")
        meals = today.find_elements(By.CSS_SELECTOR, ".plan-meal")
        assert len(meals) == 4, len(meals)  # the demo prescribes four meals a day
        assert all(meal.find_element(By.CSS_SELECTOR, ".plan-lines li").text for meal in meals), "with their foods"
        assert [d for d in page.find_elements(By.CSS_SELECTOR, ".plan-grid tbody tr") if d.is_displayed()]
        assert horizontal_overflow(page) <= 0
        assert serious_accessibility_violations(page) == []
        shot(page, "patient-plan-360")
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".week-links a[rel=next]"))
        assert "week=" in page.current_url
        assert not page.find_elements(By.CSS_SELECTOR, ".meal-plan-today"), "today is shown in its own week only"
    finally:
        page.set_window_size(768, 1024)
