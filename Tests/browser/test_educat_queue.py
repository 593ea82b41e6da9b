"""A game's result is never lost (issue 46, 1; issue 51, 7): it joins the patient's one queue of events
(event-queue.js, the board taps' queue) behind the game's answers when the game ends or the page is
left, waits there offline and across a reload, and is stored exactly once, its record decided by the
server when it arrives."""
import os
import sqlite3
import time

from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By

from conftest import RunningServer
from test_accounts import click_and_wait, path_of
from test_educat import advance, end_dialog, hold_clock, item, open_patient_mode, state, wrong_item
from test_offline import OFFLINE, ONLINE


def database(data_dir):
    return sqlite3.connect(os.path.join(data_dir, "db", "tagarela.sqlite"))


def results(data_dir, area, mode):
    with database(data_dir) as db:
        return db.execute("SELECT hits, errors, gameKey FROM educatResult WHERE area = ? AND mode = ? ORDER BY id",
                          (area, mode)).fetchall()


def stored_record(data_dir, area):
    with database(data_dir) as db:
        row = db.execute("SELECT max(best) FROM educatLevelRecord WHERE area = ?", (area,)).fetchone()
        return row[0] or 0


def queued(page):
    return page.execute_script("return window.tagarelaEducat.queue.length()")


def kept_by_the_service_worker(page, server, path):
    """Opens `path` under the service worker, so the page and its scripts are kept for offline."""
    page.get(server.url + path)
    WebDriverWait(page, 15).until(lambda p: p.execute_script("return !!navigator.serviceWorker?.controller"))
    page.get(server.url + path)  # now through the worker: the page and its modules are kept
    WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaEducat?.queue"))


def play_to_a_new_record(page):
    """A vowels challenge with one hit more than the record, then three misses. Returns the hits."""
    hold_clock(page)
    hits = state(page)["record"] + 1
    page.find_element(By.CSS_SELECTOR, ".educat-question").click()
    for _ in range(hits):
        item(page, state(page)["target"]).click()
        advance(page, 3700)  # the praise, or the record's fanfare, then the next question
    for _ in range(3):
        wrong_item(page).click()
        advance(page, 1300)
    end_dialog(page)
    assert state(page)["hits"] == hits and state(page)["lives"] == 0
    return hits


def offline_challenge(data_dir, page, reload_before_the_network_returns):
    server = RunningServer(data_dir, demo=True)
    try:
        open_patient_mode(page, server)
        kept_by_the_service_worker(page, server, "/educat/vowels/challenge")
        before = results(data_dir, "vowels", "challenge")

        server.stop()
        page.execute_cdp_cmd("Network.enable", {})
        page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
        try:
            hits = play_to_a_new_record(page)
            WebDriverWait(page, 10).until(lambda p: queued(p) >= 2, "the answers and the result wait in the queue")
            waiting = page.execute_script("return JSON.parse(localStorage.getItem('tagarela-taps'))")
            assert [e["_kind"] for e in waiting].count("educat-result") == 1
            assert waiting[-1]["_kind"] == "educat-result", "the result goes after its answers"
            if reload_before_the_network_returns:
                page.refresh()  # served by the service worker; the queue lives in localStorage
                WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaEducat?.queue"))
                assert queued(page) >= 2
        finally:
            server = RunningServer(data_dir, port=server.port)
            page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)

        WebDriverWait(page, 40).until(lambda p: queued(p) == 0)
        after = results(data_dir, "vowels", "challenge")
        assert len(after) == len(before) + 1, "stored exactly once"
        assert after[-1][:2] == (hits, 3)
        assert stored_record(data_dir, "vowels") == hits, "the server set the record when the result arrived"
        page.get(server.url + "/educat/records")
        assert page.find_element(By.CSS_SELECTOR, ".educat-record-vowels .educat-record-value").text == str(hits)
        # A second page load sends nothing again.
        time.sleep(1)
        assert len(results(data_dir, "vowels", "challenge")) == len(before) + 1
    finally:
        server.stop()


def test_a_challenge_won_offline_reaches_the_server_once_with_its_record(data_dir, page):
    offline_challenge(data_dir, page, reload_before_the_network_returns=False)


def test_a_challenge_won_offline_and_reloaded_reaches_the_server_once_with_its_record(data_dir, page):
    offline_challenge(data_dir, page, reload_before_the_network_returns=True)


def test_a_normal_game_left_by_navigation_is_stored_exactly_once(data_dir, page):
    server = RunningServer(data_dir, demo=True)
    try:
        open_patient_mode(page, server)
        before = results(data_dir, "vowels", "normal")
        page.get(server.url + "/educat/vowels/game")
        hold_clock(page)
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        wrong_item(page).click()
        item(page, state(page)["target"]).click()
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        item(page, state(page)["target"]).click()
        assert (state(page)["hits"], state(page)["errors"]) == (2, 1)
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".educat-back"))
        assert path_of(page) == "/educat/vowels"
        WebDriverWait(page, 20).until(lambda p: len(results(data_dir, "vowels", "normal")) == len(before) + 1)
        WebDriverWait(page, 20).until(lambda p: queued(p) == 0)
        time.sleep(1)
        after = results(data_dir, "vowels", "normal")
        assert len(after) == len(before) + 1, "stored exactly once"
        assert after[-1][:2] == (2, 1)
        with database(data_dir) as db:
            answers = db.execute("SELECT count(*) FROM educatAnswer WHERE gameKey = ?", (after[-1][2],)).fetchone()[0]
        assert answers == 3, "its answers arrived with it"
    finally:
        server.stop()
