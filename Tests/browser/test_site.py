"""The public pages in a real page."""
from selenium.webdriver.support.ui import WebDriverWait


def console_errors(page):
    return [entry for entry in page.get_log("browser") if entry["level"] == "SEVERE"]


def test_home_page_renders_with_its_stylesheet(server, page):
    page.get(server.url + "/")
    assert page.title.endswith("Tagarela")
    assert page.find_element("css selector", "h1").text == "Tagarela"
    sheets = page.execute_script(
        "return Array.from(document.styleSheets).map(s => [s.href, s.cssRules.length])")
    assert len(sheets) == 1 and "/css/app.css?v=" in sheets[0][0] and sheets[0][1] > 20
    # The stylesheet really applies: the header is laid out by it, not by browser defaults.
    header_display = page.execute_script(
        "return getComputedStyle(document.querySelector('.site-header')).display")
    assert header_display in ("flex", "grid")
    assert console_errors(page) == [], "no CSP violation or missing resource"


def test_skip_link_is_the_first_thing_the_keyboard_reaches(server, page):
    page.get(server.url + "/")
    page.find_element("css selector", "body").send_keys("\ue004")  # Tab
    focused = page.switch_to.active_element
    assert focused.get_attribute("class") == "skip-link"
    # it slides into view when focused (a short transition)
    WebDriverWait(page, 2).until(
        lambda b: b.execute_script("return arguments[0].getBoundingClientRect().top >= 0", focused))


def test_page_fits_a_360px_phone_without_sideways_scrolling(server, page):
    page.set_window_size(360, 740)
    try:
        page.get(server.url + "/")
        overflow = page.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
    finally:
        page.set_window_size(768, 1024)


def test_about_page_credits_the_pictograms(server, page):
    page.get(server.url + "/about")
    links = [a.get_attribute("href") for a in page.find_elements("css selector", "main a")]
    assert "https://openmoji.org/" in links
    assert any("creativecommons.org/licenses/by-sa/4.0" in link for link in links)
