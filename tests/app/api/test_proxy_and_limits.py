"""Behind a proxy, with rate limits on, on a real Redis: only what the documented proxy sets is
trusted, refused requests spend no budget, a revealed day's games are cacheable and have their
own limit, and the player cookie is Secure whenever the site is on https."""

import random

import pytest
from playkit import PLAY_DATE, app_on, play_to_end, start

API = "/api/v1"
REVEALED_AT = "2026-03-11T13:05:00Z"  # PLAY_DATE's reveal time (grace 3600 s) has passed
JUNK_IDS = ["0" * 32, "f" * 32, "not-an-id", "A" * 32]


@pytest.fixture
def limited_app(redis_url, redis_client, data_dir, clock):
    """Rate limits on and small, behind one trusted proxy, no public URL configured."""
    return app_on(redis_url, data_dir, clock, RATE_LIMITS="on", PROXY_HOPS=1, PUBLIC_URL=None,
                  RATE_LIMIT_CREATE="3/minute", RATE_LIMIT_GAME_ACTIONS="3/minute",
                  RATE_LIMIT_VERIFY="2/minute", RATE_LIMIT_DAY_GAMES="2/minute")


def finished_game(client) -> dict:
    """A finished yacht game of PLAY_DATE played by ``client``."""
    return play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(3))


# ------------------------------------------------------------------ proxy headers


def test_a_forged_forwarded_host_does_not_reach_the_share_link(redis_url, redis_client,
                                                               data_dir, clock, reveal):
    """X-Forwarded-Host (-Port, -Prefix), which nginx passes through from the client, are
    ignored; the Host nginx passes (one of the allowed hosts) and the X-Forwarded-Proto it sets
    are what the link is made of."""
    app = app_on(redis_url, data_dir, clock, PROXY_HOPS=1, PUBLIC_URL=None,
                 ALLOWED_HOSTS="dice.example.org")
    client = app.test_client()
    game = finished_game(client)
    clock.set(REVEALED_AT)  # public now: no cookie needed on the proxy's host
    reveal()
    forged = {"Host": "dice.example.org", "X-Forwarded-Proto": "https",
              "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Host": "evil.example",
              "X-Forwarded-Port": "4444", "X-Forwarded-Prefix": "/phish"}
    text = client.get(f"{API}/games/{game['id']}/share", headers=forged).get_data(as_text=True)
    assert "https://dice.example.org/" in text
    assert "evil" not in text and "4444" not in text and "phish" not in text


# ------------------------------------------------------------------ refused requests are free


