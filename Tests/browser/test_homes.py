"""The patient's home is made for who holds the device: a child sees their boards and games first as
big picture tiles; an adult nutrition patient sees today's meals first and nothing she does not have.
Every tile is a link, counts are true, and the targets of patient pages reach 64 px."""
import datetime
import os
import sqlite3

from selenium.webdriver.common.by import By

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, path_of

SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder (docs/screens): screenshots for the README when set


def open_patient_mode(page, server, tutor="bruno"):
    log_in(page, server, tutor)
    click_and_wait(page, page.find_elements(By.CSS_SELECTOR, ".person form[action$='/patient-mode'] button")[0])
    assert path_of(page) == "/patient"


def section_order(page):
    return [h.get_attribute("id") for h in page.find_elements(By.CSS_SELECTOR, "main section > h2")]


def size(element):
    return element.size["width"], element.size["height"]


def database(server):
    return sqlite3.connect(os.path.join(server.data_dir, "db", "tagarela.sqlite"))


def test_a_child_sees_her_boards_and_games_first_as_big_picture_tiles(demo_server, page):
    page.set_window_size(360, 740)
    try:
        open_patient_mode(page, demo_server)
        assert page.find_element(By.TAG_NAME, "h1").text == "Oi, Carla Costa!"
        order = section_order(page)
        assert order[:2] == ["home-boards", "home-activities"], order
        carla = database(demo_server).execute("SELECT id FROM user WHERE displayName = 'Carla Costa'").fetchone()[0]
        # The boards of a set (her starter core set's four folders) open from its root board: no tile of their own.
        plans = database(demo_server).execute("SELECT count(*) FROM plan WHERE patientId = ? AND id NOT IN "
                                              "(SELECT planId FROM obfImportBoard WHERE NOT isRoot)", (carla,)).fetchone()[0]
        boards = page.find_elements(By.CSS_SELECTOR, "#home-boards + .home-tiles .home-tile")
        assert len(boards) == plans
        activities = [a.get_attribute("href").split("/", 3)[3] for a in
                      page.find_elements(By.CSS_SELECTOR, "#home-activities + .home-tiles .home-tile")]
        assert activities == ["educat", "timer"]
        for tile in page.find_elements(By.CSS_SELECTOR, ".home-tile"):
            assert tile.tag_name == "a" and tile.get_attribute("href"), "every tile is a link"
            width, height = size(tile)
            assert width >= 64 and height >= 64, (tile.text, width, height)
        for tile in boards + page.find_elements(By.CSS_SELECTOR, "#home-activities + .home-tiles .home-tile"):
            picture = tile.find_element(By.TAG_NAME, "img")
            assert page.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", picture), tile.text
            assert picture.size["width"] >= 64, "pictures, not text-only tiles"
        assert serious_accessibility_violations(page) == []
        if SCREENS:
            page.save_screenshot(os.path.join(SCREENS, "home-child-360.png"))

        # Every tile leads somewhere that answers.
        for href in [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".home-tile")]:
            page.get(href)
            assert "Acesso negado" not in page.title and "não encontrada" not in page.title, href

        # The board's "quiet" box reaches 64 px ("Silencioso" was 27 × 27).
        board = database(demo_server).execute(
            "SELECT id FROM plan WHERE patientId = ? AND type = 'board' ORDER BY id LIMIT 1", (carla,)).fetchone()[0]
        page.get(f"{demo_server.url}/play/{board}")
        assert min(size(page.find_element(By.CSS_SELECTOR, ".strip-quiet"))) >= 64
    finally:
        page.set_window_size(768, 1024)


def test_an_adult_nutrition_patient_sees_todays_meals_first_and_no_childrens_things(demo_server, page):
    log_in(page, demo_server, "elisa")
    assert path_of(page) == "/patient"
    order = section_order(page)
    assert order == ["home-meals"], order
    main = page.find_element(By.TAG_NAME, "main")
    assert main.find_elements(By.CSS_SELECTOR, "a[href='/play'], a[href='/educat'], a[href='/timer']") == []
    assert "pranchas" not in main.text.lower()

    # The count is today's meals still to answer, not every pending one of earlier days.
    elisa = database(demo_server).execute("SELECT id FROM user WHERE username = 'elisa'").fetchone()[0]
    today = datetime.date.today().isoformat()
    pending_today, = database(demo_server).execute(
        "SELECT count(*) FROM meal WHERE patientId = ? AND date = ? AND status = 'pending'", (elisa, today)).fetchone()
    meals_today, = database(demo_server).execute(
        "SELECT count(*) FROM meal WHERE patientId = ? AND date = ?", (elisa, today)).fetchone()
    earlier, = database(demo_server).execute(
        "SELECT count(*) FROM meal WHERE patientId = ? AND date < ? AND status = 'pending'", (elisa, today)).fetchone()
    status = page.find_element(By.CSS_SELECTOR, ".home-meals-status").text
    if pending_today:
        assert status == f"{pending_today} para responder hoje"
    assert len(page.find_elements(By.CSS_SELECTOR, ".home-meal")) == meals_today
    if earlier:
        assert f"{earlier} de dias anteriores" in main.text
    # Her check-in, history and weight are links.
    hrefs = {a.get_attribute("href").split("/", 3)[3] for a in main.find_elements(By.CSS_SELECTOR, "a")}
    assert {"meals/history", "measurements"} <= hrefs
    assert serious_accessibility_violations(page) == []
    page.set_window_size(360, 740)
    try:
        page.refresh()
        page.execute_script("window.scrollTo(0, 0)")
        if SCREENS:
            page.save_screenshot(os.path.join(SCREENS, "home-adult-360.png"))
        # The links of her check-in page reach 64 px ("Minhas refeições" was 27 px tall).
        page.get(demo_server.url + "/meals")
        for link in page.find_elements(By.CSS_SELECTOR, "main a"):
            assert size(link)[1] >= 64, (link.text, size(link))
    finally:
        page.set_window_size(768, 1024)
