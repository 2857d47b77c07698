"""Every bad input gets its 4xx, a JSON error with a message, and leaves the store unchanged."""

import json
from io import BytesIO
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playkit import API, PLAY_DATE, app_on, call, redis_snapshot, start

from app.platform.keys import transcript_key
from fairness import canonical_json

FRESH = "fresh"
ROLLED = "rolled"


@pytest.fixture
def games(app, client):
    """The player's fresh yacht game, their yahtzee game after one roll, and a stranger's game."""
    fresh = start(client, "yacht", PLAY_DATE)
    rolled = start(client, "yahtzee", PLAY_DATE)
    _, answer = call(client, "POST", f"/games/{rolled['id']}/roll", {"roll": 0})
    stranger = app.test_client()
    return {FRESH: fresh["id"], ROLLED: answer["game"]["id"],
            "stranger": start(stranger, "yacht", PLAY_DATE)["id"]}


def raw_post(client, path, data, content_type="application/json"):
    """POST raw bytes."""
    response = client.post(API + path, data=data, content_type=content_type)
    return response.status_code, response.get_json()


BAD_BODIES = [
    # (game, action, raw body, content type, status, code)
    (ROLLED, "roll", b'{"roll": 1,', "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b"", "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b'{"roll": NaN}', "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b"\xff\xfe{}", "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b"[" * 5000 + b"]" * 5000, "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b'{"roll": 1, "x": "\\ud800"}', "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b'\xef\xbb\xbf{"roll": 1}', "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b'{"roll": 1e400}', "application/json", 400, "invalid-json"),
    (ROLLED, "roll", b'{"roll": 1180591620717411303424}', "application/json", 400,
     "invalid-field"),
    (ROLLED, "roll", b"[1, 2]", "application/json", 400, "invalid-body"),
    (ROLLED, "roll", b'"roll"', "application/json", 400, "invalid-body"),
    (ROLLED, "roll", b'{"roll": 1}', "text/plain", 415, "unsupported-media-type"),
    (ROLLED, "roll", b"roll=1", "application/x-www-form-urlencoded", 415, "unsupported-media-type"),
]


@pytest.mark.parametrize(("game", "action", "data", "content_type", "status", "code"), BAD_BODIES)
def test_malformed_bodies(client, redis_client, games, game, action, data, content_type, status,
                          code):
    """Broken JSON, wrong shapes and wrong content types."""
    before = redis_snapshot(redis_client)
    got_status, body = raw_post(client, f"/games/{games[game]}/{action}", data, content_type)
    assert (got_status, body["error"]["code"]) == (status, code)
    assert body["error"]["message"]
    assert redis_snapshot(redis_client) == before


BAD_ACTIONS = [
    # (game, action, JSON body, status, code)
    (ROLLED, "roll", {"roll": "1", "hold": None}, 400, "invalid-field"),
    (ROLLED, "roll", {"roll": True}, 400, "invalid-field"),
    (ROLLED, "roll", {"roll": 1.5}, 400, "invalid-field"),
    (ROLLED, "roll", {"roll": -1}, 400, "invalid-field"),
    (ROLLED, "roll", {"hold": [False] * 5}, 400, "invalid-field"),
    (ROLLED, "roll", {"roll": 10**30}, 400, "invalid-field"),
    (ROLLED, "roll", {"roll": 1, "hold": [True] * 6}, 400, "invalid-hold"),
    (ROLLED, "roll", {"roll": 1, "hold": [True] * 4}, 400, "invalid-hold"),
    (ROLLED, "roll", {"roll": 1, "hold": [1, 0, 0, 0, 0]}, 400, "invalid-hold"),
    (ROLLED, "roll", {"roll": 1, "hold": "TTFFF"}, 400, "invalid-hold"),
    (ROLLED, "roll", {"roll": 1, "hold": {"0": True}}, 400, "invalid-hold"),
    (ROLLED, "score", {"roll": 1, "category": "yacht"}, 400, "unknown-category"),
    (ROLLED, "score", {"roll": 1, "category": "Chance"}, 400, "unknown-category"),
    (ROLLED, "score", {"roll": 1, "category": ["chance"]}, 400, "invalid-field"),
    (ROLLED, "score", {"roll": 1}, 400, "invalid-field"),
    (FRESH, "roll", {"roll": 0, "hold": [True, False, False, False, False]}, 409,
     "hold-on-first-roll"),
    (FRESH, "score", {"roll": 0, "category": "choice"}, 409, "not-rolled"),
    (ROLLED, "roll", {"roll": 0, "hold": [True] * 5}, 409, "stale-action"),
    (ROLLED, "score", {"roll": 0, "category": "chance"}, 409, "stale-action"),
    (ROLLED, "roll", {"roll": 5}, 409, "stale-action"),
    ("stranger", "roll", {"roll": 0}, 403, "not-your-game"),
    ("stranger", "score", {"roll": 0, "category": "choice"}, 403, "not-your-game"),
]


@pytest.mark.parametrize(("game", "action", "body", "status", "code"), BAD_ACTIONS)
def test_bad_actions(client, redis_client, games, game, action, body, status, code):
    """Wrong types, six dice held, unknown boxes, moves the rules refuse, someone else's game."""
    before = redis_snapshot(redis_client)
    got_status, answer = call(client, "POST", f"/games/{games[game]}/{action}", body)
    assert (got_status, answer["error"]["code"]) == (status, code), answer
    assert answer["error"]["message"]
    if status == 409:
        assert answer["game"]["id"] == games[game]
    assert redis_snapshot(redis_client) == before


def test_no_fourth_roll_and_no_box_twice(client, redis_client, games):
    """A turn has three rolls; a filled box cannot be chosen again."""
    game_id = games[ROLLED]
    for number in (1, 2):
        assert call(client, "POST", f"/games/{game_id}/roll", {"roll": number})[0] == 200
    before = redis_snapshot(redis_client)
    status, answer = call(client, "POST", f"/games/{game_id}/roll", {"roll": 3})
    assert (status, answer["error"]["code"]) == (409, "no-rolls-left")
    assert redis_snapshot(redis_client) == before
    assert call(client, "POST", f"/games/{game_id}/score", {"roll": 3, "category": "chance"})[0] \
        == 200
    call(client, "POST", f"/games/{game_id}/roll", {"roll": 4})
    before = redis_snapshot(redis_client)
    status, answer = call(client, "POST", f"/games/{game_id}/score",
                          {"roll": 5, "category": "chance"})
    assert (status, answer["error"]["code"]) == (409, "box-filled")
    assert redis_snapshot(redis_client) == before


BAD_STARTS = [
    ({"ruleset": "poker", "date": PLAY_DATE}, 400, "unknown-ruleset"),
    ({"ruleset": "yahtzee-no-joker", "date": PLAY_DATE}, 400, "unknown-ruleset"),
    ({"ruleset": 3, "date": PLAY_DATE}, 400, "invalid-field"),
    ({"date": PLAY_DATE}, 400, "invalid-field"),
    ({"ruleset": "yacht"}, 400, "invalid-field"),
    ({"ruleset": "yacht", "date": "2026-02-30"}, 400, "invalid-date"),
    ({"ruleset": "yacht", "date": "10/03/2026"}, 400, "invalid-date"),
    ({"ruleset": "yacht", "date": "2026-3-10"}, 400, "invalid-date"),
    ({"ruleset": "yacht", "date": "2026-03-08"}, 409, "date-not-today"),
    ({"ruleset": "yacht", "date": "2026-03-12"}, 409, "date-not-today"),
    ({"ruleset": "yacht", "date": "1999-12-31"}, 409, "date-not-today"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": ""}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "   "}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "x" * 25}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "x" * 23 + "  "}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "soft\u00adhyphen"}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "bell\a"}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": "two\nlines"}, 400, "invalid-name"),
    ({"ruleset": "yacht", "date": PLAY_DATE, "name": 42}, 400, "invalid-name"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD_STARTS)
def test_bad_game_starts(client, redis_client, body, status, code):
    """Unknown sheets, malformed dates, dates not today anywhere, invalid names."""
    call(client, "GET", "/ledger")
    before = redis_snapshot(redis_client)
    got_status, answer = call(client, "POST", "/games", body)
    assert (got_status, answer["error"]["code"]) == (status, code), answer
    assert redis_snapshot(redis_client) == before


def test_huge_body_is_refused(client, redis_client, games):
    """More than 16 KiB: 413, whatever the body."""
    before = redis_snapshot(redis_client)
    padding = "x" * (17 * 1024)
    status, answer = raw_post(client, f"/games/{games[ROLLED]}/roll",
                              json.dumps({"roll": 1, "pad": padding}).encode())
    assert status == 413 and answer["error"]["code"] == "request-entity-too-large"
    status, answer = raw_post(client, "/games", b"{" + b" " * (20 * 1024) + b"}")
    assert status == 413
    assert redis_snapshot(redis_client) == before


def test_a_body_is_read_to_its_content_length_and_no_further(client, redis_client, games):
    """A body longer than its Content-Length is read to that length: here a cut JSON text, a
    400 with nothing written; the same body with its true length is applied."""
    body = json.dumps({"roll": 1, "hold": [True] * 5}).encode()
    path = f"{API}/games/{games[ROLLED]}/roll"
    before = redis_snapshot(redis_client)
    cut = client.post(path, data=body, content_type="application/json",
                      environ_overrides={"CONTENT_LENGTH": str(len(body) - 1)})
    assert (cut.status_code, cut.get_json()["error"]["code"]) == (400, "invalid-json")
    assert redis_snapshot(redis_client) == before
    whole = client.post(path, data=body, content_type="application/json")
    assert whole.status_code == 200 and whole.get_json()["game"]["next_action"] == 2


def test_a_chunked_body_is_read_whole(client, games):
    """A body without a Content-Length (chunked, the server marking the input as terminated,
    as gunicorn does) is read to its end, as werkzeug reads it."""
    body = json.dumps({"roll": 1, "hold": [True] * 5}).encode()
    answer = client.post(f"{API}/games/{games[ROLLED]}/roll", input_stream=BytesIO(body),
                         content_type="application/json",
                         environ_overrides={"wsgi.input_terminated": True})
    assert answer.status_code == 200 and answer.get_json()["game"]["next_action"] == 2


def test_reading_someone_elses_game_before_the_reveal(client, games):
    """Another player's game is private until its date is revealed; unknown ids are 404."""
    for suffix in ("", "/share", "/proof"):
        status, answer = call(client, "GET", f"/games/{games['stranger']}{suffix}")
        assert (status, answer["error"]["code"]) == (403, "not-your-game")
    for game_id in ("0" * 32, "not-an-id", "A" * 32, "0" * 500):
        status, answer = call(client, "GET", f"/games/{game_id}")
        assert (status, answer["error"]["code"]) == (404, "game-not-found")
        status, answer = call(client, "POST", f"/games/{game_id}/roll", {"roll": 0})
        assert (status, answer["error"]["code"]) == (404, "game-not-found")


def test_actions_after_the_day_closed(client, clock, redis_client, games):
    """Games may finish during the grace; after closes_at every action is refused."""
    clock.set("2026-03-11T12:30:00Z")
    assert call(client, "POST", f"/games/{games[ROLLED]}/roll", {"roll": 1})[0] == 200
    status, answer = call(client, "POST", "/games", {"ruleset": "yacht-bonus", "date": PLAY_DATE})
    assert (status, answer["error"]["code"]) == (409, "date-not-today")
    clock.set("2026-03-11T13:00:00Z")
    before = redis_snapshot(redis_client)
    status, answer = call(client, "POST", f"/games/{games[ROLLED]}/roll", {"roll": 2})
    assert (status, answer["error"]["code"]) == (409, "day-closed")
    assert redis_snapshot(redis_client) == before
    status, answer = call(client, "GET", f"/games/{games[ROLLED]}")
    assert answer["game"]["status"] == "abandoned" and answer["game"]["allowed"] == []


def test_joker_restriction_in_the_request_language(client, redis_client, games):
    """The Joker rule's refusal and restriction read in French with ?lang=fr or Accept-Language."""
    yahtzee_id = games[ROLLED]
    transcript = [
        {"action": "roll", "hold": [False] * 5, "dice": [6, 6, 6, 6, 6]},
        {"action": "score", "category": "yahtzee", "points": 50, "bonus": 0},
        {"action": "roll", "hold": [False] * 5, "dice": [4, 4, 4, 4, 4]},
    ]
    # Dice the stream may take weeks to give: written straight into the stored transcript.
    redis_client.delete(transcript_key(yahtzee_id))
    redis_client.rpush(transcript_key(yahtzee_id), *[canonical_json(e) for e in transcript])
    status, body = call(client, "GET", f"/games/{yahtzee_id}?lang=fr")
    assert status == 200
    game = body["game"]
    assert game["allowed"] == ["fours"]
    assert game["restriction"]["code"] == "joker-upper"
    assert "Quatre" in game["restriction"]["message"]
    before = redis_snapshot(redis_client)
    status, answer = call(client, "POST", f"/games/{yahtzee_id}/score",
                          {"roll": 3, "category": "chance"},
                          headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    assert (status, answer["error"]["code"]) == (409, "joker-forbids")
    assert answer["error"]["message"].startswith("Règle du joker")
    status, answer = call(client, "POST", f"/games/{yahtzee_id}/score",
                          {"roll": 3, "category": "chance"})
    assert answer["error"]["message"].startswith("Joker rule")
    assert redis_snapshot(redis_client) == before


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/nowhere", 404, "not-found"),
    ("DELETE", "/games", 405, "method-not-allowed"),
    ("GET", "/leaderboard/2026-03-10/yacht?limit=0", 400, "invalid-limit"),
    ("GET", "/leaderboard/2026-03-10/yacht?limit=abc", 400, "invalid-limit"),
    ("GET", "/leaderboard/tomorrow/yacht", 400, "invalid-date"),
    ("GET", "/leaderboard/2026-03-10/chess", 400, "unknown-ruleset"),
    ("GET", "/challenges?date=2026-13-01", 400, "invalid-date"),
    ("GET", "/challenges?date=", 400, "invalid-date"),
    ("GET", "/challenges?date=2020-01-01", 404, "chain-error"),
    ("GET", "/ledger/2026-03-10", 404, "not-revealed"),
    ("GET", "/ledger/someday", 400, "invalid-date"),
    ("GET", "/days/2026-03-10/yacht/games", 404, "not-revealed"),
    ("GET", "/days/2026-03-10/yacht/games?limit=0", 400, "invalid-limit"),
    ("GET", "/days/2026-03-10/yacht/games?limit=5001", 400, "invalid-limit"),
    ("GET", "/days/2026-03-10/yacht/games?limit=-1", 400, "invalid-limit"),
    ("GET", "/days/2026-03-10/yacht/games?limit=ten", 400, "invalid-limit"),
    ("GET", "/days/2026-03-10/yacht/games?after=", 400, "invalid-cursor"),
    ("GET", "/days/2026-03-10/yacht/games?after=" + "A" * 32, 400, "invalid-cursor"),
    ("GET", "/days/2026-03-10/yacht/games?after=" + "a" * 33, 400, "invalid-cursor"),
    ("GET", "/days/2026-03-10/yacht/games?after=../x", 400, "invalid-cursor"),
])
def test_bad_reads(client, method, path, status, code):
    """Unknown routes, methods and parameters answer JSON errors too."""
    got_status, answer = call(client, method, path)
    assert (got_status, answer["error"]["code"]) == (status, code), answer


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(["roll", "hold", "category", "ruleset", "date", "name", "game",
                          "receipt", "transcript", "proof"])


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/games", "/games/{id}/roll", "/games/{id}/score", "/verify"]),
       body=st.dictionaries(FIELDS, JSON_VALUES, max_size=4) | JSON_VALUES)
