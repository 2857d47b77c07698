"""Witnesses' cosignatures are rate-limited per client address, on a real Redis: every attempt
counts, a refused one too; past the limit a 429 with Retry-After, and nothing stored."""

from fairness.note import parse_note
from tests.app.logplay import Witness, finish_games
from tests.app.playkit import PLAY_DATE, app_on, call

WITNESS_ADDRESS = {"REMOTE_ADDR": "192.0.2.10"}
OTHER_ADDRESS = {"REMOTE_ADDR": "192.0.2.11"}


def test_cosignatures_past_the_limit_are_refused_and_not_kept(redis_client, redis_url, data_dir,
                                                              clock, strategy_tables_dir,
                                                              witness):
    """Three attempts a minute: a kept one, a refused one and a kept one spend the budget, the
    fourth is a 429 and leaves the checkpoint's cosignature as it was; another address still
    has its own budget."""
    app = app_on(redis_url, data_dir, clock, DAY_FORMAT="2", WITNESSES=witness.vkey,
                 RATE_LIMITS="on", RATE_LIMIT_COSIGNATURES="3/minute")
    finish_games(app, clock, 1, "yahtzee", seed=5)
    poster = app.test_client()
    poster.environ_base.update(WITNESS_ADDRESS)
    status, latest = call(poster, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")
    assert status == 200, latest
    body = parse_note(latest["note"])[0]
    path = f"/logs/{PLAY_DATE}/yahtzee/cosignatures"
    now = int(clock().timestamp())  # a cosignature's time is the witness's, near the server's
    kept = witness.line(body, timestamp=now)
    assert call(poster, "POST", path, {"body": body, "signature": kept}) == (201, {"ok": True})
    stranger = Witness("witness.example/stranger")
    status, refused = call(poster, "POST", path, {"body": body, "signature": stranger.line(body)})
    assert (status, refused["error"]["code"]) == (403, "unknown-witness")
    assert call(poster, "POST", path, {"body": body, "signature": kept}) == (201, {"ok": True})

    later = witness.line(body, timestamp=now + 60)
    response = poster.post(f"/api/v1{path}", json={"body": body, "signature": later})
    assert response.status_code == 429
    assert response.get_json()["error"]["code"] == "too-many-requests"
    assert int(response.headers["Retry-After"]) > 0
    note = call(poster, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")[1]["note"]
    assert note == latest["note"] + kept  # the refused cosignature was not kept

    elsewhere = app.test_client()
    elsewhere.environ_base.update(OTHER_ADDRESS)
    assert call(elsewhere, "POST", path, {"body": body, "signature": later}) == \
        (201, {"ok": True})
    assert call(poster, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")[1]["note"] == \
        latest["note"] + later
