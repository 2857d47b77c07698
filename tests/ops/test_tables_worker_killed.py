"""A table under gunicorn (deploy/gunicorn.conf.py, gevent workers) while one worker is killed
with SIGKILL: the table goes on, and the server's clock still plays each timed-out turn once."""

import http.cookiejar
import json
import os
import signal
import time
import urllib.error
import urllib.request

from app.platform.redis import connect
from app.tables.events import TableChannel

API = "/api/v1"
CLOCK_SECONDS = 3
WAIT_SECONDS = 30.0


class Player:
    """One browser's cookie and its JSON requests to the server."""

    def __init__(self, port: int):
        """A new player of the server on ``port``."""
        self.base = f"http://127.0.0.1:{port}{API}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        """POST ``body`` (or GET without one); (status, JSON answer). A request the dying
        worker held gets no answer: it is sent again, as the page's retries do."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data,
                                         headers={"Content-Type": "application/json"})
        for _ in range(5):
            try:
                with self.opener.open(request, timeout=10) as response:
                    return response.status, json.load(response)
            except urllib.error.HTTPError as error:
                if error.code not in (502, 503):
                    return error.code, json.load(error)
            except (ConnectionError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise AssertionError(f"no answer to {path}")


def wait_for_turn(player: Player, table_id: str, seat: int) -> dict:
    """The table once it is ``seat``'s turn (or over)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        _, answer = player.call(f"/tables/{table_id}")
        match = answer["table"]["match"]
        if match["status"] != "playing" or match["turn"] == seat:
            return answer["table"]
        assert time.monotonic() < deadline, f"seat {seat}'s turn never came: {match['turn']}"
        time.sleep(0.1)


def play_a_turn(player: Player, table: dict) -> None:
    """Roll once and fill the first box the dice may go in."""
    match = table["match"]
    status, answer = player.call(f"/tables/{table['id']}/roll",
                                 {"hold": None, "roll": match["next_action"]})
    assert status == 200, answer
    match = answer["table"]["match"]
    status, answer = player.call(f"/tables/{table['id']}/score", {
        "category": match["play"]["allowed"][0], "roll": match["next_action"]})
    assert status == 200, answer


def test_a_killed_worker_stops_neither_the_table_nor_its_clock(killable_redis, deploy_server):
    server = deploy_server(killable_redis.url, workers=2,
                           extra_env={"YACHT_DAILY_WORKER_CLASS": "gevent"})
    ann, bob = Player(server.port), Player(server.port)
    status, created = ann.call("/tables", {
        "ruleset": "yacht", "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        "clock": CLOCK_SECONDS, "name": "Ann", "client_seed": "ann"})
    assert status == 201, created
    table_id = created["table"]["id"]
    status, _ = bob.call(f"/tables/{table_id}/join", {"name": "Bob", "client_seed": "bob"})
    assert status == 200
    status, _ = ann.call(f"/tables/{table_id}/start", {})
    assert status == 200
    killed = []
    for round_ in range(3):
        play_a_turn(ann, wait_for_turn(ann, table_id, 0))
        if round_ == 0:  # Bob's turn is being timed: one of the workers dies now
            victim = server.worker_pids()[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)
        wait_for_turn(ann, table_id, 0)  # the clock played Bob's turn, then the bot played
    events = TableChannel(connect(killable_redis.url)).read(table_id, "0-0", count=10_000)
    clock_moves = [action["entry"]["action"] for event in events if event.kind == "actions"
                   and event.data["by"] == "clock" for action in event.data["actions"]
                   if action["seat"] == 1]  # the bot's turn follows in the same write
    assert clock_moves == ["roll", "score"] * 3
    _, answer = ann.call(f"/tables/{table_id}")
    bob_game = answer["table"]["match"]["seats"][1]
    assert len(bob_game["boxes"]) == 3
    assert [e["action"] for e in bob_game["transcript"]] == ["roll", "score"] * 3
    survivors = server.worker_pids()
    assert len(survivors) == 2 and not set(killed) & set(survivors)
