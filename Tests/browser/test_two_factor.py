"""Two-step login in a real browser (issue 49): a clinician sets it up with a code the test computes as an
authenticator app would (RFC 6238, HMAC-SHA-1, 30 s, six digits), logs out, and logs in with the next code;
a wrong code and a code already used are refused, and each leaves the password page behind."""
import base64
import hashlib
import hmac
import shutil
import struct
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import RunningServer, serious_accessibility_violations
from test_accounts import click_and_wait, log_in, path_of, submit


@pytest.fixture(scope="module")
def clinic():
    data_dir = tempfile.mkdtemp(prefix="tagarela-2fa-")
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()
    shutil.rmtree(data_dir, ignore_errors=True)


def totp(secret_base32, step):
    key = base64.b32decode(secret_base32 + "=" * (-len(secret_base32) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def type_code(page, code):
    field = page.find_element(By.ID, "code")
    field.clear()
    field.send_keys(code)
    submit(page)


def test_a_clinician_sets_up_two_step_login_and_logs_in_with_a_code(clinic, page):
    log_in(page, clinic, "ana")
    page.get(clinic.url + "/account")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a[href='/account/two-factor']"))
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[action='/account/two-factor/start'] button"))
    secret = page.find_element(By.ID, "secret").text.replace(" ", "")
    assert len(secret) == 32, secret
    assert serious_accessibility_violations(page) == []
    step = int(time.time() // 30)
    type_code(page, totp(secret, step))
    codes = [c.text for c in page.find_elements(By.CSS_SELECTOR, ".recovery-codes code")]
    assert len(codes) == 10, codes

    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    assert path_of(page) == "/login/code"
    type_code(page, "000000")
    assert path_of(page) == "/login/code" and page.find_element(By.ID, "code-error").is_displayed()
    type_code(page, totp(secret, step))  # the code that set it up: already used
    assert path_of(page) == "/login/code"
    type_code(page, totp(secret, step + 1))  # the app's next code (accepted a step early)
    assert path_of(page) == "/clinician", path_of(page)

    # Another browser, the same code again: refused.
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    type_code(page, totp(secret, step + 1))
    assert path_of(page) == "/login/code"
    type_code(page, codes[0])
    assert path_of(page) == "/clinician"
