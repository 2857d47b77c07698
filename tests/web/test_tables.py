"""The issue's table in a real Chromium: three humans in three browser contexts and two bots at
a Yahtzee table with a short clock. The humans' first turns go through the API while the pages
follow; of the last ones, one human never plays (the server's clock plays them), one reloads in
the middle of a turn and carries on; at the end every page shows the same ranks and "Verify the
rolls" is ✓ for every seat."""

import time

from .table_page import (
    create_table,
    join,
    open_page,
    play_if_my_turn,
    play_through_api,
    ranks_text,
    table_id_of,
    verify_every_seat,
)

CLOCK_SECONDS = 3
GAME_SECONDS = 240
CLICKED_TURNS = 5  # chances for Bob's reload before the 3 s clock plays his turns


def test_three_humans_two_bots_a_clock_a_reload_and_every_seat_verified(
        browser, table_server):
    ann_context, ann = open_page(browser, table_server, "/tables/new")
    create_table(ann, "yahtzee", ["human", "human", "bot:easy", "bot:medium"], CLOCK_SECONDS)
    code = ann.inner_text("[data-code]")
    bob_context, bob = open_page(browser, table_server, f"/t/{code}")
    join(bob, "Bob")
    cat_context, cat = open_page(browser, table_server, f"/t/{code}")
    join(cat, "Cat")
    ann.wait_for_selector("[data-start]:visible")
    ann.click("[data-start]")
    play_through_api([ann, bob, cat], table_id_of(ann), CLICKED_TURNS)
    for page in (ann, bob, cat):  # read the table as it stands, not its bots played back
        page.reload()
        page.wait_for_selector("[data-seat-head]")
    reloaded = False
    deadline = time.monotonic() + GAME_SECONDS
    while not ann.is_visible("[data-end]"):
        assert time.monotonic() < deadline, "the table did not end"
        play_if_my_turn(ann)
        if bob.is_visible("[data-skip]"):
            bob.keyboard.press("s")  # the bots' moves at once: Bob's turn shows before its clock
        if not reloaded and bob.is_visible("[data-roll]"):
            bob.click("[data-roll]")
            bob.wait_for_selector("[data-pick]")
            bob.reload()  # mid-turn: the page rejoins the table where it stands
            bob.wait_for_selector("[data-seat-head]")
            reloaded = True
        play_if_my_turn(bob)
        time.sleep(0.1)  # Cat never plays: the server's clock does
    assert reloaded
    for page in (bob, cat):
        page.wait_for_selector("[data-end]:visible", timeout=20_000)
    ranks = ranks_text(ann)
    assert len(ranks) == 5
    assert ranks_text(bob) == ranks == ranks_text(cat)
    for page in (ann, bob, cat):
        verify_every_seat(page, 5)
    for context in (ann_context, bob_context, cat_context):
        context.close()
