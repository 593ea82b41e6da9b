"""A second lunch on a phone: the prescription form warns, stores nothing, and saves once confirmed."""
import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import serious_accessibility_violations, screenshot
from test_accounts import log_in, submit



def test_a_second_lunch_warns_keeps_the_form_and_saves_once_confirmed(demo_server, page):
    page.set_window_size(360, 740)
    log_in(page, demo_server, "nadia")
    page.get(demo_server.url + "/clinician")
    patient_id = [a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "#main a[href$='/nutrition']")
                  if "Elisa" in a.text][0].split("/")[-2]
    page.get(f"{demo_server.url}/patients/{patient_id}/meals/new")  # today, a lunch at 12:30: the demo has one
    food = Select(page.find_element(By.ID, "food_0"))
    food.select_by_index(1)
    page.find_element(By.ID, "quantity_0").send_keys("2")
    submit(page)
    warning = page.find_element(By.ID, "meal-warnings")
    assert "Nada foi salvo ainda" in warning.text
    assert "já tem uma refeição deste tipo ou neste horário (12:30)" in warning.text
    assert page.find_element(By.ID, "quantity_0").get_attribute("value") == "2"
    assert page.execute_script("return document.documentElement.scrollWidth") <= 360
    assert serious_accessibility_violations(page) == []
    screenshot(page, "nutrition-meal-warning-360.png")

    page.find_element(By.CSS_SELECTOR, "input[name=confirm]").click()
    submit(page)
    assert page.find_element(By.CSS_SELECTOR, ".flash").text
    assert "/nutrition" in page.current_url
