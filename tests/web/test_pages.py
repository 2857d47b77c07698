"""Home, results and the server-drawn histogram: what a returning player sees."""

import re

from playwright.sync_api import expect

from app.web.histogram import histogram

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


def saved(game_id: str, date: str, total: int) -> dict:
    """A finished game as the play page keeps it on the device."""
    return {"id": game_id, "date": date, "ruleset": "yacht", "total": total}


def test_results_show_your_streaks_and_best_score_from_this_device(page):
    history = {game["id"]: game for game in [
        saved("a" * 32, "2026-03-01", 150), saved("b" * 32, "2026-03-02", 201),
        saved("c" * 32, "2026-03-03", 120), saved("d" * 32, "2026-03-08", 90),
        saved("e" * 32, "2026-03-09", 130),
    ]}
    page.goto("/rules")
    page.evaluate("h => localStorage.setItem('yacht-daily:games', JSON.stringify(h))", history)
    page.goto(f"/results/{PLAY_DATE}/yacht")
    panel = page.locator("[data-history]")
    expect(panel.locator('[data-stat="current"]')).to_have_text("2 days")
    expect(panel.locator('[data-stat="best-streak"]')).to_have_text("3 days")
    expect(panel.locator('[data-stat="best-score"]')).to_have_text("201")
    expect(panel.locator("[data-history-table] tbody tr")).to_have_count(5)


def test_the_menu_leads_to_a_new_table_in_both_languages_and_on_a_phone(new_context):
    """"Tables" stands in the header menu in English and in French, and on a phone's narrow
    header (which scrolls sideways) it is reachable and opens the new table form."""
    for locale, viewport, practice in [("en-GB", DESKTOP, "Practice"),
                                       ("fr-FR", PHONE, "Entraînement")]:
        page = new_context(locale=locale, viewport=viewport).new_page()
        page.goto("/")
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
