"""Play again through the API on a real Redis: a table over leads to one new table whatever the
number of seats that ask, with the same sheet, clock and bots, each asker seated again and the
other humans' seats open; refused before the end and to a caller without a seat; and the events
carry what a page applies without reading the table (each seat's sheet, the end's result)."""

import random

import pytest
from playkit import app_on, call

from app.services import EXTENSION
from tests.app.tables.tablekit import create_table, join, my_turn, play_turn, start, view

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app on the test Redis."""
    return app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/")


def played_table(app):
    """A Yacht table of Ann, Bob, Cat (Cat never asks again) and a bot, played to its end."""
    clients = [app.test_client() for _ in range(3)]
    table = create_table(clients[0], "yacht", SEATS, clock=0)
    for name, friend in zip(("Bob", "Cat"), clients[1:], strict=True):
        join(friend, table["code"], name, f"seed-{name}")
    start(clients[0], table["id"])
    rng = random.Random(7)
    while view(clients[0], table["id"])["status"] == "playing":
        for client in clients:
            state = view(client, table["id"])
            if my_turn(state):
                play_turn(client, state, rng)
    return clients, table["id"]


def test_play_again_makes_one_table_for_every_seat_that_asks(app):
    (ann, bob, cat), table_id = played_table(app)
    outsider = app.test_client()
    status, body = call(outsider, "POST", f"/tables/{table_id}/again", {})
    assert status == 403 and body["error"]["code"] == "not-seated"
    status, first = call(bob, "POST", f"/tables/{table_id}/again", {"client_seed": "bob-2"})
    assert status == 200, first
    status, second = call(ann, "POST", f"/tables/{table_id}/again")
    assert status == 200, second
    new = second["table"]
    assert new["id"] == first["table"]["id"] != table_id
    assert new["status"] == "waiting" and new["ruleset"] == "yacht" and new["clock"] is None
    assert [seat["kind"] for seat in new["seats"]] == ["human", "human", "human", "bot"]
    assert new["seats"][3]["bot"] == "easy"
    assert sorted(seat["name"] for seat in new["seats"][:3] if seat["taken"]) == ["Ann", "Bob"]
    assert view(bob, new["id"])["creator"] and not view(ann, new["id"])["creator"]
    status, again = call(bob, "POST", f"/tables/{table_id}/again", {})
    assert status == 200 and again["table"]["id"] == new["id"]
    status, joined = call(cat, "POST", f"/tables/{new['id']}/join",
                          {"name": "Cat", "client_seed": "seed-cat-2"})
    assert status == 200 and all(seat["taken"] for seat in joined["table"]["seats"])


def test_play_again_waits_for_the_end(app):
    ann = app.test_client()
    table = create_table(ann, "yacht", [{"kind": "bot", "level": "easy"}], clock=0)
    status, body = call(ann, "POST", f"/tables/{table['id']}/again", {})
    assert status == 409 and body["error"]["code"] == "table-not-over"
    start(ann, table["id"])
    status, body = call(ann, "POST", f"/tables/{table['id']}/again", {})
    assert status == 409 and body["error"]["code"] == "table-not-over"


def test_the_events_carry_the_sheets_and_the_result(app):
    (ann, _, _), table_id = played_table(app)
    events = app.extensions[EXTENSION].tables.channel.read(table_id, "0-0", count=10_000)
    actions = [event.data for event in events if event.kind == "actions"]
    for data in actions:
        scored = {str(action["seat"]) for action in data["actions"]
                  if action["entry"]["action"] == "score"}
        assert set(data["sheets"]) == scored
        assert all(data["sheets"][seat]["total"] == data["totals"][int(seat)] for seat in scored)
    end = events[-1]
    assert end.kind == "ended"
    match = view(ann, table_id)["match"]
    assert end.data["result"] == match["result"] and end.data["server_seed"] == match["server_seed"]
