"""Open Board sets from other apps and modeling: the import page shows how far a long import is and
lands on its counts; in patient mode an adult turns "Adult is modeling" on, taps, and the usage history
shows those taps as modeling."""
import io
import json
import os
import pathlib
import shutil
import tempfile
import time
import uuid
import zipfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, open_carlas_board, path_of

SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder: screenshots to look at, when set
SIZES = [(360, 740), (1280, 800)]


def shoot(driver, name):
    if not SCREENS:
        return
    pathlib.Path(SCREENS).mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        driver.set_window_size(width, height)
        time.sleep(0.3)
        driver.save_screenshot(os.path.join(SCREENS, f"{name}-{width}x{height}.png"))
    driver.set_window_size(768, 1024)


def board_set(boards=8, words=5):
    """A set whose words are new to the server (each needs a generated clip): the conversion takes a
    while, so the page has progress to show."""
    tag = uuid.uuid4().hex[:6]
    paths = {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for index in range(boards):
            following = (index + 1) % boards
            buttons = [{"id": f"w{n}", "label": f"palavra {tag} {index} {n}"} for n in range(words)]
            # A folder named as the board it opens needs no word of its own.
            buttons.append({"id": "f", "label": "Conjunto de teste" if following == 0 else f"Página {following}",
                            "load_board": {"id": f"b{following}", "path": f"boards/b{following}.obf"}})
            columns = 3
            ids = [button["id"] for button in buttons]
            order = [ids[i:i + columns] + [None] * (columns - len(ids[i:i + columns])) for i in range(0, len(ids), columns)]
            archive.writestr(f"boards/b{index}.obf", json.dumps({
                "format": "open-board-0.1", "id": f"b{index}", "locale": "pt-BR",
                "name": "Conjunto de teste" if index == 0 else f"Página {index}",
                "buttons": buttons, "grid": {"rows": len(order), "columns": columns, "order": order}}))
            paths[f"b{index}"] = f"boards/b{index}.obf"
        archive.writestr("manifest.json", json.dumps({"format": "open-board-0.1", "root": "boards/b0.obf",
                                                      "paths": {"boards": paths}}))
    return buffer.getvalue(), boards * words


def patient_link(page, server, name):
    page.get(server.url + "/clinician")
    return [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "a") if name in a.text][0]


