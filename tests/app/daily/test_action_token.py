"""The game's token: a worker without a current copy of a game acts on the compact
state the client echoes, in one Redis round trip, and a false or stale token changes nothing
but the path taken."""

import json
import random

import pytest
from playkit import PLAY_DATE, app_on, call, next_move, start

from app.daily.compact import game_from_state, state_text
from app.platform.keys import game_key
from app.services import EXTENSION
from fairness import Game, replay


@pytest.fixture
def other(redis_url, data_dir, clock, client):
    """A second app on the same Redis (another worker), with the first client's player."""
    other_app = app_on(redis_url, data_dir, clock)
    other = other_app.test_client()
    other.set_cookie(key="yd_player", value=start_player_cookie(client))
    assert call(other, "GET", "/rulesets")[0] == 200  # its epoch settled before counting
    return other


def start_player_cookie(client) -> str:
    """The first client's player cookie (made by starting a game)."""
    start(client, "yacht", PLAY_DATE)
    return client.get_cookie("yd_player").value


def script_calls(redis_client) -> dict[str, int]:
    """Calls so far of the commands an action may send (scripts and plain reads), summed over
    every master when the store is a Redis Cluster (the game's slot may live on any of them)."""
    if hasattr(redis_client, "get_primaries"):
        nodes_stats = [redis_client.info("commandstats", target_nodes=node)
                       for node in redis_client.get_primaries()]
    else:
        nodes_stats = [redis_client.info("commandstats")]
    return {name: sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for stats in nodes_stats)
            for name in ("evalsha", "eval", "hgetall", "hmget", "get")}


def test_another_worker_applies_an_action_in_one_round_trip(client, other, redis_client):
    """With the token, the worker that never saw the game sends one script (its reply carries
    the game); without it, the same worker reads the game first (two)."""
    state = start(client, "yahtzee", PLAY_DATE)
    _, answer = call(client, "POST", f"/games/{state['id']}/roll",
                     {"roll": 0, "token": state["token"]})
    state = answer["game"]
    before = script_calls(redis_client)
    status, answer = call(other, "POST", f"/games/{state['id']}/roll",
                          {"roll": 1, "hold": [True, False, True, False, True],
                           "token": state["token"]})
    after = script_calls(redis_client)
    assert status == 200 and answer["game"]["next_action"] == 2
    assert after["evalsha"] - before["evalsha"] == 1
    assert after["eval"] == before["eval"] and after["get"] == before["get"]
    assert len(answer["game"]["transcript"]) == 2
    # The answer is the one the game's own worker gives.
    assert call(client, "GET", f"/games/{state['id']}")[1] == answer

    _, answer = call(client, "POST", f"/games/{state['id']}/roll", {"roll": 2})
    before = script_calls(redis_client)
    status, answer = call(other, "POST", f"/games/{state['id']}/score",
                          {"roll": 3, "category": "chance"})  # its copy is stale, no token
    assert status == 200 and answer["game"]["next_action"] == 4
    assert script_calls(redis_client)["evalsha"] - before["evalsha"] == 2


def test_a_whole_game_alternating_workers_matches_the_replay(app, client, other):
    """Every action on the worker that did not serve the last one, each with its token: the
    game is the one the rules give, its stored state that of its replay."""
    state = start(client, "yacht-bonus", PLAY_DATE)
    clients, rng = (client, other), random.Random(14)
    while state["status"] == "playing":
        action, body = next_move(state, rng)
        status, answer = call(clients[state["next_action"] % 2], "POST",
                              f"/games/{state['id']}/{action}", {**body, "token": state["token"]})
        assert status == 200, answer
        state = answer["game"]
    services = app.extensions[EXTENSION]
    replayed = replay(state["transcript"],
                      services.secrets.stream(PLAY_DATE, "yacht-bonus"))
    assert state["totals"] == replayed.totals().as_dict()
    assert state["receipt"]["total"] == replayed.totals().total
    stored = services.game_store.load_game(state["id"])
    assert stored.state == state_text(replayed, len(state["transcript"])) == state["token"]


