"""No page of any role scrolls sideways on a 360 px phone: a crawl, at 360 × 740, of every page each
demo persona (and a child in patient mode) reaches by following same-site links."""
import re
from urllib.parse import urljoin, urlsplit

from selenium.webdriver.common.by import By

from test_accounts import click_and_wait, log_in

WIDTH, HEIGHT = 360, 740
# Per persona: how many pages, and how many of one shape (/plans/4/edit and /plans/5/edit are one shape).
MAX_PAGES = 70
MAX_PER_SHAPE = 3
# Files, downloads and pictures are not pages; the exit page of patient mode is, but leaves it.
SKIPPED = re.compile(r"^/(media|pictograms|css|js|img|fonts)/|/photo$|\.(obz|obf|obl|csv|pdf|json|svg|png|mp3)$"
                     r"|/export|/usage\.obl|^/patient-mode/exit")


def shape(path):
    return re.sub(r"\d+", "N", path)


def page_width(page):
    return page.execute_script("return document.documentElement.scrollWidth")


def too_wide_elements(page):
    """The elements whose right edge passes the viewport, to say what made a page too wide."""
    return page.execute_script("""
        const out = [];
        for (const el of document.querySelectorAll('body *')) {
          const r = el.getBoundingClientRect();
          if (r.right > innerWidth + 0.5 && r.width > 0) {
            out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
                     (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
                     ' ' + Math.round(r.right));
          }
        }
        return out.slice(0, 4);""")


def small_chart_text(page):
    """Texts of the page's SVG charts drawn smaller than 12 px (font size × the chart's scale)."""
    return page.execute_script("""
        const out = [];
        for (const svg of document.querySelectorAll('svg.chart')) {
          const box = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / box.width;
          for (const text of svg.querySelectorAll('text')) {
            const px = parseFloat(text.getAttribute('font-size')) * scale;
            if (px < 12) out.push(text.textContent.slice(0, 20) + ' ' + px.toFixed(1));
          }
        }
        return out.slice(0, 3);""")


def crawl(page, server, start):
    """Visits `start` and every same-site page linked from what it visits, within the bounds above;
    returns {path: (scrollWidth, culprits)} for the pages wider than the screen, and the paths seen."""
    origin = urlsplit(server.url)
    queue, seen, shapes, wide = [start], set(), {}, {}
    while queue and len(seen) < MAX_PAGES:
        path = queue.pop(0)
        if path in seen or SKIPPED.search(urlsplit(path).path):
            continue
        if shapes.get(shape(path), 0) >= MAX_PER_SHAPE:
            continue
        seen.add(path)
        shapes[shape(path)] = shapes.get(shape(path), 0) + 1
        page.get(server.url + path)
        if page.execute_script("return document.contentType") != "text/html":
            continue
        width = page_width(page)
        if width > WIDTH:
            wide[path] = (width, too_wide_elements(page))
        small = small_chart_text(page)
        if small:
            wide[path] = ("chart text under 12 px", small)
        for href in page.execute_script("return [...document.querySelectorAll('a[href]')].map(a => a.href)"):
            url = urlsplit(urljoin(page.current_url, href))
            if (url.scheme, url.netloc) != (origin.scheme, origin.netloc):
                continue
            target = url.path + (f"?{url.query}" if url.query else "")
            if target not in seen:
                queue.append(target)
    return wide, seen


def open_patient_mode(page, server, tutor, child):
    log_in(page, server, tutor)
    page.get(server.url + "/tutor")
    form = [li for li in page.find_elements(By.CSS_SELECTOR, ".person") if child in li.text][0]
    click_and_wait(page, form.find_element(By.CSS_SELECTOR, "form button[type=submit]"))


def test_no_page_of_any_persona_is_wider_than_a_360_px_phone(demo_server, page):
    page.set_window_size(WIDTH, HEIGHT)
    # The window's outer size includes no scroll bar in headless Chromium: the layout viewport is 360 px.
    assert page.execute_script("return innerWidth") == WIDTH
    try:
        problems, visited = {}, 0
        for persona, start in [("admin", "/admin"), ("ana", "/clinician"), ("nadia", "/clinician"), ("dani", "/trainer"),
                               ("bruno", "/tutor"), ("beatriz", "/tutor"), ("elisa", "/patient")]:
            page.delete_all_cookies()
            log_in(page, demo_server, persona)
            wide, seen = crawl(page, demo_server, start)
            visited += len(seen)
            problems.update({f"{persona} {path}": found for path, found in wide.items()})
        for tutor, child in [("bruno", "Carla"), ("beatriz", "Davi")]:
            page.delete_all_cookies()
            open_patient_mode(page, demo_server, tutor, child)
            wide, seen = crawl(page, demo_server, "/patient")
            visited += len(seen)
            problems.update({f"{child} (patient mode) {path}": found for path, found in wide.items()})
        page.delete_all_cookies()
        wide, seen = crawl(page, demo_server, "/")
        visited += len(seen)
        problems.update({f"anonymous {path}": found for path, found in wide.items()})
        assert visited > 150, "the crawl reached the pages of every persona"
        assert problems == {}
    finally:
        page.delete_all_cookies()
        page.set_window_size(768, 1024)
