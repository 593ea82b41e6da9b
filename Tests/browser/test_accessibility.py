"""axe-core finds no serious or critical problem on any page of any role."""
from conftest import serious_accessibility_violations
from test_accounts import log_in

PAGES = {
    "ana": ["/clinician", "/patients/7", "/patients/7/edit", "/patients/new", "/symbols", "/symbols/new?q=comer",
            "/symbols/1/edit", "/patients/7/plans", "/patients/7/plans/new", "/plans/4/edit?cell=2", "/plans/4/print", "/patients/7/book",
            "/plans/9/edit", "/plans/9/edit?add=verb",
            "/patients/7/usage", "/patients/7/observations", "/patients/7/access", "/account", "/patients/7/educat", "/patients/7/boards/import"],
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
