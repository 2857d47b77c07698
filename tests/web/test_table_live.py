"""A table people sit at, in a real Chromium: Ann on a 390×844 phone in French and Bob on a
1366×768 desktop in English play a Yacht table with a bot. Each sees the other's dice and holds
during the other's turn (the board labelled with that seat), the shared sheet (a column per seat)
fills as each box is filled, the bot's turn is played back at a pace and skipped with S, the
turn clock counts down; a whole turn fits the phone's screen without scrolling. The rest is
played through the API while the pages follow; at the end both pages show the same ranks, the
seats verify, and "Play again" brings both players to the same new table."""

import re

from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .table_page import (
    create_table,
    faces,
    join,
    player,
    table_id_of,
    verify_every_seat,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
CLOCK_SECONDS = 90  # long enough that the clock never plays for the test's players


def held(page) -> list[str]:
    """Whether each die shows held."""
    return [die.get_attribute("aria-pressed") for die in page.locator("[data-die]").all()]


def cell(page, box: str, seat: int):
    """A seat's points in a box on the shared sheet."""
    return page.locator(f"[data-seat='{seat}'][data-seat-box='{box}'] [data-points]")


def total(page, seat: int) -> str:
    """A seat's total on the shared sheet."""
    return page.inner_text(f"[data-seat='{seat}'][data-seat-total='total'] [data-points]")


def shoot(page, name: str) -> None:
    """A screenshot to look at (not compared)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"))


def assert_turn_fits(page, height: int) -> None:
    """The dice, the Roll button and every box the page offers are on the screen unscrolled."""
    assert page.evaluate("window.scrollY") == 0
    boxes = [page.locator("[data-roll]"), *page.locator("[data-die]").all(),
             *page.locator("[data-pick]").all()]
    assert len(boxes) > 6
    for element in boxes:
        box = element.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


def pause_clock(page) -> None:
    """Stop the page's timers where they are: a played-back move stays on screen."""
    page.clock.pause_at(page.evaluate("Date.now()") + 1)


def play_turn_watched(actor, watcher, seat: int, box_rows_before: int,
                      before_scoring=lambda: None) -> None:
    """``actor`` rolls, holds the first die, rolls again and fills the first box offered;
    ``watcher`` sees each roll's dice and holds on its board, labelled with the seat, and the
    box's points in the seat's column. ``before_scoring`` runs just before the box is picked."""
    expect(actor.locator("[data-roll]")).to_be_visible()
    actor.click("[data-roll]")
    expect(actor.locator("[data-pick]").first).to_be_visible()
    expect(watcher.locator("[data-board-area]")).to_have_attribute("data-seat", str(seat))
    expect(watcher.locator("[data-roll]")).to_be_hidden()
    expect(watcher.locator("[data-die]").first).not_to_have_attribute("data-face", "0")
    assert faces(watcher) == faces(actor)
    actor.click("[data-die] >> nth=0")
    actor.click("[data-roll]")
    expect(watcher.locator("[data-die]").first).to_have_attribute("aria-pressed", "true")
    expect(actor.locator("[data-roll]")).to_have_attribute("aria-disabled", "false")
    assert faces(watcher) == faces(actor) and held(watcher)[0] == "true"
    pick = actor.locator("[data-pick]").first
    box, points = pick.get_attribute("data-pick"), pick.inner_text()
    before_scoring()
    pick.click()
    expect(cell(watcher, box, seat)).to_have_text(points)
    expect(cell(actor, box, seat)).to_have_text(points)
    filled = watcher.locator(f"[data-seat='{seat}'][data-seat-box].filled").count()
    assert filled > box_rows_before


def api_play_to_the_end(pages) -> None:
    """Play every human turn through the API (roll once, the first box allowed) until the
    table ends: the pages only follow."""
    table_id = table_id_of(pages[0])
    for _ in range(200):
        state = pages[0].request.get(f"/api/v1/tables/{table_id}").json()["table"]
        match = state["match"]
        if match["status"] != "playing":
            return
        actor = next(page for page in pages
                     if match["turn"] in page.request.get(
                         f"/api/v1/tables/{table_id}").json()["table"]["you"])
        answer = actor.request.post(f"/api/v1/tables/{table_id}/roll",
                                    data={"hold": None, "roll": match["next_action"]}).json()
        played = answer["table"]["match"]
        actor.request.post(f"/api/v1/tables/{table_id}/score", data={
            "category": played["play"]["allowed"][0], "roll": played["next_action"]})
    raise AssertionError("the table did not end")


def test_two_people_and_a_bot_see_each_other_play_to_the_end(browser, table_server):
    ann_context, ann = player(browser, table_server, PHONE, "/tables/new?lang=fr", "fr-FR",
                              clock=True)
    create_table(ann, "yacht", ["human", "bot:easy"], CLOCK_SECONDS)
    code = ann.inner_text("[data-code]")
    bob_context, bob = player(browser, table_server, DESKTOP, f"/t/{code}", "en-GB",
                              clock=True)
    join(bob, "Bob")
    shoot(ann, "phone-fr-lobby")
    ann.click("[data-start]")
    expect(ann.locator("[data-roll]")).to_be_visible()
    expect(ann.locator("[data-clock]")).to_be_visible()
    expect(ann.locator("[data-clock]")).to_have_class(re.compile(r"\bmine\b"))
    first = ann.inner_text("[data-clock-face]")
    expect(ann.locator("[data-clock-face]")).not_to_have_text(first, timeout=3_000)  # it ticks
    expect(bob.locator("[data-board-seat]")).to_have_text("Dice of Ann")
    expect(bob.locator("[data-seat-head][data-seat='0']").first).to_contain_text("Ann")
    expect(bob.locator("[data-seat-head][aria-current='true']")).to_have_count(2)  # two halves
    shoot(ann, "phone-fr-before-roll")

    play_turn_watched(ann, bob, 0, 0)
    expect(ann.locator("[data-board-seat]")).to_have_text("Dés de Bob")
    # The bot's turn, played back a move at a time: Bob skips it, Ann watches it. Both pages'
    # timers stop as Bob scores, so that the bot's first move stays on screen however slowly
    # this test runs.
    play_turn_watched(bob, ann, 1, 0, before_scoring=lambda: [pause_clock(bob), pause_clock(ann)])
    expect(bob.locator("[data-skip]")).to_be_visible()
    shoot(bob, "desktop-en-bob-scored")
    bob.keyboard.press("s")
    expect(bob.locator("[data-skip]")).to_be_hidden()
    bob.clock.resume()
    expect(ann.locator("[data-board-area]")).to_have_attribute("data-seat", "2")
    expect(ann.locator("[data-skip]")).to_be_visible()
    shoot(ann, "phone-fr-bot-turn")
    ann.clock.resume()
    expect(ann.locator("[data-roll]")).to_be_visible(timeout=20_000)
    ann.click("[data-roll]")
    expect(ann.locator("[data-pick]").first).to_be_visible()
    shoot(ann, "phone-fr-my-turn")
    assert_turn_fits(ann, PHONE["height"])
    shoot(bob, "desktop-en-watching-ann")
    # A spectator sees the same table: every seat a plain column, no control.
    spectator_context, spectator = player(browser, table_server, DESKTOP,
                                          f"/tables/{table_id_of(ann)}/watch", "en-GB")
    expect(spectator.locator("[data-board-area]")).to_have_attribute("data-seat", "0")
    assert faces(spectator) == faces(ann)
    expect(spectator.locator("[data-roll]")).to_be_hidden()
    assert spectator.locator("[data-pick], [data-join-form]:visible").count() == 0
    assert spectator.locator("[data-seat-head]").count() == 6  # three seats, two halves
    shoot(spectator, "desktop-en-spectator")
    spectator_context.close()
    expect(bob.locator("[data-board-area]")).to_have_attribute("data-seat", "0")
    assert faces(bob) == faces(ann)

    api_play_to_the_end([ann, bob])
    for page in (ann, bob):
        page.keyboard.press("s")
        expect(page.locator("[data-end]")).to_be_visible(timeout=30_000)
    ranks = bob.locator("[data-rank-line]").all_inner_texts()
    assert len(ranks) == 3 and len(ann.locator("[data-rank-line]").all_inner_texts()) == 3
    assert [total(bob, seat) for seat in range(3)] == [total(ann, seat) for seat in range(3)]
    shoot(ann, "phone-fr-end")
    shoot(bob, "desktop-en-end")
    verify_every_seat(bob, 3)

    old = table_id_of(ann)
    ann.click("[data-again]")
    ann.wait_for_url(lambda url: old not in url)
    new = table_id_of(ann)
    bob.click("[data-again]")
    bob.wait_for_url(lambda url: old not in url)
    assert table_id_of(bob) == new
    expect(ann.locator("[data-start]")).to_be_visible()  # every seat taken: Ann starts
    for context in (ann_context, bob_context):
        context.close()
