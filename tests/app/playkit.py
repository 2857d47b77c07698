"""Playing whole games through the API, with either the Flask test client or a live JsonClient."""

import random
from collections import Counter

from app import create_app

API = "/api/v1"
PLAY_DATE = "2026-03-10"  # the conftest clocks' date (its ``play_date`` fixture)


def app_on(redis_url, data_dir, clock, **config):
    """An app on ``redis_url`` with the test's data directory and clock, ``config`` on top."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "DATA_DIR": str(data_dir),
                       "CLOCK": clock, **config})


def call(client, method: str, path: str, body=None, **kwargs):
    """Send a request through a Flask test client or a JsonClient; returns (status, body)."""
    if hasattr(client, "open"):
        response = client.open(API + path, method=method, json=body, **kwargs)
        return response.status_code, response.get_json() if response.is_json else response.text
    status, _, answer = client.request(method, API + path, body, **kwargs)
    return status, answer


def start(client, ruleset: str, date: str, **extra) -> dict:
    """Create (or resume) the client's game; returns its state."""
    status, body = call(client, "POST", "/games", {"ruleset": ruleset, "date": date, **extra})
    assert status in (200, 201), body
    return body["game"]


def choose_hold(dice: list[int], rng: random.Random) -> list[bool]:
    """Keep the most common face (sometimes nothing): a plausible player."""
    if rng.random() < 0.2:
        return [False] * 5
    face, _ = Counter(dice).most_common(1)[0]
    return [die == face for die in dice]


def next_move(state: dict, rng: random.Random):
    """The next (path suffix, body) a simple random player sends."""
    if state["dice"] is not None and (state["rolls_left"] == 0 or rng.random() < 0.4):
        best = max(state["allowed"], key=lambda box: (state["previews"][box], rng.random()))
        return "score", {"category": best, "roll": state["next_action"]}
    hold = [False] * 5 if state["dice"] is None else choose_hold(state["dice"], rng)
    return "roll", {"hold": hold, "roll": state["next_action"]}


def play_to_end(client, state: dict, rng: random.Random) -> dict:
    """Play the game until it is finished; returns the final state."""
    while state["status"] == "playing":
        action, body = next_move(state, rng)
        status, answer = call(client, "POST", f"/games/{state['id']}/{action}", body)
        assert status == 200, answer
        state = answer["game"]
    return state


def redis_snapshot(client) -> dict:
    """Every key of the Redis with its whole value, to compare before and after a request."""
    readers = {
        "string": client.get,
        "hash": client.hgetall,
        "list": lambda key: client.lrange(key, 0, -1),
        "set": lambda key: sorted(client.smembers(key)),
        "zset": lambda key: client.zrange(key, 0, -1, withscores=True),
    }
    return {key: readers[client.type(key)](key) for key in client.scan_iter(count=1000)}
