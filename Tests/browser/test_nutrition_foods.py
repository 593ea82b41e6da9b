"""The food catalogue corrected by a nutritionist on a phone (issue 52, item 4): edit a food, merge a duplicate
into it, remove foods, and a past meal keeps the name and energy it was prescribed with throughout."""
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import serious_accessibility_violations
from test_accounts import click_and_wait
from test_nutrition_week import SCREENS, elisa_week, horizontal_overflow

FIRST_PAST_MEAL = """
const meal = Array.from(document.querySelectorAll('.week-meal.status-followed, .week-meal.status-changed'))[0];
return {kcal: meal.querySelector('.week-kcal').textContent.trim(),
        line: meal.querySelector('.week-lines li').textContent.trim()};
"""


def first_past_meal(page, server, log_in=False):
    if log_in:
        elisa_week(page, server)
    else:
        page.get(server.url + "/clinician")
        link = [a for a in page.find_elements(By.CSS_SELECTOR, "#main a[href$='/nutrition']") if "Elisa" in a.text][0]
        page.get(link.get_attribute("href"))
    return page.execute_script(FIRST_PAST_MEAL)


def flash(page):
    return page.find_element(By.CSS_SELECTOR, ".flash").text


def open_food(page, server, name):
    page.get(server.url + "/foods")
    click_and_wait(page, page.find_element(By.LINK_TEXT, name))


def fill(page, field, value):
    element = page.find_element(By.ID, field)
    element.clear()
    element.send_keys(value)


def add_food(page, server, name, kcal):
    page.get(server.url + "/foods")
    fill(page, "name", name)
    fill(page, "kcal", kcal)
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#main form.form button[type=submit]"))


def test_edit_merge_and_remove_foods_while_a_past_meal_keeps_its_figures(demo_server, page):
    page.set_window_size(360, 740)
    try:
        before = first_past_meal(page, demo_server, log_in=True)  # as Nádia
        food = before["line"].split(":")[0].strip()

        # Edit: a new name and energy; the list shows them, the past meal does not.
        open_food(page, demo_server, food)
        assert horizontal_overflow(page) <= 0
        assert serious_accessibility_violations(page) == []
        fill(page, "name", food + " (corrigido)")
        fill(page, "kcal", "333")
        if SCREENS:
            os.makedirs(SCREENS, exist_ok=True)
            page.save_screenshot(os.path.join(SCREENS, "food-edit-360.png"))
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, "#main form.form button[type=submit]"))
        assert flash(page) == "Alimento corrigido."
        row = page.find_element(By.LINK_TEXT, food + " (corrigido)").find_element(By.XPATH, "../..")
        assert "333 kcal" in row.text
        assert first_past_meal(page, demo_server) == before

        # Merge: a duplicate added by mistake goes into the corrected food.
        add_food(page, demo_server, "Duplicado de teste", "120")
        assert flash(page) == "Alimento adicionado ao catálogo." or "Duplicado de teste" in page.page_source
        open_food(page, demo_server, "Duplicado de teste")
        kept = [o for o in Select(page.find_element(By.ID, "into")).options if o.text.startswith(food + " (corrigido)")][0]
        Select(page.find_element(By.ID, "into")).select_by_value(kept.get_attribute("value"))
        click_and_wait(page, page.find_element(By.XPATH, "//button[contains(., 'Juntar ao alimento mantido')]"))
        assert "Alimentos juntados" in flash(page)
        assert not page.find_elements(By.LINK_TEXT, "Duplicado de teste")

        # Remove: the corrected food is used by meals, so it is hidden; an unused one is deleted.
        open_food(page, demo_server, food + " (corrigido)")
        assert "será escondido" in page.find_element(By.ID, "main").text
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, "button.button-danger"))
        assert "escondido do catálogo" in flash(page)
        assert not page.find_elements(By.LINK_TEXT, food + " (corrigido)")
        add_food(page, demo_server, "Nunca usado", "10")
        open_food(page, demo_server, "Nunca usado")
        assert "será apagado" in page.find_element(By.ID, "main").text
        click_and_wait(page, page.find_element(By.CSS_SELECTOR, "button.button-danger"))
        assert flash(page) == "Alimento apagado."

        # Throughout, the past meal kept the name and energy it was prescribed with.
        assert first_past_meal(page, demo_server) == before
    finally:
        page.set_window_size(768, 1024)
