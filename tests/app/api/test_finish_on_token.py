"""The action that finishes a v2 game on the worker that did not serve the one before it: its
token serves it as it serves any action, so no read of the game comes first — the
compare-and-set, then the finishing round trip (the log leaf, which signs its receipt; the
leaderboard; the history). A v1 game's receipt signs the whole transcript before the write, so
that worker reads the game first."""

import random

import pytest
from playkit import PLAY_DATE, app_on, call, next_move, start

from app.services import EXTENSION
from fairness import replay


def apps(redis_url, data_dir, clock, day_format: str):
    """Two apps on one Redis (two workers) in ``day_format``, one player's clients."""
    made = [app_on(redis_url, data_dir, clock, DAY_FORMAT=day_format) for _ in range(2)]
    first, second = (app.test_client() for app in made)
    state = start(first, "yacht", PLAY_DATE)
    second.set_cookie(key="yd_player", value=first.get_cookie("yd_player").value)
    return made[0], (first, second), state


def script_calls(redis_client) -> int:
    """EVALSHA calls so far (an action's compare-and-set, or a read of a game), summed over
    every master when the store is a Redis Cluster."""
    if hasattr(redis_client, "get_primaries"):
        stats = [redis_client.info("commandstats", target_nodes=node)
                 for node in redis_client.get_primaries()]
    else:
        stats = [redis_client.info("commandstats")]
    return sum(node.get("cmdstat_evalsha", {}).get("calls", 0) for node in stats)


def play_to_last_action(clients, state: dict, rng: random.Random) -> tuple[dict, str, dict]:
    """Play alternating workers, each action with its token, until the next action finishes the
    game; that action's (state, kind, body)."""
    while True:
        kind, body = next_move(state, rng)
        if kind == "score" and len(state["boxes"]) == state["turns"] - 1:
            return state, kind, body
        status, answer = call(clients[state["next_action"] % 2], "POST",
                              f"/games/{state['id']}/{kind}", {**body, "token": state["token"]})
        assert status == 200, answer
        state = answer["game"]


@pytest.mark.parametrize(("day_format", "evalsha"), [("2", 1), ("1", 2)])
def test_the_finishing_action_on_another_worker(redis_url, redis_client, data_dir, clock,
                                                 day_format, evalsha):
    """v2: one script call (the compare-and-set), no read; v1: the read, then the write. The
    game is the one its replay gives, with its receipt."""
    app, clients, state = apps(redis_url, data_dir, clock, day_format)
    state, kind, body = play_to_last_action(clients, state, random.Random(7))
    other = clients[state["next_action"] % 2]  # not the worker of the action before
    before = script_calls(redis_client)
    status, answer = call(other, "POST", f"/games/{state['id']}/{kind}",
                          {**body, "token": state["token"]})
    assert status == 200, answer
    assert script_calls(redis_client) - before == evalsha
    finished = answer["game"]
    assert finished["status"] == "finished" and finished["receipt"] is not None
    services = app.extensions[EXTENSION]
    replayed = replay(finished["transcript"],
                      services.secrets.stream(PLAY_DATE, "yacht"))
    assert finished["receipt"]["total"] == replayed.totals().total
    assert call(clients[0], "GET", f"/games/{state['id']}")[1]["game"]["receipt"] == \
        finished["receipt"]
