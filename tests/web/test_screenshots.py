"""Screenshots of what a new player meets first, at phone size in French: the play page
mid-turn, the end card and the verify page's summary (artifacts/screenshots/, ignored by git)."""

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .player import finish_a_game, play_into_a_turn

OWN_SERVER = True  # it moves its server's clock

PHONE_390 = {"width": 390, "height": 844}
PLAY_DATE = "2026-03-10"
AFTER_REVEAL = "2026-03-11T14:00:00Z"


def shoot(page, name: str) -> None:
    """Save a screenshot of the viewport as artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


@pytest.fixture(scope="module")
def finished_page(browser, web_server):
    """A phone page (French) whose player has just finished a Yahtzee game, and that game."""
    from .conftest import server_time

    context = browser.new_context(base_url=web_server.url, locale="fr-FR", timezone_id="UTC",
                                  viewport=PHONE_390)
    context.clock.set_fixed_time(server_time(web_server))
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto("/?lang=fr")
    play_into_a_turn(page, "yahtzee", turns=3, held=(0,))
    page.wait_for_timeout(500)
    shoot(page, "phone-play")
    game = finish_a_game(page, "yahtzee")
    page.wait_for_timeout(500)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "phone-end-card")
    yield page, game
    context.close()


def test_screenshots_of_play_end_card_and_verify_summary(finished_page, web_server):
    page, game = finished_page
    web_server.set_clock(AFTER_REVEAL)
    web_server.wait_for_reveal(PLAY_DATE)
    page.goto(f"/verify?game={game['id']}")
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    page.locator("[data-verify-title]").evaluate("title => title.scrollIntoView()")
    page.wait_for_timeout(300)
    shoot(page, "phone-verify")
