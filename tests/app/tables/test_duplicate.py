"""Duplicate tables: the option on a new table (its parsing, its stored field, the table view)
and app/tables/duplicate.py's withholding of a seat's actions of the round in play from every
other viewer (the shared prefix, each viewer's own actions past it, the events' shape in
app/tables/views.py), on matches built in memory (no Redis) from real games."""

import pytest
from playkit import call
from tablekit import create_table

from app.matches.model import BOT, EXPIRED, FINISHED, HUMAN, PLAYING, TABLE, Seat, rebuild
from app.matches.model import COMPUTER as COMPUTER_KIND
from app.matches.store import Action, MatchRecord
from app.tables.duplicate import (
    DUPLICATE_FIELD,
    action_seat,
    duplicate_fields,
    is_duplicate_table,
    open_round,
    own_actions,
    parse_duplicate,
    redact_actions,
    redact_transcripts,
    shared_length,
    visible_games,
    visible_length,
    withheld_seats,
)
from app.tables.errors import InvalidTable
from app.tables.views import actions_event
from fairness import Game, canonical_json, seat_stream

SEED = bytes(range(32))
CLIENT_SEEDS = ["seed-a", "seed-b"]
SEATS = [Seat(0, HUMAN, "A", player="p-a"), Seat(1, HUMAN, "B", player="p-b"),
         Seat(2, BOT, "Bot 2 (easy)", bot="easy")]
ROLL, KEEP, SCORE = "roll", "keep", "score"


def played(moves: list[tuple[int, str]], dealing: str = "duplicate", kind: str = TABLE,
           status: str = PLAYING):
    """A match of SEATS on ``yacht`` after ``moves`` (seat, ``roll`` / ``keep``: reroll
    holding the first two dice / ``score``: the first box allowed), as a stored record rebuilt:
    the same ``Match`` the service reads."""
    games = [Game.new_match("yacht") for _ in SEATS]
    log = []
    for seat, move in moves:
        stream = seat_stream(SEED, CLIENT_SEEDS, "m-dup", seat, "yacht", dealing)
        game = games[seat]
        if move == SCORE:
            game = game.score(game.placement().allowed[0])
        else:
            game = game.roll((True, True, False, False, False) if move == KEEP else None,
                             stream)
        games[seat] = game
        log.append(Action(seat, game.transcript[-1]))
    fields = {"kind": kind, "ruleset": "yacht", "status": status, "dealing": dealing,
              "seats": canonical_json([seat.to_json() for seat in SEATS]).decode(),
              "client_seeds": canonical_json([*CLIENT_SEEDS, None]).decode(),
              "updated_at": "2026-03-10T12:00:00Z"}
    return rebuild(MatchRecord("m-dup", fields, tuple(log)))


def turn(seat: int, rolls: int = 1) -> list[tuple[int, str]]:
    """A seat's whole turn: ``rolls`` rolls (the later ones holding two dice), then a box."""
    return [(seat, ROLL)] + [(seat, KEEP)] * (rolls - 1) + [(seat, SCORE)]


ROUND = turn(0, 2) + turn(1, 3) + turn(2)


def test_visible_length_cuts_before_a_rounds_actions():
    transcript = [{"action": "roll"}, {"action": "score"}, {"action": "roll"},
                  {"action": "roll"}, {"action": "score"}, {"action": "roll"}]
    assert [visible_length(transcript, round_) for round_ in range(4)] == [0, 2, 5, 6]
    assert visible_length([], 0) == 0


def test_a_seat_in_the_middle_of_its_turn_is_withheld_from_everyone_else():
    match = played([(0, ROLL), (0, KEEP)])
    assert open_round(match) == 0
    assert withheld_seats(match, None) == {0}
    assert withheld_seats(match, 1) == withheld_seats(match, [1]) == {0}
    assert withheld_seats(match, 0) == withheld_seats(match, [0, 1]) == frozenset()
    transcripts = [list(game.transcript) for game in match.games]
    assert redact_transcripts(match, transcripts, 1) == [[], [], []]
    assert redact_transcripts(match, transcripts, 0) == transcripts
    games = visible_games(match, None)
    assert games[0].dice is None and games[0].rolls_in_turn == 0
    assert visible_games(match, 0)[0] is match.games[0]


def test_a_round_stays_withheld_until_every_seat_has_filled_its_box():
    match = played(turn(0, 2) + [(1, ROLL)])
    assert withheld_seats(match, None) == {0, 1}
    assert withheld_seats(match, 0) == {1} and withheld_seats(match, 1) == {0}
    assert withheld_seats(match, 2) == {0, 1}  # a bot's seat, or anyone else
    log = match.record.log
    assert redact_actions(match, log, 0) == list(log[:3])
    assert redact_actions(match, log, 1) == [log[3]]
    assert redact_actions(match, log, None) == []
    as_items = [action.to_json() for action in log]
    assert redact_actions(match, as_items, 1) == [as_items[3]]
    assert [action_seat(item) for item in as_items] == [0, 0, 0, 1]
    seen_by_b = visible_games(match, 1)
    assert seen_by_b[0].boxes == {} and seen_by_b[0].totals().total == 0
    assert seen_by_b[1] is match.games[1]


