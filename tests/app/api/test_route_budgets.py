"""The limited routes' budgets counted with ``limits`` directly: the windows keep the
keys Flask-Limiter wrote, so a deploy continues them, and a Redis Cluster unreachable at start
is counted in memory and tried again, not left until the worker is recycled."""

from limits import parse
from playkit import PLAY_DATE, app_on, call

from app.observability import limits


def test_a_creation_is_counted_under_the_key_flask_limiter_used(redis_url, redis_client,
                                                                 data_dir, clock):
    """One creation is one count in the window keyed by prefix, address and endpoint."""
    app = app_on(redis_url, data_dir, clock, RATE_LIMITS="on", RATE_LIMIT_CREATE="5/minute")
    key = "LIMITS:LIMITER/yacht-daily/127.0.0.1/api.start_game/5/1/minute"
    redis_client.delete(key)
    client = app.test_client()
    assert call(client, "POST", "/games", {"ruleset": "yacht", "date": PLAY_DATE})[0] == 201
    assert redis_client.get(key) == "1"
    assert call(client, "POST", "/games", {"ruleset": "nope", "date": PLAY_DATE})[0] == 400
    assert redis_client.get(key) == "1"  # an answer that did nothing gave its count back


def test_an_unreachable_cluster_is_counted_in_memory_then_tried_again(monkeypatch):
    """Counted in this process while the cluster cannot be reached; after the retry delay
    the counter builds its storage again instead of staying in memory."""
    counter = limits.AddressCounter("redis+cluster://127.0.0.1:1")
    rule = parse("2/minute")
    results = [counter.hit(rule, ("yacht-daily", "192.0.2.1", "api.start_game"))
               for _ in range(3)]
    assert [allowed for _, allowed in results] == [True, True, False]
    assert all(strategy is counter.fallback for strategy, _ in results)
    attempts = []
    monkeypatch.setattr(limits, "storage_from_string",
                        lambda uri, **options: attempts.append(uri) or limits.MemoryStorage())
    counter.hit(rule, ("yacht-daily", "192.0.2.1", "api.start_game"))
    assert attempts == []  # not before the delay
    counter._next_connect = 0.0
    strategy, allowed = counter.hit(rule, ("yacht-daily", "192.0.2.1", "api.start_game"))
    assert attempts == ["redis+cluster://127.0.0.1:1"] and strategy is not counter.fallback
    assert allowed
