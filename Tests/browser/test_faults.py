"""Faults a clinic's server meets: a kill in the middle of writes, a full disk, a restore from
backup. No browser: plain HTTP against the real binary, and the SQLite file read directly."""
import http.cookiejar
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest

from conftest import BINARY, DEMO_PASSWORD, ROOT, RunningServer


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    """One person's cookies and CSRF token; redirects are answers, not followed."""

    def __init__(self, server):
        self.url = server.url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)
        self.csrf = ""

    def request(self, method, path, fields=None, timeout=10):
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers

    def get(self, path):
        status, body, headers = self.request("GET", path)
        token = re.search(r'name="_csrf" value="([^"]+)"', body) or re.search(r'data-csrf="([^"]+)"', body)
        if token:
            self.csrf = token.group(1)
        return status, body, headers

    def post(self, path, fields, timeout=10):
        return self.request("POST", path, [("_csrf", self.csrf)] + list(fields), timeout=timeout)

    def log_in(self, username):
        self.get("/login")
        status, _, _ = self.post("/login", [("username", username), ("password", DEMO_PASSWORD)])
        assert status == 303, f"{username} logs in"
        self.get("/account")  # the session's own token from now on
        return self


def database_of(data_dir):
    return os.path.join(data_dir, "db", "tagarela.sqlite")


def query(data_dir, sql, arguments=()):
    connection = sqlite3.connect(database_of(data_dir), timeout=10)
    try:
        return connection.execute(sql, arguments).fetchall()
    finally:
        connection.close()


def person(data_dir, name):
    return query(data_dir, "SELECT id FROM user WHERE displayName LIKE ?", (name + "%",))[0][0]


def in_patient_mode(server, tutor, patient_id):
    client = Client(server).log_in(tutor)
    status, _, _ = client.post(f"/patients/{patient_id}/patient-mode", [])
    assert status == 303
    client.get("/play")
    return client


# --- A kill in the middle of writes -----------------------------------------------------------------------

