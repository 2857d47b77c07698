"""A table's actions across workers on a real Redis: each process keeps the matches it has seen
and replays only the seats that acted since, and an action whose match the process holds at
that very version costs two round trips (its compare-and-set, then its events and turn); the
games always equal a replay of the whole log."""

import random
from collections import Counter

import pytest
from matchkit import next_move
from playkit import app_on, call

from app.matches.model import rebuild
from app.matches.store import MatchStore
from app.services import EXTENSION
from tests.app.tables.tablekit import create_table, join, start

BOTS = [{"kind": "bot", "level": "easy"}]
# What an action sends besides its two scripts when it must read first (the match's load is a
# script too: it would make three) or touch the clock's index; the scripts never run these
# unless the compare-and-set fails (its reply then carries the match).
READS = ("hgetall", "hmget", "get", "zadd", "zrem", "xrevrange", "eval")


@pytest.fixture
def apps(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """Two apps on the same Redis (emptied first, as for ``app``) and data directory: two
    workers, each its own caches."""
    return [app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/")
            for _ in range(2)]


def commands(redis_client) -> Counter:
    """Calls so far of each command (every master's, on a cluster); a script's own commands
    count too, under their names."""
    nodes = redis_client.get_primaries() if hasattr(redis_client, "get_primaries") else [None]
    calls = Counter()
    for node in nodes:
        stats = redis_client.info("commandstats", **({"target_nodes": node} if node else {}))
        calls.update({name.removeprefix("cmdstat_"): value["calls"]
                      for name, value in stats.items()})
    return calls


def test_actions_through_either_worker_match_the_replay_in_two_round_trips_when_held(
        apps, redis_client):
    players = [apps[0].test_client(), apps[0].test_client()]
    table = create_table(players[0], "yacht", [{"kind": "human"}, *BOTS], clock=0)
    join(players[1], table["code"], "Bob", "seed-bob")
    table = start(players[0], table["id"])
    clients = [[player] for player in players]  # each player's client on each app
    for player, pair in zip(players, clients, strict=True):
        other = apps[1].test_client()
        other.set_cookie(key="yd_player", value=player.get_cookie("yd_player").value)
        pair.append(other)
    match_id, store = table["match"]["id"], MatchStore(redis_client)
    rng, last_writer, held_costs, seen = random.Random(5), None, [], set()
    while table["match"]["status"] == "playing":
        worker = rng.randrange(2)
        action, body = next_move(table["match"], rng)
        body.pop("client_seed", None)
        before = commands(redis_client)
        status, answer = call(clients[table["match"]["turn"]][worker], "POST",
                              f"/tables/{table['id']}/{action}", body)
        cost = commands(redis_client)
        cost.subtract(before)
        assert status == 200, answer
        table = answer["table"]
        if worker == last_writer and worker in seen and table["match"]["status"] == "playing":
            held_costs.append((cost["evalsha"], sum(cost[name] for name in READS)))
        seen.add(worker)
        last_writer = worker
        replayed = rebuild(store.load(match_id))
        for app in apps:
            assert app.extensions[EXTENSION].matches.get(match_id).games == replayed.games
    assert held_costs and set(held_costs) == {(2, 0)}, held_costs


def test_a_match_read_after_the_log_it_holds_equals_a_whole_read(apps, redis_client):
    players = [apps[0].test_client(), apps[0].test_client()]
    table = create_table(players[0], "yacht", [{"kind": "human"}, *BOTS], clock=0)
    join(players[1], table["code"], "Bob", "seed-bob")
    table = start(players[0], table["id"])
    rng = random.Random(3)
    for _ in range(6):
        action, body = next_move(table["match"], rng)
        body.pop("client_seed", None)
        status, answer = call(players[table["match"]["turn"]], "POST",
                              f"/tables/{table['id']}/{action}", body)
        assert status == 200, answer
        table = answer["table"]
    store = MatchStore(redis_client)
    whole = store.load(table["match"]["id"])
    assert whole.version >= 6
    for known in (0, 1, whole.version - 1, whole.version):
        assert store.load(whole.id, whole.log[:known]) == whole
    longer = (*whole.log, *whole.log[:1])  # not this log's start: read whole again
    assert store.load(whole.id, longer) == whole
    assert store.load("0" * 32, whole.log) is None
