"""Boards on paper, through Chromium's own print to PDF: each demo board is exactly one page of A4 and
of Letter, turned to its grid's shape; Carla's communication book is a cover and one page per plan,
and a folder cell names the page of its board. One server and one browser for the whole file."""
import base64
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import RunningServer, serious_accessibility_violations
from test_accounts import log_in

CARLA, DAVI = 7, 8
PAPERS = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}
SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder: a printed book page as PNG (needs pdftoppm)


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-print-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def printed(page, paper="A4"):
    """The current page printed by Chromium as the print dialog would: the page's own @page sizes win."""
    width, height = PAPERS[paper]
    answer = page.execute_cdp_cmd("Page.printToPDF", {
        "printBackground": True, "preferCSSPageSize": True, "paperWidth": width, "paperHeight": height})
    return base64.b64decode(answer["data"])


def pages_of(pdf):
    """Each page's (width, height) in points, read from the PDF's page objects."""
    boxes = re.findall(rb"/Type\s*/Page\b(?!s).*?/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf, re.S)
    if not boxes:  # the box before the type, as some writers order it
        boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\].*?/Type\s*/Page\b(?!s)", pdf, re.S)
    assert len(boxes) == len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    return [(float(w), float(h)) for w, h in boxes]


def board_paths(page, server):
    page.get(f"{server.url}/patients/{CARLA}/plans")
    carla = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "a[href$='/print']")]
    page.get(f"{server.url}/patients/{DAVI}/plans")
    davi = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "a[href$='/print']")]
    return sorted(set(carla + davi))


def test_every_demo_board_prints_on_exactly_one_page(clinic, page):
    log_in(page, clinic, "ana")
    paths = board_paths(page, clinic)
    # 3 boards and a big-symbol plan each for Carla and Davi, and Carla's starter set: a 6 × 10 core board, 4 folders
    assert len(paths) == 13, paths
    for url in paths:
        page.get(url)
        shape = page.find_element(By.CSS_SELECTOR, ".print-sheet").get_attribute("class")
        for paper in PAPERS:
            sheets = pages_of(printed(page, paper))
            assert len(sheets) == 1, (url, paper, len(sheets))
            width, height = sheets[0]
            landscape = width > height
            assert landscape == ("print-landscape" in shape), (url, paper, sheets[0], shape)
            short, long = sorted((width, height))
            expected = sorted(p * 72 for p in PAPERS[paper])
            assert abs(short - expected[0]) < 2 and abs(long - expected[1]) < 2, (url, paper, sheets[0])
        # Colour borders and legible labels: what the sheet draws, measured in the print layout.
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        try:
            found = page.execute_script("""
                const cells = [...document.querySelectorAll('.print-sheet .cell:not(.empty)')];
                return {borders: cells.map((c) => getComputedStyle(c).borderTopColor),
                        fonts: [...document.querySelectorAll('.print-sheet .cell-label')].map((l) => parseFloat(getComputedStyle(l).fontSize)),
                        cut: [...document.querySelectorAll('.print-sheet .cell-label')].filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent)};""")
        finally:
            page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        assert found["cut"] == [], url
        assert min(found["fonts"]) >= 10, (url, found["fonts"])  # 10 px = 7.5 pt, at the smallest
        assert any(colour not in ("rgb(138, 144, 150)", "rgb(255, 255, 255)") for colour in found["borders"]), url


def test_carlas_communication_book_is_a_cover_and_a_page_per_plan(clinic, page):
    log_in(page, clinic, "bruno")  # her father prints it at home
    page.get(f"{clinic.url}/patients/{CARLA}/plans")
    plans = page.find_elements(By.CSS_SELECTOR, ".plan-group li")
    page.find_element(By.CSS_SELECTOR, f"a[href='/patients/{CARLA}/book']").click()
    assert page.find_element(By.CSS_SELECTOR, ".book-cover h1").text == "Caderno de comunicação"
    cover = page.find_element(By.CSS_SELECTOR, ".book-cover").text
    assert "Carla Costa" in cover and "Ana Souza" in cover
    assert serious_accessibility_violations(page) == []
    sheets = page.find_elements(By.CSS_SELECTOR, ".print-sheet")
    assert len(sheets) == len(plans) + 1 == 11  # 5 plans of her own, 5 boards of her starter core set

    # The folder on "Meu dia" names the page of "Coisas e comidas".
    titles = [sheet.find_element(By.CSS_SELECTOR, "h2").text for sheet in sheets[1:]]
    things = titles.index("Coisas e comidas") + 2
    notes = [note.text for note in page.find_elements(By.CSS_SELECTOR, ".cell-folder .cell-note")]
    folders = [titles.index(f"Núcleo 60 · {name}") + 2 for name in ("Comida", "Lugares", "Pessoas", "Emoções")]
    assert sorted(notes) == sorted(f"→ p. {number}" for number in [things] + folders), notes

    pdf = printed(page)
    assert len(pages_of(pdf)) == 11
    pdf = printed(page, "Letter")
    assert len(pages_of(pdf)) == 11
    if SCREENS and shutil.which("pdftoppm"):
        os.makedirs(SCREENS, exist_ok=True)
        with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
            file.write(printed(page))
            file.flush()
            for number in (1, 2):
                subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", str(number), "-l", str(number), "-singlefile",
                                file.name, os.path.join(SCREENS, f"book-page-{number}")], check=True)


def test_a_book_is_only_for_those_who_may_see_the_patient(clinic, page):
    log_in(page, clinic, "beatriz")  # Davi's teacher, not Carla's
    page.get(f"{clinic.url}/patients/{CARLA}/book")
    assert page.find_elements(By.CSS_SELECTOR, ".print-sheet") == []
    page.get(f"{clinic.url}/patients/{DAVI}/book")
    assert len(page.find_elements(By.CSS_SELECTOR, ".print-sheet")) == 6
