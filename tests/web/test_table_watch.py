"""A table's pages keep up from its events, not by asking for the table: in a real Chromium a
spectator and the player of a pass-and-play table (no clock) follow several turns, and neither
page GETs the table while the match is played, yet the spectator's seats show what the
player's show."""

import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from .table_page import create_table, open_page, play_if_my_turn

TURNS = 4  # two per seat: eight actions, each published as an event
YOU = " · (you)"


def table_gets(page, table_id: str) -> list[str]:
    """The list that will hold each GET of the table ``page`` sends (its events excluded)."""
    path = f"/api/v1/tables/{table_id}"
    sent = []
    page.on("request", lambda request: sent.append(request.url)
            if request.method == "GET" and urlparse(request.url).path == path else None)
    return sent


def seat_lines(page) -> list[str]:
    """The seats as the page lists them, without the caller's own "(you)"."""
    return [line.replace(YOU, "") for line in page.locator("[data-seats] li").all_inner_texts()]


def test_a_spectator_and_the_player_follow_the_turns_without_getting_the_table(
        browser, table_server):
    ann_context, ann = open_page(browser, table_server, "/tables/new")
    create_table(ann, "yacht", ["here"], 0)
    table_id = re.search(r"/tables/([0-9a-f]{32})$", ann.url).group(1)
    ann.wait_for_selector("[data-start]:visible")
    ann.click("[data-start]")
    expect(ann.locator("[data-board]")).to_be_visible()
    watcher_context, watcher = open_page(browser, table_server, f"/tables/{table_id}/watch")
    expect(watcher.locator("[data-seats] li[aria-current]")).to_have_count(1)
    watcher_gets, ann_gets = table_gets(watcher, table_id), table_gets(ann, table_id)
    for turn in range(1, TURNS + 1):
        assert play_if_my_turn(ann), f"turn {turn}: the board did not take the turn"
        expect(ann.locator("[data-boxes] button")).to_have_count(0)  # the box is filled
        expected = seat_lines(ann)
        expect(watcher.locator("[data-seats] li")).to_have_text(expected)
    assert watcher_gets == [] and ann_gets == [], (watcher_gets, ann_gets)
    for context in (ann_context, watcher_context):
        context.close()
