"""The dice multisets, the reroll probabilities, and document 001's odds table."""

import itertools
from collections import Counter

import numpy as np
import pytest

from strategy.dice import (
    FIRST_ROLL,
    HAND_INDEX,
    HANDS,
    KEEP_INDEX,
    KEEPS,
    TRANSITION,
    best_sub_keep,
    keep_values_from,
    sub_keeps,
)
from strategy.odds import odds_table


def test_counts():
    assert len(HANDS) == 252
    assert len(KEEPS) == 462
    assert len(set(KEEPS)) == 462


def test_transition_rows_match_counting_every_ordered_reroll():
    for keep in [(), (6,), (2, 2), (1, 3, 5), (4, 4, 4, 4), (1, 2, 3, 4, 5)]:
        counts = Counter(tuple(sorted(keep + extra))
                         for extra in itertools.product(range(1, 7), repeat=5 - len(keep)))
        total = sum(counts.values())
        row = TRANSITION[KEEP_INDEX[keep]]
        expected = np.zeros(252)
        for hand, count in counts.items():
            expected[HAND_INDEX[hand]] = count / total
        assert np.allclose(row, expected, rtol=0, atol=1e-15)


def test_keep_values_equal_the_dense_product():
    rng = np.random.default_rng(1)
    hand_values = rng.random((252, 3))
    assert np.allclose(keep_values_from(hand_values), TRANSITION @ hand_values, atol=1e-12)


def test_best_sub_keep_is_the_maximum_over_each_hands_keeps():
    rng = np.random.default_rng(2)
    keep_values = rng.random((462, 2))
    best = best_sub_keep(keep_values)
    for hand in HANDS:
        expected = np.max([keep_values[KEEP_INDEX[k]] for k in sub_keeps(hand)], axis=0)
        assert np.array_equal(best[HAND_INDEX[hand]], expected)


def test_first_roll_is_one_in_1296_for_each_five_of_a_kind():
    assert FIRST_ROLL[HAND_INDEX[(3,) * 5]] == pytest.approx(1 / 7776)
    assert FIRST_ROLL.sum() == pytest.approx(1)


# Document 001 (001_cb3f4e8c6f6e50d7.txt): first roll / three rolls, in per cent.
PUBLISHED = {
    "small-straight": ("15.43", "61.54"),
    "full-house": ("3.86", "36.29"),
    "four-of-a-kind": ("2.01", "29.08"),
    "large-straight": ("3.09", "26.11"),
    "five-of-a-kind": ("0.08", "4.60"),
}


def test_document_001_odds_to_every_published_digit():
    computed = {target: (f"{100 * first:.2f}", f"{100 * three:.2f}")
                for target, (first, three) in odds_table().items()}
    assert computed == PUBLISHED


def test_document_001_four_equal_then_one_or_two_rolls():
    hits = np.array([[1.0 if len(set(h)) == 1 else 0.0] for h in HANDS])
    one_roll = keep_values_from(hits)
    two_rolls = keep_values_from(best_sub_keep(one_roll))
    assert f"{100 * one_roll[KEEP_INDEX[(5, 5, 5, 5)], 0]:.1f}" == "16.7"
    assert f"{100 * two_rolls[KEEP_INDEX[(5, 5, 5, 5)], 0]:.1f}" == "30.6"
