"""The visual timer in patient mode: the child picks an activity among her own pictures and a time
among big presets; it counts down, survives a reload, and pauses."""
import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait, log_in, open_carlas_board

SCREENS = os.environ.get("TAGARELA_SCREENS")  # a folder (docs/screens): screenshots for the README when set


def choice(page, fieldset, label):
    """The tile (a label around its radio) of `label` in the form's `fieldset` (activities or durations),
    scrolled to the middle of the screen: the Start button stays pinned at the bottom."""
    tile = page.find_element(By.XPATH, f"//fieldset[contains(@class, '{fieldset}')]"
                                       f"//label[normalize-space(.//span[@class='timer-choice-label'])='{label}']")
    page.execute_script("arguments[0].scrollIntoView({block: 'center'})", tile)
    return tile


def choose_timer(page, activity, minutes):
    choice(page, "timer-activities", activity).click()
    choice(page, "timer-durations", f"{minutes} min").click()
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".timer-start"))


def seconds_left(page):
    h, m, s = (int(part) for part in page.find_element(By.CSS_SELECTOR, ".timer-clock").text.split(":"))
    return h * 3600 + m * 60 + s


def test_a_timer_counts_down_carries_on_after_a_reload_pauses_and_rings(demo_server, page):
    open_carlas_board(page, demo_server)
    page.get(demo_server.url + "/play")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "a[href='/timer']"))
    assert serious_accessibility_violations(page) == []
    choose_timer(page, "dormir", 2)
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


def open_timer(page, server, tutor="bruno"):
    log_in(page, server, tutor)
    click_and_wait(page, page.find_elements(By.CSS_SELECTOR, ".person form[action$='/patient-mode'] button")[0])
    page.get(server.url + "/timer")


def test_the_child_picks_a_picture_and_a_preset_and_adjusts_it_by_one_minute(demo_server, page):
    page.set_window_size(360, 740)
    try:
        open_timer(page, demo_server)
        activities = page.find_elements(By.CSS_SELECTOR, ".timer-activities .timer-choice")
        presets = page.find_elements(By.CSS_SELECTOR, ".timer-durations .timer-preset:not([hidden])")
        assert [p.text for p in presets] == ["1 min", "2 min", "5 min", "10 min", "15 min", "30 min"]
        for tile in activities + presets + page.find_elements(By.CSS_SELECTOR, ".timer-step, .timer-start"):
            assert tile.size["width"] >= 64 and tile.size["height"] >= 64, (tile.text, tile.size)
        for tile in activities:
            assert tile.find_element(By.TAG_NAME, "img").get_attribute("src"), "each activity is a picture"
        assert page.find_elements(By.CSS_SELECTOR, "select") == [] or not page.find_element(By.CSS_SELECTOR, "select").is_displayed(), \
            "no list of words for the child: the adult's form is folded away"
        assert page.execute_script("return document.documentElement.scrollWidth") <= 360
        assert serious_accessibility_violations(page) == []

        # 5 minutes until chosen; 10, then +1 twice: 12 minutes, a duration of its own.
        checked = "return document.querySelector('input[name=minutes]:checked').value"
        assert page.execute_script(checked) == "5"
        choice(page, "timer-activities", "brincar").click()
        choice(page, "timer-durations", "10 min").click()
        plus = page.find_element(By.CSS_SELECTOR, ".timer-step[data-step='1']")
        page.execute_script("arguments[0].scrollIntoView({block: 'center'})", plus)
        plus.click()
        plus.click()
        assert page.execute_script(checked) == "12"
        assert page.find_element(By.CSS_SELECTOR, ".timer-custom").text == "12 min"
        page.find_element(By.CSS_SELECTOR, ".timer-step[data-step='-1']").click()
        page.find_element(By.CSS_SELECTOR, ".timer-step[data-step='-1']").click()
        assert page.execute_script(checked) == "10", "back on a preset, the preset itself is chosen"
        plus.click()
        if SCREENS:
            page.save_screenshot(os.path.join(SCREENS, "timer-form-360.png"))
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".timer-start"))
        assert "minutes=11" in page.current_url and "hours=0" in page.current_url
        WebDriverWait(page, 5).until(lambda p: 0 < seconds_left(p) <= 660)
        assert page.find_element(By.CSS_SELECTOR, ".timer-activity-name").text == "brincar"
        assert page.execute_script("return document.documentElement.scrollWidth") <= 360
        if SCREENS:
            page.save_screenshot(os.path.join(SCREENS, "timer-run-360.png"))
    finally:
        page.set_window_size(768, 1024)


def test_the_adults_form_still_sets_hours_and_a_careless_start_keeps_the_choices(demo_server, page):
    open_timer(page, demo_server)
    # Start with no activity: refused, the time chosen is kept.
    choice(page, "timer-durations", "15 min").click()
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".timer-start"))
    assert page.find_element(By.ID, "symbol-error").text == "Escolha uma das opções."
    assert page.execute_script("return document.querySelector('input[name=minutes]:checked').value") == "15"
    page.find_element(By.CSS_SELECTOR, ".timer-advanced summary").click()
    from selenium.webdriver.support.ui import Select
    Select(page.find_element(By.ID, "symbol")).select_by_visible_text("comer")
    page.find_element(By.ID, "hours").clear()
    page.find_element(By.ID, "hours").send_keys("1")
    page.find_element(By.ID, "minutes").clear()
    page.find_element(By.ID, "minutes").send_keys("30")
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".timer-advanced button[type=submit]"))
    WebDriverWait(page, 5).until(lambda p: 5300 < seconds_left(p) <= 5400)


def test_davis_spanish_timer_names_each_picture_once_in_spanish(demo_server, page):
    open_timer(page, demo_server, tutor="beatriz")
    labels = [span.text for span in page.find_elements(By.CSS_SELECTOR, ".timer-activities .timer-choice-label")]
    assert "escuela" in labels and "escola" not in labels
    assert labels.count("casa") == 1
    other = page.find_elements(By.CSS_SELECTOR, ".timer-activities .timer-choice-label[lang]")
    assert all(span.get_attribute("lang") == "pt-BR" for span in other), "a Portuguese word is marked as such"
