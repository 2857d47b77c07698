"""Home, results and the server-drawn histogram: what a returning player sees."""

import re

from playwright.sync_api import expect

from app.boards.histogram import histogram

from .conftest import DESKTOP, PHONE
from .player import next_action, open_game, wait_for_action

PLAY_DATE = "2026-03-10"


def test_the_histogram_scales_bars_to_the_tallest_and_marks_your_range():
    chart = histogram([{"from": 0, "to": 24, "count": 2}, {"from": 25, "to": 49, "count": 4},
                       {"from": 50, "to": 74, "count": 0}], your_total=30)
    low, tall, empty = chart.bars
    assert tall.height == 2 * low.height > 0
    assert empty.height == 0 and empty.y == chart.baseline
    assert [bar.is_yours for bar in chart.bars] == [False, True, False]
    assert low.x + low.width < tall.x
    assert histogram([]).bars == ()


def test_home_offers_to_continue_a_game_in_progress(page):
    open_game(page, "yacht")
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    page.goto("/")
    card = page.locator('[data-challenge="yacht"]')
    expect(card.locator("[data-play-link]")).to_have_text("Continue: turn 1 of 12")
    expect(card.locator("[data-status-chip]")).to_have_text("Open")
    expect(page.locator('[data-challenge="yahtzee"] [data-play-link]')).to_have_text("Play")
    expect(page.locator("[data-today-label]")).to_have_text("Tuesday, March 10, 2026")
    expect(page.locator('[data-countdown="reveal"]')).to_have_text(
        re.compile(r"^Mar 11, 2026, 01:01 PM UTC: in 1 day, 1 hour, 1 minute$"))
    expect(page.locator('[data-countdown="tomorrow"]')).to_have_text(
        "at midnight, your time: in 12 hours")


def play_to_end_by_api(page, ruleset: str) -> dict:
    """Play the page's player's game of ``ruleset`` to its end through the API (its cookie):
    three rolls, then the best box, every turn. Returns the final state."""
    def post(path: str, body: dict) -> dict:
        """POST ``body`` to the API's ``path`` with the page's cookie: the game it answers."""
        response = page.request.post(f"/api/v1{path}", data=body)
        assert response.ok, response.text()
        return response.json()["game"]

    game = post("/games", {"ruleset": ruleset, "date": PLAY_DATE})
    while game["status"] == "playing":
        if game["dice"] is None or game["rolls_left"] > 0:
            game = post(f"/games/{game['id']}/roll", {"roll": game["next_action"], "hold": None})
        else:
            best = max(game["allowed"], key=lambda box: game["previews"][box])
            game = post(f"/games/{game['id']}/score",
                        {"roll": game["next_action"], "category": best})
    return game


def test_results_show_your_history_on_the_sheet_from_the_server(page):
    """The panel is the server's record of this player on the sheet: a game this device saved
    but the server never counted does not show; the finished game does, with its link."""
    page.goto(f"/results/{PLAY_DATE}/yacht")
    panel = page.locator("[data-history]")
    expect(panel.locator('[data-stat="current"]')).to_have_text("0 days")
    expect(panel.locator('[data-stat="best-score"]')).to_have_text("—")
    expect(panel.locator("[data-history-empty]")).to_be_visible()
    only_here = {"a" * 32: {"id": "a" * 32, "date": "2026-03-09", "ruleset": "yacht",
                            "total": 250}}
    page.evaluate("h => localStorage.setItem('yacht-daily:games', JSON.stringify(h))", only_here)
    game = play_to_end_by_api(page, "yacht")
    play_to_end_by_api(page, "yahtzee")  # another sheet's game stays off this sheet's panel
    page.reload()
    expect(panel.locator('[data-stat="current"]')).to_have_text("1 day")
    expect(panel.locator('[data-stat="best-streak"]')).to_have_text("1 day")
    expect(panel.locator('[data-stat="best-score"]')).to_have_text(str(game["totals"]["total"]))
    rows = panel.locator("[data-history-table] tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-game", game["id"])
    expect(rows.first.locator("td").nth(1)).to_have_text(str(game["totals"]["total"]))
    expect(rows.first.locator(f'a[href="/verify?game={game["id"]}"]')).to_be_visible()


def test_the_menu_leads_to_a_new_table_in_both_languages_and_on_a_phone(new_context):
    """"Tables" stands in the header menu in English and in French, and on a phone's narrow
    header (the menu folded behind its button) it is reachable and opens the new table form."""
    for locale, viewport, practice in [("en-GB", DESKTOP, "Practice"),
                                       ("fr-FR", PHONE, "Entraînement")]:
        page = new_context(locale=locale, viewport=viewport).new_page()
        page.goto("/")
        if viewport is PHONE:
            page.locator(".menu-toggle").click()  # on a phone the menu folds behind its button
        menu = page.locator(".site-header .site-nav")
        expect(menu.locator('a[href="/practice"]')).to_have_text(practice)
        link = menu.locator('a[href="/tables/new"]')
        expect(link).to_have_text("Tables")
        link.scroll_into_view_if_needed()
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box
        link.click()
        expect(page).to_have_url(re.compile(r"/tables/new$"))
        expect(menu.locator('a[href="/tables/new"]')).to_have_attribute("aria-current", "page")
