"""Tables through the API on a real Redis: a lobby joined by code, the match started with every
client seed fixed, turns played by their seats, the server's clock playing an idle seat exactly
once, the live events, pass and play, the signed result and each player's list, bad input."""

import json
import random
import subprocess
import sys
import threading
import time

import pytest
from matchkit import check_published, next_move
from playkit import app_on, call

from app.services import EXTENSION
from app.tables.store import table_key
from app.tables.turn_clock import ClockRunner
from tests.app.tables.tablekit import create_table, join, my_turn, play_turn, start, view
from tests.verify.conftest import VERIFY_PY

BOTS = [{"kind": "bot", "level": "easy"}]


class Seconds:
    """The turn clock's time in Unix seconds, moved by the test."""

    def __init__(self):
        """Start at an arbitrary moment."""
        self.value = 1_800_000_000.0

    def __call__(self) -> float:
        """The time now."""
        return self.value


@pytest.fixture
def seconds():
    """The turn clock's time."""
    return Seconds()


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir, seconds):
    """The app on the test Redis, its turn clock on ``seconds``, short event streams."""
    return app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/",
                  TURN_CLOCK=seconds, TABLE_STREAM_SECONDS=0.2)


@pytest.fixture
def service(app):
    """The app's table service."""
    return app.extensions[EXTENSION].tables


@pytest.fixture
def public_key(app) -> str:
    """The epoch key that signs results."""
    return app.extensions[EXTENSION].secrets.signer.public_key_hex


def seated(app, seats=2, clock=5):
    """A started table of ``seats`` humans (Ann creates, the others join by code) and a
    beginner bot; returns the clients and the table id."""
    clients = [app.test_client() for _ in range(seats)]
    table = create_table(clients[0], "yahtzee", [{"kind": "human"}] * (seats - 1) + BOTS,
                         clock=clock)
    for index, friend in enumerate(clients[1:], start=1):
        join(friend, table["code"], f"Friend {index}", f"seed-{index}")
    start(clients[0], table["id"])
    return clients, table["id"]


def events_of(service, table_id):
    """Every event the table published, oldest first."""
    return service.channel.read(table_id, "0-0", count=10_000)


def test_a_table_is_joined_by_code_started_by_its_creator_and_sealed_before_the_first_roll(app):
    ann, bob = app.test_client(), app.test_client()
    table = create_table(ann, "yahtzee", [{"kind": "human"}] + BOTS)
    assert table["status"] == "waiting" and table["creator"] and table["you"] == [0]
    assert table["clock"] == 5 and table["join_url"] == f"https://yacht.example/t/{table['code']}"
    assert [s["taken"] for s in table["seats"]] == [True, False, True]
    status, refused = call(ann, "POST", f"/tables/{table['id']}/start")
    assert status == 409 and refused["error"]["code"] == "seats-open"
    joined = join(bob, table["code"].lower(), "Bob", "seed-bob")
    assert joined["you"] == [1] and not joined["creator"]
    assert join(bob, table["code"], "Bob", "seed-bob")["you"] == [1]  # twice: same seat
    status, refused = call(bob, "POST", f"/tables/{table['id']}/start")
    assert status == 403 and refused["error"]["code"] == "not-creator"
    started = start(ann, table["id"])
    match = started["match"]
    assert started["status"] == "playing" and match["kind"] == "table"
    assert len(match["commitment"]) == 64 and match["server_seed"] is None
    assert [seat["client_seed"] for seat in match["seats"]] == ["seed-ann", "seed-bob", None]
    assert match["turn"] == 0 and not match["hints"]
    status, refused = call(app.test_client(), "POST", f"/tables/{table['id']}/join",
                           {"name": "Late", "client_seed": "late"})
    assert status == 409 and refused["error"]["code"] == "table-started"


