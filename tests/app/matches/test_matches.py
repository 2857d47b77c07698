"""Matches through the API on a real Redis: practice, games against bots, exactly-once actions,
hints, reviews, expiry and retention, the player's list of matches, bad input."""

import random

import pytest
from matchkit import CLIENT_SEED, check_published, create, next_move, play_to_end
from playkit import call, redis_snapshot, start

from app.matches.service import IDLE_SECONDS, RETENTION_SECONDS
from app.matches.store import log_key, match_key
from app.services import EXTENSION
from fairness import DAILY_RULESETS, RULESETS, ReplayMismatch, replay, seat_stream


@pytest.fixture
def public_key(app) -> str:
    """The epoch key that signs results."""
    return app.extensions[EXTENSION].secrets.signer.public_key_hex


def test_a_practice_game_shows_its_commitment_first_and_its_seed_and_signed_result_at_the_end(
        client, public_key):
    state = create(client, "yahtzee")
    assert state["kind"] == "practice" and len(state["seats"]) == 1
    assert len(state["commitment"]) == 64
    assert state["server_seed"] is None and state["result"] is None
    final = play_to_end(client, state, random.Random(1))
    assert final["status"] == "finished"
    assert final["result"]["client_seeds"] == [CLIENT_SEED]
    assert final["result"]["winners"] == [0]
    check_published(final, public_key, call(client, "GET", "/ledger")[1]["entries"])
    status, again = call(client, "GET", f"/matches/{final['id']}")
    assert status == 200 and again["match"] == final


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if r not in DAILY_RULESETS][:1])
def test_practice_runs_on_a_sheet_beyond_the_daily_ones(client, public_key, ruleset):
    final = play_to_end(client, create(client, ruleset), random.Random(2))
    check_published(final, public_key)


def test_bots_take_their_turns_in_order_right_after_the_human(client, public_key):
    state = create(client, "yacht", bots=["easy", "perfect"])
    assert state["kind"] == "computer"
    assert [seat["kind"] for seat in state["seats"]] == ["human", "bot", "bot"]
    rng = random.Random(3)
    while state["status"] == "playing":
        assert state["turn"] == 0  # the bots never keep the human waiting
        action, body = next_move(state, rng)
        status, answer = call(client, "POST", f"/matches/{state['id']}/{action}", body)
        assert status == 200, answer
        state = answer["match"]
        boxes = [len(seat["boxes"]) for seat in state["seats"]]
        assert boxes[1] == boxes[2] == boxes[0] or state["status"] == "finished"
    order = state["order"]
    turns = [order[i] for i in range(len(order)) if i == 0 or order[i] != order[i - 1]]
    assert turns == [0, 1, 2] * 12
    check_published(state, public_key, call(client, "GET", "/ledger")[1]["entries"])
    assert sorted(state["result"]["winners"]) == [
        seat for seat, rank in enumerate(state["ranks"]) if rank == 1]


def test_an_action_applies_once_and_a_stale_one_is_refused_with_the_match(client):
    state = create(client, "yacht")
    body = {"hold": None, "roll": 0, "client_seed": CLIENT_SEED}
    first = call(client, "POST", f"/matches/{state['id']}/roll", body)
    again = call(client, "POST", f"/matches/{state['id']}/roll", body)
    assert first[0] == again[0] == 200
    assert again[1]["match"]["next_action"] == 1 == first[1]["match"]["next_action"]
    status, stale = call(client, "POST", f"/matches/{state['id']}/roll",
                         {"hold": [True] * 5, "roll": 0})
    assert status == 409 and stale["error"]["code"] == "stale-action"
    assert stale["match"]["next_action"] == 1


def test_the_client_seed_is_required_then_fixed_and_it_makes_the_dice(client, redis_client):
    state = create(client, "yacht")
    path = f"/matches/{state['id']}/roll"
    before = redis_snapshot(redis_client)
    for body, code in [({"roll": 0}, "client-seed-required"),
                       ({"roll": 0, "client_seed": "has space"}, "invalid-client-seed"),
                       ({"roll": 0, "client_seed": 7}, "invalid-client-seed")]:
        status, answer = call(client, "POST", path, body)
        assert (status, answer["error"]["code"]) == (400, code)
    assert redis_snapshot(redis_client) == before
    status, answer = call(client, "POST", path, {"roll": 0, "client_seed": "mine"})
    assert status == 200 and answer["match"]["seats"][0]["client_seed"] == "mine"
    status, refused = call(client, "POST", path,
                           {"roll": 1, "hold": [False] * 5, "client_seed": "changed"})
    assert (status, refused["error"]["code"]) == (409, "client-seed-fixed")
    final = play_to_end(client, refused["match"], random.Random(6))
    seed = bytes.fromhex(final["server_seed"])
    transcript = final["seats"][0]["transcript"]
    replay(transcript, seat_stream(seed, ["mine"], final["id"], 0, "yacht", "per-turn"))
    with pytest.raises(ReplayMismatch):  # the client seed is in every die
        replay(transcript, seat_stream(seed, ["other"], final["id"], 0, "yacht", "per-turn"))


