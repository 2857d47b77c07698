"""The Verify page recomputes a game in the browser (fairness.js, WebCrypto): all ✓ for an
honest game once its date is revealed, and the precise ✗ for a tampered transcript or receipt
kept on the device."""

import copy

import pytest
from playwright.sync_api import expect

from .conftest import SCREENSHOTS

PLAY_DATE = "2026-03-10"
AFTER_REVEAL = "2026-03-11T14:00:00Z"
GAMES_KEY = "yacht-daily:games"


def play_through_the_api(player, ruleset: str) -> dict:
    """A whole game: roll once each turn and score the first box allowed."""
    status, _, body = player.post("/api/v1/games", {"ruleset": ruleset, "date": PLAY_DATE})
    assert status in (200, 201), body
    game = body["game"]
    while game["status"] == "playing":
        _, _, body = player.post(f"/api/v1/games/{game['id']}/roll",
                                 {"hold": [False] * 5, "roll": game["next_action"]})
        game = body["game"]
        _, _, body = player.post(f"/api/v1/games/{game['id']}/score",
                                 {"category": game["allowed"][0], "roll": game["next_action"]})
        game = body["game"]
    assert game["receipt"] is not None
    return game


@pytest.fixture(scope="module")
def finished_game(web_server):
    """A finished Yahtzee game of PLAY_DATE, before its reveal."""
    return play_through_the_api(web_server.client(), "yahtzee")


@pytest.fixture(scope="module")
def revealed_game(web_server, finished_game):
    """The same game once the server's clock has passed its date's reveal."""
    web_server.set_clock(AFTER_REVEAL)
    web_server.wait_for_reveal(PLAY_DATE)
    return finished_game


def keep_on_device(page, game: dict) -> None:
    """Store the game as the play page does at the end of a game."""
    page.goto("/verify")
    record = {key: game[key] for key in ("id", "date", "ruleset", "name", "boxes", "transcript",
                                         "receipt", "totals")}
    record["total"] = game["totals"]["total"]
    page.evaluate(
        "([key, record]) => localStorage.setItem(key, JSON.stringify({[record.id]: record}))",
        [GAMES_KEY, record],
    )


def verify(page, game_id: str) -> dict:
    """Open the Verify page on a game and return {check name: passed?} once it has finished."""
    page.goto(f"/verify?game={game_id}")
    expect(page.locator("[data-check]").first).to_be_attached(timeout=30_000)
    items = page.locator("[data-check]")
    names = items.evaluate_all("items => items.map(i => [i.dataset.check, i.dataset.ok])")
    return {name: ok for name, ok in names}


def failed(checks: dict) -> set:
    """The names of the checks that failed."""
    return {name for name, ok in checks.items() if ok != "true"}


def test_before_the_reveal_the_page_says_when_to_come_back(page, finished_game):
    keep_on_device(page, finished_game)
    page.goto(f"/verify?game={finished_game['id']}")
    expect(page.locator("[data-verdict]")).to_contain_text("not revealed yet")
    expect(page.locator("[data-check]")).to_have_count(0)


def test_an_honest_game_passes_every_check_in_the_browser(page, revealed_game):
    keep_on_device(page, revealed_game)
    checks = verify(page, revealed_game["id"])
    assert failed(checks) == set()
    rolls = [entry for entry in revealed_game["transcript"] if entry["action"] == "roll"]
    expected = {"seed", "total", "receipt signature", "transcript hash", "inclusion proof"}
    assert expected <= set(checks)
    assert sum(name.startswith("roll") for name in checks) == len(rolls)
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok")
    expect(page.locator("[data-source]")).to_contain_text("saved on this device")
    expect(page.locator("[data-check].pass .mark").first).to_have_text("✓")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "verify-desktop.png"), full_page=True)


def test_a_changed_die_in_the_saved_transcript_fails_that_roll(page, revealed_game):
    game = copy.deepcopy(revealed_game)
    first_roll = game["transcript"][0]
    first_roll["dice"][2] = first_roll["dice"][2] % 6 + 1
    keep_on_device(page, game)
    checks = verify(page, game["id"])
    broken = failed(checks)
    assert any(name.startswith("roll") for name in broken)
    assert "transcript hash" in broken
    assert {"seed", "receipt signature", "inclusion proof"}.isdisjoint(broken)
    expect(page.locator("[data-verdict]")).to_have_class("verdict fail")
    expect(page.locator("[data-check].fail .mark").first).to_have_text("✗")


def test_a_raised_total_in_the_saved_receipt_fails_total_signature_and_proof(page, revealed_game):
    game = copy.deepcopy(revealed_game)
    game["receipt"]["total"] += 10
    keep_on_device(page, game)
    broken = failed(verify(page, game["id"]))
    assert {"total", "receipt signature"} <= broken
    assert not any(name.startswith(("roll", "box")) for name in broken)
    assert {"seed", "transcript hash"}.isdisjoint(broken)


def test_anyone_can_verify_a_revealed_game_by_its_link(page, revealed_game):
    page.goto("/verify")
    page.locator("[data-game-input]").fill(f"http://example.test/verify?game={revealed_game['id']}")
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    expect(page.locator("[data-source]")).to_contain_text("published after the reveal")