def test_every_seat_plays_in_turn_and_the_end_ranks_and_signs_every_seat(app, service,
                                                                         public_key):
    (ann, bob), table_id = seated(app, clock=0)
    rng = random.Random(5)
    tables = {0: view(ann, table_id), 1: view(bob, table_id)}
    while tables[0]["match"]["status"] == "playing":
        for client in (ann, bob):
            table = view(client, table_id)
            if my_turn(table):
                play_turn(client, table, rng)
        tables = {0: view(ann, table_id), 1: view(bob, table_id)}
    final = tables[0]["match"]
    assert final["status"] == "finished" and tables[1]["match"]["ranks"] == final["ranks"]
    check_published(final, public_key)
    assert final["result"]["kind"] == "table"
    assert final["result"]["client_seeds"] == ["seed-ann", "seed-1"]
    totals = [seat["totals"]["total"] for seat in final["seats"]]
    assert final["result"]["winners"] == [i for i, t in enumerate(totals) if t == max(totals)]
    kinds = [event.kind for event in events_of(service, table_id)]
    assert kinds[0] == "joined" and kinds[1] == "started" and kinds[-1] == "ended"
    logged = [action for event in events_of(service, table_id) if event.kind == "actions"
              for action in event.data["actions"]]
    seen = {}
    for event in events_of(service, table_id):
        if event.kind == "actions":
            for offset, action in enumerate(event.data["actions"]):
                seen[event.data["from"] + offset] = action
    assert [seen[i] for i in range(len(seen))] == [
        {"seat": seat, "entry": entry} for seat, entry in stored_log(final)]
    assert logged
    status, listed = call(bob, "GET", "/me/history")
    assert status == 200
    assert [(m["match"], m["kind"], m["rank"]) for m in listed["matches"]] == [
        (final["id"], "table", final["ranks"][1])]


def test_an_actions_answer_leaves_out_the_transcripts_while_the_table_plays(app):
    (ann, bob), table_id = seated(app, clock=0)
    clients, rng = {0: ann, 1: bob}, random.Random(9)
    table = view(ann, table_id)
    while table["match"]["status"] == "playing":
        client = clients[table["match"]["turn"]]
        action, body = next_move(table["match"], rng)
        body.pop("client_seed", None)
        status, answer = call(client, "POST", f"/tables/{table_id}/{action}", body)
        assert status == 200, answer
        answered, whole = answer["table"]["match"], view(client, table_id)["match"]
        if answered["status"] == "playing":
            assert "order" not in answered
            assert all("transcript" not in seat for seat in answered["seats"])
            short = {**whole, "seats": [{k: v for k, v in seat.items() if k != "transcript"}
                                        for seat in whole["seats"]]}
            short.pop("order")
            assert answered == short
        else:  # the last action's answer is whole: the page verifies the rolls from it
            assert answered == whole and answered["order"]
        table = answer["table"]


def stored_log(state):
    """Every action of a finished match's state in play order, as (seat, entry)."""
    positions = [0] * len(state["seats"])
    log = []
    for seat in state["order"]:
        log.append((seat, state["seats"][seat]["transcript"][positions[seat]]))
        positions[seat] += 1
    return log


def test_the_clock_plays_an_idle_seat_once_rolling_then_filling_the_best_box(app, service,
                                                                             seconds):
    (ann, bob), table_id = seated(app, clock=5)
    runner = ClockRunner(service.clock, service.expire)
    assert runner.run_once() == []  # not due yet
    seconds.value += 5
    racing = [threading.Thread(target=ClockRunner(service.clock, service.expire).run_once)
              for _ in range(4)]
    for thread in racing:
        thread.start()
    for thread in racing:
        thread.join()
    table = view(bob, table_id)
    ann_game = table["match"]["seats"][0]
    assert [entry["action"] for entry in ann_game["transcript"]] == ["roll", "score"]
    assert table["match"]["turn"] == 1 and my_turn(table)
    by_clock = [e for e in events_of(service, table_id)
                if e.kind == "actions" and e.data["by"] == "clock"]
    assert sum(len(e.data["actions"]) for e in by_clock) == 2  # one roll, one box: once
    # Bob rolls once and leaves: the clock keeps his dice and fills a box with them.
    status, rolled = call(bob, "POST", f"/tables/{table_id}/roll", {
        "hold": None, "roll": table["match"]["next_action"]})
    assert status == 200
    dice = rolled["table"]["match"]["seats"][1]["dice"]
    best = max(rolled["table"]["match"]["play"]["previews"].values())
    seconds.value += 5
    runner.run_once()
    after = view(ann, table_id)["match"]
    bob_game = after["seats"][1]
    assert [e["action"] for e in bob_game["transcript"]] == ["roll", "score"]
    assert bob_game["transcript"][1]["points"] == best and bob_game["dice"] is None
    assert dice is not None and after["turn"] == 0  # the bot played; Ann's turn again


