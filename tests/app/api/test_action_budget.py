"""The daily games' action limits on a real Redis: counted per game by the action's
own compare-and-set (one round trip, nothing written past the limit), and a flood of refused
actions that never reach it stopped per address in the process's memory."""

from collections import Counter

from playkit import PLAY_DATE, app_on, call, redis_snapshot, start

from app.platform.keys import game_key, transcript_key

API = "/api/v1"


def limited_app(redis_url, data_dir, clock, **config):
    """An app with rate limits on: two actions a minute per game, 100 refused ones per address."""
    return app_on(redis_url, data_dir, clock, **{
        "RATE_LIMITS": "on", "RATE_LIMIT_GAME_ACTIONS": "2/minute",
        "RATE_LIMIT_ACTIONS": "100/minute", **config})


def game_keys(redis_client, game_id: str) -> dict:
    """The game's record and transcript as Redis holds them."""
    return {"record": redis_client.hgetall(game_key(game_id)),
            "transcript": redis_client.lrange(transcript_key(game_id), 0, -1)}


def test_a_games_third_action_in_a_minute_is_a_429_that_changes_nothing(
        redis_url, redis_client, data_dir, clock):
    """Two actions pass; the third is a 429 with its code, a message and Retry-After, and the
    game is as the second left it; the player's other game has its own budget."""
    client = limited_app(redis_url, data_dir, clock).test_client()
    state = start(client, "yacht", PLAY_DATE)
    for number in range(2):
        status, answer = call(client, "POST", f"/games/{state['id']}/roll",
                              {"roll": number, "token": state["token"]})
        assert status == 200, answer
        state = answer["game"]
    before = game_keys(redis_client, state["id"])
    refused = client.post(f"{API}/games/{state['id']}/score",
                          json={"roll": 2, "category": state["allowed"][0],
                                "token": state["token"]})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    error = refused.get_json()["error"]
    assert error["code"] == "too-many-requests" and "try again" in error["message"]
    assert game_keys(redis_client, state["id"]) == before
    assert call(client, "GET", f"/games/{state['id']}")[1]["game"] == state
    other = start(client, "yahtzee", PLAY_DATE)
    assert call(client, "POST", f"/games/{other['id']}/roll", {"roll": 0})[0] == 200


def commands_run(redis_client) -> Counter:
    """Calls so far of every command, summed over every master on a Redis Cluster."""
    if hasattr(redis_client, "get_primaries"):
        nodes_stats = [redis_client.info("commandstats", target_nodes=node)
                       for node in redis_client.get_primaries()]
    else:
        nodes_stats = [redis_client.info("commandstats")]
    return sum((Counter({name: value["calls"] for name, value in stats.items()})
                for stats in nodes_stats), Counter())


def test_a_counted_action_is_one_script_call(redis_url, redis_client, data_dir, clock):
    """With limits on, an action sends its compare-and-set and nothing else: no INCR, no read
    (the script's own commands are counted too: one INCR, with EXPIRE on a window's first)."""
    client = limited_app(redis_url, data_dir, clock,
                         RATE_LIMIT_GAME_ACTIONS="100/minute").test_client()
    state = start(client, "yacht", PLAY_DATE)
    before = commands_run(redis_client)
    assert call(client, "POST", f"/games/{state['id']}/roll", {"roll": 0})[0] == 200
    sent = commands_run(redis_client) - before
    sent.pop("cmdstat_info", None)
    assert sent.pop("cmdstat_evalsha") == 1 and sent.pop("cmdstat_incr") == 1
    assert set(sent) <= {"cmdstat_exists", "cmdstat_hexists", "cmdstat_expire", "cmdstat_llen",
                         "cmdstat_rpush", "cmdstat_hset"}, sent


def test_refused_actions_spend_no_games_budget_until_they_flood(redis_url, redis_client,
                                                                data_dir, clock):
    """Junk ids, bad bodies and stale numbers leave the game's budget whole; past the
    per-address budget of refused actions, that address's actions are 429s (another address's
    are not), and Redis holds no count for a junk id."""
    app = limited_app(redis_url, data_dir, clock, RATE_LIMIT_ACTIONS="6/minute",
                      RATE_LIMIT_GAME_ACTIONS="3/minute")
    client = app.test_client()
    state = start(client, "yacht", PLAY_DATE)
    assert client.post(f"{API}/games/{'0' * 32}/roll", json={"roll": 0}).status_code == 404
    assert client.post(f"{API}/games/not-an-id/roll", json={"roll": 0}).status_code == 404
    assert client.post(f"{API}/games/{state['id']}/roll", json={"roll": "x"}).status_code == 400
    assert client.post(f"{API}/games/{state['id']}/roll", json={"roll": 7}).status_code == 409
    for number in range(2):
        assert call(client, "POST", f"/games/{state['id']}/roll", {"roll": number})[0] == 200
    assert call(client, "POST", f"/games/{state['id']}/roll", {"roll": 1})[0] == 200  # a repeat
    assert call(client, "POST", f"/games/{state['id']}/roll", {"roll": 0})[0] == 200  # again
    snapshot = redis_snapshot(redis_client)
    refused = client.post(f"{API}/games/{state['id']}/roll", json={"roll": 2})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert redis_snapshot(redis_client) == snapshot
    elsewhere = {"REMOTE_ADDR": "198.51.100.7"}
    assert call(client, "POST", f"/games/{state['id']}/roll", {"roll": 2},
                environ_base=elsewhere)[0] == 200
    assert not redis_client.keys(f"{game_key('0' * 32)}*")


def test_the_games_budget_holds_while_the_limiters_storage_is_away(
        redis_url, redis_client, data_dir, clock, tmp_path):
    """The game's count lives beside the game: with Flask-Limiter's storage unreachable (the
    games' Redis up), two actions pass and the third is a 429."""
    app = limited_app(redis_url, data_dir, clock,
                      RATELIMIT_STORAGE_URI=f"redis+unix://{tmp_path}/no-such.sock")
    client = app.test_client()
    state = start(client, "yacht", PLAY_DATE)
    assert [call(client, "POST", f"/games/{state['id']}/roll", {"roll": number})[0]
            for number in range(3)] == [200, 200, 429]


def test_another_worker_counts_and_applies_an_action_in_one_script_call(
        redis_url, redis_client, data_dir, clock):
    """The token path with limits on: still one script call from a worker without the game."""
    first = limited_app(redis_url, data_dir, clock, RATE_LIMIT_GAME_ACTIONS="100/minute")
    second = limited_app(redis_url, data_dir, clock, RATE_LIMIT_GAME_ACTIONS="100/minute")
    client, other = first.test_client(), second.test_client()
    state = start(client, "yacht", PLAY_DATE)
    other.set_cookie(key="yd_player", value=client.get_cookie("yd_player").value)
    assert call(other, "GET", "/rulesets")[0] == 200
    _, answer = call(client, "POST", f"/games/{state['id']}/roll",
                     {"roll": 0, "token": state["token"]})
    before = commands_run(redis_client)
    status, _ = call(other, "POST", f"/games/{state['id']}/roll",
                     {"roll": 1, "token": answer["game"]["token"]})
    sent = commands_run(redis_client) - before
    assert status == 200 and sent["cmdstat_evalsha"] == 1 and sent["cmdstat_incr"] == 1
    assert not sent["cmdstat_get"] and not sent["cmdstat_eval"]
