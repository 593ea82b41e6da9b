"""Starts the real tagarela binary on a free port with a temporary data directory, and a
headless Chromium to drive it."""
import functools
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("TAGARELA_BIN", str(ROOT / ".build/debug/tagarela"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


DEMO_PASSWORD = "ola-tagarela"
# A folder (docs/screens) for the screenshots the README and the docs show: remade when set, not otherwise.
SCREENS = os.environ.get("TAGARELA_SCREENS")


def screenshot(page, name):
    if SCREENS:
        page.save_screenshot(os.path.join(SCREENS, name))


_demo_templates = {}


def copy_demo_clinic(data_dir):
    """Puts the demo clinic into data_dir: `tagarela seed-demo` runs once per hour and per process
    (each xdist worker has its own) into a template folder, which every test then copies. The hour
    keeps the seed's dates and the test's "today" on the same day in every time zone."""
    if os.environ.get("TAGARELA_SEED_EACH_TEST"):  # the old way, to time the difference
        subprocess.run([BINARY, "seed-demo", "--data", data_dir], cwd=ROOT, check=True, capture_output=True)
        return
    hour = time.strftime("%Y-%m-%dT%H", time.gmtime())
    template = _demo_templates.get(hour)
    if template is None:
        template = tempfile.mkdtemp(prefix="tagarela-demo-template-")
        subprocess.run([BINARY, "seed-demo", "--data", template], cwd=ROOT, check=True, capture_output=True)
        _demo_templates[hour] = template
    shutil.copytree(template, data_dir, dirs_exist_ok=True)


# The files that take longest, longest first (measured in `make test`): they start first, so that at the end
# no worker is left running one of them while the others wait.
SLOWEST_FILES = ["test_accessibility.py", "test_educat.py", "test_board_fit.py", "test_educat_settings.py",
                 "test_small_screens.py", "test_offline.py", "test_voices.py", "test_educat_menus.py"]


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.path.name
        return SLOWEST_FILES.index(name) if name in SLOWEST_FILES else len(SLOWEST_FILES)
    items.sort(key=rank)  # stable: the other files, and the tests inside every file, keep their order


def pytest_sessionfinish(session):
    for template in _demo_templates.values():
        shutil.rmtree(template, ignore_errors=True)


class RunningServer:
    def __init__(self, data_dir, demo=False, port=None, env=None):
        self.data_dir = data_dir
        if demo:
            copy_demo_clinic(data_dir)
        self.port = port or free_port()  # a restart on the same data keeps its address
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(data_dir, "server.log"), "a+")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--data", data_dir, "--threads", "2"],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as response:
                    if response.read() == b"ok":
                        return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("server did not start:\n" + self.output())

    def output(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


@pytest.fixture
def data_dir():
    path = tempfile.mkdtemp(prefix="tagarela-browser-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def server(data_dir):
    running = RunningServer(data_dir)
    yield running
    running.stop()


@pytest.fixture
def demo_server(data_dir):
    """The server with the demo clinic loaded (its people are the personas of these tests)."""
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()


def profile_folder():
    """Chromium's profile in memory when /dev/shm has room: every test's server is a new origin, so each
    patient page's service worker writes her boards' hundreds of files into a fresh cache (on disk that
    cost a fifth more CPU)."""
    shm = "/dev/shm"
    roomy = os.path.isdir(shm) and shutil.disk_usage(shm).free > 4 * 2**30
    return tempfile.mkdtemp(prefix="tagarela-chromium-", dir=shm if roomy else None)


PLAIN_HTTP_HOST = "tagarela.test"


@pytest.fixture(scope="session")
def browser():
    profile = profile_folder()
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.add_argument(f"--user-data-dir={profile}")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=768,1024",
                     "--autoplay-policy=no-user-gesture-required",
                     # a fake microphone that always says yes, for the symbol recorder
                     "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                     # a name for the test server that is not a secure context: a clinic's plain-http network
                     f"--host-resolver-rules=MAP {PLAIN_HTTP_HOST} 127.0.0.1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A Brazilian tablet: pages come in pt-BR unless the user chose otherwise.
    options.add_argument("--lang=pt-BR")
    options.add_experimental_option("prefs", {"intl.accept_languages": "pt-BR,pt"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser):
    """The session browser with its cookies cleared, so each test starts logged out."""
    browser.delete_all_cookies()
    browser.get_log("browser")  # drop what earlier tests left in the console log
    # Every test starts at the size the browser was opened with, whatever the one before it resized to.
    browser.set_window_size(768, 1024)
    yield browser
    browser.delete_all_cookies()


# Only violations are gathered: the passes and the rules that did not apply, which nothing here reads,
# cost a sixth of each check's CPU to collect and send back.
SERIOUS_VIOLATIONS = """
const done = arguments[arguments.length - 1];
axe.run(document, { resultTypes: ["violations"] }).then(
  (results) => done(results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => [violation.id, violation.help, violation.nodes.slice(0, 3).map((node) => node.target)])),
  (error) => done(`axe failed: ${error}`));
"""


@functools.cache
def axe_source():
    from axe_selenium_python import Axe
    with open(Axe(None).script_url, encoding="utf8") as file:
        return file.read()


def serious_accessibility_violations(driver):
    """axe-core's serious and critical findings on the current page: [(rule, help, first three targets)]."""
    driver.execute_script(axe_source())
    found = driver.execute_async_script(SERIOUS_VIOLATIONS)
    assert isinstance(found, list), found
    return [tuple(violation) for violation in found]
