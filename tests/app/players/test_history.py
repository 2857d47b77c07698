"""The player's record on the server (``/me/history``), the one-time transfer codes that carry it
to another device, and the first game time of each epoch, on a real Redis."""

import datetime as dt
import random
import time

import pytest
from playkit import PLAY_DATE, app_on, call, play_to_end, redis_snapshot, start

from app.platform.keys import first_game_key, history_key, history_order_key, transfer_key
from app.players import history, store
from app.services import EXTENSION

DATES = ["2026-03-08", "2026-03-09", "2026-03-10"]


def services_of(app):
    """The app's services (tests may read what players never see)."""
    return app.extensions[EXTENSION]


def finish(client, ruleset: str, date: str, seed: str = "seed") -> dict:
    """Play the client's game of (ruleset, date) to its end; returns the final state."""
    return play_to_end(client, start(client, ruleset, date), random.Random(seed + date))


def my_history(client) -> dict:
    """The client's record."""
    status, body = call(client, "GET", "/me/history")
    assert status == 200, body
    return body


def sheet(record: dict, ruleset: str) -> dict:
    """One sheet's summary in a record."""
    return next(item for item in record["sheets"] if item["ruleset"] == ruleset)


def test_a_fresh_browser_has_an_empty_record_and_no_cookie(client):
    response = client.get("/api/v1/me/history")
    assert response.status_code == 200
    assert "Set-Cookie" not in response.headers
    record = response.get_json()
    assert record["player"] is None and record["games"] == [] and record["finished"] == 0
    assert {item["ruleset"] for item in record["sheets"]} == {"yacht", "yacht-bonus", "yahtzee"}


def test_started_and_finished_games_are_recorded_with_their_totals(app, client, redis_client):
    final = finish(client, "yacht", PLAY_DATE)
    playing = start(client, "yahtzee", PLAY_DATE)
    record = my_history(client)
    assert record["player"] == final["player"]
    by_id = {game["game"]: game for game in record["games"]}
    assert set(by_id) == {final["id"], playing["id"]}
    done = by_id[final["id"]]
    assert done["kind"] == "daily" and done["date"] == PLAY_DATE and done["ruleset"] == "yacht"
    assert (done["status"], done["finished"], done["total"]) == (
        "finished", True, final["totals"]["total"])
    assert done["started_at"] == "2026-03-10T12:00:00Z" and done["finished_at"]
    assert (by_id[playing["id"]]["status"], by_id[playing["id"]]["total"]) == ("playing", None)
    yacht = sheet(record, "yacht")
    assert yacht["best_total"] == final["totals"]["total"] and yacht["finished"] == 1
    assert sum(bucket["count"] for bucket in yacht["distribution"]) == 1
    assert (record["current_streak"], record["best_streak"]) == (1, 1)
    assert sheet(record, "yahtzee")["best_total"] is None
    # Every key of the record sits under the player's own hash tag.
    pseudonym = final["player"]
    assert redis_client.hlen(history_key(pseudonym)) == 2
    assert redis_client.zcard(history_order_key(pseudonym)) == 2
    assert history_key(pseudonym).startswith(f"{{p:{pseudonym}}}")


def test_resuming_a_finished_game_keeps_it_finished(client):
    final = finish(client, "yacht-bonus", PLAY_DATE)
    start(client, "yacht-bonus", PLAY_DATE, name="Alex")
    (game,) = my_history(client)["games"]
    assert (game["status"], game["total"]) == ("finished", final["totals"]["total"])


