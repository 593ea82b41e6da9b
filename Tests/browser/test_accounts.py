"""Logging in as each demo role, logging out, and patient mode, in a real browser."""
import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import DEMO_PASSWORD, serious_accessibility_violations


def click_and_wait(page, element):
    """Clicks something that loads a new page, and waits until it has (the clicked element is gone)."""
    element.click()

    def gone(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:  # stale, or chromedriver's "node does not belong to the document"
            return True

    WebDriverWait(page, 10).until(gone)


def submit(page):
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))


def log_in(page, server, username, password=DEMO_PASSWORD, refused=False):
    """Logs in through the form; unless the test expects a refusal, fails with the page that came instead."""
    page.get(server.url + "/login")
    page.find_element(By.ID, "username").send_keys(username)
    page.find_element(By.ID, "password").send_keys(password)
    submit(page)
    if password == DEMO_PASSWORD and not refused:
        assert path_of(page).split("?")[0] not in ("/login", "/session"), \
            f"{username}'s login did not take: {path_of(page)} says " + page.find_element(By.TAG_NAME, "main").text[:300]


def path_of(page):
    return "/" + page.current_url.split("/", 3)[3]


def open_carlas_board(page, server, board="Palavras principais"):
    """Bruno, Carla's tutor, opens patient mode on her board `board`; returns her page's URL."""
    log_in(page, server, "bruno")
    page.get(server.url + "/tutor")
    carla = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".person h3 a") if "Carla" in a.text][0]
    page.get(carla + "/plans")
    click_and_wait(page, page.find_elements(By.XPATH, f"//li[.//strong[text()='{board}']]//button")[0])
    return carla


@pytest.mark.parametrize("username,home,heading", [
    ("admin", "/admin", "Olá, Administração"),
    ("ana", "/clinician", "Olá, Ana Souza"),
    ("dani", "/trainer", "Olá, Daniel Rocha"),
    ("bruno", "/tutor", "Olá, Bruno Costa"),
    ("beatriz", "/tutor", "Hola, Beatriz Alves"),
    ("elisa", "/patient", "Oi, Elisa Martins!"),
])
def test_each_role_lands_on_its_dashboard_and_logs_out(demo_server, page, username, home, heading):
    log_in(page, demo_server, username)
    assert path_of(page) == home
    assert page.find_element(By.TAG_NAME, "h1").text == heading
    assert serious_accessibility_violations(page) == []
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".site-nav form[action='/logout'] button"))
    assert path_of(page) == "/login"
    assert page.find_element(By.CSS_SELECTOR, ".flash").text in ("Você saiu.", "Ha cerrado la sesión.")
    page.get(demo_server.url + home)
    assert path_of(page).startswith("/login?next=")


def test_wrong_password_keeps_the_username_and_says_why(demo_server, page):
    log_in(page, demo_server, "ana", "not-the-password")
    assert path_of(page) == "/login"
    assert page.find_element(By.ID, "login-error").text == "Usuário ou senha incorretos."
    assert page.find_element(By.ID, "username").get_attribute("value") == "ana"
    assert page.find_element(By.ID, "password").get_attribute("value") == ""


def test_patient_mode_cannot_be_left_without_the_tutors_password(demo_server, page):
    log_in(page, demo_server, "bruno")
    click_and_wait(page, page.find_element(By.XPATH, "//button[normalize-space()='Abrir modo paciente']"))
    assert path_of(page) == "/patient"
    assert page.find_element(By.TAG_NAME, "h1").text == "Oi, Carla Costa!"
    tiles = page.find_elements(By.CSS_SELECTOR, ".home-tile")
    assert len(tiles) >= 4
    assert all(t.size["height"] >= 64 and t.size["width"] >= 64 for t in tiles)
    assert serious_accessibility_violations(page) == []

    for adult_page in ("/tutor", "/account", "/clinician"):
        page.get(demo_server.url + adult_page)
        assert "Acesso negado" in page.find_element(By.TAG_NAME, "h1").text
    assert page.find_elements(By.CSS_SELECTOR, "form[action='/logout']") == []

    click_and_wait(page, page.find_element(By.LINK_TEXT, "Sair do modo paciente"))
    page.find_element(By.ID, "password").send_keys("a guess")
    submit(page)
    assert page.find_element(By.ID, "password-error").text == "Senha incorreta."
    page.get(demo_server.url + "/tutor")
    assert "Acesso negado" in page.find_element(By.TAG_NAME, "h1").text

    page.get(demo_server.url + "/patient-mode/exit")
    page.find_element(By.ID, "password").send_keys(DEMO_PASSWORD)
    submit(page)
    assert path_of(page) == "/tutor"