def test_a_killed_server_keeps_every_acknowledged_write(data_dir):
    server = RunningServer(data_dir, demo=True)
    carla, davi, elisa = (person(data_dir, name) for name in ("Carla", "Davi", "Elisa"))
    # Enough meals to answer that the check-ins outlast the kill: copies of Elisa's first, in the following weeks.
    connection = sqlite3.connect(database_of(data_dir), timeout=10)
    with connection:
        first = connection.execute("SELECT id FROM meal WHERE patientId = ? ORDER BY date, time, id", (elisa,)).fetchone()[0]
        for day in range(1, 201):
            meal = connection.execute("""
                INSERT INTO meal (patientId, clinicianId, type, date, time, status, createdAt)
                SELECT patientId, clinicianId, type, date(date, '+60 days', ?), time, 'pending', createdAt
                FROM meal WHERE id = ?""", (f"+{day} days", first)).lastrowid
            connection.execute("""
                INSERT INTO mealLine (mealId, foodId, quantity, unit, position)
                SELECT ?, foodId, quantity, unit, position FROM mealLine WHERE mealId = ?""", (meal, first))
    connection.close()

    def cells_of(patient_id):
        return query(data_dir, """
            SELECT planCell.planId, planCell.symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
            WHERE plan.patientId = ? AND planCell.symbolId IS NOT NULL""", (patient_id,))

    acknowledged = {"taps": [], "answers": [], "notes": []}
    per_writer = {}
    lock = threading.Lock()
    stop = threading.Event()

    def acknowledge(kind, value):
        with lock:
            acknowledged[kind].append(value)
            name = threading.current_thread().name
            per_writer[name] = per_writer.get(name, 0) + 1

    def tapper(tutor, patient_id):
        client = in_patient_mode(server, tutor, patient_id)
        cells = cells_of(patient_id)
        n = 0
        while not stop.is_set():
            plan, symbol = cells[n % len(cells)]
            key = str(uuid.uuid4())
            try:
                status, _, _ = client.post("/taps", [("key", key), ("plan", plan), ("symbol", symbol)], timeout=5)
            except OSError:
                return  # the server is gone; this tap was never acknowledged
            if status == 204:
                acknowledge("taps", key)
            n += 1

    def checker_in():
        client = Client(server).log_in("elisa")
        pending = query(data_dir, "SELECT id, version FROM meal WHERE patientId = ? AND status = 'pending' "
                                  "ORDER BY date, time, id", (elisa,))
        for meal, version in pending:
            if stop.is_set():
                return
            reason = f"kill test {meal}"
            try:
                status, _, headers = client.post(f"/meals/{meal}/answer",
                                                 [("followed", "0"), ("reason", reason), ("instead", "pão"),
                                                  ("version", str(version))], timeout=5)
            except OSError:
                return
            if status == 303 and headers["Location"] == "/meals":
                acknowledge("answers", (meal, reason))

    def note_taker():
        client = Client(server).log_in("ana")
        _, form, _ = client.get(f"/patients/{carla}/observations")
        observed_on = re.search(r'name="observedOn"[^>]*value="([^"]*)"', form).group(1)
        n = 0
        while not stop.is_set():
            body = f"kill test note {n} {uuid.uuid4()}"
            try:
                status, _, _ = client.post(f"/patients/{carla}/observations",
                                           [("body", body), ("observedOn", observed_on)], timeout=5)
            except OSError:
                return
            if status == 303:
                acknowledge("notes", body)
            n += 1

    writers = [threading.Thread(target=tapper, args=("bruno", carla)),
               threading.Thread(target=tapper, args=("beatriz", davi)),
               threading.Thread(target=checker_in), threading.Thread(target=note_taker)]
    for writer in writers:
        writer.start()
    # Kill once every writer is well under way (logins take a while on a busy machine), mid-stream.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (len(per_writer) == len(writers) and min(per_writer.values()) >= 5):
        time.sleep(0.05)
    time.sleep(0.5)
    server.process.send_signal(signal.SIGKILL)  # no goodbye: whatever was in flight is cut
    server.process.wait()
    stop.set()
    for writer in writers:
        writer.join(timeout=30)
    counts = {kind: len(values) for kind, values in acknowledged.items()}
    assert all(count > 0 for count in counts.values()), counts

    restarted = RunningServer(data_dir, port=server.port)
    try:
        assert query(data_dir, "PRAGMA integrity_check") == [("ok",)]
        assert query(data_dir, "PRAGMA foreign_key_check") == []
        stored_taps = {row[0] for row in query(data_dir, "SELECT key FROM tap")}
        assert set(acknowledged["taps"]) <= stored_taps
        answers = dict(query(data_dir, "SELECT id, reason FROM meal WHERE patientId = ? AND status = 'not_fulfilled'", (elisa,)))
        assert all(answers.get(meal) == reason for meal, reason in acknowledged["answers"])
        notes = {row[0] for row in query(data_dir, "SELECT body FROM observation WHERE patientId = ?", (carla,))}
        assert set(acknowledged["notes"]) <= notes
        # and the restarted server goes on: the next check-in is the first meal not answered
        client = Client(restarted).log_in("elisa")
        assert client.get("/meals")[0] == 200
        print(f"\nacknowledged before SIGKILL: {counts}")
    finally:
        restarted.stop()


# --- A full disk -------------------------------------------------------------------------------------------

@pytest.fixture
def small_disk():
    """A 48 MB filesystem of its own (tmpfs), so filling it is a real ENOSPC and nothing else on
    the machine notices. Needs CAP_SYS_ADMIN (root in CI); skipped, with the reason, where mounting is refused."""
    parent = tempfile.mkdtemp(prefix="tagarela-full-")
    mount_point = os.path.join(parent, "data")
    os.mkdir(mount_point)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m,mode=0700", "tmpfs", mount_point],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        shutil.rmtree(parent, ignore_errors=True)
        pytest.skip("cannot mount a size-limited filesystem here: " + mounted.stderr.strip())
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", mount_point], check=False)
        shutil.rmtree(parent, ignore_errors=True)


