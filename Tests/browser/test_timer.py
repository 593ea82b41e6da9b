"""The visual timer in patient mode: it counts down, survives a reload, and pauses."""
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, submit


def seconds_left(page):
    h, m, s = (int(part) for part in page.find_element(By.CSS_SELECTOR, ".timer-clock").text.split(":"))
    return h * 3600 + m * 60 + s


def test_a_timer_counts_down_carries_on_after_a_reload_pauses_and_rings(demo_server, page):
    log_in(page, demo_server, "bruno")
    page.get(demo_server.url + "/tutor")
    carla = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".person h3 a") if "Carla" in a.text][0]
    page.get(carla + "/plans")
    click_and_wait(page, page.find_elements(By.XPATH, "//li[.//strong[text()='Palavras principais']]//button")[0])
    page.get(demo_server.url + "/play")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a[href='/timer']"))
    assert serious_accessibility_violations(page) == []
    Select(page.find_element(By.ID, "symbol")).select_by_visible_text("dormir")
    page.find_element(By.ID, "minutes").clear()
    page.find_element(By.ID, "minutes").send_keys("2")
    submit(page)
    assert "at=" in page.current_url
    WebDriverWait(page, 5).until(lambda p: seconds_left(p) <= 119)
    assert serious_accessibility_violations(page) == []

    started = page.current_url
    page.refresh()
    assert page.current_url == started
    assert 110 <= seconds_left(page) <= 119, "a reload carries on instead of starting over"

    # From here the page's clock runs sixty times faster: two minutes pass in two seconds.
    page.execute_script("const t0 = Date.now(); window.tagarelaClock = () => t0 + (Date.now() - t0) * 60;")
    toggle = page.find_element(By.CSS_SELECTOR, ".timer-toggle")
    toggle.click()
    assert toggle.text == "Continuar"
    paused = seconds_left(page)
    time.sleep(1)
    assert seconds_left(page) == paused, "a paused timer stays still"
    toggle.click()
    assert toggle.text == "Pausar"
    WebDriverWait(page, 5).until(lambda p: p.find_element(By.CSS_SELECTOR, ".timer-status").text != "")
    assert seconds_left(page) == 0
    assert page.find_element(By.CSS_SELECTOR, ".timer-status").text == "Acabou o tempo!"
    assert not toggle.is_displayed()
    WebDriverWait(page, 5).until(lambda p: p.execute_script(
        "return document.querySelector('.timer-alarm').played.length > 0"))