def test_clinician_adds_a_patient_from_a_phone(demo_server, page):
    page.set_window_size(360, 740)
    try:
        log_in(page, demo_server, "ana")
        click_and_wait(page, page.find_element(By.LINK_TEXT, "Novo paciente"))
        submit(page)
        assert page.find_element(By.ID, "displayName-error").text == "Informe o nome."
        page.find_element(By.ID, "displayName").send_keys("Ígor Nunes")
        page.find_element(By.ID, "diagnosis").send_keys("Apraxia da fala")
        submit(page)
        assert page.find_element(By.TAG_NAME, "h1").text == "Ígor Nunes"
        assert page.find_element(By.CSS_SELECTOR, ".flash").text == "Paciente cadastrado."
        overflow = page.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        assert serious_accessibility_violations(page) == []
    finally:
        page.set_window_size(768, 1024)


def test_a_grandmother_accepts_her_invitation_and_sees_the_child(demo_server, page):
    log_in(page, demo_server, "ana")
    page.get(demo_server.url + "/patients/7")
    page.find_element(By.ID, "tutorUsername").send_keys("vovo.rosa")
    page.find_element(By.ID, "tutorName").send_keys("Rosa Costa")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[action$='/tutors'] button[type=submit]"))
    link = page.find_element(By.ID, "invitation-link").get_attribute("value")
    assert "/invitations/" in link
    assert serious_accessibility_violations(page) == []

    page.delete_all_cookies()
    page.get(link)
    assert "Rosa Costa" in page.find_element(By.CSS_SELECTOR, ".lead").text
    assert serious_accessibility_violations(page) == []
    page.find_element(By.ID, "password").send_keys("netinha querida 2026")
    page.find_element(By.ID, "confirmation").send_keys("netinha querida 2027")
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".field-error").text == "As duas senhas não são iguais."
    page.find_element(By.ID, "password").send_keys("netinha querida 2026")
    page.find_element(By.ID, "confirmation").send_keys("netinha querida 2026")
    submit(page)
    assert path_of(page) == "/tutor"
    assert "Carla Costa" in page.find_element(By.TAG_NAME, "main").text


def test_a_tutor_accepts_a_link_request_on_her_own_page(demo_server, page):
    log_in(page, demo_server, "nadia")
    page.get(demo_server.url + "/patients/7")
    page.find_element(By.ID, "askTutorUsername").send_keys("beatriz")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form:has(#askTutorUsername) button[type=submit]"))
    assert "o dono foi consultado" in page.find_element(By.CSS_SELECTOR, ".flash").text
    assert "Beatriz Alves" not in page.find_element(By.TAG_NAME, "main").text
    assert serious_accessibility_violations(page) == []

    page.delete_all_cookies()
    log_in(page, demo_server, "beatriz")
    section = page.find_element(By.CSS_SELECTOR, ".link-requests")
    assert "Nádia Lima" in section.text and "Carla Costa" in section.text
    assert serious_accessibility_violations(page) == []
    click_and_wait(page, section.find_element(By.CSS_SELECTOR, "form[action$='/accept'] button"))
    assert path_of(page) == "/tutor"
    assert page.find_elements(By.CSS_SELECTOR, ".link-requests") == []
    assert "Carla Costa" in page.find_element(By.TAG_NAME, "main").text


def test_the_admin_resets_a_forgotten_password(demo_server, page):
    log_in(page, demo_server, "admin")
    click_and_wait(page, page.find_element(By.LINK_TEXT, "Contas e senhas"))
    page.find_element(By.ID, "q").send_keys("bruno")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[role=search] button"))
    assert serious_accessibility_violations(page) == []
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "form[action$='/password-reset'] button"))
    link = page.find_element(By.ID, "invitation-link").get_attribute("value")
    assert "/invitations/" in link

    page.delete_all_cookies()
    page.get(link)
    page.find_element(By.ID, "password").send_keys("o bruno lembrou agora")
    page.find_element(By.ID, "confirmation").send_keys("o bruno lembrou agora")
    submit(page)
    assert path_of(page) == "/tutor"
