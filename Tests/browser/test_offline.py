"""A tablet that opened a child's boards once keeps them working with no network: the pages, their
pictures and clips come from the service worker, taps wait in the browser, and when the network
returns each tap reaches the server exactly once, with the time it was made."""
import datetime
import os
import re
import shutil
import sqlite3
import tempfile
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import RunningServer, screenshot
from test_faults import Client
from test_accounts import click_and_wait, log_in, open_carlas_board, path_of
from test_timer import choose_timer, seconds_left

OFFLINE = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
ONLINE = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}



def wait_until_boards_are_kept(page):
    kept = page.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "(window.tagarelaOffline?.ready ?? Promise.resolve(false)).then(done, () => done(false));")
    assert kept is True, "the service worker kept the patient's boards"


def cached_paths(page):
    return page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const paths = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              const url = new URL(request.url);
              paths.push(url.pathname + url.search);
            }
          }
          return paths;
        })().then(done, (error) => done(String(error)));""")


def tap(page, cell):
    ActionChains(page).move_to_element(cell).click().perform()
    time.sleep(0.3)


def stored_time(text):
    # GRDB stores dates as UTC "YYYY-MM-DD HH:MM:SS.SSS".
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.timezone.utc)


def test_boards_work_offline_and_taps_arrive_once_with_their_real_times(data_dir, page):
    server = RunningServer(data_dir, demo=True)
    try:
        carla = open_carlas_board(page, server)
        board = path_of(page)
        assert board.startswith("/play/")
        wait_until_boards_are_kept(page)

        # Every board of the patient is kept, not only the one opened, and no page of the tutor's.
        database = sqlite3.connect(os.path.join(data_dir, "db", "tagarela.sqlite"))
        carla_id = int(carla.rstrip("/").rsplit("/", 1)[1])
        plans = [row[0] for row in database.execute("SELECT id FROM plan WHERE patientId = ? ORDER BY id", (carla_id,))]
        other_board = next(f"/play/{plan}" for plan in plans if f"/play/{plan}" != board)
        kept = cached_paths(page)
        assert {"/play", "/timer", board, other_board} <= set(kept), kept
        assert not [path for path in kept if path.startswith(("/tutor", "/patients", "/login"))], kept

        # The clinic's server goes away and the tablet loses its network.
        server.stop()
        page.execute_cdp_cmd("Network.enable", {})
        page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
        try:
            page.refresh()
            WebDriverWait(page, 10).until(lambda p: p.execute_script(
                "return !!window.tagarelaPlayer && document.querySelectorAll('.cell[data-audio]').length >= 3"))
            assert page.execute_script("return navigator.onLine") is False
            # Every picture and clip of the board is there without the network.
            missing = page.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const urls = [...document.querySelectorAll('.cell[data-audio]')].flatMap(
                  (cell) => [cell.dataset.audio, cell.dataset.image]);
                Promise.all(urls.map((url) => fetch(url).then((r) => r.ok ? null : url, () => url)))
                  .then((results) => done(results.filter(Boolean)));""")
            assert missing == []
            clip_plays = page.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const audio = new Audio(document.querySelector('.cell[data-audio]').dataset.audio);
                audio.addEventListener('canplaythrough', () => done(true), { once: true });
                audio.addEventListener('error', () => done(false), { once: true });
                audio.load();""")
            assert clip_plays is True, "a kept clip plays offline"

            cells = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")[:3]
            for cell in cells:
                tap(page, cell)
            # The player's clips load when played: offline, each tap's clip comes from the kept files.
            WebDriverWait(page, 10).until(lambda p: len(p.execute_script("return window.tagarelaLatencies")) == 3)
            page.execute_script("window.scrollTo(0, 0)")
            page.find_element(By.CSS_SELECTOR, ".strip-speak").click()  # a sentence, queued too

            # A board never opened on this tablet opens offline too, and its taps wait with the others.
            page.get(server.url + other_board)
            WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaPlayer"))
            more = page.find_elements(By.CSS_SELECTOR, ".board .cell[data-audio]")
            if more:
                tap(page, more[0])
            waiting = page.execute_script("return window.tagarelaPlayer.queueLength()")
            assert waiting == 4 + (1 if more else 0)
            status = page.find_element(By.CSS_SELECTOR, ".offline-status")
            WebDriverWait(page, 5).until(lambda p: status.is_displayed())
            assert str(waiting) in status.text, status.text
            queued = page.execute_script("return JSON.parse(localStorage.getItem('tagarela-taps'))")
            assert len(queued) == waiting
            time.sleep(2)  # so the upload comes clearly later than the taps
        finally:
            # The network comes back, and the server with it, on the same data and address.
            server = RunningServer(data_dir, port=server.port)
            page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)

        WebDriverWait(page, 40).until(lambda p: p.execute_script("return window.tagarelaPlayer.queueLength()") == 0)

        # A second attempt of an event already stored (a lost answer, say) changes nothing.
        first = queued[0]
        status_code = page.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const player = document.getElementById('player');
            fetch('/taps', { method: 'POST', headers: { 'X-CSRF-Token': player.dataset.csrf },
                             body: new URLSearchParams(arguments[0]) }).then((r) => done(r.status), () => done(0));""",
            {key: value for key, value in first.items() if value is not None})
        assert status_code == 204

        taps = {key: (at, received) for key, at, received in database.execute(
            "SELECT key, at, receivedAt FROM tap WHERE patientId = ?", (carla_id,))}
        sentences = {key: at for key, at in database.execute("SELECT key, at FROM sentence WHERE patientId = ?", (carla_id,))}
        for event in queued:
            tapped_at = datetime.datetime.fromisoformat(event["at"].replace("Z", "+00:00"))
            if "symbols" in event:
                assert event["key"] in sentences
                assert abs((stored_time(sentences[event["key"]]) - tapped_at).total_seconds()) < 0.01
            else:
                at, received = taps[event["key"]]
                assert abs((stored_time(at) - tapped_at).total_seconds()) < 0.01, "the tap's own time is kept"
                assert (stored_time(received) - stored_time(at)).total_seconds() > 1.5, "it arrived later"
        keys = [event["key"] for event in queued]
        counted = database.execute(
            f"SELECT (SELECT count(*) FROM tap WHERE key IN ({','.join('?' * len(keys))})) + "
            f"(SELECT count(*) FROM sentence WHERE key IN ({','.join('?' * len(keys))}))", keys + keys).fetchone()[0]
        assert counted == len(queued), "each event exactly once"

        # The clinician changes the board; the tablet's next online load shows it, and keeps that version.
        ana = Client(server).log_in("ana")
        first_label = database.execute("""
            SELECT symbol.name FROM planCell JOIN symbol ON symbol.id = planCell.symbolId
            WHERE planCell.planId = ? AND planCell.position = 0""", (int(board.rsplit("/", 1)[1]),)).fetchone()[0]
        labels = "return [...document.querySelectorAll('.cell[data-label]')].map((cell) => cell.dataset.label)"
        page.get(server.url + board)
        assert first_label in page.execute_script(labels)
        assert ana.post(f"{board.replace('/play/', '/plans/')}/cells/0", [("clear", "1")])[0] == 303
        page.get(server.url + board)
        assert first_label not in page.execute_script(labels)
        page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
        server.stop()
        page.refresh()
        WebDriverWait(page, 10).until(lambda p: p.execute_script("return !!window.tagarelaPlayer"))
        assert first_label not in page.execute_script(labels), "the kept copy is the updated board"
        server = RunningServer(data_dir, port=server.port)
        page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
    finally:
        page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
        server.stop()


