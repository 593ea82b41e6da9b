from test_board_fit import clinic, screen, patient_mode, measured, CARLA
from test_accounts import log_in

def test_shots(clinic, page, screen):
    patient_mode(page, clinic, "bruno", CARLA)
    for path, (w, h) in [("/play/9", (360, 640)), ("/play/9", (1280, 800)), ("/play/3", (768, 1024)), ("/play/1?from=4", (1024, 768))]:
        screen.size(w, h)
        page.get(clinic.url + path)
        measured(page)
        page.save_screenshot(f"/tmp/screens/x-{path.replace('/', '_').replace('?', '_')}-{w}.png")
    page.delete_all_cookies()
    log_in(page, clinic, "ana")
    screen.size(1280, 900)
    page.get(clinic.url + "/plans/4/edit")
    page.save_screenshot("/tmp/screens/x-editor.png")
    page.get(clinic.url + "/symbols")
    page.save_screenshot("/tmp/screens/x-symbols.png")
