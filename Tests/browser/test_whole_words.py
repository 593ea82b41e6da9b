"""A word is never drawn over two lines: not in the board editor's cells at 1280 × 800, not in the child's
timer at 360 × 740 (issue 53 saw "televisã/o", "vaso sanitári" and "cansad/o")."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_accounts import click_and_wait, log_in

# Every word of a visible text node whose first and last characters are drawn on different lines.
BROKEN_WORDS = """
    const texts = [...document.querySelectorAll('main *')].filter(e => e.offsetParent)
        .flatMap(e => [...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE));
    return texts.flatMap(text => [...text.data.matchAll(/\\S+/g)].filter(word => {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const lines = [...range.getClientRects()];
        return lines.length > 1 && Math.abs(lines[0].top - lines[lines.length - 1].top) > 2;
    }).map(word => word[0]));
"""


def test_the_editor_draws_every_word_whole(demo_server, page):
    log_in(page, demo_server, "ana")
    page.set_window_size(1280, 800)
    page.get(demo_server.url + "/patients/7/plans")
    editors = sorted({a.get_attribute("href") for a in page.find_elements(By.CSS_SELECTOR, "a[href$='/edit'][href*='/plans/']")})
    assert len(editors) >= 4
    broken = {}
    for editor in editors:
        page.get(editor)
        if not page.find_elements(By.CSS_SELECTOR, ".editor-board"):
            continue  # a sentence plan's editor lists its words, it draws no grid
        WebDriverWait(page, 5).until(lambda p: p.find_elements(By.CSS_SELECTOR, ".editor-board[data-fitted='true']"))
        labels = [label.text for label in page.find_elements(By.CSS_SELECTOR, ".editor-board .cell-label") if label.text]
        assert labels, editor
        broken[editor] = page.execute_script(BROKEN_WORDS)
    assert len(broken) >= 3
    assert all(words == [] for words in broken.values()), broken


def test_the_timer_draws_every_word_whole_on_a_phone(demo_server, page):
    log_in(page, demo_server, "bruno")
    click_and_wait(page, page.find_elements(By.CSS_SELECTOR, ".person form[action$='/patient-mode'] button")[0])
    for width, height in ((360, 740), (768, 1024)):
        page.set_window_size(width, height)
        page.get(demo_server.url + "/timer")
        words = [label.text for label in page.find_elements(By.CSS_SELECTOR, ".timer-activities .timer-choice-label")]
        assert "televisão" in words and "enfermeira" in words and len(words) >= 9
        assert page.execute_script(BROKEN_WORDS) == [], width
        smallest = page.execute_script("return Math.min(...[...document.querySelectorAll('.timer-activities .timer-choice-label')].map(l => parseFloat(getComputedStyle(l).fontSize)))")
        assert smallest >= 10, (width, smallest)
        columns = page.execute_script("return getComputedStyle(document.querySelector('.timer-activities')).gridTemplateColumns.split(' ').length")
        assert columns >= 3, (width, columns)
