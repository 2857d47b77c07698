"""Scandinavian Yatzy: the examples of the public descriptions (docs/sheets.md), then every
box over all 252 distinct throws against a second statement of the rules."""

import itertools
from collections import Counter

import pytest

from fairness import RULESETS, score, totals

ALL_THROWS = list(itertools.combinations_with_replacement(range(1, 7), 5))
UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")


def test_fifteen_boxes_in_sheet_order():
    assert RULESETS["yatzy"].category_ids == UPPER_IDS + (
        "one-pair", "two-pairs", "three-of-a-kind", "four-of-a-kind", "small-straight",
        "large-straight", "full-house", "chance", "yatzy")


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        ("one-pair", [5, 3, 3, 2, 1], 6),  # the Scandinavian rules' examples
        ("two-pairs", [5, 3, 3, 4, 4], 14),
        ("three-of-a-kind", [5, 3, 3, 3, 2], 9),
        ("four-of-a-kind", [5, 4, 4, 4, 4], 16),
        ("small-straight", [1, 2, 3, 4, 5], 15),
        ("large-straight", [2, 3, 4, 5, 6], 20),
        ("full-house", [3, 5, 5, 3, 3], 19),
        ("one-pair", [2, 5, 5, 4, 6], 10),  # only the highest pair counts
        ("two-pairs", [6, 5, 5, 4, 6], 22),
        ("three-of-a-kind", [2, 5, 5, 4, 5], 15),  # only the three dice count
        ("four-of-a-kind", [5, 5, 5, 4, 5], 20),
        ("one-pair", [6, 6, 6, 1, 1], 12),
        ("two-pairs", [6, 6, 6, 1, 1], 14),  # a full house holds two pairs
        ("two-pairs", [4, 4, 4, 4, 2], 0),  # four equal are not two different pairs
        ("two-pairs", [3, 3, 3, 3, 3], 0),
        ("three-of-a-kind", [3, 3, 3, 3, 3], 9),
        ("four-of-a-kind", [3, 3, 3, 3, 3], 12),
        ("full-house", [3, 3, 3, 3, 3], 0),  # five equal is not a full house
        ("small-straight", [2, 3, 4, 5, 6], 0),
        ("small-straight", [1, 2, 3, 4, 6], 0),  # exactly 1-2-3-4-5, not four in a row
        ("large-straight", [1, 2, 3, 4, 5], 0),
        ("chance", [1, 1, 3, 3, 6], 14),
        ("yatzy", [2, 2, 2, 2, 2], 50),
        ("yatzy", [2, 2, 2, 2, 1], 0),
    ],
)
def test_examples(box, dice, points):
    assert score("yatzy", box, dice) == points


def oracle(box: str, dice) -> int:
    """The Yatzy rules restated independently of ``fairness.scoring``."""
    if box in UPPER_IDS:
        face = UPPER_IDS.index(box) + 1
        return face * dice.count(face)
    counts = Counter(dice)
    at_least = {n: [face for face, count in counts.items() if count >= n] for n in (2, 3, 4, 5)}
    shape = sorted(counts.values())
    return {
        "one-pair": 2 * max(at_least[2], default=0),
        "two-pairs": 2 * sum(at_least[2]) if len(at_least[2]) == 2 else 0,
        "three-of-a-kind": 3 * max(at_least[3], default=0),
        "four-of-a-kind": 4 * max(at_least[4], default=0),
        "small-straight": 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0,
        "large-straight": 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
        "full-house": sum(dice) if shape == [2, 3] else 0,
        "chance": sum(dice),
        "yatzy": 50 if at_least[5] else 0,
    }[box]


@pytest.mark.parametrize("box", RULESETS["yatzy"].category_ids)
def test_every_box_for_every_throw(box):
    for throw in ALL_THROWS:
        assert score("yatzy", box, throw) == oracle(box, throw), throw


def test_first_roll_and_further_yatzys_change_nothing():
    """No servida bonus, no extra bonus and no Joker in Yatzy: a second Yatzy scores as dice."""
    sheet = {"yatzy": 50}
    assert score("yatzy", "full-house", [4] * 5, sheet, first_roll=True) == 0
    assert score("yatzy", "fours", [4] * 5, sheet) == 20


@pytest.mark.parametrize(("upper", "bonus"), [(62, 0), (63, 50), (105, 50)])
def test_upper_bonus_is_50_at_63(upper, bonus):
    sheet, left = {}, upper
    for face in range(6, 0, -1):
        count = min(5, left // face)
        sheet[UPPER_IDS[face - 1]] = count * face
        left -= count * face
    assert totals("yatzy", sheet).upper_bonus == bonus


def test_best_possible_sheet_is_374():
    """The public descriptions' maximum: 105 + 50 + 219."""
    best = {box: max(score("yatzy", box, throw) for throw in ALL_THROWS)
            for box in RULESETS["yatzy"].category_ids}
    breakdown = totals("yatzy", best)
    assert (breakdown.upper, breakdown.upper_bonus, breakdown.lower) == (105, 50, 219)
    assert breakdown.total == 374
