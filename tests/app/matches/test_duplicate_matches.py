"""Duplicate matches through the API on a real Redis: ``"duplicate": true`` deals every seat the
same dice each turn (seat 0's stream), under the duplicate commitment, verified by the core's
audit; a bad value is refused; and a duplicate table's match being played keeps each seat's
actions of the round in play from every other viewer of ``GET /matches/<id>``."""

import random

import pytest
from matchkit import CLIENT_SEED, create, play_to_end, rolls_by_turn
from playkit import call, redis_snapshot

from app.ledger.signing import verify_signature
from app.matches.model import HUMAN, TABLE, Seat
from app.matches.routes import shown_state
from app.services import EXTENSION
from fairness import audit, commitment, seat_stream
from fairness.actions import Roll, Score
from fairness.dice import PER_TURN


def assert_same_dice_each_turn(state: dict) -> None:
    """Every seat's turn ``t`` starts with the same dice, and a reroll draws the shared
    stream's slot ``3t + r`` for every die not held."""
    result = state["result"]
    shared = seat_stream(bytes.fromhex(state["server_seed"]), result["client_seeds"],
                         state["id"], 0, state["ruleset"], PER_TURN)
    seats = [rolls_by_turn(seat["transcript"]) for seat in state["seats"]]
    for turn in range(len(seats[0])):
        assert len({tuple(seat[turn][0]["dice"]) for seat in seats}) == 1, turn
        for seat in seats:
            for roll, entry in enumerate(seat[turn]):
                fresh = shared.roll(3 * turn + roll)
                assert all(die == new for die, new, held in zip(
                    entry["dice"], fresh, entry["hold"], strict=True) if not held)


def audited(client, state: dict) -> None:
    """The core's audit of the ended match, with the ledger's key: every check holds."""
    entries = call(client, "GET", "/ledger")[1]["entries"]
    result, transcripts = audit.answer_parts({"match": state})
    checks = audit.check_match_in_ledger(entries, result, transcripts, verify_signature)
    assert all(check.ok is True for check in checks), [c for c in checks if c.ok is not True]


def test_a_duplicate_game_against_the_computer_deals_every_seat_the_same_dice(client):
    state = create(client, "yacht", bots=["easy", "hard"], duplicate=True)
    assert state["dealing"] == "duplicate" and state["kind"] == "computer"
    final = play_to_end(client, state, random.Random(7))
    assert final["status"] == "finished"
    result = final["result"]
    assert result["type"] == "yacht-daily/match/v2" and result["dealing"] == "duplicate"
    assert commitment(final["server_seed"], "duplicate") == final["commitment"] == \
        result["commitment"] == state["commitment"]
    assert_same_dice_each_turn(final)
    audited(client, final)


def test_a_duplicate_practice_game_is_dealt_as_per_turn_under_its_own_commitment(client):
    state = create(client, "yacht-bonus", duplicate=True)
    assert state["kind"] == "practice" and state["dealing"] == "duplicate"
    final = play_to_end(client, state, random.Random(8))
    assert final["result"]["dealing"] == "duplicate"
    audited(client, final)


@pytest.mark.parametrize("body", [{}, {"duplicate": False}])
def test_without_duplicate_a_match_deals_per_turn_as_before(client, body):
    state = create(client, "yacht", bots=["easy"], **body)
    assert state["dealing"] == "per-turn"
    assert "duplicate" not in state


@pytest.mark.parametrize("value", [None, "true", 1, 0, [], {"on": True}])
def test_a_duplicate_that_is_not_true_or_false_is_refused_and_nothing_stored(
        client, redis_client, value):
    call(client, "GET", "/ledger")  # the epoch entry is published by the first request
    before = redis_snapshot(redis_client)
    status, body = call(client, "POST", "/matches",
                        {"ruleset": "yacht", "bots": ["easy"], "duplicate": value})
    assert status == 400
    assert body["error"] == {"code": "invalid-duplicate",
                             "message": "duplicate must be true or false."}
    assert redis_snapshot(redis_client) == before