def test_a_false_token_is_refused_by_the_compare_and_set(client, other, redis_client):
    """A well-formed token claiming dice the game does not have: the action is computed again
    from the stored game, and the transcript records the real dice."""
    state = start(client, "yahtzee", PLAY_DATE)
    _, answer = call(client, "POST", f"/games/{state['id']}/roll", {"roll": 0})
    state = answer["game"]
    _, claimed = game_from_state(state["token"])
    forged = Game(claimed.ruleset, claimed.date, dice=(6, 6, 6, 6, 6), rolls_in_turn=1,
                  rolls_taken=1)
    status, answer = call(other, "POST", f"/games/{state['id']}/score",
                          {"roll": 1, "category": "yahtzee", "token": state_text(forged, 1)})
    real_points = 50 if len(set(state["dice"])) == 1 else 0
    assert status == 200
    assert answer["game"]["boxes"] == {"yahtzee": real_points}
    assert answer["game"]["transcript"][0]["dice"] == state["dice"]
    stored = json.loads(redis_client.hget(game_key(state["id"]), "state"))
    assert stored["boxes"] == {"yahtzee": real_points} and stored["version"] == 2


def test_a_stale_token_repeats_or_conflicts_as_the_action_number_says(client, other):
    """The token of an older answer: a retry of the applied action gets that action's answer
    again, another action a 409 stale-action; nothing is applied twice."""
    state = start(client, "yacht", PLAY_DATE)
    body = {"roll": 0, "token": state["token"]}
    status, first = call(client, "POST", f"/games/{state['id']}/roll", body)
    assert status == 200
    assert call(other, "POST", f"/games/{state['id']}/roll", body) == (200, first)
    status, answer = call(other, "POST", f"/games/{state['id']}/score",
                          {"roll": 0, "category": "chance", "token": state["token"]})
    assert (status, answer["error"]["code"]) == (409, "stale-action")
    assert answer["game"] == first["game"]


@pytest.mark.parametrize("token", ["", "not json", "[]", '{"version": 0}', "x" * 1000])
def test_a_token_that_is_no_state_is_ignored(client, other, token):
    """A token that is not a compact state the service writes: the action takes the usual
    path."""
    state = start(client, "yacht", PLAY_DATE)
    status, answer = call(other, "POST", f"/games/{state['id']}/roll",
                          {"roll": 0, "token": token})
    assert status == 200 and answer["game"]["next_action"] == 1


@pytest.mark.parametrize("token", [7, ["a"], "x" * 1001])
def test_a_token_that_is_no_short_string_is_a_400(client, token, redis_client):
    """The field, when given, is a string of at most 1000 characters."""
    state = start(client, "yacht", PLAY_DATE)
    status, answer = call(client, "POST", f"/games/{state['id']}/roll",
                          {"roll": 0, "token": token})
    assert (status, answer["error"]["code"]) == (400, "invalid-field")
    assert redis_client.llen(f"{game_key(state['id'])}:t") == 0


def test_another_players_token_does_not_open_a_game(client, other, app):
    """A token copied from someone else's game is still 403 not-your-game for this player."""
    state = start(client, "yacht", PLAY_DATE)
    stranger = app.test_client()
    status, answer = call(stranger, "POST", f"/games/{state['id']}/roll",
                          {"roll": 0, "token": state["token"]})
    assert (status, answer["error"]["code"]) == (403, "not-your-game")


def test_a_state_left_behind_by_an_older_version_is_not_trusted(client, other, redis_client):
    """An entry appended without its state (as a worker of an earlier version did):
    the game is replayed from its transcript, and its next token is right."""
    state = start(client, "yahtzee", PLAY_DATE)
    _, answer = call(client, "POST", f"/games/{state['id']}/roll", {"roll": 0})
    dice = answer["game"]["dice"]
    score = {"action": "score", "category": "chance", "points": sum(dice), "bonus": 0}
    redis_client.rpush(f"{game_key(state['id'])}:t", json.dumps(score, separators=(",", ":"),
                                                               sort_keys=True))
    status, answer = call(other, "GET", f"/games/{state['id']}")
    assert status == 200 and answer["game"]["boxes"] == {"chance": score["points"]}
    version, game = game_from_state(answer["game"]["token"])
    assert version == 2 and game.dice is None and game.rolls_taken == 1
    status, answer = call(other, "POST", f"/games/{state['id']}/roll",
                          {"roll": 2, "token": answer["game"]["token"]})
    assert status == 200 and answer["game"]["next_action"] == 3
