"""A table's page whose live stream the server refuses (past its caps on open streams: a 429
``too-many-streams`` or a 503 ``streams-busy``) tells the player the live updates are paused
and for how long, asks again later by itself, and is live again once the server lets it in:
a friend's join then shows on the page without a reload."""

import json
import re

from playwright.sync_api import expect

from .table_page import create_table, join, open_page

EVENTS = re.compile(r"/api/v1/tables/[0-9a-f]{32}/events")
REFUSALS = [(429, "too-many-streams"), (503, "streams-busy")]


def test_a_refused_stream_is_said_paused_asked_again_later_and_live_once_let_in(
        browser, table_server):
    context, ann = open_page(browser, table_server, "/tables/new")
    create_table(ann, "yacht", ["human", "human"], 0)
    asked = []

    def refuse_twice(route) -> None:
        """The server's two refusals, then the server itself."""
        asked.append(route.request.url)
        if len(asked) > len(REFUSALS):
            route.continue_()
            return
        status, code = REFUSALS[len(asked) - 1]
        route.fulfill(status=status, headers={"Retry-After": "2"},
                      content_type="application/json",
                      body=json.dumps({"error": {"code": code, "message": "refused"}}))

    ann.route(EVENTS, refuse_twice)
    ann.reload()
    status = ann.locator("[data-table-status]")
    expect(status).to_contain_text(re.compile(r"Live updates are paused.*Trying again in \d+ "
                                              r"seconds"), timeout=10_000)
    expect(status).to_contain_text("Waiting for every seat", timeout=30_000)
    assert len(asked) == len(REFUSALS) + 1
    code = ann.inner_text("[data-code]")
    bob_context, bob = open_page(browser, table_server, f"/t/{code}")
    join(bob, "Bob")
    expect(ann.locator("[data-seats] li").nth(1)).to_contain_text("Bob", timeout=20_000)
    for opened in (bob_context, context):
        opened.close()