def test_a_player_who_came_back_plays_again(app, service, seconds):
    (ann, bob), table_id = seated(app, clock=5)
    seconds.value += 5
    ClockRunner(service.clock, service.expire).run_once()
    assert view(ann, table_id)["match"]["turn"] == 1
    table = play_turn(bob, view(bob, table_id), random.Random(1))
    assert table["match"]["turn"] == 0 and my_turn(view(ann, table_id))
    deadline = float(app.extensions[EXTENSION].game_store.client.hget(table_key(table_id),
                                                                  "deadline"))
    assert deadline == seconds.value + 5  # the new turn has its whole time


def test_pass_and_play_seats_take_turns_on_one_device_and_verify_py_checks_the_table(
        app, public_key, tmp_path):
    ann = app.test_client()
    table = create_table(ann, "yacht", [{"kind": "human", "here": True, "name": "Zoe",
                                         "client_seed": "seed-zoe"}], clock=0)
    assert table["you"] == [0, 1]
    table = start(ann, table["id"])
    assert not table["match"]["hints"]
    rng = random.Random(3)
    while table["match"]["status"] == "playing":
        assert my_turn(table)
        table = play_turn(ann, table, rng)
    check_published(table["match"], public_key)
    assert table["match"]["result"]["client_seeds"] == ["seed-ann", "seed-zoe"]
    saved = tmp_path / "table.json"
    status, answer = call(ann, "GET", f"/matches/{table['match']['id']}")
    saved.write_text(json.dumps(answer))
    verified = subprocess.run([sys.executable, str(VERIFY_PY), "match", str(saved), "--key",
                               public_key], capture_output=True, text=True, timeout=120,
                              check=False)
    assert status == 200 and verified.returncode == 0, verified.stdout + verified.stderr
    assert "✓ ranks" in verified.stdout


def test_the_event_stream_opens_with_a_snapshot_and_resumes_after_the_last_event_id(
        app, service):
    (ann, bob), table_id = seated(app, clock=0)
    response = bob.get(f"/api/v1/tables/{table_id}/events")
    assert response.mimetype == "text/event-stream"
    assert response.headers["X-Accel-Buffering"] == "no"
    text = response.get_data(as_text=True)
    assert "event: snapshot" in text and '"you":[1]' in text
    last = service.channel.last_id(table_id)
    play_turn(ann, view(ann, table_id), random.Random(2))
    resumed = bob.get(f"/api/v1/tables/{table_id}/events",
                      headers={"Last-Event-ID": last}).get_data(as_text=True)
    assert "snapshot" not in resumed and "event: actions" in resumed
    spectator = app.test_client().get(f"/api/v1/tables/{table_id}/events").get_data(
        as_text=True)
    assert '"you":[]' in spectator


