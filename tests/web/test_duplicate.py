"""A duplicate game against the computer in a real Chromium, on a phone in French: created from
the practice page's form with "Same dice for everyone (duplicate)" ticked, played to the end by
the match page's own controls, then every seat's dice compared turn by turn from
``GET /api/v1/matches/<id>`` and "Verify the rolls" passed in the page."""

import itertools
import re

from matchkit import rolls_by_turn
from playwright.sync_api import Page, expect

MATCH_ROOT = "[data-match]"
PHONE = {"width": 390, "height": 844}
SLOW_MS = 30_000  # loading the page's modules, or verifying, on a busy machine
DUPLICATE_LABEL = "Mêmes dés pour tout le monde (duplicate)"


def next_action(page: Page) -> int:
    """The match's next action number, as the page holds it."""
    return int(page.locator(MATCH_ROOT).get_attribute("data-next-action"))


def wait_until_idle(page: Page) -> None:
    """Wait for the page to be done with its answer and its playback of the bots' moves,
    skipping the playback (the S key) if it runs."""
    root = page.locator(MATCH_ROOT)
    skip = page.locator("[data-skip]")
    for _ in range(50):
        if root.get_attribute("data-busy") == "false":
            return
        if skip.is_visible():
            page.keyboard.press("s")
        page.wait_for_timeout(100)
    expect(root).to_have_attribute("data-busy", "false", timeout=SLOW_MS)


def play_turn(page: Page, turn: int) -> None:
    """Roll; on every other turn keep the first die and roll again; fill the first box open;
    then let the computer's moves play back (skipped)."""
    root = page.locator(MATCH_ROOT)
    start = next_action(page)
    page.locator("[data-roll]").click()
    expect(root).to_have_attribute("data-next-action", str(start + 1))
    if turn % 2:
        page.locator('[data-die="0"]').click()
        expect(page.locator('[data-die="0"]')).to_have_attribute("aria-pressed", "true")
        page.locator("[data-roll]").click()
        expect(root).to_have_attribute("data-next-action", str(start + 2))
    page.locator("[data-box]:not([disabled])").first.click()
    expect(root).not_to_have_attribute("data-next-action",
                                       re.compile(rf"^({start + 1}|{start + 2})$"))
    wait_until_idle(page)


def test_a_duplicate_game_against_the_computer_deals_everyone_the_same_dice(new_context):
    page = new_context(locale="fr-FR", viewport=PHONE).new_page()
    page.goto("/practice")
    page.locator('input[name=ruleset][value="yacht"]').check()
    for number, level in enumerate(("easy", "hard")):
        page.locator("[data-add-opponent]").click()
        page.locator("[data-level]").nth(number).select_option(level)
    page.get_by_label(DUPLICATE_LABEL).check()
    page.locator("[data-start]").click()
    page.wait_for_url(re.compile(r"/practice/[0-9a-f]{32}$"), wait_until="commit")
    root = page.locator(MATCH_ROOT)
    expect(root).to_have_attribute("data-status", "playing", timeout=SLOW_MS)
    match_id = page.url.rsplit("/", 1)[1]

    for turn in itertools.count():
        if root.get_attribute("data-status") != "playing":
            break
        assert turn < 12, "a yacht game has 12 turns"
        play_turn(page, turn)
    expect(page.locator("[data-endgame]")).to_be_visible(timeout=SLOW_MS)

    response = page.request.get(f"/api/v1/matches/{match_id}")
    assert response.ok, response.text()
    match = response.json()["match"]
    assert match["status"] == "finished" and match["dealing"] == "duplicate"
    assert match["result"]["dealing"] == "duplicate" and len(match["seats"]) == 3
    seats = [rolls_by_turn(seat["transcript"]) for seat in match["seats"]]
    assert all(len(turns) == 12 for turns in seats)
    for turn in range(12):
        firsts = {tuple(turns[turn][0]["dice"]) for turns in seats}
        assert len(firsts) == 1, (turn, firsts)
        for one, other in itertools.combinations(seats, 2):
            for mine, theirs in zip(one[turn], other[turn], strict=False):
                # A die neither seat held at the same roll of the turn is the same fresh die.
                for die, their_die, held, they_held in zip(
                        mine["dice"], theirs["dice"], mine["hold"], theirs["hold"], strict=True):
                    if not held and not they_held:
                        assert die == their_die, (turn, mine, theirs)

    page.locator("[data-verify]").click()
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=SLOW_MS)
    checks = page.locator("[data-checks] li")
    assert checks.count() > 20
    expect(page.locator("[data-checks] li:not(.ok)")).to_have_count(0)
