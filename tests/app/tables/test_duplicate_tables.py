"""Duplicate tables through the API on a real Redis: while a seat plays its turn of a round,
no other viewer (the next seat, a spectator) sees its dice, in the table's answer, an action's
answer, the events every viewer reads or the stream's snapshot; the whole round shows once
every seat has filled its box of it, and the end shows everything. A plain table is unchanged."""

import json
import random

import pytest
from playkit import app_on, call

from app.services import EXTENSION
from tests.app.tables.tablekit import join, my_turn, play_turn, start, view

BOT = {"kind": "bot", "level": "easy"}


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app on the test Redis with short event streams."""
    return app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/",
                  TABLE_STREAM_SECONDS=0.2)


def seated(app, duplicate: bool, bots: int = 0):
    """A started Yacht table without a clock: Ann (seat 0), Bob (seat 1) and ``bots`` easy
    bots; the two clients, a spectator's and the table id."""
    ann, bob, spectator = app.test_client(), app.test_client(), app.test_client()
    status, body = call(ann, "POST", "/tables", {
        "ruleset": "yacht", "seats": [{"kind": "human"}] + [BOT] * bots, "clock": 0,
        "name": "Ann", "client_seed": "seed-ann", "duplicate": duplicate})
    assert status == 201, body
    table = body["table"]
    join(bob, table["code"], "Bob", "seed-bob")
    start(ann, table["id"])
    return ann, bob, spectator, table["id"]


def act(client, table_id: str, path: str, body: dict) -> dict:
    """An action at the table; its answer's table."""
    status, answer = call(client, "POST", f"/tables/{table_id}/{path}", body)
    assert status == 200, answer
    return answer["table"]


def events(app, table_id: str) -> list:
    """Every event the table published, oldest first."""
    return app.extensions[EXTENSION].tables.channel.read(table_id, "0-0", count=10_000)


def snapshot(client, table_id: str) -> dict:
    """The table as the event stream's snapshot shows it to the client."""
    text = client.get(f"/api/v1/tables/{table_id}/events").get_data(as_text=True)
    block = next(part for part in text.split("\n\n") if "event: snapshot" in part)
    return json.loads(block.split("data: ", 1)[1])


def hides_seat(table: dict, seat: int, round_actions: int = 0) -> None:
    """The view shows ``seat`` as it stood before its turn of the round being played (its
    transcript cut after ``round_actions`` entries, no dice) and none of its actions."""
    shown = table["match"]["seats"][seat]
    assert shown["dice"] is None and shown["rolls_in_turn"] == 0
    if "transcript" in shown:
        assert len(shown["transcript"]) == round_actions
    assert all(action["seat"] != seat for action in table.get("yours", []))


