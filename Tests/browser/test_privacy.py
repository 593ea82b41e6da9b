"""The patient's rights over their data (issue 49, item 2), in a real browser: Elisa, an adult patient, downloads
everything Tagarela holds about her and reads it offline; she asks for an erasure; the administrator carries it out;
after that her pages, her meal photo and her exports are gone and the audit log keeps its rows under a pseudonym."""
import base64
import json
import os
import pathlib
import shutil
import sqlite3
import tempfile
import time
import uuid
import zipfile

import pytest
from selenium.webdriver.common.by import By

from conftest import RunningServer, serious_accessibility_violations, screenshot
from test_accounts import click_and_wait, log_in, path_of

# A real 4×2 PNG, as ffmpeg writes it.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAABAAAAAQBPJcTWAAAAEElEQVR4nGP4y8AARwzIHABuygfpbgaHdgAAAABJRU5ErkJggg==")


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-privacy-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def with_meal_photo(clinic):
    """Elisa's last answered meal gets a photo, as the check-in stores it."""
    media = pathlib.Path(clinic.data_dir) / "media" / "photos"
    media.mkdir(parents=True, exist_ok=True)
    name = f"photos/{uuid.uuid4()}.jpg"
    (pathlib.Path(clinic.data_dir) / "media" / name).write_bytes(PNG)
    with sqlite3.connect(os.path.join(clinic.data_dir, "db", "tagarela.sqlite")) as db:
        db.execute("UPDATE meal SET photoPath = ? WHERE id = (SELECT m.id FROM meal m JOIN user u ON u.id = m.patientId "
                   "WHERE u.username = 'elisa' AND m.status <> 'pending' ORDER BY m.date DESC LIMIT 1)", (name,))
    return name


def downloaded(page, folder, link):
    page.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    link.click()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done = [p for p in folder.iterdir() if p.suffix == ".zip"]
        if done:
            return done[0]
        time.sleep(0.1)
    raise AssertionError("no zip was downloaded")


def test_a_patient_downloads_her_data_and_the_clinic_erases_it(clinic, page, tmp_path):
    photo = with_meal_photo(clinic)
    log_in(page, clinic, "elisa")
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Dados e privacidade"))
    assert page.find_element(By.TAG_NAME, "h1").text == "Seus dados"
    assert serious_accessibility_violations(page) == []
    for width, height in ((360, 740), (1280, 800)):
        page.set_window_size(width, height)
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(page, f"privacy-patient-{width}.png")
    page.set_window_size(768, 1024)

    archive = downloaded(page, tmp_path, page.find_element(By.LINK_TEXT, "Baixar tudo (zip)"))
    assert archive.name.startswith("tagarela-elisa-martins-")
    unpacked = tmp_path / "archive"
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        z.extractall(unpacked)
    assert {"index.html", "data.json", "csv/meals.csv", "csv/weights.csv"} <= set(names), names
    meal_photos = [n for n in names if n.startswith("media/meals/")]
    assert len(meal_photos) == 1 and (unpacked / meal_photos[0]).read_bytes() == PNG
    data = json.loads((unpacked / "data.json").read_text())
    assert data["sections"]["person"][0]["name"] == "Elisa Martins"
    assert len(data["sections"]["meals"]) > 5

    # The archive reads offline, in any browser: her name, her meals, her photo shown.
    page.get((unpacked / "index.html").as_uri())
    assert page.find_element(By.TAG_NAME, "h1").text == "Tagarela: os dados de Elisa Martins"
    assert page.find_element(By.ID, "meals").find_elements(By.CSS_SELECTOR, "tbody tr")
    image = page.find_element(By.CSS_SELECTOR, "#media img")
    assert page.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 4
    screenshot(page, "privacy-archive-1280.png")

    # She asks for the erasure; the clinic's administrator carries it out with its reason.
    page.get(clinic.url + "/patient")
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Dados e privacidade"))
    page.find_element(By.ID, "reason").send_keys("Vou mudar de clínica")
    page.find_element(By.CSS_SELECTOR, "input[name=confirm]").click()
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[action$='/privacy/erasure'] button"))
    assert "aguardando a decisão da clínica" in page.find_element(By.CSS_SELECTOR, "main").text
    elisa_cookies = page.get_cookies()

    page.delete_all_cookies()
    log_in(page, clinic, "admin")
    click_and_wait(page, page.find_element(By.PARTIAL_LINK_TEXT, "Pedidos de exclusão (1 aguardando)"))
    assert "Nádia Lima" in page.find_element(By.CSS_SELECTOR, ".erasure").text
    assert serious_accessibility_violations(page) == []
    page.find_element(By.CSS_SELECTOR, ".erasure textarea[name=note]").send_keys("Pedido da paciente; sem obrigação de guarda.")
    screenshot(page, "privacy-admin-768.png")
    page.find_element(By.CSS_SELECTOR, ".erasure input[name=confirm]").click()
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".erasure button[formaction$='/erase']"))
    assert "Apagado em" in page.find_element(By.CSS_SELECTOR, ".erasure").text
    assert "Elisa Martins" not in page.find_element(By.CSS_SELECTOR, "main").text

    page.get(clinic.url + "/admin/audit")
    log = page.find_element(By.CSS_SELECTOR, "main").text
    assert "erased person #1" in log and "Elisa Martins" not in log

    # Her pages, her photo and her exports are gone; her session ended with her account.
    page.delete_all_cookies()
    log_in(page, clinic, "nadia")
    with sqlite3.connect(os.path.join(clinic.data_dir, "db", "tagarela.sqlite")) as db:
        assert db.execute("SELECT count(*) FROM user WHERE username = 'elisa'").fetchone()[0] == 0
    page.get(clinic.url + "/clinician")
    assert "Elisa Martins" not in page.find_element(By.CSS_SELECTOR, "main").text
    assert not (pathlib.Path(clinic.data_dir) / "media" / photo).exists()
    page.delete_all_cookies()
    page.get(clinic.url + "/")
    for cookie in elisa_cookies:
        page.add_cookie({k: v for k, v in cookie.items() if k in ("name", "value", "path")})
    page.get(clinic.url + "/patient")
    assert path_of(page).startswith("/login")
    log_in(page, clinic, "elisa", refused=True)
    assert path_of(page).startswith("/login")