def test_streaks_per_sheet_and_overall_across_days(app, client, clock):
    for date in DATES:
        clock.set(f"{date}T12:00:00Z")
        finish(client, "yacht", date)
    clock.set("2026-03-10T13:00:00Z")
    finish(client, "yahtzee", "2026-03-10")
    clock.set("2026-03-11T12:00:00Z")
    record = my_history(client)
    assert (record["current_streak"], record["best_streak"], record["finished"]) == (3, 3, 4)
    assert (sheet(record, "yacht")["current_streak"], sheet(record, "yacht")["best_streak"]) == (
        3, 3)
    assert (sheet(record, "yahtzee")["current_streak"],
            sheet(record, "yahtzee")["best_streak"]) == (1, 1)
    assert [game["date"] for game in record["games"]] == sorted(
        [*DATES, "2026-03-10"], reverse=True)
    # 2026-03-11 ends everywhere on 03-12 at 12:00Z: until then the run can still go on.
    clock.set("2026-03-12T11:59:59Z")
    assert my_history(client)["current_streak"] == 3
    clock.set("2026-03-12T12:00:00Z")
    record = my_history(client)
    assert (record["current_streak"], record["best_streak"]) == (0, 3)


def test_games_of_one_date_are_listed_the_last_started_first(app, client, clock):
    started = []
    for minute, ruleset in enumerate(["yacht", "yacht-bonus", "yahtzee"]):
        clock.set(f"{PLAY_DATE}T12:0{minute}:00Z")
        started.append(start(client, ruleset, PLAY_DATE)["id"])
    assert [game["game"] for game in my_history(client)["games"]] == started[::-1]


def test_an_unfinished_game_of_a_closed_date_is_abandoned(app, client, clock):
    start(client, "yacht", PLAY_DATE)
    clock.set("2026-03-11T14:00:00Z")
    (game,) = my_history(client)["games"]
    assert (game["status"], game["finished"]) == ("abandoned", False)


def test_a_finish_the_record_missed_is_read_from_the_game(app, client, clock, redis_client):
    """Were Redis to fail between a game's last write and its record's, the record still tells
    the game finished (from the game's receipt), after its date closed too."""
    final = finish(client, "yacht", PLAY_DATE)
    entry = redis_client.hget(history_key(final["player"]), final["id"])
    assert '"finished":true' in entry
    redis_client.hset(history_key(final["player"]), final["id"], entry.replace(
        '"finished":true', '"finished":false'))
    clock.set("2026-03-12T12:00:00Z")
    (game,) = my_history(client)["games"]
    assert (game["status"], game["total"]) == ("finished", final["totals"]["total"])


def test_streaks_count_consecutive_dates_only():
    now = dt.datetime(2026, 3, 20, 12, tzinfo=dt.UTC)
    dates = ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-18", "2026-03-19", "2026-03-19"]
    assert history.streaks(dates, now, 3600) == (2, 2)
    assert history.streaks(["2026-03-10"], now, 3600) == (0, 1)
    assert history.streaks([], now, 3600) == (0, 0)


def test_the_record_is_trimmed_from_its_oldest_dates(app, client, clock, monkeypatch):
    monkeypatch.setattr(store, "HISTORY_LIMIT", 2)
    ids = []
    for date in DATES:
        clock.set(f"{date}T12:00:00Z")
        ids.append(start(client, "yacht", date)["id"])
    record = my_history(client)
    assert [game["game"] for game in record["games"]] == ids[:0:-1]


def test_a_transfer_code_carries_the_identity_once(app, client, redis_client):
    final = finish(client, "yacht", PLAY_DATE)
    playing = start(client, "yahtzee", PLAY_DATE, name="Sam")
    status, made = call(client, "POST", "/me/transfer")
    assert status == 201
    assert made["expires_in"] == 600 and made["expires_at"] == "2026-03-10T12:10:00Z"
    code = made["code"]
    assert len(code) == 11 and code[5] == "-"
    assert 0 < redis_client.ttl(transfer_key(code.replace("-", ""))) <= 600

    other = app.test_client()
    own = start(other, "yacht-bonus", PLAY_DATE)
    status, record = call(other, "POST", "/me/transfer/redeem", {"code": code.lower()})
    assert status == 200
    assert record == my_history(client) == my_history(other)
    assert own["id"] not in {game["game"] for game in record["games"]}
    # The day's game in progress is the same game on the new device, and it plays on there.
    resumed = start(other, "yahtzee", PLAY_DATE)
    assert resumed["id"] == playing["id"] and resumed["name"] == "Sam"
    status, rolled = call(other, "POST", f"/games/{playing['id']}/roll", {"roll": 0})
    assert status == 200 and rolled["game"]["next_action"] == 1
    assert call(other, "GET", f"/games/{final['id']}")[0] == 200

    third = app.test_client()
    before = redis_snapshot(redis_client)
    status, body = call(third, "POST", "/me/transfer/redeem", {"code": code})
    assert (status, body["error"]["code"]) == (404, "unknown-code")
    assert redis_snapshot(redis_client) == before
    assert my_history(third)["player"] is None


