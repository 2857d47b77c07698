"""A past day played again in a real Chromium, from the practice page's link through the archive
to the end: on a phone in French and on a desktop in English, every turn (dice, Roll and every
box) on one screen, the game kept across a reload, and an end that says the rolls are verified
against the published seed and where the total and the skill figure would have ranked."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import watch_errors
from .test_phone_layout import on_screen

ROOT = "[data-archive-play]"
SHOTS = Path("/tmp/shots-P")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LATEST_REVEALED = "2026-03-08"  # PLAY_DATE − 2: revealed at 13:01Z the day before PLAY_DATE
SLOW_MS = 30_000  # the ledger's check and the coach's review on a busy machine
WORDS = {
    "en": {"link": "Play a past day", "verified": "Verified",
           "points": r"On points: would have been \d+(st|nd|rd|th) of \d+\.",
           "skill": r"On skill: would have been \d+(st|nd|rd|th) of \d+\."},
    "fr": {"link": "Rejouer un jour passé", "verified": "Vérifié",
           "points": r"Aux points\u202f: aurait été \d+(er|e) sur \d+\.",
           "skill": r"À l’adresse\u202f: aurait été \d+(er|e) sur \d+\."},
}


def next_action(page: Page) -> int:
    """How many actions the page's game holds."""
    return int(page.locator(ROOT).get_attribute("data-next-action"))


def play_turn(page: Page, viewport: dict, check_fit: bool) -> None:
    """Roll, keep the first die, roll again, score the box with the best preview."""
    start = next_action(page)
    page.locator("[data-roll]").click()
    expect(page.locator(ROOT)).to_have_attribute("data-next-action", str(start + 1))
    if check_fit:
        page.evaluate("window.scrollTo(0, 0)")
        assert on_screen(page, "[data-roll], [data-die], [data-box]", viewport) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.locator('[data-die="0"]').click()
    expect(page.locator('[data-die="0"]')).to_have_attribute("aria-pressed", "true")
    page.locator("[data-roll]").click()
    expect(page.locator(ROOT)).to_have_attribute("data-next-action", str(start + 2))
    boxes = page.locator("[data-box]:not([disabled])")
    previews = [int(text or 0) for text in boxes.locator("[data-score]").all_inner_texts()]
    boxes.nth(previews.index(max(previews))).click()
    expect(page.locator(ROOT)).to_have_attribute("data-next-action", str(start + 3))


@pytest.mark.parametrize(("lang", "viewport", "locale"), [
    ("fr", PHONE, "fr-FR"), ("en", DESKTOP, "en-GB")])
def test_a_past_day_played_to_the_end_and_verified(new_context, web_server, lang, viewport,
                                                   locale):
    SHOTS.mkdir(exist_ok=True)
    web_server.wait_for_reveal(LATEST_REVEALED)
    words = WORDS[lang]
    page = new_context(locale=locale, viewport=viewport).new_page()
    errors = watch_errors(page)
    page.goto(f"/practice?lang={lang}")
    page.get_by_role("link", name=words["link"]).click()
    expect(page).to_have_url(re.compile(r"/archive$"))
    latest = page.locator("[data-archive-days] [data-archive-day]").first
    date = latest.get_attribute("data-archive-day")
    assert date == LATEST_REVEALED
    page.screenshot(path=SHOTS / f"archive-{lang}.png", full_page=True)
    latest.locator('[data-archive-sheet="yacht"]').click()
    expect(page).to_have_url(re.compile(rf"/archive/{date}/yacht$"))
    root = page.locator(ROOT)
    expect(root).to_have_attribute("data-status", "playing")

    play_turn(page, viewport, check_fit=True)
    page.screenshot(path=SHOTS / f"turn-{lang}.png")
    page.reload()  # the game is this tab's: a reload goes on where it was
    expect(root).to_have_attribute("data-status", "playing")
    assert next_action(page) == 3
    for _ in range(11):
        play_turn(page, viewport, check_fit=False)

    expect(root).to_have_attribute("data-status", "finished")
    end = page.locator("[data-endgame]")
    expect(end).to_be_visible()
    expect(end.locator("[data-verdict]")).to_have_attribute("data-ok", "true", timeout=SLOW_MS)
    expect(end.locator("[data-verdict]")).to_contain_text(words["verified"])
    expect(end.locator("[data-ranks]")).to_have_attribute("data-ready", "true", timeout=SLOW_MS)
    expect(end.locator('[data-rank="points"]')).to_have_text(re.compile(words["points"]))
    expect(end.locator('[data-rank="skill"]')).to_have_text(re.compile(words["skill"]))
    expect(end.locator("[data-loss]")).to_be_visible()
    total = int(end.locator("[data-end-total]").inner_text())
    assert total == int(page.locator('[data-sheet] [data-total="total"]').first.inner_text())
    page.screenshot(path=SHOTS / f"end-{lang}.png", full_page=True)

    # Practice only: the player's record holds no game.
    record = page.request.get("/api/v1/me/history").json()
    assert record["games"] == []
    # That day's results lead back to playing it.
    page.locator(f'[data-endgame] a[href="/results/{date}/yacht"]').click()
    play_again = page.locator("[data-play-this-day]")
    expect(play_again).to_have_attribute("href", f"/archive/{date}/yacht")
    play_again.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"results-{lang}.png")
    assert errors == [], errors


def test_on_a_phone_a_turn_of_the_longest_daily_sheet_is_on_one_screen(new_context, web_server):
    ruleset = "yahtzee"
    web_server.wait_for_reveal(LATEST_REVEALED)
    page = new_context(locale="fr-FR", viewport=PHONE).new_page()
    page.goto(f"/archive/{LATEST_REVEALED}/{ruleset}?lang=fr")
    expect(page.locator(ROOT)).to_have_attribute("data-status", "playing")
    page.locator("[data-roll]").click()
    expect(page.locator(ROOT)).to_have_attribute("data-next-action", "1")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=SHOTS / f"turn-{ruleset}-fr.png")
    assert on_screen(page, "[data-roll], [data-die], [data-box]", PHONE) == []
