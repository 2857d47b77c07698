"""A page whose request the server refuses for load (503 ``overloaded``, before the app saw it)
tells the player it is busy, sends the very same request again after the server's Retry-After,
and goes on once it is served."""

import json
import re

from playwright.sync_api import expect

from .player import open_game, wait_for_action

ROLL = re.compile(r"/api/v1/games/[^/?]+/roll")
REFUSALS = 2


def test_a_roll_refused_for_load_is_sent_again_after_retry_after_and_the_player_told(page):
    open_game(page, "yacht")
    refused_bodies = []

    def refuse_twice(route) -> None:
        """The server's refusals for load, then the server itself."""
        if len(refused_bodies) == REFUSALS:
            route.continue_()
            return
        refused_bodies.append(route.request.post_data)
        route.fulfill(status=503, headers={"Retry-After": "1"}, content_type="application/json",
                      body=json.dumps({"error": {"code": "overloaded", "message": "busy"}}))

    page.route(ROLL, refuse_twice)
    status_line = page.locator("[data-status-line]")
    page.locator("[data-roll]").click()
    expect(status_line).to_contain_text(re.compile("busy", re.I))
    wait_for_action(page, 1)
    assert len(refused_bodies) == REFUSALS and len(set(refused_bodies)) == 1
    expect(status_line).not_to_contain_text(re.compile("busy", re.I))
