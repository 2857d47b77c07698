"""The coach's review in the API: who may read it and when, and that its figures are the
engine's (a perfect game loses 0.00; a bad keep loses exactly the difference of two expected
values). On a real Redis with the session's solved tables."""

import random
import shutil

import pytest
from coachkit import coach_of, loaded_tables, play_with_policy
from playkit import PLAY_DATE, app_on, call, play_to_end, start

from app.coach import tables as coach_tables
from strategy import Position, evaluate, perfect_choice
from strategy.policy import Choice

REVEALED_AT = "2026-03-11T13:05:00Z"  # PLAY_DATE's reveal time (grace 3600 s) has passed


@pytest.fixture
def tables(strategy_tables_dir):
    """The session's tables, loaded in this process."""
    return loaded_tables(strategy_tables_dir)


def first_keep_wasted(table, position: Position) -> Choice:
    """The perfect choice, except the game's first keep: the worst keep there is."""
    if len(position.boxes) == 0 and position.rolls_left == 2:
        evaluation = evaluate(table, position)
        keep = min(evaluation.keeps, key=evaluation.keeps.get)
        return Choice(evaluation.keeps[keep], keep=keep)
    return perfect_choice(table, position)


def test_the_owner_reads_the_review_once_finished_everyone_after_the_reveal(app, client, clock,
                                                                          reveal, tables):
    """Before the end: 409 for the owner, 403 for others; finished: the owner's; revealed:
    anyone's. Unknown ids are a 404 in the API's error format."""
    game = start(client, "yacht", PLAY_DATE)
    status, body = call(client, "GET", f"/games/{game['id']}/review")
    assert (status, body["error"]["code"]) == (409, "not-finished")
    stranger = app.test_client()
    call(stranger, "POST", "/games", {"ruleset": "yacht", "date": PLAY_DATE})
    finished = play_to_end(client, game, random.Random(3))
    status, body = call(stranger, "GET", f"/games/{game['id']}/review")
    assert (status, body["error"]["code"]) == (403, "not-your-game")
    assert set(body["error"]) == {"code", "message"}
    for missing in ("0" * 32, "not-an-id"):
        status, body = call(client, "GET", f"/games/{missing}/review")
        assert (status, body["error"]["code"]) == (404, "game-not-found")

    status, review = call(client, "GET", f"/games/{game['id']}/review")
    assert status == 200, review
    assert (review["game"], review["ruleset"], review["finished"]) == (game["id"], "yacht", True)
    assert review["total"] == review["value"] == finished["totals"]["total"]
    assert review["start"] + review["luck"] - review["loss"] == pytest.approx(review["value"])
    decisions = review["decisions"]
    assert sum(1 for d in decisions if d["chosen"]["kind"] == "box") == 12
    for decision in decisions:
        assert decision["loss"] == pytest.approx(decision["best"]["expected"]
                                                 - decision["chosen"]["expected"])
        assert decision["loss"] >= 0
    assert sum(turn["loss"] for turn in review["turns"]) == pytest.approx(review["loss"])

    clock.set(REVEALED_AT)
    assert PLAY_DATE in reveal()
    status, public = call(stranger, "GET", f"/games/{game['id']}/review")
    assert (status, public) == (200, review)


def test_a_perfect_game_reviews_as_zero_lost(app, client, tables):
    """The perfect policy's game, played through the API on Yahtzee: 0.00 lost, every
    decision's chosen is its best."""
    state = play_with_policy(client, "yahtzee", PLAY_DATE, tables.get("yahtzee"))
    _, review = call(client, "GET", f"/games/{state['id']}/review")
    assert review["loss"] == pytest.approx(0, abs=1e-9)
    assert all(d["chosen"] == d["best"] for d in review["decisions"])
    assert review["value"] == state["totals"]["total"]


def test_a_bad_keep_loses_exactly_the_difference_of_the_expected_values(app, client, tables):
    """Wasting the first keep (the worst keep there is) and playing perfectly after: the
    review's whole loss is that keep's expected value below the best one's."""
    table = tables.get("yacht-bonus")
    state = play_with_policy(client, "yacht-bonus", PLAY_DATE, table, first_keep_wasted)
    first = state["transcript"][0]["dice"]
    evaluation = evaluate(table, Position("yacht-bonus", {}, tuple(first), 2))
    worst = min(evaluation.keeps.values())
    _, review = call(client, "GET", f"/games/{state['id']}/review")
    assert evaluation.best - worst > 1
    assert review["loss"] == pytest.approx(evaluation.best - worst, abs=1e-9)
    assert review["decisions"][0]["loss"] == pytest.approx(evaluation.best - worst, abs=1e-9)
    assert review["turns"][0]["loss"] == pytest.approx(review["loss"], abs=1e-9)


def test_while_one_process_builds_the_tables_others_answer_being_computed_then_load(
        redis_client, redis_url, data_dir, clock, strategy_tables_dir, tmp_path):
    """A fresh tables directory whose build lock another process holds: the review is a 503
    ``tables-not-ready`` with Retry-After and a finished game is queued; once the builder
    has saved the files and let go, this process loads them (never builds them itself) and
    the background pass ranks the queued game."""
    fresh = tmp_path / "tables"
    app = app_on(redis_url, data_dir, clock, STRATEGY_DIR=str(fresh))
    client = app.test_client()
    with coach_tables._file_lock(fresh, "yacht"):  # the builder, as another worker holds it
        state = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(5))
        response = client.get(f"/api/v1/games/{state['id']}/review")
        assert response.status_code == 503
        assert response.get_json()["error"]["code"] == "tables-not-ready"
        assert int(response.headers["Retry-After"]) > 0
        assert redis_client.smembers("{coach}:skill-pending") == {state["id"]}
        coach_of(app).run_once()
        assert redis_client.smembers("{coach}:skill-pending") == {state["id"]}
        for saved in strategy_tables_dir.glob("*.npz"):
            shutil.copy(saved, fresh / saved.name)
        inodes = {path.name: path.stat().st_ino for path in fresh.glob("*.npz")}
    assert coach_of(app).tables.wait(60)
    assert {path.name: path.stat().st_ino for path in fresh.glob("*.npz")} == inodes
    coach_of(app).run_once()
    assert redis_client.smembers("{coach}:skill-pending") == set()
    status, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=skill")
    assert board["you"]["total"] == state["totals"]["total"]
    assert client.get(f"/api/v1/games/{state['id']}/review").status_code == 200
