"""Rate limits on matches, on a real Redis: a script cannot create matches without bound, bad
requests spend nothing, and match actions share the actions' budget."""

import pytest
from playkit import app_on

API = "/api/v1"


@pytest.fixture
def limited_client(redis_url, redis_client, data_dir, clock):
    """A client of an app whose match creations (2 a minute) and actions (3) are limited."""
    app = app_on(redis_url, data_dir, clock, RATE_LIMITS="on", RATE_LIMIT_MATCHES="2/minute",
                 RATE_LIMIT_ACTIONS="3/minute")
    return app.test_client()


def test_creating_matches_stops_at_the_budget_and_bad_requests_are_free(limited_client):
    for body in ({"ruleset": "chess"}, {"ruleset": "yacht", "bots": ["nobody"]}, {}):
        assert limited_client.post(f"{API}/matches", json=body).status_code == 400
    for _ in range(2):
        assert limited_client.post(f"{API}/matches", json={"ruleset": "yacht"}).status_code == 201
    refused = limited_client.post(f"{API}/matches", json={"ruleset": "yacht"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0


def test_match_actions_spend_the_actions_budget(limited_client):
    match = limited_client.post(f"{API}/matches", json={"ruleset": "yacht"}).get_json()["match"]
    path = f"{API}/matches/{match['id']}/roll"
    assert limited_client.post(path, json={"roll": 5}).status_code == 409  # free
    assert limited_client.post(path, json={"roll": 0, "client_seed": "s"}).status_code == 200
    for number in (1, 2):
        assert limited_client.post(path, json={"roll": number, "hold": [False] * 5}
                                   ).status_code == 200
    assert limited_client.post(f"{API}/matches/{match['id']}/advance", json={}
                               ).status_code == 429