def server_gets(server):
    """How many times the server answered a GET of each path so far, from its request log."""
    counts = {}
    for path in re.findall(r"request method=GET path=(\S+) ", server.output()):
        counts[path] = counts.get(path, 0) + 1
    return counts


def test_pages_opened_in_a_row_keep_the_boards_once_and_then_only_ask_for_the_listing(data_dir, page):
    """Every patient page asks the service worker to keep her boards. Asks made while a keeping runs wait
    for it instead of fetching the same pages again; once kept, an ask only fetches the listing, as long as
    it is unchanged and under five minutes old."""
    server = RunningServer(data_dir, demo=True)
    try:
        open_carlas_board(page, server)
        navigated = {"/patient", "/play", "/timer"}
        for path in navigated:  # opened before the first keeping (465 files, 34 pages) can have ended
            page.get(server.url + path)
        wait_until_boards_are_kept(page)
        listing = page.execute_script("return fetch('/play/offline').then((r) => r.json())")
        gets = server_gets(server)
        assert len(listing["pages"]) > 20
        assert {path: gets.get(path) for path in listing["pages"] if path.startswith("/educat")} == \
            {path: 1 for path in listing["pages"] if path.startswith("/educat")}, "each page kept once"

        for path in ["/patient", "/play", "/timer", "/patient"]:
            page.get(server.url + path)
            wait_until_boards_are_kept(page)
        again = server_gets(server)
        fetched = {path: again[path] - gets.get(path, 0) for path in again if again[path] != gets.get(path, 0)}
        # Besides the pages opened (network first), and the modules imported by their plain name (fetched first).
        kept = set(listing["pages"]) | {f.split("?")[0] for f in listing["files"] if "?v=" in f or not f.startswith("/js/")}
        assert {path: n for path, n in fetched.items() if path in kept} == {"/patient": 2, "/play": 1, "/timer": 1}, fetched
        assert fetched["/play/offline"] == 4, fetched
    finally:
        server.stop()


