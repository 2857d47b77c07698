"""Generala: its 11 boxes, the servida bonus of a combination made on the turn's first roll
(known from the transcript alone), and the doble generala (docs/sheets.md gives the sources)."""

import itertools
from collections import Counter

import pytest

from fairness import RULESETS, Game, ReplayMismatch, placement, score, totals

ALL_THROWS = list(itertools.combinations_with_replacement(range(1, 7), 5))
UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
DATE = "2026-12-01"
NO_HOLD = [False] * 5


def test_eleven_boxes_in_sheet_order():
    assert RULESETS["generala"].category_ids == UPPER_IDS + (
        "escalera", "full", "poker", "generala", "doble-generala")


@pytest.mark.parametrize(
    ("box", "dice", "first_roll", "points"),
    [
        ("fours", [4, 4, 4, 2, 6], False, 12),  # the public descriptions' example
        ("twos", [4, 4, 4, 2, 6], True, 2),  # number boxes have no servida bonus
        ("escalera", [1, 2, 3, 4, 5], False, 20),
        ("escalera", [6, 5, 4, 3, 2], False, 20),
        ("escalera", [1, 2, 3, 4, 5], True, 25),
        ("escalera", [3, 4, 5, 6, 1], False, 0),  # no wrap-around straight
        ("escalera", [1, 1, 3, 4, 5], False, 0),  # no 1 as a wild 2
        ("full", [5, 5, 5, 3, 3], False, 30),
        ("full", [5, 5, 5, 3, 3], True, 35),
        ("full", [5, 5, 5, 5, 5], True, 0),  # five equal is not a full
        ("poker", [2, 2, 2, 2, 6], False, 40),
        ("poker", [2, 2, 2, 2, 6], True, 45),
        ("poker", [2, 2, 2, 2, 2], False, 40),  # five equal hold four equal
        ("poker", [2, 2, 2, 6, 6], True, 0),  # no bonus on a box the dice do not make
        ("generala", [3, 3, 3, 3, 3], False, 50),
        ("generala", [3, 3, 3, 3, 3], True, 100),  # generala servida
        ("generala", [3, 3, 3, 3, 1], True, 0),
    ],
)
def test_examples(box, dice, first_roll, points):
    assert score("generala", box, dice, None, first_roll) == points


def oracle(box: str, dice, first_roll: bool, generala_points: int | None) -> int:
    """The Generala rules restated independently of ``fairness.scoring``."""
    if box in UPPER_IDS:
        face = UPPER_IDS.index(box) + 1
        return face * dice.count(face)
    shape = sorted(Counter(dice).values())
    made = {
        "escalera": sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]),
        "full": shape == [2, 3],
        "poker": shape[-1] >= 4,
        "generala": shape == [5],
        "doble-generala": shape == [5] and bool(generala_points),
    }[box]
    value = {"escalera": 20, "full": 30, "poker": 40, "generala": 50, "doble-generala": 100}[box]
    servida = {"escalera": 5, "full": 5, "poker": 5, "generala": 50}.get(box, 0)
    return value + (servida if first_roll else 0) if made else 0


@pytest.mark.parametrize("box", RULESETS["generala"].category_ids)
@pytest.mark.parametrize("first_roll", [False, True])
@pytest.mark.parametrize("generala_points", [None, 0, 50, 100])
def test_every_box_for_every_throw(box, first_roll, generala_points):
    sheet = {} if generala_points is None or box == "generala" else {"generala": generala_points}
    for throw in ALL_THROWS:
        expected = oracle(box, throw, first_roll, sheet.get("generala"))
        assert score("generala", box, throw, sheet, first_roll) == expected, throw


def test_doble_generala_needs_the_generala_box_holding_points():
    five = [6] * 5
    assert score("generala", "doble-generala", five) == 0  # no Generala yet
    assert score("generala", "doble-generala", five, {"generala": 0}) == 0  # crossed out
    assert score("generala", "doble-generala", five, {"generala": 50}) == 100
    assert score("generala", "doble-generala", five, {"generala": 100}, True) == 100


def test_no_joker_any_free_box_takes_a_second_generala():
    sheet = {"generala": 50, "sixes": 30}
    assert placement("generala", [6] * 5, sheet).allowed == tuple(
        box for box in RULESETS["generala"].category_ids if box not in sheet)


def test_no_upper_bonus_and_no_extra_bonus():
    best = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30}
    assert totals("generala", best).upper_bonus == 0


def roll(dice, hold=NO_HOLD):
    """A roll entry."""
    return {"action": "roll", "hold": list(hold), "dice": list(dice)}


def scored(box, points):
    """A score entry."""
    return {"action": "score", "category": box, "points": points, "bonus": 0}


class TestServidaFromTheTranscript:
    """The core knows a combination came on the turn's first roll from the transcript alone."""

    def test_first_roll_escalera_scores_25(self):
        game = Game.from_transcript("generala", DATE, [roll([2, 3, 4, 5, 1])])
        assert game.first_roll and game.previews()["escalera"] == 25
        game = game.score("escalera")
        assert game.transcript[-1] == scored("escalera", 25)

    def test_a_reroll_loses_the_bonus_even_when_nothing_changed_position(self):
        game = Game.from_transcript("generala", DATE, [
            roll([2, 3, 4, 5, 5]), roll([2, 3, 4, 5, 1], [True, True, True, True, False])])
        assert not game.first_roll
        assert game.score("escalera").transcript[-1] == scored("escalera", 20)

    def test_the_second_turns_first_roll_is_servida_too(self):
        game = Game.from_transcript("generala", DATE, [
            roll([1, 1, 2, 2, 6]), scored("ones", 2), roll([4, 4, 4, 4, 4])])
        assert game.first_roll
        assert game.score("generala").transcript[-1] == scored("generala", 100)

    def test_a_transcript_recording_the_wrong_servida_points_is_refused(self):
        with pytest.raises(ReplayMismatch) as refused:
            Game.from_transcript("generala", DATE, [roll([2, 3, 4, 5, 1]),
                                                    scored("escalera", 20)])
        assert refused.value.index == 1


def test_best_possible_sheet_is_410():
    """105 in the number boxes, every combination servida, a doble generala."""
    best = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
            "escalera": score("generala", "escalera", [1, 2, 3, 4, 5], None, True),
            "full": score("generala", "full", [6, 6, 6, 5, 5], None, True),
            "poker": score("generala", "poker", [6, 6, 6, 6, 5], None, True),
            "generala": score("generala", "generala", [6] * 5, None, True)}
    best["doble-generala"] = score("generala", "doble-generala", [6] * 5, best, True)
    assert totals("generala", best).total == 410