def test_refused_actions_do_not_spend_the_games_action_budget(limited_app, play_date):
    """404s on junk ids, 400s on bad bodies and 409s on stale numbers, many more than the
    game's budget, leave it whole: the three real actions still pass, the fourth is a 429."""
    client = limited_app.test_client()
    state = start(client, "yahtzee", play_date)
    for junk in JUNK_IDS * 2:
        assert client.post(f"{API}/games/{junk}/roll", json={"roll": 0}).status_code == 404
    assert client.post(f"{API}/games/{state['id']}/roll", json={"roll": "x"}).status_code == 400
    assert client.post(f"{API}/games/{state['id']}/roll", data="{",
                       content_type="application/json").status_code == 400
    assert client.post(f"{API}/games/{state['id']}/score",
                       json={"roll": 0, "category": "nothing"}).status_code == 400
    assert client.post(f"{API}/games/{state['id']}/roll", json={"roll": 7}).status_code == 409
    for number in range(3):
        answer = client.post(f"{API}/games/{state['id']}/roll", json={"roll": number})
        assert answer.status_code == 200, answer.get_json()
    refused = client.post(f"{API}/games/{state['id']}/score",
                          json={"roll": 3, "category": "chance"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0


def test_refused_creations_do_not_spend_the_creation_budget(limited_app, play_date):
    """Unknown sheets, malformed or far dates: 4xx that cost nothing; three creations pass."""
    client = limited_app.test_client()
    for body in ({"ruleset": "chess", "date": play_date}, {"ruleset": "yacht", "date": "x"},
                 {"ruleset": "yacht", "date": "9999-12-31"},
                 {"ruleset": "yacht", "date": "2026-04-01"}):
        assert 400 <= client.post(f"{API}/games", json=body).status_code < 429
    for ruleset in ("yacht", "yacht-bonus", "yahtzee"):
        assert client.post(f"{API}/games", json={"ruleset": ruleset, "date": play_date}
                           ).status_code == 201
    assert client.post(f"{API}/games", json={"ruleset": "yacht", "date": play_date}
                       ).status_code == 429


# ------------------------------------------------------------------ a revealed day's games


def test_a_revealed_days_games_are_cacheable_and_a_304_when_unchanged(limited_app, client,
                                                                      clock, reveal):
    """The page says public, immutable, with an ETag; If-None-Match with it is a bodiless
    304; the day's pages (GET or HEAD) have their own limit, which 304s and 4xx do not
    spend."""
    finished_game(client)  # through the app without limits, on the same Redis
    clock.set(REVEALED_AT)
    reveal()
    reader = limited_app.test_client()
    path = f"{API}/days/{PLAY_DATE}/yacht/games"
    first = reader.get(path)
    assert first.status_code == 200 and first.get_json()["total"] == 1
    cache = first.cache_control
    assert cache.public and cache.immutable and cache.max_age >= 3600
    etag = first.headers["ETag"]
    for _ in range(4):
        again = reader.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.get_data() == b""
        assert again.headers["ETag"] == etag
    for bad in ("?limit=1001", "?limit=%C2%B2", "?after=zz"):
        assert reader.get(path + bad).status_code == 400
    assert reader.head(path, headers={"If-None-Match": '"other"'}).status_code == 200
    refused = reader.get(path)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert limited_app.test_client().get(path, headers={"X-Forwarded-For": "198.51.100.9"}
                                         ).status_code == 200


def test_a_day_not_yet_revealed_is_not_cached(limited_app, play_date):
    """Before the reveal the answer is a 404 without any caching header."""
    answer = limited_app.test_client().get(f"{API}/days/{play_date}/yacht/games")
    assert answer.status_code == 404
    assert "ETag" not in answer.headers and not answer.cache_control.public


def test_a_day_page_holds_at_most_a_thousand_games(client, clock, reveal):
    """The largest page is 1000 games: ``limit=1000`` is taken, 1001 refused."""
    finished_game(client)
    clock.set(REVEALED_AT)
    reveal()
    assert client.get(f"{API}/days/{PLAY_DATE}/yacht/games?limit=1000").status_code == 200
    refused = client.get(f"{API}/days/{PLAY_DATE}/yacht/games?limit=1001")
    assert refused.status_code == 400
    assert "1000" in refused.get_json()["error"]["message"]


# ------------------------------------------------------------------ the player cookie


def player_cookie(app, **request) -> str:
    """The Set-Cookie header of the player cookie that starting a game sends back."""
    answer = app.test_client().post(f"{API}/games", json={"ruleset": "yacht", "date": PLAY_DATE},
                                    **request)
    assert answer.status_code == 201
    return next(value for value in answer.headers.getlist("Set-Cookie")
                if value.startswith("yd_player="))


@pytest.mark.parametrize(("public_url", "hops", "headers", "secure"), [
    ("https://dice.example.org/", 0, {}, True),
    ("HTTPS://dice.example.org/", 0, {}, True),
    ("http://localhost:8000/", 0, {}, False),
    (None, 0, {}, False),
    (None, 1, {"X-Forwarded-Proto": "https"}, True),
    (None, 0, {"X-Forwarded-Proto": "https"}, False),
])
def test_the_cookie_is_secure_whenever_the_site_is_on_https(redis_url, redis_client, data_dir,
                                                            clock, public_url, hops, headers,
                                                            secure):
    """An https public URL, or a request a trusted proxy says came over https: Secure; plain
    http (or an untrusted header): not, so that a local http trial keeps its player."""
    app = app_on(redis_url, data_dir, clock, PUBLIC_URL=public_url, PROXY_HOPS=hops)
    cookie = player_cookie(app, headers=headers)
    attributes = [part.strip().lower() for part in cookie.split(";")]
    assert ("secure" in attributes) is secure, cookie
    assert "httponly" in attributes