def test_bad_creations_are_clear_400s_and_store_nothing(client, redis_client):
    call(client, "GET", "/rulesets")  # the epoch's ledger entry is written on first use
    before = redis_snapshot(redis_client)
    for body, code in [({"ruleset": "chess"}, "unknown-ruleset"),
                       ({"ruleset": "yacht", "bots": ["easy"] * 6}, "invalid-bots"),
                       ({"ruleset": "yacht", "bots": ["godlike"]}, "invalid-bots"),
                       ({"ruleset": "yacht", "bots": "easy"}, "invalid-bots"),
                       ({"ruleset": "yacht", "bots": 1.5}, "invalid-bots"),
                       ({"ruleset": "yacht", "bots": {"easy": 1}}, "invalid-bots"),
                       ({"bots": []}, "invalid-field")]:
        status, answer = call(client, "POST", "/matches", body)
        assert (status, answer["error"]["code"]) == (400, code), body
    assert redis_snapshot(redis_client) == before


def test_someone_else_cannot_play_your_seat_nor_ask_for_a_hint(app, client):
    state = create(client, "yacht")
    stranger = app.test_client()
    for method, path, body in [("POST", "roll", {"roll": 0, "client_seed": "x"}),
                               ("GET", "hint", None)]:
        status, answer = call(stranger, method, f"/matches/{state['id']}/{path}", body)
        assert (status, answer["error"]["code"]) == (403, "not-your-match")
    assert call(client, "GET", "/matches/" + "0" * 32)[0] == 404
    assert call(client, "GET", "/matches/not-an-id")[0] == 404


def test_a_hint_gives_the_best_choice_and_the_runner_up_on_your_dice(client):
    state = create(client, "yahtzee", bots=["medium"])
    status, answer = call(client, "GET", f"/matches/{state['id']}/hint")
    assert (status, answer["error"]["code"]) == (409, "no-dice")
    call(client, "POST", f"/matches/{state['id']}/roll", {"roll": 0, "client_seed": "h"})
    status, answer = call(client, "GET", f"/matches/{state['id']}/hint")
    assert status == 200
    best, runner_up = answer["hint"]["best"], answer["hint"]["runner_up"]
    assert best["expected"] >= runner_up["expected"]
    if best["kind"] == "keep":
        assert len(best["hold"]) == 5


def test_the_review_opens_at_the_end_for_every_seat(client):
    state = create(client, "yacht", bots=["hard"])
    status, answer = call(client, "GET", f"/matches/{state['id']}/review")
    assert (status, answer["error"]["code"]) == (409, "not-finished")
    final = play_to_end(client, state, random.Random(4))
    for seat in (0, 1):
        status, review = call(client, "GET", f"/matches/{final['id']}/review?seat={seat}")
        assert status == 200 and review["seat"] == seat and review["finished"]
        assert review["loss"] >= 0
    for seat in ("9", "\u00b2", "-1", "x"):  # "²" passes str.isdigit but not int()
        status, answer = call(client, "GET", f"/matches/{final['id']}/review?seat={seat}")
        assert (status, answer["error"]["code"]) == (400, "invalid-seat"), seat


def test_an_idle_match_expires_with_its_seed_and_redis_forgets_it_after_the_retention(
        client, clock, redis_client, public_key):
    state = create(client, "yacht", bots=["easy"])
    call(client, "POST", f"/matches/{state['id']}/roll", {"roll": 0, "client_seed": "idle"})
    ttl = redis_client.ttl(match_key(state["id"]))
    assert IDLE_SECONDS < ttl <= IDLE_SECONDS + RETENTION_SECONDS
    clock.advance(seconds=IDLE_SECONDS)
    status, answer = call(client, "GET", f"/matches/{state['id']}")
    expired = answer["match"]
    assert status == 200 and expired["status"] == "expired"
    assert expired["result"]["finished"] is False and expired["result"]["winners"] == []
    check_published(expired, public_key, call(client, "GET", "/ledger")[1]["entries"])
    for key in (match_key(state["id"]), log_key(state["id"])):
        assert 0 < redis_client.ttl(key) <= RETENTION_SECONDS
    status, refused = call(client, "POST", f"/matches/{state['id']}/roll",
                           {"roll": 1, "hold": [False] * 5})
    assert (status, refused["error"]["code"]) == (409, "match-over")


def test_a_match_never_rolled_expires_with_its_seed_and_no_result(client, clock):
    state = create(client, "yacht")
    clock.advance(seconds=IDLE_SECONDS + 1)
    expired = call(client, "GET", f"/matches/{state['id']}")[1]["match"]
    assert expired["status"] == "expired" and expired["result"] is None
    assert len(expired["server_seed"]) == 64


def test_matches_are_listed_apart_from_daily_games_and_never_reach_a_board(client, play_date):
    daily = start(client, "yacht", play_date)
    final = play_to_end(client, create(client, "yacht", bots=["easy"]), random.Random(5))
    create(client, "yahtzee")
    history = call(client, "GET", "/me/history")[1]
    assert [game["game"] for game in history["games"]] == [daily["id"]]
    assert history["finished"] == 0
    listed = {entry["match"]: entry for entry in history["matches"]}
    assert listed[final["id"]]["status"] == "finished"
    assert listed[final["id"]]["total"] == final["seats"][0]["totals"]["total"]
    assert listed[final["id"]]["rank"] == final["ranks"][0]
    assert len(listed) == 2
    board = call(client, "GET", f"/leaderboard/{play_date}/yacht")[1]
    assert board["players"] == 0


def test_advance_when_no_bot_is_due_changes_nothing(client):
    state = create(client, "yacht", bots=["easy"])
    call(client, "POST", f"/matches/{state['id']}/roll", {"roll": 0, "client_seed": "adv"})
    status, answer = call(client, "POST", f"/matches/{state['id']}/advance", {})
    assert status == 200 and answer["match"]["next_action"] == 1
    assert answer["match"]["turn"] == 0