def test_no_body_makes_a_server_error(client, redis_client, games, path, body):
    """Whatever JSON is posted, the answer is a deliberate status, never a 5xx."""
    before = {key: value for key, value in redis_snapshot(redis_client).items()
              if key.startswith("{g:")}
    status, answer = call(client, "POST", path.format(id=games[ROLLED]), body)
    assert status < 500, answer
    after = {key: value for key, value in redis_snapshot(redis_client).items()
             if key.startswith("{g:")}
    if status >= 400:
        assert after == before


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(segment=st.text(min_size=1, max_size=30).filter(lambda s: "/" not in s and "?" not in s
                                                        and "#" not in s),
       template=st.sampled_from(["/leaderboard/{s}/yacht", "/leaderboard/2026-03-10/{s}",
                                 "/ledger/{s}", "/days/{s}/yacht/games", "/games/{s}",
                                 "/games/{s}/share", "/challenges?date={s}"]))
def test_no_path_makes_a_server_error(client, segment, template):
    """Whatever a path parameter holds, the answer is a deliberate 4xx or a 200."""
    response = client.get("/api/v1" + template.format(s=quote(segment)))
    assert response.status_code < 500, response.get_data(as_text=True)


def test_an_unreachable_redis_is_a_503(data_dir, clock, tmp_path):
    """No Redis behind the socket: 503 with Retry-After, not a 500."""
    app = app_on(f"unix://{tmp_path}/none.sock", data_dir, clock)
    response = app.test_client().get("/api/v1/ledger")
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    assert response.get_json()["error"]["code"] == "storage-unavailable"
