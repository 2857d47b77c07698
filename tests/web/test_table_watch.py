"""A table's pages keep up from its events, not by asking for the table: in a real Chromium a
spectator and the player of a pass-and-play table (no clock) follow several turns, and neither
page GETs the table while the match is played, yet the spectator's shared sheet shows what the
player's shows, with the seat playing lit and no control of the spectator's."""

import re
from urllib.parse import urlparse

from playwright.sync_api import expect

from .table_page import create_table, open_page, play_if_my_turn

TURNS = 4  # two per seat: eight actions, each published as an event


def table_gets(page, table_id: str) -> list[str]:
    """The list that will hold each GET of the table ``page`` sends (its events excluded)."""
    path = f"/api/v1/tables/{table_id}"
    sent = []
    page.on("request", lambda request: sent.append(request.url)
            if request.method == "GET" and urlparse(request.url).path == path else None)
    return sent


def sheet_cells(page) -> list[str]:
    """Every seat's cells of the shared sheet, row by row."""
    return page.locator("[data-seat-box] [data-points]").all_inner_texts()


def test_a_spectator_and_the_player_follow_the_turns_without_getting_the_table(
        browser, table_server):
    ann_context, ann = open_page(browser, table_server, "/tables/new")
    create_table(ann, "yacht", ["here"], 0)
    table_id = re.search(r"/tables/([0-9a-f]{32})$", ann.url).group(1)
    ann.wait_for_selector("[data-start]:visible")
    ann.click("[data-start]")
    expect(ann.locator("[data-board]")).to_be_visible()
    watcher_context, watcher = open_page(browser, table_server, f"/tables/{table_id}/watch")
    expect(watcher.locator("[data-seat-head][aria-current='true']")).to_have_count(2)  # a half each
    expect(watcher.locator("[data-roll]")).to_be_hidden()
    watcher_gets, ann_gets = table_gets(watcher, table_id), table_gets(ann, table_id)
    for turn in range(1, TURNS + 1):
        assert play_if_my_turn(ann), f"turn {turn}: the board did not take the turn"
        expect(ann.locator("[data-pick]")).to_have_count(0)
        expect(ann.locator("[data-seat-box].filled")).to_have_count(turn)  # the box is filled
        expect(watcher.locator("[data-seat-box] [data-points]")).to_have_text(sheet_cells(ann))
    assert watcher.locator("[data-pick]").count() == 0
    assert watcher_gets == [] and ann_gets == [], (watcher_gets, ann_gets)
    for context in (ann_context, watcher_context):
        context.close()
