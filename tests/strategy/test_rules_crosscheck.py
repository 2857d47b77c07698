"""The solver's box values against fairness.rules over many random states (Joker, first-roll
bonus and Doble Generala included), and the triple sheet's approximation's box values too."""

import random

import numpy as np
import pytest

from fairness import RULESETS, extra_bonus, placement, score, totals
from strategy import ColumnsTable, Position, Table, sheet_rules
from strategy.boxvalues import box_values
from strategy.columns import columns_rules
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
            sheet[box] = rng.choice((0, 50, 100) if ruleset.first_roll_bonus else (0, 50))
        else:
            sheet[box] = rng.choice((0, 7, 25, 30))
    return sheet


# Every five-of-a-kind (where the Joker and the bonus act) and a spread of the other hands.
CHECKED_HANDS = sorted({h for h, hand in enumerate(HANDS) if len(set(hand)) == 1}
                       | set(range(0, len(HANDS), 6)))


def reference_values(ruleset_id, future_of, sheet, extra, rules, first_roll=False):
    """Per box and checked hand: total gained (fairness.totals) plus ``future_of`` the next
    state (nothing once the sheet is full)."""
    before = totals(ruleset_id, sheet, extra).total
    out = np.full((rules.boxes, len(CHECKED_HANDS)), -np.inf)
    for column, h in enumerate(CHECKED_HANDS):
        hand = HANDS[h]
        for box in placement(ruleset_id, hand, sheet, first_roll).allowed:
            points = score(ruleset_id, box, hand, sheet, first_roll)
            bonus = extra_bonus(ruleset_id, hand, sheet, box)
            after_sheet = {**sheet, box: points}
            gained = totals(ruleset_id, after_sheet, extra + bonus).total - before
            after = Position(ruleset_id, after_sheet)
            future = future_of(after.state(rules)) if len(after_sheet) < rules.boxes else 0.0
            out[rules.box_ids.index(box), column] = gained + future
    return out


ONE_COLUMN = sorted(r for r in RULESETS if RULESETS[r].columns == 1)


@pytest.mark.parametrize("ruleset_id", ONE_COLUMN)
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
        first_roll = attempt % 3 == 0
        got = box_values(rules, values, np.array([mask]), np.array([upper]),
                         np.array([flag]), first_roll)[:, :, CHECKED_HANDS]
        expected = reference_values(ruleset_id, values.__getitem__, sheet, extra, rules,
                                    first_roll)
        assert np.array_equal(np.isfinite(got[:, 0]), np.isfinite(expected)), sheet
        finite = np.isfinite(expected)
        assert np.allclose(got[:, 0][finite], expected[finite], rtol=0, atol=1e-9), sheet


def random_triple_sheet(rng: random.Random, fives: str) -> dict[str, int]:
    """A triple sheet with random boxes filled; ``fives``: its Yahtzee boxes all filled with
    points ("live"), all filled, one with 0 ("dead"), or as drawn ("any")."""
    ruleset = RULESETS["yahtzee-triple"]
    sheet = {}
    for box in rng.sample(ruleset.category_ids, rng.randrange(len(ruleset.category_ids) - 3)):
        category = ruleset.category(box)
        index = ruleset.category_ids.index(box) % 13
        raw = (index + 1) * rng.randrange(6) if index < 6 else rng.choice((0, 7, 25, 30))
        sheet[box] = raw * category.multiplier
    five_boxes = ruleset.boxes_of_kind("yahtzee")
    if fives != "any":
        for column, box in enumerate(five_boxes, start=1):
            sheet[box] = 0 if fives == "dead" and column == 2 else 50 * column
    for box in five_boxes:
        if box in sheet and sheet[box] not in (0, 50 * ruleset.category(box).multiplier):
            sheet[box] = 0
    return sheet


@pytest.mark.parametrize("fives", ["any", "live", "dead"])
def test_triple_box_values_agree_with_fairness_rules(fives):
    """The approximation's box values are fairness's points gained plus V̂ of the next state:
    every allowed box (the cross-column Joker), its points and the bonuses, per column."""
    column = sheet_rules("yahtzee")
    values = np.random.default_rng(11).random((1 << 13, 64, 2)) * 100
    values[-1] = 0
    table = ColumnsTable(columns_rules("yahtzee-triple"), Table(column, values))
    rng = random.Random(fives)
    for _ in range(3):
        sheet = random_triple_sheet(rng, fives)
        extra = 100 * rng.randrange(3)
        state = Position("yahtzee-triple", sheet).state(table.rules)
        got = table.box_values(*(np.array([part]) for part in state))[:, 0, CHECKED_HANDS]
        expected = reference_values("yahtzee-triple", table.start_value, sheet, extra,
                                    table.rules)
        assert np.array_equal(np.isfinite(got), np.isfinite(expected)), sheet
        finite = np.isfinite(expected)
        assert np.allclose(got[finite], expected[finite], rtol=0, atol=1e-9), sheet


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