@pytest.mark.parametrize(("body", "code"), [
    ({"ruleset": "yahtzee", "seats": [], "name": "A", "client_seed": "s"}, "invalid-seats"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "human"}] * 6, "name": "A",
      "client_seed": "s"}, "invalid-seats"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "bot", "level": "god"}], "name": "A",
      "client_seed": "s"}, "invalid-bots"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "human"}], "clock": 2, "name": "A",
      "client_seed": "s"}, "invalid-clock"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "human"}], "clock": "45", "name": "A",
      "client_seed": "s"}, "invalid-clock"),
    ({"ruleset": "nope", "seats": [{"kind": "human"}], "name": "A", "client_seed": "s"},
     "unknown-ruleset"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "human"}], "name": "A",
      "client_seed": "with space"}, "invalid-client-seed"),
    ({"ruleset": "yahtzee", "seats": [{"kind": "human", "here": True}], "name": "A",
      "client_seed": "s"}, "invalid-name"),
])
def test_bad_tables_are_refused_with_a_code_and_nothing_stored(client, redis_client, body,
                                                               code):
    before = sorted(redis_client.keys("{t*"))
    status, answer = call(client, "POST", "/tables", body)
    assert status == 400 and answer["error"]["code"] == code
    assert sorted(redis_client.keys("{t*")) == before


def test_out_of_turn_and_unknown_tables_are_refused(app):
    (ann, bob), table_id = seated(app, clock=0)
    table = view(bob, table_id)
    status, answer = call(bob, "POST", f"/tables/{table_id}/roll",
                          {"hold": None, "roll": table["match"]["next_action"]})
    assert status == 409 and answer["error"]["code"] == "not-your-turn"
    status, answer = call(app.test_client(), "POST", f"/tables/{table_id}/roll",
                          {"hold": None, "roll": 0})
    assert status == 403
    for path in ("/tables/0123456789abcdef0123456789abcdef", "/tables/nope",
                 "/tables/code/ZZZZZZ", "/tables/code/!!"):
        status, answer = call(ann, "GET", path)
        assert status == 404 and answer["error"]["code"] == "table-not-found"
    full = create_table(ann, "yacht", BOTS)
    status, answer = call(bob, "POST", f"/tables/{full['id']}/join",
                          {"name": "Bob", "client_seed": "b"})
    assert status == 409 and answer["error"]["code"] == "table-full"


@pytest.mark.parametrize("ruleset", ["yatzy", "generala", "yahtzee-triple"])
def test_a_table_with_a_bot_plays_a_new_sheet_to_its_signed_end(app, service, public_key,
                                                                  seconds, ruleset):
    """Scandinavian Yatzy, Generala and triple Yahtzee at a table with a bot: every box of both
    seats filled, the result signed and every seat's rolls verified from it."""
    ann = app.test_client()
    table = start(ann, create_table(ann, ruleset, BOTS, clock=0)["id"])
    rng = random.Random(7)
    for _ in range(5000):
        if table["match"]["status"] != "playing":
            break
        if my_turn(table):
            table = play_turn(ann, table, rng)
        else:  # the bot waits for its strategy table: the clock runner plays it when loaded
            seconds.value += 1
            ClockRunner(service.clock, service.expire).run_once()
            time.sleep(0.05)
            table = view(ann, table["id"])
    final = table["match"]
    assert final["status"] == "finished"
    assert [len(seat["boxes"]) for seat in final["seats"]] == [final["rounds"]] * 2
    check_published(final, public_key)


def test_a_tables_match_is_refused_by_the_match_routes_and_stays_as_it_was(app, service):
    clients, table_id = seated(app)
    ann = clients[0]
    table = view(ann, table_id)
    match_id, number = table["match"]["id"], table["match"]["next_action"]
    events_before = len(events_of(service, table_id))
    for path, body in ((f"/matches/{match_id}/roll", {"roll": number, "hold": None}),
                       (f"/matches/{match_id}/score", {"roll": number, "category": "chance"}),
                       (f"/matches/{match_id}/advance", None)):
        status, answer = call(ann, "POST", path, body)
        assert status == 409 and answer["error"]["code"] == "table-match", answer
    assert view(ann, table_id)["match"]["next_action"] == number
    assert len(events_of(service, table_id)) == events_before
    status, answer = call(ann, "POST", f"/tables/{table_id}/roll", {"roll": number, "hold": None})
    assert status == 200 and answer["table"]["match"]["next_action"] == number + 1