def test_an_expired_code_is_refused(app, client, redis_client):
    start(client, "yacht", PLAY_DATE)
    _, made = call(client, "POST", "/me/transfer")
    redis_client.pexpire(transfer_key(made["code"].replace("-", "")), 1)
    time.sleep(0.05)
    status, body = call(app.test_client(), "POST", "/me/transfer/redeem", {"code": made["code"]})
    assert (status, body["error"]["code"]) == (404, "unknown-code")


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"code": "ABCDE-2345"}, 400, "invalid-code"),
    ({"code": "ABCDE-23456-7"}, 400, "invalid-code"),
    ({"code": "ABCDE-2345U"}, 400, "invalid-code"),
    ({"code": 1234567890}, 400, "invalid-code"),
    ({"code": "x" * 500}, 400, "invalid-code"),
    ({}, 400, "invalid-code"),
    ({"code": "ABCDE-23456"}, 404, "unknown-code"),
    ({"code": "abcde 2345o"}, 404, "unknown-code"),
])
def test_bad_codes_change_nothing(app, client, redis_client, body, status, code):
    own = start(client, "yacht", PLAY_DATE)
    stranger = app.test_client()
    start(stranger, "yahtzee", PLAY_DATE)
    call(stranger, "POST", "/me/transfer")
    before = redis_snapshot(redis_client)
    got, answer = call(client, "POST", "/me/transfer/redeem", body)
    assert (got, answer["error"]["code"]) == (status, code)
    assert answer["error"]["message"]
    assert redis_snapshot(redis_client) == before
    assert [game["game"] for game in my_history(client)["games"]] == [own["id"]]


def test_a_browser_without_games_has_nothing_to_transfer(client, redis_client):
    status, body = call(client, "POST", "/me/transfer")
    assert (status, body["error"]["code"]) == (409, "no-identity")
    assert not [key for key in redis_snapshot(redis_client) if key.startswith("{x:")]
    assert "Set-Cookie" not in client.post("/api/v1/me/transfer").headers


def test_transfer_codes_are_rate_limited_per_address(redis_client, redis_url, data_dir, clock):
    app = app_on(redis_url, data_dir, clock, RATE_LIMITS="on", RATE_LIMIT_TRANSFER="3/hour")
    client = app.test_client()
    start(client, "yacht", PLAY_DATE)
    assert call(client, "POST", "/me/transfer")[0] == 201
    assert call(client, "POST", "/me/transfer/redeem", {"code": "ABCDE-23456"})[0] == 404
    assert call(client, "POST", "/me/transfer")[0] == 201
    status, body = call(client, "POST", "/me/transfer/redeem", {"code": "ABCDE-23457"})
    assert status == 429
    assert app.test_client().get("/api/v1/me/history").status_code == 200


def test_the_first_game_of_the_epoch_is_noted_once(app, client, clock, redis_client):
    assert services_of(app).player_store.first_game_at(1) is None
    start(client, "yacht", PLAY_DATE)
    assert redis_client.get(first_game_key(1)) == "2026-03-10T12:00:00Z"
    clock.advance(hours=1)
    start(app.test_client(), "yahtzee", PLAY_DATE)
    other_worker = app_on(app.config["REDIS_URL"], app.config["DATA_DIR"], clock)
    start(other_worker.test_client(), "yacht", PLAY_DATE)
    assert services_of(app).player_store.first_game_at(1) == "2026-03-10T12:00:00Z"
