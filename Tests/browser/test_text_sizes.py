"""The patient's text size grows the board's words first: on a phone, in high contrast, each size keeps the board
inside the screen and its labels at least as large as at the standard size."""
from selenium.webdriver.common.by import By

from test_accessibility import choose_display


def board_measures(page):
    return page.execute_script("""
        const labels = [...document.querySelectorAll('.board .cell-label')].filter(l => l.offsetParent);
        const sizes = labels.map(l => parseFloat(getComputedStyle(l).fontSize));
        const cut = labels.filter(l => l.scrollWidth > l.clientWidth + 1).map(l => l.textContent.trim());
        const outside = [...document.querySelectorAll('.player button, .player a')].filter(b => b.offsetParent)
            .filter(b => { const r = b.getBoundingClientRect(); return r.right > innerWidth + 1 || r.left < -1; })
            .map(b => b.textContent.trim() || b.getAttribute('aria-label'));
        return {scroll: document.documentElement.scrollWidth, width: innerWidth,
                smallest: Math.min(...sizes), cut, outside};
    """)


def test_each_text_size_keeps_the_phone_board_inside_the_screen(demo_server, page):
    page.set_window_size(360, 740)
    seen = {}
    for size in ("standard", "large", "xlarge"):
        boards = choose_display(page, demo_server, "contrast", size)
        page.set_window_size(360, 740)
        for board in boards:
            page.get(demo_server.url + "/" + board)
            measures = board_measures(page)
            page.save_screenshot(f"/tmp/shots/text-{size}-{board.replace('/', '-')}.png")
            seen[(size, board)] = measures
    print(seen)
    for (size, board), measures in seen.items():
        assert measures["scroll"] <= measures["width"], (size, board, measures)
        assert measures["outside"] == [], (size, board, measures)
        assert measures["cut"] == [], (size, board, measures)
        assert measures["smallest"] >= seen[("standard", board)]["smallest"], (size, board, measures)