def fill(directory):
    """Writes zeros until the filesystem refuses one more byte; returns the file to delete to make room."""
    filler = os.path.join(directory, "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    chunk = 1 << 20
    try:
        while chunk >= 1:
            try:
                os.write(fd, b"\0" * chunk)
            except OSError:
                chunk //= 2
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_refuses_writes_clearly_and_loses_nothing(small_disk):
    server = RunningServer(small_disk, demo=True)
    try:
        davi = person(small_disk, "Davi")
        beatriz = Client(server).log_in("beatriz")  # her pages are in Spanish
        _, form, _ = beatriz.get(f"/patients/{davi}/observations")
        observed_on = re.search(r'name="observedOn"[^>]*value="([^"]*)"', form).group(1)
        saved = []
        for n in range(3):
            body = f"nota guardada {n}"
            assert beatriz.post(f"/patients/{davi}/observations", [("body", body), ("observedOn", observed_on)])[0] == 303
            saved.append(body)
        before = query(small_disk, "SELECT count(*) FROM tap")[0][0], query(small_disk, "SELECT count(*) FROM observation")[0][0]

        # The tablet in patient mode, signed in while there was room (a login writes its session).
        tablet = Client(server).log_in("beatriz")
        assert tablet.post(f"/patients/{davi}/patient-mode", [])[0] == 303
        tablet.get("/play")
        plan, symbol = query(small_disk, """SELECT planCell.planId, planCell.symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
                                            WHERE plan.patientId = ? AND planCell.symbolId IS NOT NULL""", (davi,))[0]

        filler = fill(small_disk)
        refused = None
        for n in range(2000):  # writes that still fit in the space SQLite already holds succeed
            body = f"Davi pidió agua solo, sin ayuda ({n}) — <b>importante</b>"
            status, page, _ = beatriz.post(f"/patients/{davi}/observations", [("body", body), ("observedOn", observed_on)])
            if status == 303:
                saved.append(body)
                continue
            refused = (status, page, body)
            break
        assert refused, "a write on a full disk is refused"
        status, page, body = refused
        assert status == 507, page[:500]
        assert "El disco del servidor está lleno" in page
        # What she typed is on the page (escaped), with a button that sends it again.
        assert "Davi pidió agua solo, sin ayuda" in page and "&lt;b&gt;importante&lt;/b&gt;" in page
        assert f'action="/patients/{davi}/observations"' in page
        assert "Intentar de nuevo" in page

        # An upload is refused as it arrives, by the same page, and the server stays up.
        boundary = "tagarela-full-disk"
        upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n{beatriz.csrf}\r\n"
                  f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
                  "Content-Type: image/jpeg\r\n\r\n").encode() + b"\xff" * 2_000_000 + f"\r\n--{boundary}--\r\n".encode()
        request = urllib.request.Request(server.url + f"/patients/{davi}/observations", data=upload, method="POST",
                                         headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
        try:
            with beatriz.opener.open(request, timeout=10) as response:
                upload_status = response.status
        except urllib.error.HTTPError as error:
            upload_status = error.code
        assert upload_status == 507
        assert server.process.poll() is None, "the server is still running"

        # Reading goes on while the disk is full.
        assert beatriz.get(f"/patients/{davi}/observations")[0] == 200
        assert beatriz.get(f"/patients/{davi}/usage")[0] == 200
        # A tap on a full disk is refused with the same status, so the tablet keeps it queued.
        tap = [("key", str(uuid.uuid4())), ("plan", plan), ("symbol", symbol)]
        tap_status = tablet.post("/taps", tap)[0]
        assert tap_status in (204, 507)

        # Nothing already stored was lost, and the file is sound.
        notes = {row[0] for row in query(small_disk, "SELECT body FROM observation WHERE patientId = ?", (davi,))}
        assert set(saved) <= notes
        assert query(small_disk, "PRAGMA integrity_check") == [("ok",)]

        # Room again: "try again" stores the note, and the queued tap arrives.
        os.remove(filler)
        assert beatriz.post(f"/patients/{davi}/observations", [("body", body), ("observedOn", observed_on)])[0] == 303
        assert tablet.post("/taps", tap)[0] == 204
        notes = {row[0] for row in query(small_disk, "SELECT body FROM observation WHERE patientId = ?", (davi,))}
        assert body in notes
        after = query(small_disk, "SELECT count(*) FROM tap")[0][0], query(small_disk, "SELECT count(*) FROM observation")[0][0]
        assert after[0] == before[0] + 1 and after[1] == before[1] + len(saved) - 3 + 1
        print(f"\nwrites that fitted after the disk filled: {len(saved) - 3}")
    finally:
        server.stop()


# --- A restore from backup ---------------------------------------------------------------------------------

def normalised(page):
    # The CSRF token belongs to the session, not to the data.
    return re.sub(r'(name="_csrf" value|data-csrf)="[^"]*"', r'\1="…"', page)


def test_a_backup_restored_into_a_fresh_data_directory_serves_the_same_pages(data_dir):
    server = RunningServer(data_dir, demo=True)
    restored_dir = tempfile.mkdtemp(prefix="tagarela-restored-")
    restored = None
    try:
        carla, elisa = person(data_dir, "Carla"), person(data_dir, "Elisa")
        tablet = in_patient_mode(server, "bruno", carla)
        plan, symbol = query(data_dir, """SELECT planCell.planId, planCell.symbolId FROM planCell JOIN plan ON plan.id = planCell.planId
                                          WHERE plan.patientId = ? AND planCell.symbolId IS NOT NULL""", (carla,))[0]
        for _ in range(5):
            assert tablet.post("/taps", [("key", str(uuid.uuid4())), ("plan", plan), ("symbol", symbol)])[0] == 204

        pages = {"ana": [f"/patients/{carla}/usage", f"/patients/{carla}/observations", f"/patients/{carla}/plans"],
                 "nadia": [f"/patients/{elisa}", "/clinician"], "elisa": ["/meals", "/meals/history"], "dani": ["/trainer"]}
        backup = os.path.join(restored_dir, "backup.sqlite")
        result = subprocess.run([BINARY, "backup", "--data", data_dir, backup], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        original = {}
        for username, paths in pages.items():
            client = Client(server).log_in(username)
            for path in paths:
                status, page, _ = client.get(path)
                assert status == 200, (username, path)
                original[username, path] = normalised(page)
        original["patient", f"/play/{plan}"] = normalised(tablet.get(f"/play/{plan}")[1])

        # As deploy/README.md restores: the database file alone in a fresh db/, the media copied beside it.
        fresh = os.path.join(restored_dir, "data")
        os.makedirs(os.path.join(fresh, "db"))
        shutil.copy(backup, database_of(fresh))
        if os.path.isdir(os.path.join(data_dir, "media")):
            shutil.copytree(os.path.join(data_dir, "media"), os.path.join(fresh, "media"))
        assert subprocess.run(["sqlite3", database_of(fresh), "PRAGMA integrity_check"],
                              capture_output=True, text=True).stdout == "ok\n"
        restored = RunningServer(fresh)
        for username, paths in pages.items():
            client = Client(restored).log_in(username)
            for path in paths:
                status, page, _ = client.get(path)
                assert status == 200, (username, path)
                assert normalised(page) == original[username, path], (username, path)
        restored_tablet = in_patient_mode(restored, "bruno", carla)
        assert normalised(restored_tablet.get(f"/play/{plan}")[1]) == original["patient", f"/play/{plan}"]
    finally:
        server.stop()
        if restored:
            restored.stop()
        shutil.rmtree(restored_dir, ignore_errors=True)