def test_the_whole_round_shows_once_it_is_complete_and_the_next_one_is_withheld():
    match = played(ROUND)
    assert open_round(match) == 1 and withheld_seats(match, None) == frozenset()
    transcripts = [list(game.transcript) for game in match.games]
    assert redact_transcripts(match, transcripts, None) == transcripts
    assert redact_actions(match, match.record.log, None) == list(match.record.log)
    firsts = {tuple(game.transcript[0]["dice"]) for game in match.games}
    assert len(firsts) == 1  # duplicate: everyone's first roll of the round

    later = played(ROUND + [(0, ROLL), (0, KEEP)])
    assert withheld_seats(later, 2) == {0}
    shown = redact_transcripts(later, [list(g.transcript) for g in later.games], 2)
    assert shown[0] == list(later.games[0].transcript[:3]) and shown[1:] == transcripts[1:]
    log = later.record.log
    assert redact_actions(later, log, 2) == list(log[:len(ROUND)])
    # An event's actions, from its first action number on: the round's new ones withheld.
    assert redact_actions(later, log[len(ROUND):], 2, start=len(ROUND)) == []
    assert redact_actions(later, log[len(ROUND):], 0, start=len(ROUND)) == list(
        log[len(ROUND):])
    assert visible_games(later, 1)[0].boxes == later.games[0].boxes


@pytest.mark.parametrize(("dealing", "kind", "status"), [
    ("per-turn", TABLE, PLAYING), ("duplicate", COMPUTER_KIND, PLAYING),
    ("duplicate", TABLE, FINISHED), ("duplicate", TABLE, EXPIRED)])
def test_nothing_is_withheld_but_in_a_duplicate_tables_match_being_played(dealing, kind,
                                                                          status):
    match = played(turn(0, 2) + [(1, ROLL)], dealing, kind, status)
    assert open_round(match) is None and withheld_seats(match, None) == frozenset()
    log = match.record.log
    assert redact_actions(match, log, None) == list(log)
    assert visible_games(match, None) == list(match.games)


def test_the_option_parses_true_or_false_and_is_stored_only_when_on():
    assert parse_duplicate({}) is False
    assert parse_duplicate({"duplicate": False}) is False
    assert parse_duplicate({"duplicate": True}) is True
    for value in (None, 1, "true", [], {}):
        with pytest.raises(InvalidTable) as refused:
            parse_duplicate({"duplicate": value})
        assert refused.value.code == "invalid-duplicate"
    assert duplicate_fields(False) == {} and duplicate_fields(True) == {DUPLICATE_FIELD: "1"}
    assert is_duplicate_table({DUPLICATE_FIELD: "1"}) and not is_duplicate_table({})


def test_a_table_created_duplicate_says_so_and_a_bad_value_is_refused(app, redis_client):
    ann = app.test_client()
    plain = create_table(ann, "yacht", [{"kind": "bot", "level": "easy"}])
    assert plain["duplicate"] is False
    status, body = call(ann, "POST", "/tables", {
        "ruleset": "yacht", "seats": [{"kind": "human"}], "name": "Ann",
        "client_seed": "seed-ann", "duplicate": True})
    assert status == 201 and body["table"]["duplicate"] is True
    assert redis_client.hget(f"{{t:{body['table']['id']}}}", "duplicate") == "1"
    assert call(ann, "GET", f"/tables/{body['table']['id']}")[1]["table"]["duplicate"] is True
    status, refused = call(ann, "POST", "/tables", {
        "ruleset": "yacht", "seats": [{"kind": "human"}], "name": "Ann",
        "client_seed": "seed-ann", "duplicate": "yes"})
    assert status == 400 and refused["error"]["code"] == "invalid-duplicate"


def test_the_shared_prefix_is_every_complete_round_and_own_actions_follow_it():
    moves = ROUND + turn(0, 2) + [(1, ROLL)]
    match = played(moves)
    assert [shared_length(match, version) for version in range(len(moves) + 1)] == \
        [0] * len(ROUND) + [len(ROUND)] * (len(moves) - len(ROUND) + 1)
    assert shared_length(match) == len(ROUND)
    assert sum(visible_length(game.transcript, open_round(match)) for game in match.games) \
        == len(ROUND)
    start = len(ROUND)
    assert own_actions(match, 0) == [
        {"number": number, "seat": 0, "entry": dict(match.record.log[number].entry)}
        for number in range(start, start + 3)]
    assert [action["number"] for action in own_actions(match, 1)] == [start + 3]
    assert [action["number"] for action in own_actions(match, [0, 1])] == list(
        range(start, start + 4))
    assert own_actions(match, None) == [] and own_actions(match, 2) == []
    done = played(moves, status=FINISHED)
    assert shared_length(done) == len(moves) and own_actions(done, 0) == []
    assert shared_length(done, len(ROUND) + 1) == len(ROUND)


def test_an_event_carries_complete_rounds_only_and_tells_whose_turn_it_is():
    match = played(ROUND + [(0, ROLL)])
    rolled = len(ROUND)
    assert actions_event(match, rolled, "player") is None  # inside a round: nothing
    closing = actions_event(match, rolled - 1, "bots")
    assert (closing["from"], closing["to"], closing["by"]) == (0, rolled, "bots")
    assert [action["seat"] for action in closing["actions"]] == [0, 0, 0, 1, 1, 1, 1, 2, 2]
    assert closing["next_action"] == rolled + 1 and set(closing["sheets"]) == {"0", "1", "2"}
    handed = actions_event(played(turn(0, 2)), 2, "player")
    assert handed == {"from": 0, "to": 0, "by": "player", "actions": [], "totals": [0, 0, 0],
                      "sheets": {}, "next_action": 3}
    plain = played(turn(0, 2), dealing="per-turn")
    assert actions_event(plain, 3, "player") is None
    assert actions_event(plain, 1, "player") == {
        "from": 1, "to": 3, "by": "player",
        "actions": [action.to_json() for action in plain.record.log[1:]],
        "totals": [game.totals().total for game in plain.games],
        "sheets": {"0": plain.games[0].totals().as_dict()}}
