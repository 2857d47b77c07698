"""Tables on the new sheets in a real Chromium: on Scandinavian Yatzy, Generala and triple
Yahtzee a player creates a table from the page with a perfect bot and no clock, plays its
last turns by clicking (one roll, the first box offered; the earlier ones through the API while
the page follows), reads the coach's review of each seat on
the results and gets "Verify the rolls" ✓ for both seats. A table ending while the coach's
tables load shows the reviews once they are loaded."""

import re
import time

import pytest
from playwright.sync_api import expect

from app.boards.figures import loss_text

from .coach_wait import TablesLoading
from .table_page import (
    api_table,
    create_table,
    open_page,
    play_if_my_turn,
    play_through_api,
    ranks_text,
    verify_every_seat,
)

GAME_SECONDS = 300  # 39 turns on the triple sheet, on a busy machine
REVIEW_MS = 30_000
CLICKED_TURNS = 2
REVIEW_LINE = re.compile(r"^Coach: (\d+\.\d) expected points given away$")


@pytest.mark.parametrize("ruleset", ["yatzy", "generala", "yahtzee-triple"])
def test_a_whole_table_with_a_bot_ends_reviewed_and_verified(browser, table_server, ruleset):
    context, page = open_page(browser, table_server, "/tables/new")
    create_table(page, ruleset, ["bot:perfect"], clock=0)
    table_id = page.url.rsplit("/", 1)[1]
    page.click("[data-start]")
    play_through_api([page], table_id, CLICKED_TURNS)
    play_to_the_end(page)
    match = api_table(page, table_id)["match"]
    assert match["status"] == "finished"
    assert [len(seat["boxes"]) for seat in match["seats"]] == [match["rounds"]] * 2
    assert len(ranks_text(page)) == 2
    for seat in (0, 1):
        line = page.locator(f'[data-review="{seat}"]')
        expect(line).to_have_text(REVIEW_LINE, timeout=REVIEW_MS)
        review = page.request.get(f"/api/v1/matches/{match['id']}/review?seat={seat}")
        assert review.ok, review.text()
        assert REVIEW_LINE.match(line.inner_text()).group(1) == loss_text(review.json()["loss"])
    assert page.inner_text('[data-review="1"]') == "Coach: 0.0 expected points given away"
    verify_every_seat(page, 2)
    context.close()


def test_the_coach_line_waits_for_tables_still_loading(browser, table_server):
    """A table that ends while the coach's tables load (a worker just started): each seat's
    line says the review is being computed, the page asks again as the server's Retry-After
    says, and the lines show the reviews once the tables answer, without a reload."""
    context, page = open_page(browser, table_server, "/tables/new")
    tables = TablesLoading(page)
    create_table(page, "yacht", ["bot:perfect"], clock=0)
    page.click("[data-start]")
    play_through_api([page], page.url.rsplit("/", 1)[1], 1)
    play_to_the_end(page)
    first = page.locator('[data-review="0"]')
    expect(first).to_have_text("Coach: the review is being computed…")
    tables.wait_until_asked(2)
    tables.ready()
    for seat in (0, 1):
        expect(page.locator(f'[data-review="{seat}"]')).to_have_text(REVIEW_LINE,
                                                                    timeout=REVIEW_MS)
    context.close()


def play_to_the_end(page) -> None:
    """Play the page's seat (one roll, the first box) until the table ends."""
    deadline = time.monotonic() + GAME_SECONDS
    while not page.is_visible("[data-end]"):
        assert time.monotonic() < deadline, "the table did not end"
        if not play_if_my_turn(page):
            time.sleep(0.05)
