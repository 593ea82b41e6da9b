"""eduCAT's last small things (issue 46, 7) in a real browser: patient mode's header over a Catalan game
speaks Catalan under a Portuguese tutor; the joined-up hand draws í ò ó ú ï ü and l·l in its own font;
a quantity of 0 shows an empty ring, not an empty tile."""
import os
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import BINARY, ROOT, screenshot
from test_accounts import click_and_wait, log_in, path_of, submit
from test_board_fit import screen  # noqa: F401 (a fixture: the viewport set exactly)
from test_educat import open_patient_mode, visit

CARLA = 7


@pytest.fixture(scope="module", autouse=True)
def educat_audio(tmp_path_factory):
    data = tmp_path_factory.mktemp("educat-audio")
    subprocess.run([BINARY, "educat-audio", "--data", str(data)], cwd=ROOT, check=True, capture_output=True)


def header_words(page):
    return {
        "modeling": page.find_element(By.CSS_SELECTOR, ".site-nav .modeling-switch:not(.alone-switch) button").text,
        "alone": page.find_element(By.CSS_SELECTOR, ".site-nav .alone-switch button").text,
        "exit": page.find_element(By.CSS_SELECTOR, ".site-nav a.button").text,
        "lang": page.find_element(By.CSS_SELECTOR, ".site-nav a.button").get_attribute("lang"),
    }


def test_the_header_over_a_catalan_game_is_catalan_under_a_portuguese_tutor(demo_server, page, screen):
    open_patient_mode(page, demo_server)  # Bruno reads Portuguese
    screen.size(360, 740)
    assert header_words(page)["exit"] == "Sair do modo paciente", "the home is in the page's language"
    visit(page, demo_server, "/educat/vowels/game")
    assert page.find_element(By.TAG_NAME, "html").get_attribute("lang") == "pt-BR"
    assert page.find_element(By.ID, "educat").get_attribute("lang") == "ca"
    assert header_words(page) == {"modeling": "Adult modelant", "alone": "Sense ajuda", "exit": "Surt del mode pacient",
                                  "lang": "ca"}
    # The switch still works, and says "on" in Catalan.
    click_and_wait(page, page.find_element(By.CSS_SELECTOR, ".site-nav .modeling-switch:not(.alone-switch) button"))
    assert path_of(page) == "/educat/vowels/game"
    assert header_words(page)["modeling"] == "Adult modelant: activat"
    screenshot(page, "educat-header-catalan-360x740.png")


WIDTHS = """
    const done = arguments[arguments.length - 1];
    document.fonts.load('40px "Ecolier Court"', arguments[0]).then(() => {
      const width = (text, fallback) => {
        const span = document.createElement('span');
        span.style.font = `40px "Ecolier Court", ${fallback}`;
        span.textContent = text;
        document.body.append(span);
        const w = span.getBoundingClientRect().width;
        span.remove();
        return w;
      };
      done([...arguments[0]].filter((c) => c.trim()).map((c) => [c, width(c, 'monospace'), width(c, 'serif')]));
    });
"""


def test_the_joined_up_hand_has_every_catalan_letter_and_zero_is_an_empty_ring(demo_server, page, screen):
    screen.size(768, 1024)
    log_in(page, demo_server, "ana")
    page.get(f"{demo_server.url}/patients/{CARLA}/educat/settings")
    Select(page.find_element(By.ID, "level-alphabet")).select_by_value("4")
    Select(page.find_element(By.ID, "level-numbers")).select_by_value("3")
    submit(page)
    page.delete_all_cookies()
    open_patient_mode(page, demo_server)

    visit(page, demo_server, "/educat/alphabet/game")
    root = page.find_element(By.ID, "educat")
    assert "is-cursive" in root.get_attribute("class")
    symbols = {e.get_attribute("data-item") for e in page.find_elements(By.CSS_SELECTOR, ".educat-item")}
    assert {"í", "ò", "ó", "ú", "ï", "ü", "l·l"} <= symbols
    # A letter the font lacks is drawn by the fallback: its width would change with the fallback named.
    widths = page.execute_async_script(WIDTHS, "íòóúïüàèéçÍÒÓÚ·")
    missing = [c for c, mono, serif in widths if abs(mono - serif) > 0.5]
    assert missing == [], f"drawn in another font: {missing}"
    family = page.execute_script(
        "return getComputedStyle(document.querySelector('.educat-item[data-item=\"ó\"] .educat-lower')).fontFamily")
    assert family.startswith('"Ecolier Court"')

    visit(page, demo_server, "/educat/numbers/game")
    assert page.find_element(By.ID, "educat").get_attribute("data-level-key") == "quantities"
    zero = page.find_element(By.CSS_SELECTOR, ".educat-item[data-item='0'] .educat-quantity")
    assert "is-zero" in zero.get_attribute("class")
    ring = page.execute_script("""const s = getComputedStyle(arguments[0]), b = arguments[0].getBoundingClientRect();
        return [s.borderTopStyle, Math.round(b.width), Math.round(b.height)];""", zero)
    assert ring[0] == "dashed" and ring[1] >= 16 and ring[2] >= 16, ring
    three = page.find_element(By.CSS_SELECTOR, ".educat-item[data-item='3'] .educat-quantity")
    assert three.get_attribute("textContent") == "●●●"
    screenshot(page, "educat-quantities-zero-768x1024.png")
