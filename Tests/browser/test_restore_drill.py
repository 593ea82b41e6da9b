"""The short restore drill: a server replicated by Litestream loses its disk mid-writes, is restored from
the replica into a fresh folder, and every write acknowledged before the sync interval is there."""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_lost_disk_loses_no_acknowledged_write():
    binary = os.environ.get("TAGARELA_BIN", str(ROOT / ".build/debug/tagarela"))
    arguments = [sys.executable, str(ROOT / "deploy/restore-drill"), "--seconds", "3", "--clients", "4", "--binary", binary]
    if os.environ.get("TAGARELA_PICTOGRAMS"):
        arguments += ["--pictograms", os.environ["TAGARELA_PICTOGRAMS"]]
    drill = subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True, timeout=240)
    print(drill.stdout, drill.stderr)
    assert drill.returncode == 0, drill.stdout + drill.stderr
    line = re.search(r"acknowledged=(\d+) restored=(\d+) lost=(\d+) rpo_ms=(\d+) rto_s=([\d.]+) \(([^)]*)\)", drill.stdout)
    assert line, drill.stdout
    acknowledged, restored, lost = int(line[1]), int(line[2]), int(line[3])
    assert lost == 0
    assert acknowledged > 0 and restored >= acknowledged * 0.5
    assert int(line[4]) <= 1000, "nothing older than the 1 s sync interval is missing"
    kinds = line[6]
    for kind in ("tap", "note", "meal", "evaluation"):
        assert kind in kinds, f"the drill wrote no {kind}: {kinds}"


def test_the_server_refuses_a_folder_being_restored(tmp_path):
    binary = os.environ.get("TAGARELA_BIN", str(ROOT / ".build/debug/tagarela"))
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "RESTORING").write_text("1\n")
    serve = subprocess.run([binary, "serve", "--port", "0", "--data", str(tmp_path)], cwd=ROOT,
                           capture_output=True, text=True, timeout=30)
    assert serve.returncode != 0
    assert "being restored" in serve.stderr + serve.stdout
    assert not (tmp_path / "db" / "tagarela.sqlite").exists(), "no empty database was created"
    restore = subprocess.run([binary, "restore", "--data", str(tmp_path / "other"), "--replica", "file:///nonexistent",
                              "--litestream", "litestream-that-is-not-there"], cwd=ROOT, capture_output=True, text=True)
    assert restore.returncode != 0
    assert "could not start" in restore.stderr or "failed" in restore.stderr
