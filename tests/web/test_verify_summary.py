"""The Verify page leads with a plain-words summary, every detail line in the reader's language,
and the ledger's convention for times: UTC, marked so."""

import copy
import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, server_time
from .test_verify import AFTER_REVEAL, PLAY_DATE, keep_on_device, play_through_the_api

OWN_SERVER = True  # it moves its server's clock

PHONE_390 = {"width": 390, "height": 844}
ENGLISH_WORDS = re.compile(r"\b(entries|recomputed|stream dice|revealed by|hashed down|receipt "
                           r"total|boxes filled|is a valid|leaf)\b")


@pytest.fixture(scope="module")
def finished_game(web_server):
    """A finished Yahtzee game of PLAY_DATE, before its reveal."""
    return play_through_the_api(web_server.client(), "yahtzee")


def test_before_the_reveal_the_time_is_given_in_utc_as_on_the_ledger(browser, web_server,
                                                                    finished_game):
    context = browser.new_context(base_url=web_server.url, locale="en-US",
                                  timezone_id="America/New_York", viewport=DESKTOP)
    context.clock.set_fixed_time(server_time(web_server))
    page = context.new_page()
    keep_on_device(page, finished_game)
    reveal_at = page.request.get(f"/api/v1/challenges?date={PLAY_DATE}").json()[
        "challenges"][0]["reveal_at"]
    hour = int(reveal_at[11:13]) % 12 or 12
    page.goto(f"/verify?game={finished_game['id']}")
    said = page.locator("#game-id-message")
    expect(said).to_contain_text(re.compile(rf"\b{hour}:{reveal_at[14:16]}:00\s?[AP]M UTC"))
    page.goto("/ledger")
    expect(page.locator("main")).to_contain_text("UTC")
    context.close()


@pytest.fixture(scope="module")
def revealed_game(web_server, finished_game):
    """The same game once the server's clock has passed its date's reveal."""
    web_server.set_clock(AFTER_REVEAL)
    web_server.wait_for_reveal(PLAY_DATE)
    return finished_game


@pytest.mark.parametrize(("locale", "viewport", "rolls_line", "total_word"), [
    ("en-GB", DESKTOP, "Your {n} rolls match the revealed seed.", "Your total of {t} points"),
    ("fr-FR", PHONE_390, "Vos {n} lancers correspondent à la graine révélée.",
     "Votre total de {t} points"),
])
def test_an_honest_game_is_summed_up_in_plain_words_first(new_context, revealed_game, locale,
                                                          viewport, rolls_line, total_word):
    page = new_context(locale=locale, viewport=viewport).new_page()
    keep_on_device(page, revealed_game)
    page.goto(f"/verify?game={revealed_game['id']}")
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    rolls = sum(entry["action"] == "roll" for entry in revealed_game["transcript"])
    lines = page.locator("[data-summary] li")
    expect(lines).to_have_count(5)
    expect(lines.nth(0)).to_contain_text(rolls_line.format(n=rolls))
    expect(lines.nth(2)).to_contain_text(total_word.format(t=revealed_game["totals"]["total"]))
    assert lines.evaluate_all("items => items.map(i => i.dataset.ok)") == ["true"] * 5
    summary_top = page.locator("[data-summary]").bounding_box()["y"]
    first_check = page.locator("[data-all-checks]").bounding_box()["y"]
    assert summary_top < first_check
    expect(page.locator("[data-all-checks]")).not_to_have_attribute("open", "")
    expect(page.locator('[data-check="roll 0"] .detail')).to_be_hidden()
    if locale == "fr-FR":
        details = page.locator("[data-check] .detail").all_text_contents()
        assert details and not [line for line in details if ENGLISH_WORDS.search(line)]
        expect(page.locator('[data-check="total"] .detail')).to_contain_text("recalculé")


def test_a_forged_total_shows_in_the_summary_and_opens_the_checks(page, revealed_game):
    game = copy.deepcopy(revealed_game)
    game["receipt"]["total"] += 10
    keep_on_device(page, game)
    page.goto(f"/verify?game={game['id']}")
    expect(page.locator("[data-verdict]")).to_have_class("verdict fail", timeout=30_000)
    total_line = page.locator("[data-summary] li").nth(2)
    expect(total_line).to_have_attribute("data-ok", "false")
    expect(total_line).to_contain_text("does not match")
    expect(page.locator("[data-all-checks]")).to_have_attribute("open", "")
