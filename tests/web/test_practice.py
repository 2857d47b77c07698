"""Practice and games against the computer in a real Chromium: whole games ending with "Verify
the rolls" all ✓ in the page, a changed die caught at its roll, the client seed field, hints,
the computer's paced moves. Where the clicking is not the point, a helper plays the human seat
through the API with the page's own cookie."""

import json
import random
import re

import pytest
from playwright.sync_api import Page, expect

from fairness import ReplayMismatch, replay, seat_stream

from .coach_wait import TablesLoading

MATCH_ROOT = "[data-match]"
SLOW_MS = 30_000  # loading the page's modules, or verifying, on a busy machine


def start_from_practice_page(page: Page, ruleset: str, levels=(), client_seed: str | None = None):
    """Choose the sheet, the opponents and maybe a client seed on /practice, start, and wait
    for the match page to be ready; returns the match id."""
    page.goto("/practice")
    page.locator(f'input[name=ruleset][value="{ruleset}"]').check()
    for number, level in enumerate(levels):
        page.locator("[data-add-opponent]").click()
        page.locator("[data-level]").nth(number).select_option(level)
    if client_seed is not None:
        page.locator("[data-client-seed]").fill(client_seed)
    page.locator("[data-start]").click()
    page.wait_for_url(re.compile(r"/practice/[0-9a-f]{32}$"), wait_until="commit")
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-status", "playing", timeout=SLOW_MS)
    return page.url.rsplit("/", 1)[1]


def api_match(page: Page, match_id: str) -> dict:
    """The match as the API tells the page's player."""
    response = page.request.get(f"/api/v1/matches/{match_id}")
    assert response.ok, response.text()
    return response.json()["match"]


def finish_through_api(page: Page, match_id: str, seed: int = 0) -> dict:
    """Play the page's player's seat to the end through the API (any legal, varied moves),
    asking the server to play the bots' turns whenever it is theirs (their strategy table may
    still be loading)."""
    rng = random.Random(seed)
    state = api_match(page, match_id)
    while state["status"] == "playing":
        if state["turn"] != state["you"]:
            page.wait_for_timeout(200)
            path, body = "advance", None
        else:
            own = state["seats"][state["you"]]
            if state["play"] and (own["rolls_left"] == 0 or rng.random() < 0.4):
                path, body = "score", {"category": rng.choice(state["play"]["allowed"])}
            else:
                hold = None if own["dice"] is None else [rng.random() < 0.5 for _ in range(5)]
                path, body = "roll", {"hold": hold}
                if own["client_seed"] is None:
                    body["client_seed"] = "api-helper"
            body["roll"] = state["next_action"]
        response = page.request.post(f"/api/v1/matches/{match_id}/{path}", data=body,
                                     timeout=SLOW_MS)
        assert response.ok, response.text()
        state = response.json()["match"]
    return state


def verify_in_page(page: Page) -> None:
    """Click "Verify the rolls" and wait for the verdict."""
    page.locator("[data-verify]").click()
    expect(page.locator("[data-verdict]")).to_have_class(re.compile(r"verdict (ok|fail)"),
                                                         timeout=SLOW_MS)


def expect_all_checks_pass(page: Page) -> None:
    """Every check line is ✓, and there are some."""
    checks = page.locator("[data-checks] li")
    expect(checks.first).to_be_visible()
    assert checks.count() > 20
    expect(page.locator("[data-checks] li:not(.ok)")).to_have_count(0)
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok")


def roll_first_by_clicking(page: Page) -> None:
    """The first roll, from the page (it sends the client seed field's value)."""
    page.locator("[data-roll]").click()
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-next-action", "1")


