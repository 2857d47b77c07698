"""The solver's box values against fairness.rules over many random states (Joker included)."""

import random

import numpy as np
import pytest

from fairness import RULESETS, extra_bonus, placement, score, totals
from strategy import Position, sheet_rules
from strategy.boxvalues import box_values
from strategy.dice import HANDS


def random_sheet(rng: random.Random, ruleset_id: str) -> dict[str, int]:
    """A sheet with a random set of boxes filled with values they can hold (never full)."""
    ruleset = RULESETS[ruleset_id]
    boxes = list(ruleset.category_ids)
    filled = rng.sample(boxes, rng.randrange(len(boxes)))
    sheet = {}
    for box in filled:
        index = boxes.index(box)
        if index < 6:
            sheet[box] = (index + 1) * rng.randrange(6)
        elif box == ruleset.five_of_a_kind_box:
            sheet[box] = rng.choice((0, 50))
        else:
            sheet[box] = rng.choice((0, 7, 25, 30))
    return sheet


# Every five-of-a-kind (where the Joker and the bonus act) and a spread of the other hands.
CHECKED_HANDS = sorted({h for h, hand in enumerate(HANDS) if len(set(hand)) == 1}
                       | set(range(0, len(HANDS), 6)))


def reference_values(ruleset_id, values, sheet, extra, rules):
    """Per box and checked hand: total gained (fairness.totals) plus the next state's value."""
    before = totals(ruleset_id, sheet, extra).total
    out = np.full((rules.boxes, len(CHECKED_HANDS)), -np.inf)
    for column, h in enumerate(CHECKED_HANDS):
        hand = HANDS[h]
        for box in placement(ruleset_id, hand, sheet).allowed:
            points = score(ruleset_id, box, hand, sheet)
            bonus = extra_bonus(ruleset_id, hand, sheet)
            after_sheet = {**sheet, box: points}
            gained = totals(ruleset_id, after_sheet, extra + bonus).total - before
            after = Position(ruleset_id, after_sheet)
            future = values[after.state(rules)] if len(after_sheet) < rules.boxes else 0.0
            out[rules.box_ids.index(box), column] = gained + future
    return out


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_box_values_agree_with_fairness_rules(ruleset_id):
    rules = sheet_rules(ruleset_id)
    rng = random.Random(ruleset_id)
    values = np.random.default_rng(7).random((1 << rules.boxes, rules.upper_states,
                                              rules.flag_states)) * 100
    values[-1] = 0  # the full sheet: nothing to come, as the solver leaves it
    five_box = RULESETS[ruleset_id].five_of_a_kind_box
    for attempt in range(12):
        sheet = random_sheet(rng, ruleset_id)
        if five_box and attempt % 2 and five_box not in sheet:  # the Joker, half of the time
            sheet[five_box] = rng.choice((0, 50))
            if len(sheet) == rules.boxes:
                del sheet[rng.choice([box for box in sheet if box != five_box])]
        extra = 100 * rng.randrange(3) if RULESETS[ruleset_id].extra_bonus else 0
        mask, upper, flag = Position(ruleset_id, sheet).state(rules)
        got = box_values(rules, values, np.array([mask]), np.array([upper]),
                         np.array([flag]))[:, :, CHECKED_HANDS]
        expected = reference_values(ruleset_id, values, sheet, extra, rules)
        assert np.array_equal(np.isfinite(got[:, 0]), np.isfinite(expected)), sheet
        finite = np.isfinite(expected)
        assert np.allclose(got[:, 0][finite], expected[finite], rtol=0, atol=1e-9), sheet


def test_many_states_at_once_equal_one_at_a_time():
    rules = sheet_rules("yahtzee")
    rng = random.Random(3)
    values = np.random.default_rng(3).random((1 << 13, 64, 2))
    states = [Position("yahtzee", random_sheet(rng, "yahtzee")).state(rules) for _ in range(50)]
    masks, uppers, flags = (np.array(column) for column in zip(*states, strict=True))
    together = box_values(rules, values, masks, uppers, flags)
    for i in range(len(states)):
        alone = box_values(rules, values, masks[i : i + 1], uppers[i : i + 1], flags[i : i + 1])
        assert np.array_equal(together[:, i], alone[:, 0])
