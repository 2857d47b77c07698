"""Properties of every legal game: its sheet, its totals, its replay, and the dice it is dealt.

Games here are random legal games on random seeds, dates and sheets (hypothesis drives the
choices), so these hold for any way of playing, not for one scripted game.
"""

import hashlib

import pytest
from fairness_testkit import (
    DATE,
    SEED,
    dates,
    fresh_dice_by_roll,
    fresh_dice_by_turn_roll,
    play,
    reference_dice,
    ruleset_ids,
    seeds,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import RULESETS, DiceStream, Game, ReplayMismatch, replay
from fairness.audit import SharedStream, replay_checks
from fairness.dice import PER_TURN
from fairness.ledger import transcript_hash

rngs = st.randoms(use_true_random=False)


class TestLegalGames:
    """A finished game has one score per box (12 or 13) and a total equal to its parts."""

    @given(seed=seeds, date=dates, ruleset_id=ruleset_ids, rng=rngs)
    @settings(max_examples=150, deadline=None)
    def test_sheet_and_totals(self, seed, date, ruleset_id, rng):
        game = play(Game.new(ruleset_id, date), DiceStream(seed, date, ruleset_id), rng)
        ruleset = RULESETS[ruleset_id]
        scores = [entry for entry in game.transcript if entry["action"] == "score"]
        assert len(scores) == len(game.boxes) == len(ruleset.categories) in (11, 12, 13, 15, 39)
        assert set(game.boxes) == set(ruleset.category_ids)
        assert {entry["category"]: entry["points"] for entry in scores} == dict(game.boxes)

        parts = game.totals()
        columns = [[c for c in ruleset.categories if c.column == k and c.section == "upper"]
                   for k in range(1, ruleset.columns + 1)]
        column_upper = [sum(game.boxes[c.id] for c in column) for column in columns]
        upper = sum(column_upper)
        assert parts.upper == upper
        assert parts.lower == sum(game.boxes.values()) - upper
        assert parts.upper_bonus == sum(ruleset.upper_bonus * k for k, points
                                        in enumerate(column_upper, start=1) if points >= 63 * k)
        assert parts.extra_bonus == sum(entry["bonus"] for entry in scores)
        assert parts.total == parts.upper + parts.upper_bonus + parts.lower + parts.extra_bonus

    @given(seed=seeds, ruleset_id=ruleset_ids, rng=rngs)
    @settings(max_examples=150, deadline=None)
    def test_every_turn_has_one_to_three_rolls_then_one_score(self, seed, ruleset_id, rng):
        game = play(Game.new(ruleset_id, DATE), DiceStream(seed, DATE, ruleset_id), rng)
        kinds = "".join(entry["action"][0] for entry in game.transcript)  # "r" or "s"
        turns = kinds.split("s")
        assert turns[-1] == ""
        assert all(1 <= len(turn) <= 3 and set(turn) == {"r"} for turn in turns[:-1])
        for entry in game.transcript:
            if entry["action"] == "roll":
                assert all(1 <= die <= 6 for die in entry["dice"])


class TestReplay:
    """A transcript rebuilds exactly its game, and any changed entry is caught where it is."""

    @given(seed=seeds, date=dates, ruleset_id=ruleset_ids, rng=rngs, stop=st.integers(0, 60))
    @settings(max_examples=150, deadline=None)
    def test_replay_and_from_transcript_reproduce_the_state(
        self, seed, date, ruleset_id, rng, stop
    ):
        stream = DiceStream(seed, date, ruleset_id)
        game = play(Game.new(ruleset_id, date), stream, rng, stop_after=stop)
        assert replay(list(game.transcript), DiceStream(seed, date, ruleset_id)) == game
        assert Game.from_transcript(ruleset_id, date, list(game.transcript)) == game

    @given(rng=rngs, data=st.data())
    @settings(max_examples=150, deadline=None)
    def test_a_changed_entry_fails_at_its_index(self, rng, data):
        stream = DiceStream(SEED, DATE, "yahtzee")
        game = play(Game.new("yahtzee", DATE), stream, rng)
        transcript = [dict(entry) for entry in game.transcript]
        index = data.draw(st.integers(0, len(transcript) - 1))
        entry = transcript[index]
        if entry["action"] == "roll":
            position = data.draw(st.integers(0, 4))
            dice = list(entry["dice"])
            dice[position] = dice[position] % 6 + 1
            entry["dice"] = dice
        else:
            entry[data.draw(st.sampled_from(["points", "bonus"]))] += data.draw(st.integers(1, 50))
        with pytest.raises(ReplayMismatch) as raised:
            replay(transcript, stream)
        assert raised.value.index == index
        assert raised.value.code == "replay-mismatch"

    def test_recorded_dice_that_are_not_the_streams_fail_replay_only(self):
        stream = DiceStream(SEED, DATE, "yacht")
        first = list(stream.roll(0))
        forged = [{"action": "roll", "hold": [False] * 5, "dice": [6, 6, 6, 6, 6]}]
        assert first != [6] * 5
        assert Game.from_transcript("yacht", DATE, forged).dice == (6, 6, 6, 6, 6)
        with pytest.raises(ReplayMismatch, match="action 0"):
            replay(forged, stream)

    @pytest.mark.parametrize(
        "transcript",
        [
            "not a list",
            [{"action": "shake"}],
            ["roll"],
            [{"action": "roll", "hold": None, "dice": [1, 2, 3, 4, 5]}],
            [{"action": "roll", "hold": [False] * 5, "dice": [1.0, 2, 3, 4, 5]}],
            [{"action": "roll", "hold": [False] * 5, "dice": [1, 2, 3, 4, 5], "extra": 1}],
            [{"action": "score", "category": "chance", "points": 0, "bonus": 0}],
        ],
    )
    def test_malformed_transcripts_are_mismatches(self, transcript):
        with pytest.raises(ReplayMismatch):
            replay(transcript, DiceStream(SEED, DATE, "yacht"))
        with pytest.raises(ReplayMismatch):
            Game.from_transcript("yacht", DATE, transcript)

    def test_transcript_hash_is_the_sha256_of_its_canonical_json(self):
        transcript = [
            {"action": "roll", "hold": [False] * 5, "dice": [1, 2, 3, 4, 5]},
            {"action": "score", "category": "choice", "points": 15, "bonus": 0},
        ]
        text = (
            '[{"action":"roll","dice":[1,2,3,4,5],"hold":[false,false,false,false,false]},'
            '{"action":"score","bonus":0,"category":"choice","points":15}]'
        )
        assert transcript_hash(transcript) == hashlib.sha256(text.encode()).hexdigest()


class TestPerTurnDealing:
    """Dealt per turn, roll ``r`` of turn ``t`` takes slot ``3t + r``: what a player held,
    rerolled or stopped in one turn never moves the dice of a later one."""

    @given(seed=seeds, ruleset_id=ruleset_ids, rng=rngs, stop=st.integers(1, 60) | st.none())
    @settings(max_examples=150, deadline=None)
    def test_fresh_dice_are_the_streams_at_the_turns_slot(self, seed, ruleset_id, rng, stop):
        stream = DiceStream(seed, DATE, ruleset_id, PER_TURN)
        game = play(Game.new(ruleset_id, DATE), stream, rng, stop)
        fresh = fresh_dice_by_turn_roll(game)
        if not fresh:
            return
        last_turn = max(turn for turn, _ in fresh)
        dice = reference_dice(seed, DATE, ruleset_id, 15 * (last_turn + 1))
        for (turn, roll), positions in fresh.items():
            for position, die in positions.items():
                assert die == dice[15 * turn + 5 * roll + position], (turn, roll, position)

    @given(seed=seeds, ruleset_id=ruleset_ids, one=rngs, other=rngs)
    @settings(max_examples=100, deadline=None)
    def test_every_turn_starts_with_the_same_dice_for_everyone(self, seed, ruleset_id, one,
                                                                other):
        stream = DiceStream(seed, DATE, ruleset_id, PER_TURN)
        first = play(Game.new(ruleset_id, DATE), stream, one)
        second = play(Game.new(ruleset_id, DATE), stream, other)
        opening = [fresh_dice_by_turn_roll(game) for game in (first, second)]
        turns = len(RULESETS[ruleset_id].categories)
        assert [opening[0][turn, 0] for turn in range(turns)] == \
            [opening[1][turn, 0] for turn in range(turns)]

    def test_holding_all_five_changes_nothing_later(self):
        stream = DiceStream(SEED, DATE, "yahtzee", PER_TURN)
        everything = [True] * 5
        once = Game.new("yahtzee", DATE).roll(None, stream).score("chance").roll(None, stream)
        thrice = (Game.new("yahtzee", DATE).roll(None, stream).roll(everything, stream)
                  .roll(everything, stream).score("chance").roll(None, stream))
        assert once.dice == thrice.dice == stream.roll(3)
        assert thrice.roll(None, stream).dice == stream.roll(4)

    @given(seed=seeds, ruleset_id=ruleset_ids, rng=rngs, stop=st.integers(1, 60) | st.none())
    @settings(max_examples=100, deadline=None)
    def test_the_core_and_the_audit_replay_alike(self, seed, ruleset_id, rng, stop):
        stream = DiceStream(seed, DATE, ruleset_id, PER_TURN)
        game = play(Game.new(ruleset_id, DATE), stream, rng, stop)
        assert replay(list(game.transcript), stream).transcript == game.transcript
        for source in (stream, SharedStream(stream)):
            checked = replay_checks(list(game.transcript), source)
            assert [c for c in checked.checks if c.name != "game complete"] == []
            assert checked.boxes == dict(game.boxes)
        if _rolled_after_an_early_stop(game):  # then sequential dealing gives other dice
            with pytest.raises(ReplayMismatch):
                replay(list(game.transcript), DiceStream(seed, DATE, ruleset_id))


def _rolled_after_an_early_stop(game: Game) -> bool:
    """True when a turn scored before its third roll and a later roll was taken."""
    kinds = "".join("r" if entry["action"] == "roll" else "s" for entry in game.transcript)
    turns = kinds.split("s")
    early = next((i for i, turn in enumerate(turns[:-1]) if len(turn) < 3), None)
    return early is not None and any(turns[early + 1:])


class TestSameDiceForEveryone:
    """Dealt sequentially, the dice depend only on the roll's index, never on holds or stopping.
    """

    @given(seed=seeds, ruleset_id=ruleset_ids, rng=rngs, stop=st.integers(1, 60))
    @settings(max_examples=150, deadline=None)
    def test_fresh_dice_are_the_streams_at_the_rolls_index(self, seed, ruleset_id, rng, stop):
        game = play(Game.new(ruleset_id, DATE), DiceStream(seed, DATE, ruleset_id), rng, stop)
        fresh = fresh_dice_by_roll(game)
        dice = reference_dice(seed, DATE, ruleset_id, 5 * len(fresh))
        for number, positions in fresh.items():
            for position, die in positions.items():
                assert die == dice[5 * number + position], (number, position)

    @given(seed=seeds, ruleset_id=ruleset_ids, one=rngs, other=rngs, data=st.data())
    @settings(max_examples=150, deadline=None)
    def test_two_players_see_the_same_fresh_dice(self, seed, ruleset_id, one, other, data):
        stop_one = data.draw(st.integers(1, 60) | st.none())
        stop_other = data.draw(st.integers(1, 60) | st.none())
        first = play(Game.new(ruleset_id, DATE), DiceStream(seed, DATE, ruleset_id), one, stop_one)
        second = play(
            Game.new(ruleset_id, DATE), DiceStream(seed, DATE, ruleset_id), other, stop_other
        )
        fresh_first, fresh_second = fresh_dice_by_roll(first), fresh_dice_by_roll(second)
        for number in fresh_first.keys() & fresh_second.keys():
            shared = fresh_first[number].keys() & fresh_second[number].keys()
            for position in shared:
                assert fresh_first[number][position] == fresh_second[number][position]

    def test_held_dice_keep_their_value_and_still_consume_their_draw(self):
        stream = DiceStream(SEED, DATE, "yahtzee")
        everything = [True] * 5
        game = Game.new("yahtzee", DATE).roll(None, stream)
        kept = game.roll(everything, stream).roll(everything, stream)
        assert kept.dice == game.dice == stream.roll(0)
        after = kept.score("chance").roll(None, stream)
        assert after.dice == stream.roll(3)