@pytest.mark.parametrize("ruleset", ["yacht", "yacht-bonus", "yahtzee"])
def test_a_whole_practice_game_ends_with_every_roll_verified_in_the_page(page, ruleset):
    match_id = start_from_practice_page(page, ruleset)
    expect(page.locator("[data-commitment]")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    roll_first_by_clicking(page)
    final = finish_through_api(page, match_id)
    page.reload()
    expect(page.locator("[data-endgame]")).to_be_visible(timeout=SLOW_MS)
    expect(page.locator("[data-end-outcome]")).to_contain_text(str(final["seats"][0]["totals"]
                                                                   ["total"]))
    verify_in_page(page)
    expect_all_checks_pass(page)


def test_a_practice_turn_by_keyboard_and_a_hint(page):
    start_from_practice_page(page, "yahtzee")
    expect(page.locator("[data-hint]")).to_be_disabled()
    page.keyboard.press("Space")
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-next-action", "1")
    page.keyboard.press("h")
    expect(page.locator("[data-hint-text]")).to_contain_text("Best:")
    expect(page.locator("[data-hint-text]")).to_contain_text("Next best:")
    page.keyboard.press("1")
    expect(page.locator('[data-die="0"]')).to_have_attribute("aria-pressed", "true")
    page.locator("[data-box]:not([disabled])").first.click()
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-next-action", "2")
    expect(page.locator(".sheet .filled")).to_have_count(1)


def test_the_review_waits_for_tables_still_loading(page):
    """A finished game opened while the coach's tables load (a worker just started): the end
    card says the review is being computed, asks again as the server's Retry-After says and
    shows the review once the tables answer, without a reload."""
    match_id = start_from_practice_page(page, "yacht")
    roll_first_by_clicking(page)
    finish_through_api(page, match_id)
    tables = TablesLoading(page)
    page.reload()
    headline = page.locator("[data-review-headline]")
    expect(headline).to_have_text(
        "The review is being computed; it will appear here in a moment.", timeout=SLOW_MS)
    tables.wait_until_asked(2)
    tables.ready()
    expect(headline).to_have_text(re.compile(r"^You gave away \d+\.\d points"))


def test_the_daily_game_has_no_hint(page):
    page.goto("/play/yahtzee")
    expect(page.locator("[data-play]")).to_have_attribute("data-status", "ready", timeout=SLOW_MS)
    expect(page.locator("[data-hint]")).to_have_count(0)


def test_a_game_against_two_bots_shows_their_moves_and_verifies(page):
    match_id = start_from_practice_page(page, "yacht", levels=["easy", "perfect"])
    expect(page.locator(".seat-heads").first.locator("[data-seat-head]")).to_have_count(3)
    roll_first_by_clicking(page)
    page.locator("[data-box]:not([disabled])").first.click()
    expect(page.locator("[data-skip]")).to_be_visible()
    expect(page.locator("[data-bot-status]")).to_contain_text("Computer")
    page.keyboard.press("s")
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-busy", "false")
    expect(page.locator('[data-seat-head][aria-current="true"]').first).to_have_attribute(
        "data-seat", "0")
    state = api_match(page, match_id)
    assert [len(seat["boxes"]) for seat in state["seats"]] == [1, 1, 1]
    final = finish_through_api(page, match_id, seed=1)
    page.reload()
    expect(page.locator("[data-end-ranks] li")).to_have_count(3, timeout=SLOW_MS)
    verify_in_page(page)
    expect_all_checks_pass(page)
    assert final["result"]["kind"] == "computer"
    page.goto("/history")
    row = page.locator(f'[data-match-row="{match_id}"]')
    expect(row).to_have_attribute("data-status", "finished")
    expect(row.locator("td.num").first).to_have_text(str(final["seats"][0]["totals"]["total"]))
    expect(page.locator("[data-games]")).to_have_count(0)  # no daily game: none listed


def test_a_changed_die_in_the_saved_transcript_fails_at_that_roll(page):
    match_id = start_from_practice_page(page, "yacht")
    roll_first_by_clicking(page)
    finish_through_api(page, match_id, seed=2)
    page.reload()
    expect(page.locator("[data-endgame]")).to_be_visible(timeout=SLOW_MS)
    page.evaluate("""(id) => {
        const saved = JSON.parse(localStorage.getItem("yacht-daily:matches"));
        const rolls = saved[id].transcripts[0].filter((entry) => entry.action === "roll");
        const roll = rolls[3];
        roll.dice[0] = roll.dice[0] === 6 ? 1 : roll.dice[0] + 1;
        roll.hold[0] = false;
        localStorage.setItem("yacht-daily:matches", JSON.stringify(saved));
    }""", match_id)
    page.reload()
    verify_in_page(page)
    expect(page.locator("[data-verdict]")).to_have_class("verdict fail")
    failed = page.locator("[data-checks] li.fail")
    expect(failed.first).to_have_attribute("data-check", "seat 0 roll 3")
    expect(page.locator('[data-checks] li[data-check="seat 0 roll 2"]')).to_have_class("ok")


def test_the_client_seed_field_makes_the_dice_and_is_in_the_result(page):
    match_id = start_from_practice_page(page, "yahtzee", client_seed="my-own-seed_1")
    expect(page.locator("[data-client-seed]")).to_have_value("my-own-seed_1")
    roll_first_by_clicking(page)
    expect(page.locator("[data-client-seed-shown]")).to_have_text("my-own-seed_1")
    final = finish_through_api(page, match_id, seed=3)
    assert final["result"]["client_seeds"] == ["my-own-seed_1"]
    seed = bytes.fromhex(final["server_seed"])
    transcript = final["seats"][0]["transcript"]
    replay(transcript, seat_stream(seed, ["my-own-seed_1"], match_id, 0, "yahtzee", "per-turn"))
    with pytest.raises(ReplayMismatch):
        replay(transcript, seat_stream(seed, ["another-seed"], match_id, 0, "yahtzee", "per-turn"))
    saved = page.evaluate("localStorage.getItem('yacht-daily:matches')")
    assert json.loads(saved)[match_id]["client_seeds"] == ["my-own-seed_1"]


def test_on_a_phone_in_french_the_match_page_fits_and_plays(new_context):
    phone = {"width": 390, "height": 844}
    page = new_context(locale="fr-FR", viewport=phone).new_page()
    start_from_practice_page(page, "yahtzee", levels=["easy"])
    expect(page.locator("[data-kind-label]")).to_have_text("Contre l’ordinateur")
    roll_first_by_clicking(page)
    page.locator('[data-die="2"]').click()
    expect(page.locator('[data-die="2"]')).to_have_attribute("aria-pressed", "true")
    page.locator("[data-box]:not([disabled])").first.click()
    expect(page.locator("[data-bot-status]")).to_contain_text("Ordinateur 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]


@pytest.mark.parametrize("ruleset", ["yatzy", "generala", "yahtzee-triple"])
def test_a_new_sheet_against_a_bot_ends_with_every_roll_verified_in_the_page(page, ruleset):
    """Scandinavian Yatzy, Generala and triple Yahtzee are played against the computer from the
    practice page, every box of both seats filled, and "Verify the rolls" holds in the page."""
    match_id = start_from_practice_page(page, ruleset, levels=["medium"])
    roll_first_by_clicking(page)
    final = finish_through_api(page, match_id, seed=4)
    boxes = len(final["seats"][0]["boxes"])
    assert boxes == final["rounds"] and len(final["seats"][1]["boxes"]) == boxes
    page.reload()
    expect(page.locator("[data-end-ranks] li")).to_have_count(2, timeout=SLOW_MS)
    verify_in_page(page)
    expect_all_checks_pass(page)
