"""The actions' rate limit (issue 14): counted once per request on the limiter's storage, and
in the process's memory while that storage is unreachable."""

from playkit import PLAY_DATE, call, start

from app import create_app


def limited_app(redis_url, data_dir, clock, **config):
    """An app with rate limits on and two actions a minute per client address."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "DATA_DIR": str(data_dir),
                       "CLOCK": clock, "RATE_LIMITS": "on", "RATE_LIMIT_ACTIONS": "2/minute",
                       **config})


def roll_three_times(client) -> list[int]:
    """The statuses of three rolls in a row of a new game."""
    state = start(client, "yacht", PLAY_DATE)
    return [call(client, "POST", f"/games/{state['id']}/roll", {"roll": number})[0]
            for number in range(3)]


def test_each_action_counts_once(redis_url, redis_client, data_dir, clock):
    """Two actions pass, the third is a 429 with Retry-After: one count per request."""
    app = limited_app(redis_url, data_dir, clock)
    client = app.test_client()
    assert roll_three_times(client)[:2] == [200, 200]
    state = start(client, "yacht", PLAY_DATE)
    refused = client.post(f"/api/v1/games/{state['id']}/roll", json={"roll": 2})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["error"]["code"] == "too-many-requests"


def test_actions_are_counted_in_memory_while_the_storage_is_away(redis_url, redis_client,
                                                                 data_dir, clock, tmp_path):
    """With the limits' storage unreachable (the games' Redis up), the budget still holds."""
    app = limited_app(redis_url, data_dir, clock,
                      RATELIMIT_STORAGE_URI=f"redis+unix://{tmp_path}/no-such.sock")
    assert roll_three_times(app.test_client()) == [200, 200, 429]