@pytest.fixture
def duplicate_table(app, client):
    """A duplicate table's match of two humans and a bot being played: seat 0 is the test
    client's player, seat 1 another player; returns (the service, the match id, the client's
    pseudonym, seat 1's pseudonym)."""
    me = create(client, "yacht")["seats"][0]["player"]  # the client's pseudonym
    other = "p-someone-else"
    matches = app.extensions[EXTENSION].matches
    seats = [Seat(0, HUMAN, "Me", player=me), Seat(1, HUMAN, "Other", player=other),
             Seat(2, "bot", "Bot 2 (easy)", bot="easy")]
    match = matches.create_seated(seats, "yacht", TABLE, client_seeds=["seed-0", "seed-1", None],
                                  duplicate=True)
    assert match.dealing == "duplicate"
    return matches, match.id, me, other


def act(matches, match_id: str, seat: int, action) -> None:
    """Seat ``seat``'s action, as the table's routes apply it."""
    number = matches.get(match_id).record.version
    matches.act_for(match_id, lambda match: seat, number, action)


def test_a_duplicate_tables_round_in_play_is_withheld_from_every_other_viewer(
        duplicate_table, client):
    matches, match_id, me, other = duplicate_table
    act(matches, match_id, 0, Roll((False,) * 5))
    act(matches, match_id, 0, Roll((True, True, False, False, False)))
    status, body = call(client, "GET", f"/matches/{match_id}")
    mine = body["match"]["seats"][0]
    assert status == 200 and len(mine["transcript"]) == 2 and mine["dice"] is not None

    match = matches.get(match_id)
    spectator = shown_state(match, None, "en")
    hidden = spectator["seats"][0]
    assert hidden["transcript"] == [] and hidden["dice"] is None
    assert hidden["rolls_in_turn"] == 0 and hidden["boxes"] == {}
    assert spectator["order"] == [] and spectator["next_action"] == 2
    assert shown_state(match, other, "en")["seats"][0] == hidden

    act(matches, match_id, 0, Score("choice"))
    act(matches, match_id, 1, Roll((False,) * 5))
    match = matches.get(match_id)
    seen_by_other = shown_state(match, other, "en")
    assert seen_by_other["seats"][0]["boxes"] == {}  # seat 0's box of round 1 is not shown
    assert seen_by_other["seats"][0]["totals"]["total"] == 0
    assert len(seen_by_other["seats"][1]["transcript"]) == 1  # its own seat, whole
    assert seen_by_other["order"] == [1]
    seen_by_me = call(client, "GET", f"/matches/{match_id}")[1]["match"]
    assert seen_by_me["seats"][1]["transcript"] == [] and seen_by_me["order"] == [0, 0, 0]
    assert seen_by_me["seats"][0]["boxes"] == {"choice": match.games[0].boxes["choice"]}

    act(matches, match_id, 1, Score("choice"))  # the bot's turn follows: the round closes
    match = matches.get(match_id)
    assert [len(game.boxes) for game in match.games] == [1, 1, 1]
    whole = shown_state(match, None, "en")
    assert [len(seat["transcript"]) for seat in whole["seats"]] == [
        len(game.transcript) for game in match.games]
    assert whole["order"] == [action.seat for action in match.record.log]
    first_rolls = {tuple(seat["transcript"][0]["dice"]) for seat in whole["seats"]}
    assert len(first_rolls) == 1  # the same first roll for every seat

    act(matches, match_id, 0, Roll((False,) * 5))
    spectator = call(client.application.test_client(), "GET", f"/matches/{match_id}")[1]
    assert [len(seat["transcript"]) for seat in spectator["match"]["seats"]] == [
        len(game.transcript) for game in match.games]  # round 2 of seat 0 withheld


def test_a_per_turn_tables_match_and_a_game_against_the_computer_withhold_nothing(
        app, client):
    matches = app.extensions[EXTENSION].matches
    state = create(client, "yacht", bots=["easy"], duplicate=True)
    roll = {"hold": None, "roll": 0, "client_seed": CLIENT_SEED}
    answer = call(client, "POST", f"/matches/{state['id']}/roll", roll)[1]["match"]
    watched = call(client.application.test_client(), "GET", f"/matches/{state['id']}")[1]
    assert watched["match"]["seats"] == answer["seats"]
    seats = [Seat(0, HUMAN, "A", player="p-a"), Seat(1, HUMAN, "B", player="p-b")]
    match = matches.create_seated(seats, "yacht", TABLE, client_seeds=["s-a", "s-b"])
    act(matches, match.id, 0, Roll((False,) * 5))
    shown = shown_state(matches.get(match.id), None, "en")
    assert len(shown["seats"][0]["transcript"]) == 1 and shown["order"] == [0]
