"""A tenant served read-only from its replica on a second node (issue 48, item 4): Litestream ships the
primary's database (`litestream replicate`), `deploy/region/replica-refresh` restores a newer copy beside the
replica node each second, and that node serves the newest copy (`tagarela tenant add --primary`).
A person signed in at the primary reads there what the primary has, within seconds; a page that writes
is refused with a page in their language linking to the same page on the primary, and nothing is written.

Both nodes answer at alpha.localhost, on two ports: a browser sends one host's cookies to every port,
so the session made at the primary (replicated with the rest) is the one the replica reads."""
import os
import pathlib
import sqlite3
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY, DEMO_PASSWORD, ROOT, copy_demo_clinic, free_port, screenshot
from test_accounts import click_and_wait

HOST = "alpha.localhost"


def litestream():
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("restore_drill", str(ROOT / "deploy/restore-drill"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("restore_drill", loader))
    loader.exec_module(module)
    return module.litestream_binary()


def serve(data, port, log):
    process = subprocess.Popen([BINARY, "serve", "--port", str(port), "--data", str(data), "--threads", "2"],
                               cwd=ROOT, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    return process


def wait_answering(port, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": HOST})
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.read() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"port {port} does not answer for {HOST}")


@pytest.fixture
def region(data_dir):
    work = pathlib.Path(data_dir)
    primary, replica_node, replica = work / "primary", work / "replica-node", work / "replica"
    tenant = primary / "tenants" / "alpha"
    subprocess.run([BINARY, "tenant", "add", "alpha", "--host", HOST, "--data", str(primary)],
                   cwd=ROOT, check=True, capture_output=True)
    copy_demo_clinic(str(tenant))
    binary = litestream()
    processes = []
    try:
        config = work / "litestream-primary.yml"
        config.write_text(f"dbs:\n  - path: {tenant}/db/tagarela.sqlite\n    monitor-interval: 100ms\n"
                          f"    replica:\n      type: file\n      path: {replica}\n      sync-interval: 1s\n")
        processes.append(subprocess.Popen([binary, "replicate", "-config", str(config)],
                                          stdout=open(work / "litestream-primary.log", "w"), stderr=subprocess.STDOUT))
        primary_port, replica_port = free_port(), free_port()
        processes.append(serve(primary, primary_port, work / "primary.log"))
        copy = replica_node / "replicas" / "alpha"
        deadline = time.monotonic() + 30
        while not list(replica.rglob("*.ltx")):  # the first snapshot
            assert time.monotonic() < deadline, (work / "litestream-primary.log").read_text()
            time.sleep(0.1)
        refresh = [str(ROOT / "deploy/region/replica-refresh"), f"file://{replica}", str(copy), "--every", "1"]
        subprocess.run(refresh + ["--once"], check=True, env=dict(os.environ, TAGARELA_LITESTREAM=binary))
        processes.append(subprocess.Popen(refresh, env=dict(os.environ, TAGARELA_LITESTREAM=binary),
                                          stdout=open(work / "replica-refresh.log", "w"), stderr=subprocess.STDOUT))
        subprocess.run([BINARY, "tenant", "add", "alpha", "--host", HOST, "--data", str(replica_node),
                        "--tenant-data", str(copy), "--primary", f"http://{HOST}:{primary_port}"],
                       cwd=ROOT, check=True, capture_output=True)
        processes.append(serve(replica_node, replica_port, work / "replica.log"))
        wait_answering(primary_port)
        wait_answering(replica_port)
        yield dict(primary=primary_port, replica=replica_port, primary_db=tenant / "db" / "tagarela.sqlite",
                   replica_db=copy / "db" / "tagarela.sqlite", work=work)
    finally:
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=30)


def observations(path):
    db = sqlite3.connect(f"file:{os.path.realpath(path)}?mode=ro", uri=True)
    try:
        return db.execute("SELECT id, patientId, body, observedOn FROM observation ORDER BY id").fetchall()
    finally:
        db.close()


def carla(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT id FROM user WHERE username = 'carla' OR displayName LIKE 'Carla%' ORDER BY id").fetchone()[0]
    finally:
        db.close()


def test_the_replica_reads_what_the_primary_wrote_and_refuses_a_write_with_a_link_to_the_primary(region, page):
    primary, replica = f"http://{HOST}:{region['primary']}", f"http://{HOST}:{region['replica']}"
    patient = carla(region["primary_db"])
    page.get(primary + "/login")
    page.find_element(By.NAME, "username").send_keys("ana")
    page.find_element(By.NAME, "password").send_keys(DEMO_PASSWORD)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    assert "/clinician" in page.current_url

    # A note written at the primary …
    note = f"Lida na réplica {time.time():.0f}"
    page.get(f"{primary}/patients/{patient}/observations")
    page.find_element(By.NAME, "body").send_keys(note)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form.form button[type=submit]"))
    assert note in page.find_element(By.TAG_NAME, "main").text
    written = time.monotonic()

    # … is read at the replica by the same person (the session came with the rest), within seconds.
    seen = None
    while time.monotonic() - written < 20:
        page.get(f"{replica}/patients/{patient}/observations")
        if "/observations" in page.current_url and note in page.find_element(By.TAG_NAME, "main").text:
            seen = time.monotonic() - written
            break
        time.sleep(0.2)
    assert seen is not None, ("the replica never showed the note written at the primary: " + page.current_url + "\n"
                              + page.find_element(By.TAG_NAME, "body").text[:500] + "\n"
                              + (region["work"] / "replica.log").read_text()[-1500:] + "\n"
                              + (region["work"] / "replica-refresh.log").read_text()[-1500:])
    print(f"replica showed the primary's note {seen:.2f} s after it was saved")
    assert observations(region["replica_db"]) == observations(region["primary_db"])

    # A write there is refused: a page in the person's language, linking to the same page at the primary.
    before = observations(region["primary_db"])
    page.find_element(By.NAME, "body").send_keys("Escrita na réplica")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form.form button[type=submit]"))
    assert page.find_element(By.TAG_NAME, "h1").text == "Esta cópia é só para leitura"
    link = page.find_element(By.ID, "primary-link")
    assert link.get_attribute("href") == f"{primary}/patients/{patient}/observations"
    for width, height in ((360, 740), (768, 1024), (1280, 800)):
        page.set_window_size(width, height)
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(page, f"tenant-read-only-{width}x{height}.png")
    page.set_window_size(768, 1024)
    click_and_wait(page, link)
    assert page.current_url == f"{primary}/patients/{patient}/observations"
    assert "Escrita na réplica" not in page.find_element(By.TAG_NAME, "main").text
    time.sleep(2)  # a write that got through would have reached either file by now
    assert observations(region["primary_db"]) == before
    assert observations(region["replica_db"]) == before

    # Signing in there is a write too (a session): refused the same way, never a 500.
    page.delete_all_cookies()
    page.get(replica + "/login")
    page.find_element(By.NAME, "username").send_keys("ana")
    page.find_element(By.NAME, "password").send_keys(DEMO_PASSWORD)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    assert page.find_element(By.TAG_NAME, "h1").text == "Esta cópia é só para leitura"
    assert page.find_element(By.ID, "primary-link").get_attribute("href") == f"{primary}/login"
    log = (region["work"] / "replica.log").read_text()
    assert "session lookup failed" not in log and "readonly" not in log.lower(), log[-2000:]
