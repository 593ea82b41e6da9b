"""axe-core finds no serious or critical problem on any page of any role."""
from conftest import serious_accessibility_violations
from test_accounts import log_in

PAGES = {
    "ana": ["/clinician", "/patients/7", "/patients/7/edit", "/patients/new", "/symbols", "/symbols/new?q=comer",
            "/symbols/1/edit", "/patients/7/plans", "/patients/7/plans/new", "/plans/4/edit?cell=2", "/plans/4/print", "/patients/7/book",
            "/plans/9/edit", "/plans/9/edit?add=verb",
            "/patients/7/usage", "/patients/7/observations", "/patients/7/observations/print", "/patients/7/access", "/account", "/patients/7/educat", "/patients/7/boards/import"],
    "nadia": ["/clinician", "/patients/9/nutrition", "/patients/9/meals/new", "/patients/9/meals/1/edit", "/foods"],
    "dani": ["/trainer", "/clients/11", "/clients/11/evaluations/new", "/clients/11/evaluations/5",
             "/clients/10/compare?first=7&second=8", "/clients/new", "/clients/10/edit"],
    "admin": ["/admin", "/admin/audit", "/admin/staff/new"],
    "elisa": ["/patient", "/meals", "/meals/1", "/meals/history", "/measurements", "/educat", "/educat/letters",
              "/educat/numbers", "/educat/numbers/lesson", "/educat/alphabet/lesson", "/educat/alphabet/game",
              "/educat/conta-cops/lesson", "/educat/conta-cops/challenge", "/educat/records", "/educat/information"],
    "bruno": ["/tutor", "/patients/7/plans", "/patients/7/usage", "/patients/7/observations", "/patients/7/access", "/patients/7/educat"],
}


def test_every_page_passes_axe(demo_server, page):
    problems = []
    for user, paths in PAGES.items():
        page.delete_all_cookies()
        log_in(page, demo_server, user)
        for path in paths:
            page.get(demo_server.url + path)
            found = serious_accessibility_violations(page)
            if found:
                problems.append((user, path, found))
    page.delete_all_cookies()
    for path in ("/", "/about", "/login"):
        page.get(demo_server.url + path)
        found = serious_accessibility_violations(page)
        if found:
            problems.append(("anonymous", path, found))
    assert problems == []


PATIENT_PAGES = ["/patient", "/play", "/timer", "/meals", "/meals/history", "/educat", "/educat/numbers/lesson"]


def choose_display(page, server, theme, text_size):
    """Bruno sets Carla's theme and text size on her access page, then opens patient mode for her."""
    from selenium.webdriver.common.by import By
    from test_accounts import click_and_wait, submit
    page.delete_all_cookies()
    log_in(page, server, "bruno")
    carla = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, ".person h3 a") if "Carla" in a.text][0]
    page.get(carla + "/access")
    page.find_element(By.CSS_SELECTOR, f"input[name=theme][value={theme}]").click()
    page.find_element(By.CSS_SELECTOR, f"input[name=textSize][value={text_size}]").click()
    submit(page)
    page.get(server.url + "/tutor")
    click_and_wait(page, page.find_elements(By.CSS_SELECTOR, ".person form[action$='/patient-mode'] button")[0])
    page.get(server.url + "/play")
    return [a.get_attribute("href").split("/", 3)[3] for a in page.find_elements(By.CSS_SELECTOR, "main .tiles a")][:2]


def patient_reachable(page, server, boards):
    """Every page a patient reaches from her home (the week plan, her goals, the games…), with the fixed list."""
    from selenium.webdriver.common.by import By
    page.get(server.url + "/patient")
    found = [a.get_attribute("href").split("/", 3)[3] for a in page.find_elements(By.CSS_SELECTOR, "main a[href^='/'], main a[href^='http']")]
    paths = PATIENT_PAGES + ["/" + b for b in boards] + ["/" + f for f in found]
    return list(dict.fromkeys(p for p in paths if not p.startswith(("/media/", "/pictograms/"))))


def test_every_theme_passes_axe_on_the_patients_pages(demo_server, page):
    problems = []
    try:
        for theme, text_size, media in [("light", "standard", None), ("dark", "large", None), ("contrast", "xlarge", None),
                                        ("auto", "standard", "dark"), ("auto", "standard", "forced")]:
            boards = choose_display(page, demo_server, theme, text_size)
            features = {"dark": [{"name": "prefers-color-scheme", "value": "dark"}],
                        "forced": [{"name": "forced-colors", "value": "active"}]}.get(media, [])
            page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})
            for path in patient_reachable(page, demo_server, boards):
                page.get(demo_server.url + path)
                classes = page.execute_script("return document.documentElement.className")
                assert f"theme-{theme}" in classes and f"text-{text_size}" in classes, (path, classes)
                if media == "dark" or theme == "dark":
                    background = page.execute_script("return getComputedStyle(document.body).backgroundColor")
                    assert background == "rgb(18, 22, 25)", (path, background)
                found = serious_accessibility_violations(page)
                if found:
                    problems.append((theme, text_size, media, path, found))
    finally:
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        page.delete_all_cookies()
    assert problems == []


def test_the_check_itself_finds_what_it_is_there_to_find(page):
    """The checks above pass when axe finds nothing: on a page made wrong on purpose it must find the faults."""
    page.get("data:text/html,<html lang=en><title>t</title><main><img src=x.png><button></button></main></html>")
    found = {rule for rule, _, _ in serious_accessibility_violations(page)}
    assert {"image-alt", "button-name"} <= found, found