def test_the_next_seat_never_sees_the_seat_playing_until_the_round_is_complete(app):
    ann, bob, spectator, table_id = seated(app, duplicate=True)
    first = view(ann, table_id)
    assert first["duplicate"] and first["shared"] == 0 and first["yours"] == []
    mine = act(ann, table_id, "roll", {"hold": None, "roll": 0})
    dice = mine["match"]["seats"][0]["dice"]
    assert mine["yours"] == [{"number": 0, "seat": 0, "entry": {
        "action": "roll", "hold": [False] * 5, "dice": dice}}]
    mine = act(ann, table_id, "roll", {"hold": [True, True, False, False, False], "roll": 1})
    assert [action["number"] for action in mine["yours"]] == [0, 1]

    for client in (bob, spectator):
        seen = view(client, table_id)
        hides_seat(seen, 0)
        assert seen["match"]["order"] == [] and seen["shared"] == 0 and seen["yours"] == []
        assert seen["match"]["seats"][0]["totals"]["total"] == 0
        hides_seat(snapshot(client, table_id), 0)
    assert events(app, table_id)[-1].kind == "started"  # Ann's rolls published nothing

    box = mine["match"]["play"]["allowed"][0]
    mine = act(ann, table_id, "score", {"category": box, "roll": 2})
    assert [action["number"] for action in mine["yours"]] == [0, 1, 2]
    assert box in mine["match"]["seats"][0]["boxes"]
    handed = events(app, table_id)[-1]
    assert handed.kind == "actions"
    assert {key: handed.data[key] for key in ("from", "to", "actions", "turn", "round",
                                              "next_action", "totals", "sheets")} == {
        "from": 0, "to": 0, "actions": [], "turn": 1, "round": 1, "next_action": 3,
        "totals": [0, 0], "sheets": {}}

    bobs = view(bob, table_id)
    hides_seat(bobs, 0)
    assert my_turn(bobs) and bobs["match"]["next_action"] == 3
    assert box not in bobs["match"]["seats"][0]["boxes"]
    answered = act(bob, table_id, "roll", {"hold": None, "roll": 3})
    assert answered["match"]["seats"][1]["dice"] == dice  # duplicate: the same first roll
    hides_seat(answered, 0)
    assert answered["yours"] == [{"number": 3, "seat": 1, "entry": {
        "action": "roll", "hold": [False] * 5, "dice": dice}}]
    hides_seat(view(ann, table_id), 1)
    hides_seat(snapshot(spectator, table_id), 1)
    hides_seat(snapshot(spectator, table_id), 0)

    closing = act(bob, table_id, "score", {
        "category": answered["match"]["play"]["allowed"][0], "roll": 4})
    assert closing["shared"] == 5 and closing["yours"] == []
    shown = events(app, table_id)[-1].data
    assert (shown["from"], shown["to"], shown["turn"], shown["round"]) == (0, 5, 0, 2)
    assert [action["seat"] for action in shown["actions"]] == [0, 0, 0, 1, 1]
    assert shown["actions"][0]["entry"]["dice"] == dice
    assert set(shown["sheets"]) == {"0", "1"}
    assert shown["totals"] == [seat["totals"]["total"]
                               for seat in view(spectator, table_id)["match"]["seats"]]
    for client in (ann, bob, spectator):
        seen = view(client, table_id)
        assert seen["match"]["order"] == [0, 0, 0, 1, 1] and seen["shared"] == 5
        assert len(seen["match"]["seats"][0]["transcript"]) == 3
    every = [data for event in events(app, table_id) if event.kind == "actions"
             for data in [event.data]]
    assert all(event["actions"] == [] or event["to"] == 5 for event in every)


def test_a_duplicate_table_with_a_bot_shows_each_round_whole_and_everything_at_the_end(app):
    ann, bob, spectator, table_id = seated(app, duplicate=True, bots=1)
    rng = random.Random(7)
    rounds_seen = 0
    while True:
        table = view(ann, table_id)
        if table["match"]["status"] != "playing":
            break
        player = ann if my_turn(table) else bob
        before = view(spectator, table_id)
        assert before["yours"] == [] and before["match"]["order"] == list(
            event_seats(app, table_id, before["shared"]))
        play_turn(player, view(player, table_id), rng)
        rounds_seen += 1
    assert rounds_seen >= 2 * 12
    published = [event.data for event in events(app, table_id) if event.kind == "actions"]
    froms = [event["from"] for event in published]
    tos = [event["to"] for event in published]
    assert froms[1:] == tos[:-1] and froms[0] == 0  # no gap: a prefix grows
    ended = view(spectator, table_id)
    assert "shared" in ended and ended["yours"] == []
    assert ended["shared"] == ended["match"]["next_action"] == tos[-1]
    firsts = [[entry["dice"] for entry in seat["transcript"] if entry["action"] == "roll"][:1]
              for seat in ended["match"]["seats"]]
    assert firsts[0] == firsts[1] == firsts[2]
    assert events(app, table_id)[-1].kind == "ended"


def event_seats(app, table_id: str, upto: int) -> list[int]:
    """The seats of the table's first ``upto`` actions as its events published them."""
    seats: dict[int, int] = {}
    for event in events(app, table_id):
        if event.kind == "actions":
            for index, action in enumerate(event.data["actions"]):
                seats[event.data["from"] + index] = action["seat"]
    return [seats[number] for number in range(upto)]


def test_a_plain_table_shows_every_action_to_everyone_as_before(app):
    ann, bob, spectator, table_id = seated(app, duplicate=False)
    mine = act(ann, table_id, "roll", {"hold": None, "roll": 0})
    assert "shared" not in mine and "yours" not in mine
    for client in (bob, spectator):
        seen = view(client, table_id)
        assert "shared" not in seen and "yours" not in seen
        assert seen["match"]["seats"][0]["dice"] == mine["match"]["seats"][0]["dice"]
    rolled = events(app, table_id)[-1].data
    assert (rolled["from"], rolled["to"], len(rolled["actions"])) == (0, 1, 1)
    assert "next_action" not in rolled
