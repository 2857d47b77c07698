"""Redis losing games (a restart with persistence off): acting on a game that vanished is a
404 ``game-not-found``, never a 500, and writes nothing; the player can start again."""

import random

import pytest
from playkit import PLAY_DATE, call, next_move, redis_snapshot, start


def game_keys(redis_client) -> dict:
    """The keys of games, day indexes and leaderboards, with their values."""
    return {key: value for key, value in redis_snapshot(redis_client).items()
            if key.startswith(("{g:", "{d:"))}


def play_until_one_action_is_left(client, state: dict) -> dict:
    """Play until the next action is the scoring that finishes the game."""
    rng = random.Random(7)
    while state["turn"] < state["turns"] or state["dice"] is None:
        action, body = next_move(state, rng)
        status, answer = call(client, "POST", f"/games/{state['id']}/{action}", body)
        assert status == 200, answer
        state = answer["game"]
    return state


@pytest.mark.parametrize("action", ["roll", "score", "final score"])
def test_an_action_on_a_game_redis_lost_is_a_404_that_writes_nothing(client, redis_client,
                                                                       action):
    """The process still caches the game; Redis no longer has it. Whatever the action (a roll,
    a scoring, the scoring that would sign a receipt and rank the game), the answer is a clear
    404, later ones too (a repeat of an earlier action included), and Redis holds no trace of
    the game afterwards."""
    state = start(client, "yahtzee", PLAY_DATE)
    state = call(client, "POST", f"/games/{state['id']}/roll", {"roll": 0})[1]["game"]
    if action == "final score":
        state = play_until_one_action_is_left(client, state)
    redis_client.flushall()

    number = state["next_action"]
    path, body = ("roll", {"roll": number, "hold": [False] * 5}) if action == "roll" else (
        "score", {"roll": number, "category": state["allowed"][0]})
    status, answer = call(client, "POST", f"/games/{state['id']}/{path}", body)

    assert (status, answer["error"]["code"]) == (404, "game-not-found")
    assert game_keys(redis_client) == {}
    for later in ({"roll": number, "hold": [False] * 5}, {"roll": 0}):
        status, answer = call(client, "POST", f"/games/{state['id']}/roll", later)
        assert (status, answer["error"]["code"]) == (404, "game-not-found")
    assert call(client, "GET", f"/games/{state['id']}")[0] == 404
    assert game_keys(redis_client) == {}

    again = start(client, "yahtzee", PLAY_DATE)
    assert again["id"] == state["id"] and again["next_action"] == 0
    status, answer = call(client, "POST", f"/games/{again['id']}/roll", {"roll": 0})
    assert status == 200 and answer["game"]["next_action"] == 1

