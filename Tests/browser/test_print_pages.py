"""Every printable page chooses its own paper (issue 53): Chromium prints each as the print dialog would, on A4
and on Letter, and each comes out in its own orientation on the number of pages it should. Boards and the book
have their own test (test_print.py)."""
import os
import shutil
import sqlite3
import tempfile

import pytest

from conftest import RunningServer
from test_accounts import log_in
from test_print import PAPERS, pages_of, printed


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-print-pages-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def ids(clinic):
    with sqlite3.connect(os.path.join(clinic.data_dir, "db", "tagarela.sqlite")) as db:
        person = dict(db.execute("SELECT displayName, id FROM user").fetchall())
        evaluation = db.execute("SELECT max(id) FROM evaluation WHERE patientId = ?", (person["Gustavo Pereira"],)).fetchone()[0]
    return person, evaluation


# (who prints, the page, its orientation, the most pages it may take)
def printable(person, evaluation):
    carla, elisa, gustavo = person["Carla Costa"], person["Elisa Martins"], person["Gustavo Pereira"]
    return [
        ("bruno", f"/patients/{carla}/observations/print", "portrait", 1),
        ("dani", f"/clients/{gustavo}/evaluations/{evaluation}", "portrait", 1),
        ("elisa", "/meals/plan", "landscape", 1),
        ("nadia", f"/patients/{elisa}/nutrition/plan", "landscape", 1),
        ("ana", f"/patients/{carla}/report", "portrait", 3),
    ]


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_each_printable_page_prints_in_its_own_orientation(clinic, page, paper):
    person, evaluation = ids(clinic)
    for who, path, orientation, most in printable(person, evaluation):
        page.delete_all_cookies()
        log_in(page, clinic, who)
        page.get(clinic.url + path)
        sheets = pages_of(printed(page, paper))
        shapes = {"landscape" if w > h else "portrait" for w, h in sheets}
        assert shapes == {orientation}, (path, paper, sheets)
        assert 1 <= len(sheets) <= most, (path, paper, len(sheets))
        width, height = PAPERS[paper]
        long_side = max(max(w, h) for w, h in sheets) / 72
        assert abs(long_side - max(width, height)) < 0.05, (path, paper, sheets)  # the paper asked for, not A4 always
