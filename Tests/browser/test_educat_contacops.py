"""Conta-cops counts the syllables aloud as the original does (seed 002, conta-cops challenge, step 8;
issue 46, 4): the word read again with pauses marking its syllables, which join the line one by one,
then the total; also after the miss that ends the game, before the pop-up."""
from selenium.webdriver.common.by import By

from test_educat import advance, end_dialog, hold_clock, open_patient_mode, played, state
from test_educat_settings import open_game, set_carlas_settings


def test_a_miss_that_ends_the_game_still_reads_the_syllables_and_shows_the_count(demo_server, page):
    open_patient_mode(page, demo_server)
    try:
        set_carlas_settings(demo_server, lives=1)
        open_game(page, demo_server, "/educat/conta-cops/challenge")
        hold_clock(page)
        page.find_element(By.CSS_SELECTOR, ".educat-question").click()
        word = state(page)["target"]
        right = state(page)["answer"]
        entry = page.find_element(By.CSS_SELECTOR, f".educat-words li[data-word='{word}']")
        parts = entry.get_attribute("data-syllables").split(" - ")
        wrong = 1 if right != 1 else 2
        page.find_element(By.CSS_SELECTOR, f".educat-answer[data-answer='{wrong}']").click()
        assert state(page)["phase"] == "over"
        dialog = page.find_element(By.CSS_SELECTOR, ".educat-end")
        assert dialog.get_attribute("open") is None, "the word's count comes before the pop-up"
        syllables = page.find_element(By.CSS_SELECTOR, ".educat-syllables")
        count = page.find_element(By.CSS_SELECTOR, ".educat-count")

        advance(page, 1200)
        assert syllables.is_displayed() and syllables.text == parts[0], "the first syllable as it is said"
        assert played(page)[-1] == entry.get_attribute("data-syllables-clip"), "read again by syllables"
        seen = [syllables.text]
        for _ in range(len(parts) - 1):
            advance(page, 550)
            seen.append(syllables.text)
        assert seen == [" - ".join(parts[:n + 1]) for n in range(len(parts))], "one more syllable at each pause"
        assert not count.is_displayed(), "the total after the reading"
        advance(page, 3000 - 550 * (len(parts) - 1))
        assert count.is_displayed() and count.text == str(right)
        assert played(page)[-1] == entry.get_attribute("data-count-clip")
        assert dialog.get_attribute("open") is None
        advance(page, 1500)
        assert end_dialog(page) == ("GAME OVER!!", "Fi de partida!!")
    finally:
        set_carlas_settings(demo_server)
