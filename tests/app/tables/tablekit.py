"""Tables through the API (Flask test client or live JsonClient): create, join, start, and a
simple player's move on a table view."""

import random

from matchkit import next_move as match_move
from playkit import call


def create_table(client, ruleset: str, seats: list[dict], clock=5, name="Ann",
                 client_seed="seed-ann") -> dict:
    """A new table of the client's; returns its view."""
    status, body = call(client, "POST", "/tables", {"ruleset": ruleset, "seats": seats,
                                                     "clock": clock, "name": name,
                                                     "client_seed": client_seed})
    assert status == 201, body
    return body["table"]


def join(client, code: str, name: str, client_seed: str) -> dict:
    """Find the table by its code and sit at it; returns its view."""
    status, found = call(client, "GET", f"/tables/code/{code}")
    assert status == 200, found
    status, body = call(client, "POST", f"/tables/{found['table']['id']}/join",
                        {"name": name, "client_seed": client_seed})
    assert status == 200, body
    return body["table"]


def start(client, table_id: str) -> dict:
    """Start the table (its creator); returns its view."""
    status, body = call(client, "POST", f"/tables/{table_id}/start")
    assert status == 200, body
    return body["table"]


def view(client, table_id: str) -> dict:
    """The table as the client sees it."""
    status, body = call(client, "GET", f"/tables/{table_id}")
    assert status == 200, body
    return body["table"]


def my_turn(table: dict) -> bool:
    """Whether the table waits for one of the client's seats."""
    match = table["match"]
    return match is not None and match["status"] == "playing" and match["turn"] in table["you"]


def play_turn(client, table: dict, rng: random.Random) -> dict:
    """Play the client's whole turn (rolls, then a box); returns the table after it."""
    turn = (table["match"]["turn"], table["match"]["round"])
    while my_turn(table) and (table["match"]["turn"], table["match"]["round"]) == turn:
        action, body = match_move(table["match"], rng)
        body.pop("client_seed", None)
        status, answer = call(client, "POST", f"/tables/{table['id']}/{action}", body)
        assert status == 200, answer
        table = answer["table"]
    return table
