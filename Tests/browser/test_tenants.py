"""A node serving tenants, seen by a browser: a host it does not serve gets the 404 page (in the browser's
language, with the stylesheet), a tenant's host its own login; the other tenant's session is not there."""
import pathlib
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY, DEMO_PASSWORD, ROOT, free_port, screenshot
from test_accounts import click_and_wait



@pytest.fixture
def node(data_dir):
    for name in ("alpha", "beta"):
        subprocess.run([BINARY, "tenant", "add", name, "--host", f"{name}.localhost", "--data", data_dir],
                       cwd=ROOT, check=True, capture_output=True)
    subprocess.run([BINARY, "seed-demo", "--data", f"{data_dir}/tenants/alpha"], cwd=ROOT, check=True, capture_output=True)
    port = free_port()
    log = open(pathlib.Path(data_dir) / "server.log", "w")
    process = subprocess.Popen([BINARY, "serve", "--port", str(port), "--data", data_dir, "--threads", "2"],
                               cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as response:
                if response.read().startswith(b"ok: 2 tenants"):
                    break
        except OSError:
            time.sleep(0.1)
    yield port
    process.terminate()
    process.wait(timeout=30)


def test_a_host_not_served_gets_a_404_page_and_a_tenant_its_own_login(node, page):
    # Chromium sends 127.0.0.1 as the host: no tenant of this node.
    for width, height in ((360, 740), (768, 1024), (1280, 800)):
        page.set_window_size(width, height)
        page.get(f"http://127.0.0.1:{node}/login")
        assert page.find_element(By.TAG_NAME, "h1").text == "Nenhuma clínica neste endereço"
        assert "127.0.0.1" in page.find_element(By.TAG_NAME, "main").text
        assert page.execute_script("return document.documentElement.scrollWidth") <= width
        assert page.find_elements(By.CSS_SELECTOR, "a[href]") == [], "every link of this address leads back here"
        screenshot(page, f"tenant-not-served-{width}x{height}.png")
    # *.localhost is loopback in Chromium: each tenant at its own host.
    page.set_window_size(768, 1024)
    page.get(f"http://alpha.localhost:{node}/login")
    page.find_element(By.NAME, "username").send_keys("ana")
    page.find_element(By.NAME, "password").send_keys(DEMO_PASSWORD)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
    assert "/clinician" in page.current_url
    page.get(f"http://beta.localhost:{node}/clinician")
    assert "/login" in page.current_url, "beta knows nothing of alpha's session"
