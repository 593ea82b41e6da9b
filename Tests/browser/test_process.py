"""The tagarela binary as an operator runs it: signals, backups, help."""
import os
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.request

from conftest import BINARY, ROOT, RunningServer


def test_sigterm_lets_a_slow_request_finish_then_exits_zero(data_dir):
    server = RunningServer(data_dir)
    body = b"note=" + b"x" * 20_000
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as connection:
        connection.sendall(
            b"POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode() + body[:100])
        time.sleep(0.3)  # the server is now in the middle of reading this request
        server.process.terminate()
        time.sleep(0.5)
        assert server.process.poll() is None, "the server waits for the request in flight"
        connection.sendall(body[100:])
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 405"), answer[:200]
    assert server.process.wait(timeout=10) == 0
    # and it no longer listens
    try:
        socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
        listening = True
    except OSError:
        listening = False
    assert not listening


def test_backup_while_the_server_writes_is_consistent(server, data_dir):
    database = os.path.join(data_dir, "db", "tagarela.sqlite")
    stop = threading.Event()
    written = []

    def writer():
        connection = sqlite3.connect(database, timeout=10)
        n = 0
        while not stop.is_set():
            with connection:
                connection.executemany(
                    "INSERT OR REPLACE INTO setting (key, value, updatedAt) VALUES (?, ?, CURRENT_TIMESTAMP)",
                    [(f"bench-{n}-{i}", "v" * 300) for i in range(20)])
            n += 1
        written.append(n)
        connection.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        time.sleep(0.2)
        backup = os.path.join(data_dir, "backup.sqlite")
        result = subprocess.run([BINARY, "backup", "--data", data_dir, backup], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
    finally:
        stop.set()
        thread.join()
    assert written[0] > 0
    check = subprocess.run(["sqlite3", backup, "PRAGMA integrity_check; SELECT count(*) > 0 FROM setting;"],
                           capture_output=True, text=True)
    assert check.stdout == "ok\n1\n"
    with urllib.request.urlopen(server.url + "/healthz") as response:
        assert response.read() == b"ok"


def test_migrate_reports_what_it_applied(data_dir):
    first = subprocess.run([BINARY, "migrate", "--data", data_dir], cwd=ROOT, capture_output=True, text=True)
    assert first.returncode == 0 and "Applied:" in first.stdout
    second = subprocess.run([BINARY, "migrate", "--data", data_dir], cwd=ROOT, capture_output=True, text=True)
    assert second.returncode == 0 and "up to date" in second.stdout


def test_help_explains_each_subcommand():
    result = subprocess.run([BINARY, "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    for command in ("serve", "migrate", "backup"):
        assert command in result.stdout
    serve_help = subprocess.run([BINARY, "serve", "--help"], capture_output=True, text=True).stdout
    assert "--port" in serve_help and "--data" in serve_help and "--threads" in serve_help
