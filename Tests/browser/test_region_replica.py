"""A read-only replica declared in the region's placement file (issue 48, item 4; docs/decisions/0101):
`replica TENANT NODE HOSTS` makes `deploy/region/region apply` give the node a copy of the tenant kept fresh by
`replica-refresh`, serve it read-only at the line's hosts through nginx, and stop all of it when the line goes.
No selenium: HTTP through the region's nginx, as a browser would send it."""
import importlib.machinery
import importlib.util
import os
import pathlib
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request

from conftest import BINARY, ROOT, copy_demo_clinic, free_port

PRIMARY_HOST, REPORTS_HOST = "alpha.region.test", "reports.alpha.region.test"


def load(path, name):
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module


drill = load(ROOT / "deploy/region/drill", "region_drill")


def get(listen, host, path, cookie=None):
    headers = {"Host": host, **({"Cookie": f"tagarela_session={cookie}"} if cookie else {})}
    request = urllib.request.Request(f"http://{listen}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_a_replica_line_serves_the_tenant_read_only_and_its_removal_stops_it(data_dir):
    work = pathlib.Path(data_dir)
    env = dict(os.environ, TAGARELA_BIN=BINARY, TAGARELA_LITESTREAM=drill.restore_drill.litestream_binary())
    env.pop("TAGARELA_AUDIO", None)
    copy_demo_clinic(str(work / "n1" / "tenants" / "alpha"))
    ports, listen = {"n1": free_port(), "n2": free_port()}, f"127.0.0.1:{free_port()}"
    placement = work / "placement"
    lines = [f"listen {listen}", "replicas replicas", f"node n1 127.0.0.1:{ports['n1']} n1",
             f"node n2 127.0.0.1:{ports['n2']} n2", f"tenant alpha n1 {PRIMARY_HOST}"]
    placement.write_text("\n".join(lines + [f"replica alpha n2 {REPORTS_HOST}"]) + "\n")
    region = lambda command: subprocess.run([str(ROOT / "deploy/region/region"), command, str(placement)], env=env,
                                            capture_output=True, text=True, timeout=180)
    nodes = []
    try:
        for name, port in ports.items():
            (work / name).mkdir(exist_ok=True)
            (work / name / "tenants.conf").touch()  # a region's node chooses tenants by host from its start
            nodes.append(subprocess.Popen([BINARY, "serve", "--port", str(port), "--data", str(work / name), "--threads", "2"],
                                          cwd=ROOT, env=env, stdout=open(work / f"{name}.log", "w"), stderr=subprocess.STDOUT))
        applied = region("apply")
        assert applied.returncode == 0, applied.stdout + applied.stderr
        assert "1 read-only replicas" in applied.stdout and "n2 +alpha" in applied.stdout, applied.stdout
        listed = subprocess.run([BINARY, "tenant", "list", "--data", str(work / "n2")], capture_output=True, text=True).stdout
        assert f"alpha\t{REPORTS_HOST}\t" in listed and f"primary=http://{PRIMARY_HOST}:{listen.split(':')[1]}" in listed

        # A note written at the primary, through nginx, is read at the replica's host through nginx.
        ana = drill.HostClient(f"http://{listen}", PRIMARY_HOST)
        ana.log_in("ana")
        db = sqlite3.connect(f"file:{work}/n1/tenants/alpha/db/tagarela.sqlite?mode=ro", uri=True)
        carla = db.execute("SELECT id FROM user WHERE username = 'carla' OR displayName LIKE 'Carla%' ORDER BY id").fetchone()[0]
        db.close()
        note = "from the primary " + str(time.time())
        status, _, _ = ana.post(f"/patients/{carla}/observations", {"body": note, "observedOn": time.strftime("%Y-%m-%d")})
        assert status == 303
        session = next(c.value for c in ana.jar if c.name == "tagarela_session")
        until(lambda: note in get(listen, REPORTS_HOST, f"/patients/{carla}/observations", session)[1], 40,
              "the note never reached the replica's page")

        # A write at the replica is refused, with a link to the primary through the region's nginx.
        status, body = get(listen, REPORTS_HOST, "/login")
        assert status == 200
        request = urllib.request.Request(f"http://{listen}/login", data=b"username=ana&password=x",
                                         headers={"Host": REPORTS_HOST})
        try:
            urllib.request.urlopen(request, timeout=10)
            assert False, "a login at the replica was accepted"
        except urllib.error.HTTPError as error:
            assert error.code == 403
            assert f'href="http://{PRIMARY_HOST}:{listen.split(":")[1]}/' in error.read().decode()  # no Referer: its home

        # The line goes: the node stops serving the copy, nginx no longer knows the host, the refresher stops.
        placement.write_text("\n".join(lines) + "\n")
        applied = region("apply")
        assert applied.returncode == 0 and "n2 -alpha" in applied.stdout, applied.stdout + applied.stderr
        assert not list((work / ".region").glob("refresh-*.pid"))
        assert get(listen, REPORTS_HOST, "/login")[0] == 404  # /healthz answers on any host; a page does not
        assert get(listen, PRIMARY_HOST, "/healthz") == (200, "ok")
    finally:
        region("stop")
        for node in nodes:
            node.terminate()
            node.wait(timeout=30)
