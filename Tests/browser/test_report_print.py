"""The progress report on paper, for each demo patient and each reader who prints one: Chromium prints it
to an A4 PDF as the print dialog would, pdftotext reads each page back, and page 1 holds the goals (not the
title alone), and no goal is cut between two pages (its title and its measure on one page). A goal's page
draws its weeks. With TAGARELA_SCREENS set, the goal chart is saved at 1280 × 800 and 360 × 740 and the
first report page as a PNG."""
import base64
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import RunningServer
from test_accounts import log_in
from test_print import pages_of, printed

SCREENS = os.environ.get("TAGARELA_SCREENS")


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-report-print-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def page_texts(pdf):
    """The text of each printed page, in order."""
    folder = tempfile.mkdtemp(prefix="tagarela-report-pdf-")
    try:
        path = os.path.join(folder, "report.pdf")
        with open(path, "wb") as f:
            f.write(pdf)
        texts = []
        for number in range(1, len(pages_of(pdf)) + 1):
            out = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number), "-layout", path, "-"],
                                 capture_output=True, check=True, text=True).stdout
            texts.append(" ".join(out.split()))
        return texts
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def squeeze(text):
    return " ".join(text.split())


def report_path(page, server, name):
    """The report of `name`, reached as its reader reaches it: the patient page's or the client page's link."""
    for link in page.find_elements(By.CSS_SELECTOR, "a[href^='/patients/'], a[href^='/clients/']"):
        if link.text.strip() == name:
            page.get(link.get_attribute("href"))
            break
    else:
        raise AssertionError(f"no link to {name}")
    return re.sub(r"^https?://[^/]+", "", page.find_element(By.CSS_SELECTOR, "a[href$='/report']").get_attribute("href"))


@pytest.mark.parametrize("reader,patient", [
    ("ana", "Carla Costa"), ("ana", "Davi Alves"), ("nadia", "Elisa Martins"), ("nadia", "Carla Costa"),
    ("bruno", "Carla Costa"), ("dani", "Fernanda Dias"),
])
def test_the_report_prints_goals_on_page_one_and_never_splits_a_goal(clinic, page, reader, patient):
    page.delete_all_cookies()
    page.set_window_size(1280, 800)
    log_in(page, clinic, reader)
    page.get(clinic.url + report_path(page, clinic, patient))
    goals = [(squeeze(goal.find_element(By.CSS_SELECTOR, ".goal-title").text),
              squeeze(goal.find_element(By.CSS_SELECTOR, ".muted").text))
             for goal in page.find_elements(By.CSS_SELECTOR, ".progress-report .goal")]
    assert goals, f"{patient} has goals in the demo"
    heading = squeeze(page.find_element(By.ID, "goals-title").text)
    pdf = printed(page, "A4")
    sheets = pages_of(pdf)
    assert all(abs(w - 595) < 2 and abs(h - 842) < 2 for w, h in sheets), sheets
    texts = page_texts(pdf)
    assert heading in texts[0] and goals[0][0] in texts[0], f"page 1 of {patient}'s report: {texts[0][:300]}"
    for title, measure in goals:
        holding = [n for n, text in enumerate(texts) if title in text]
        assert holding, (title, "not printed")
        assert any(measure.split(" · ")[0] in texts[n] for n in holding), (title, measure, "split from its goal")
    if SCREENS and reader == "ana" and patient == "Carla Costa":
        os.makedirs(SCREENS, exist_ok=True)
        with open(os.path.join(SCREENS, "report-carla.pdf"), "wb") as f:
            f.write(pdf)


def test_a_goal_draws_its_weeks(clinic, page):
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    page.get(f"{clinic.url}/patients/{7}/goals")
    links = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".goal-list a, a[href*='/goals/']")
             if re.search(r"/goals/\d+$", a.get_attribute("href") or "")]
    assert links
    drawn = None
    for link in links:
        page.get(link)
        if page.find_elements(By.CSS_SELECTOR, ".goal-history-chart svg.chart"):
            drawn = link
            break
    assert drawn, "a demo goal of Carla's that ran for two weeks or more draws its weeks"
    for width, height in [(1280, 800), (360, 740)]:
        page.set_window_size(width, height)
        page.get(drawn)
        chart = page.find_element(By.CSS_SELECTOR, ".goal-history-chart svg.chart")
        box = chart.rect
        assert box["width"] <= width and box["width"] > 250, box
        assert page.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        if SCREENS:
            os.makedirs(SCREENS, exist_ok=True)
            page.execute_script("arguments[0].scrollIntoView({block: 'center'})", chart)
            page.save_screenshot(os.path.join(SCREENS, f"goal-history-{width}x{height}.png"))
