"""A finished game's review is computed once: the finishing action ranks the game on
its day's skill board and keeps its review in the same round trip as its leaderboard entry, and
the page's ``GET …/review`` that follows reads the kept review. On a real Redis with the
session's solved tables, in both day formats."""

import json
import random

import pytest
from coachkit import coach_of, loaded_tables
from playkit import PLAY_DATE, app_on, call, next_move, play_to_end, start

import strategy
from app.boards.figures import centipoints
from app.boards.store import REVIEW_SECONDS, SkillStore
from app.daylog.store import closed_key
from app.platform.keys import review_key


@pytest.fixture(params=["1", "2"])
def finishing_app(request, redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app starting its dates in v1, then in v2 (the finish goes through the day's log)."""
    loaded_tables(strategy_tables_dir)
    return app_on(redis_url, data_dir, clock, DAY_FORMAT=request.param)


def test_the_finishing_action_ranks_the_game_and_keeps_the_review_the_page_reads(
        finishing_app, redis_client):
    """Right after the last action: the skill board has the game with the engine's loss, the
    review is kept (for REVIEW_SECONDS) and ``GET …/review`` answers exactly the engine's."""
    client = finishing_app.test_client()
    state = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(5))
    assert state["status"] == "finished"
    engine = strategy.review(coach_of(finishing_app).tables.get("yacht"),
                             state["transcript"]).to_json()
    assert SkillStore(redis_client).entry(PLAY_DATE, "yacht", state["id"]) == (
        centipoints(engine["loss"]), state["totals"]["total"])
    assert 0 < redis_client.ttl(review_key(state["id"])) <= REVIEW_SECONDS
    status, review = call(client, "GET", f"/games/{state['id']}/review")
    assert status == 200
    assert {key: review[key] for key in engine} == json.loads(json.dumps(engine))
    # Read back by the process that finished it, the game has the receipt it answered with.
    assert call(client, "GET", f"/games/{state['id']}")[1]["game"]["receipt"] == state["receipt"]


def kept_review(text: str, version: int) -> dict:
    """The review of a ``<version>:<JSON>`` kept text, checking it is of ``version``."""
    kept_version, _, review = text.partition(":")
    assert kept_version == str(version)
    return json.loads(review)


def test_the_review_answer_is_the_kept_one_of_the_games_version(finishing_app, redis_client):
    """The answer reads the kept review of the game's version; one kept for another version
    (or none: expired) is computed again and kept again."""
    client = finishing_app.test_client()
    state = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(6))
    key, version = review_key(state["id"]), len(state["transcript"])
    kept = json.loads(redis_client.get(key).partition(":")[2])
    redis_client.set(key, f"{version}:{json.dumps({**kept, 'loss': 1.25})}")
    assert call(client, "GET", f"/games/{state['id']}/review")[1]["loss"] == 1.25
    redis_client.set(key, f"{version - 1}:{json.dumps({**kept, 'loss': 1.25})}")
    assert call(client, "GET", f"/games/{state['id']}/review")[1]["loss"] == kept["loss"]
    assert kept_review(redis_client.get(key), version) == kept
    redis_client.delete(key)
    assert call(client, "GET", f"/games/{state['id']}/review")[1]["loss"] == kept["loss"]
    assert kept_review(redis_client.get(key), version) == kept


def test_a_finish_the_closed_log_refuses_leaves_no_skill_entry(logged_app, redis_client,
                                                               strategy_tables_dir):
    """A v2 game whose last action lands after its day's log closed (a process whose clock
    lags, the close running between its two round trips): a 409 ``day-closed``, and neither the
    skill board entry nor the review its finishing round trip queued are left behind."""
    loaded_tables(strategy_tables_dir)
    client = logged_app.test_client()
    state = start(client, "yacht", PLAY_DATE)
    rng = random.Random(7)
    while True:
        kind, body = next_move(state, rng)
        if kind == "score" and len(state["boxes"]) == state["turns"] - 1:
            break
        state = call(client, "POST", f"/games/{state['id']}/{kind}", body)[1]["game"]
    redis_client.set(closed_key(PLAY_DATE), "1")
    status, answer = call(client, "POST", f"/games/{state['id']}/score", body)
    assert (status, answer["error"]["code"]) == (409, "day-closed")
    assert SkillStore(redis_client).entry(PLAY_DATE, "yacht", state["id"]) is None
    assert redis_client.get(review_key(state["id"])) is None