def test_a_timer_started_offline_runs_and_carries_on_once_online(data_dir, page):
    server = RunningServer(data_dir, demo=True)
    try:
        open_carlas_board(page, server)
        wait_until_boards_are_kept(page)

        server.stop()
        page.execute_cdp_cmd("Network.enable", {})
        page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
        try:
            page.get(server.url + "/timer")
            choose_timer(page, "dormir", 2)
            WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, "#timer .timer-clock"))
            assert page.execute_script("return navigator.onLine") is False
            assert page.find_element(By.CSS_SELECTOR, ".timer-activity").text.strip() == "dormir"
            assert "/pictograms/" in page.find_element(By.CSS_SELECTOR, ".timer-activity img").get_attribute("src")
            WebDriverWait(page, 5).until(lambda p: seconds_left(p) <= 119)
            started = page.current_url
            assert "at=" in started, "the run's moment is in its address, as the server would put it"

            page.refresh()
            WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, "#timer .timer-clock"))
            assert page.current_url == started
            assert 100 <= seconds_left(page) <= 119, "an offline reload carries on"
            offline_key = page.find_element(By.ID, "timer").get_attribute("data-key")
            time.sleep(3)  # so that carrying on and starting afresh read clearly apart
        finally:
            server = RunningServer(data_dir, port=server.port)
            page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)

        # Online again, the same address is the server's page, and it carries on with the same run.
        page.refresh()
        WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, "#timer .timer-clock"))
        assert page.find_elements(By.ID, "timer-setup") == [], "the server's run page, not the form"
        assert page.find_element(By.ID, "timer").get_attribute("data-key") == offline_key
        assert 80 <= seconds_left(page) <= 116, "carries on, not afresh"
    finally:
        page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
        server.stop()


def test_the_childs_home_and_games_open_offline_with_their_clips(data_dir, page):
    server = RunningServer(data_dir, demo=True)
    try:
        open_carlas_board(page, server)
        wait_until_boards_are_kept(page)
        kept = set(cached_paths(page))
        assert {"/patient", "/educat", "/educat/numbers/lesson", "/educat/conta-cops/game"} <= kept, kept

        server.stop()
        page.execute_cdp_cmd("Network.enable", {})
        page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
        try:
            page.get(server.url + "/patient")
            assert page.find_element(By.TAG_NAME, "h1").text == "Oi, Carla Costa!"
            pictures = page.execute_script(
                "return [...document.querySelectorAll('.home-tile img')].map((img) => img.complete && img.naturalWidth > 0)")
            assert pictures and all(pictures), "the home's pictures come from the kept files"
            click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a.home-tile[href='/educat']"))
            assert page.find_elements(By.CSS_SELECTOR, ".educat-menu a"), "the games' menu opens offline"
            page.get(server.url + "/educat/numbers/lesson")
            WebDriverWait(page, 10).until(lambda p: p.find_elements(By.CSS_SELECTOR, ".educat-key[data-clip]"))
            # Every clip the server had made (educat-audio) plays offline, with the page's stylesheets and scripts.
            audio = os.environ.get("TAGARELA_AUDIO") or os.path.join(data_dir, "media", "audio")
            clips = [url for url in page.execute_script(
                "return [...document.querySelectorAll('[data-clip]')].map((el) => el.dataset.clip)")
                     if os.path.exists(os.path.join(audio, url.rsplit("/", 1)[1]))]
            missing = page.execute_async_script("""
                const done = arguments[arguments.length - 1];
                const urls = arguments[0].concat(
                  [...document.querySelectorAll('link[rel=stylesheet], script[src]')].map((el) => el.href || el.src));
                Promise.all(urls.map((url) => fetch(url).then((r) => r.ok ? null : url, () => url)))
                  .then((results) => done(results.filter(Boolean)));""", clips)
            assert missing == [], missing
            assert page.execute_script("return navigator.onLine") is False
        finally:
            page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
    finally:
        server.stop()


def links_of_home(page, server):
    page.get(server.url + "/patient")
    hrefs = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "a[href^='/'], a[href^='http']")]
    return list(dict.fromkeys(h for h in hrefs if h.startswith(server.url)))