def test_a_set_imports_with_its_progress_shown_and_lands_on_its_counts(demo_server, page):
    # Its own browser that does not wait for pages to load, so it can read the page while the import runs.
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=768,1024", "--lang=pt-BR"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "pt-BR,pt"})
    options.page_load_strategy = "none"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    folder = tempfile.mkdtemp(prefix="obf-browser-")
    try:
        content, clips = board_set()
        path = os.path.join(folder, "conjunto.obz")
        with open(path, "wb") as file:
            file.write(content)

        def loaded(selector):
            WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete"
                                            and d.find_elements(By.CSS_SELECTOR, selector))

        driver.get(demo_server.url + "/login")
        loaded("#username")
        driver.find_element(By.ID, "username").send_keys("ana")
        driver.find_element(By.ID, "password").send_keys("ola-tagarela")
        driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        WebDriverWait(driver, 20).until(lambda d: "/clinician" in d.current_url)
        loaded("main")
        carla = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "a") if "Carla" in a.text][0]
        driver.get(carla + "/boards/import")
        loaded("#obf-import")
        assert driver.find_element(By.ID, "import-progress").get_attribute("hidden") is not None
        driver.find_element(By.ID, "file").send_keys(path)
        driver.find_element(By.ID, "import-submit").click()

        # The page sends the file with fetch and polls meanwhile; read what it says until the result page opens.
        seen, fractions = [], []
        deadline = time.monotonic() + 600
        while "/obf/imports/" not in driver.current_url and time.monotonic() < deadline:
            try:
                state = driver.execute_script(
                    "const t = document.getElementById('import-progress-text'), b = document.getElementById('import-progress-bar');"
                    "return t && !document.getElementById('import-progress').hidden"
                    "  ? [t.textContent, b.hasAttribute('value') ? b.value : null, b.max] : null")
            except Exception:  # the result page is replacing this one
                state = None
            if state and (not seen or seen[-1] != state[0]):
                seen.append(state[0])
            if state and state[1] is not None:
                fractions.append((state[1], state[2]))
            time.sleep(0.1)
        print(f"\nimport progress seen: {seen[:3]} … {seen[-3:]} ({len(seen)} states)")
        assert "/obf/imports/" in driver.current_url, seen
        assert any(text.startswith("Convertendo figuras e sons:") and f"de {clips}." in text for text in seen), seen
        assert any(done < total for done, total in fractions), "a part done was shown, not only the end"
        assert fractions == sorted(fractions), "the bar only moves forward"

        loaded("#import-counts")
        counts = {dt.text: dd.text for dt, dd in zip(driver.find_elements(By.CSS_SELECTOR, "#import-counts dt"),
                                                      driver.find_elements(By.CSS_SELECTOR, "#import-counts dd"))}
        assert counts["Quadros"] == "8" and counts["Botões"] == str(8 * 6), counts
        assert "Conjunto de teste" in driver.find_element(By.CSS_SELECTOR, "main").text
        assert serious_accessibility_violations(driver) == []
        shoot(driver, "obf-import-result")

        # The format's own lots_of_stuff.obz: imported, with the buttons that lost their picture listed.
        driver.get(carla + "/boards/import")
        loaded("#obf-import")
        sample = str(pathlib.Path(__file__).resolve().parents[1] / "Fixtures/obf-samples/lots_of_stuff.obz")
        driver.find_element(By.ID, "file").send_keys(sample)
        driver.find_element(By.ID, "import-submit").click()
        WebDriverWait(driver, 300).until(lambda d: "/obf/imports/" in d.current_url)
        loaded("#import-counts")
        warnings = driver.find_element(By.ID, "warnings-title").text
        assert warnings.startswith("12 botões"), warnings  # 7 without a picture, 2 hidden, 2 `:clear`, 1 folder to a board named only by url
        shoot(driver, "obf-import-warnings")
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)


def test_an_adult_turns_modeling_on_taps_and_the_history_shows_it_as_modeling(demo_server, page):
    carla = open_carlas_board(page, demo_server)
    board = path_of(page)
    assert board.startswith("/play/")
    switch = page.find_element(By.CSS_SELECTOR, "button[role=switch]")
    assert switch.get_attribute("aria-checked") == "false"
    assert switch.text == "Adulto modelando"
    click_and_wait(page, switch)
    assert path_of(page) == board, "the switch comes back to the board"
    switch = page.find_element(By.CSS_SELECTOR, "button[role=switch]")
    assert switch.get_attribute("aria-checked") == "true" and "ligado" in switch.text
    assert "Modelagem ligada" in page.find_element(By.CSS_SELECTOR, ".flash").text
    assert serious_accessibility_violations(page) == []
    shoot(page, "modeling-switch-on")

    WebDriverWait(page, 10).until(lambda p: p.execute_script(
        "return document.querySelectorAll('.board .cell[data-audio]').length >= 2"))
    cells = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:2]
    labels = [cell.get_attribute("data-label") for cell in cells]
    for cell in cells:
        ActionChains(page).move_to_element(cell).click().perform()
        time.sleep(0.3)
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "button[role=switch]"))
    assert page.find_element(By.CSS_SELECTOR, "button[role=switch]").get_attribute("aria-checked") == "false"
    shoot(page, "modeling-switch-off")

    # The clinician's history, filtered to modeling: the two taps, marked.
    page.delete_all_cookies()
    log_in(page, demo_server, "ana")
    page.get(carla + "/usage?kind=modeling")
    rows = [row.text for row in page.find_elements(By.CSS_SELECTOR, "table tbody tr")]
    assert len(rows) == 2, rows
    assert all("modelagem" in row for row in rows) and all(any(label in row for row in rows) for label in labels)
    assert page.find_element(By.CSS_SELECTOR, "#kind option[selected]").text == "Um adulto modelando"
    page.get(carla + "/usage?kind=own")
    assert not any("modelagem" in row.text for row in page.find_elements(By.CSS_SELECTOR, "table tbody tr"))