def test_every_link_of_a_patients_home_answers_offline(data_dir, page):
    """Issue 53: offline, the meal check-in, the week plan, the goals and "leave patient mode" opened the
    browser's error page. Each link of the child's home (patient mode) and of an adult patient's home, each on
    their own tablet, now opens its kept copy or the page that says why it needs the network."""
    server = RunningServer(data_dir, demo=True)
    explained = {}
    try:
        for who in ("carla", "elisa"):
            if who == "carla":
                open_carlas_board(page, server)
            else:
                page.delete_all_cookies()
                log_in(page, server, "elisa")
            wait_until_boards_are_kept(page)
            links = links_of_home(page, server)
            assert len(links) >= 5, links
            server.stop()  # the service worker's own fetches do not follow the page's emulated network
            page.execute_cdp_cmd("Network.enable", {})
            page.execute_cdp_cmd("Network.emulateNetworkConditions", OFFLINE)
            try:
                for url in links:
                    page.get(url)
                    assert page.execute_script("return document.querySelector('main h1') !== null"), (who, url, page.title)
                    if page.find_elements(By.CSS_SELECTOR, ".offline-page"):
                        explained.setdefault(who, []).append(url.split("/", 3)[3])
                if who == "carla":
                    page.get(server.url + "/patient-mode/exit")
                    assert "Para o adulto: sair do modo paciente" in page.find_element(By.CSS_SELECTOR, "main").text
                    screenshot(page, "offline-exit-768x1024.png")
            finally:
                page.execute_cdp_cmd("Network.emulateNetworkConditions", ONLINE)
            server = RunningServer(data_dir, port=server.port)
        # The check-in needs the network, and so does leaving patient mode: both say so.
        assert "meals" in explained["carla"] and "patient-mode/exit" in explained["carla"], explained
        assert "meals" in explained["elisa"], explained
    finally:
        server.stop()


KEEPING = """
const done = arguments[arguments.length - 1];
(async () => {
  const listing = await (await fetch("/play/offline")).json();
  const files = await caches.open("tagarela-files-v1");
  const kept = [];
  for (const path of listing.files) if (await files.match(path)) kept.push(path);
  const stored = await (await caches.open("tagarela-pages-v1")).match("/play/offline");
  return { listed: listing.files, kept, complete: stored?.headers.get("X-Complete") ?? null };
})().then(done, (error) => done(String(error)));"""

KEEP_AGAIN = """
const done = arguments[arguments.length - 1];
(async () => {
  await (await caches.open("tagarela-pages-v1")).delete("/play/offline");  // as if the listing had changed
  const registration = await navigator.serviceWorker.ready;
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => done(event.data);
  registration.active.postMessage({ type: "keep-boards" }, [channel.port2]);
})().catch((error) => done(String(error)));"""


def test_a_listed_file_the_server_lacks_is_retried_and_does_not_leave_its_neighbours_unkept(data_dir, page):
    """Files are kept in batches that succeed or fail whole: a clip the server cannot find (a form's clip
    not made yet) must not leave the others of its batch out, and is asked again at the next keeping."""
    clips_made, audio = os.environ["TAGARELA_AUDIO"], tempfile.mkdtemp(prefix="tagarela-audio-")
    for name in os.listdir(clips_made):
        os.symlink(os.path.join(clips_made, name), os.path.join(audio, name))
    server = RunningServer(data_dir, demo=True, env={"TAGARELA_AUDIO": audio})
    try:
        open_carlas_board(page, server)
        wait_until_boards_are_kept(page)
        first = page.execute_async_script(KEEPING)
        assert first["complete"] == "yes" and sorted(first["kept"]) == sorted(first["listed"]), "all kept at first"
        clips = [path for path in first["listed"] if path.startswith("/media/audio/")]
        lost = clips[len(clips) // 2]
        lost_file = lost.rsplit("/", 1)[1]
        os.remove(os.path.join(audio, lost_file))
        page.execute_async_script("const done = arguments[0]; caches.delete('tagarela-files-v1').then(done)")
        page.execute_cdp_cmd("Network.clearBrowserCache", {})  # else the browser's own cache still has it

        assert page.execute_async_script(KEEP_AGAIN) == {"kept": True}
        without = page.execute_async_script(KEEPING)
        assert without["complete"] == "no"
        assert sorted(without["kept"]) == sorted(path for path in first["listed"] if path != lost)

        os.symlink(os.path.join(clips_made, lost_file), os.path.join(audio, lost_file))
        assert page.execute_async_script(KEEP_AGAIN) == {"kept": True}
        again = page.execute_async_script(KEEPING)
        assert again["complete"] == "yes" and sorted(again["kept"]) == sorted(first["listed"])
    finally:
        server.stop()
        shutil.rmtree(audio, ignore_errors=True)
