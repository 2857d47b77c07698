"""The solver: brute-force enumeration of the last turns, and the published optima.

The brute force shares nothing with the solver but fairness.rules: it rolls ordered dice,
tries every hold, and scores through placement/score/extra_bonus/totals (with the first roll
told apart, for Generala's servida).
"""

import itertools
from functools import cache

import pytest

from fairness import extra_bonus, placement, score, totals
from strategy import Position, sheet_rules, solve

ORDERED_ROLLS = {n: list(itertools.product(range(1, 7), repeat=n)) for n in range(6)}


@cache
def rerolled_hands(keep: tuple) -> list[tuple]:
    """The sorted hand of every ordered reroll of the dice not in ``keep``."""
    return [tuple(sorted(keep + o)) for o in ORDERED_ROLLS[5 - len(keep)]]


@cache
def distinct_keeps(hand: tuple) -> set[tuple]:
    """Every distinct multiset of dice a hold of ``hand`` can keep."""
    return {tuple(sorted(hand[i] for i in held))
            for size in range(6) for held in itertools.combinations(range(5), size)}


def brute_force_to_come(ruleset_id: str, sheet: dict, extra: int) -> float:
    """Expected points still to come from a turn's start, by plain enumeration."""

    @cache
    def future(items: frozenset, bonus: int) -> float:
        """Expected points to come from the turn's start of the sheet ``items``."""
        filled = dict(items)
        if len(filled) == len(sheet_rules(ruleset_id).box_ids):
            return 0.0
        now = totals(ruleset_id, filled, bonus).total

        @cache
        def final(hand: tuple, first_roll: bool) -> float:
            """The best box for ``hand``: points gained plus what is still to come."""
            best = float("-inf")
            for box in placement(ruleset_id, hand, filled, first_roll).allowed:
                after = {**filled, box: score(ruleset_id, box, hand, filled, first_roll)}
                more = bonus + extra_bonus(ruleset_id, hand, filled, box)
                gained = totals(ruleset_id, after, more).total - now
                best = max(best, gained + future(frozenset(after.items()), more))
            return best

        @cache
        def holding(hand: tuple, rolls_left: int) -> float:
            """Value of ``hand`` with ``rolls_left``: stop, or the best hold's mean (holding all
            five and rolling is a roll too: only stopping on the first roll is a first roll)."""
            if rolls_left == 0:
                return final(hand, False)
            best = max(kept(keep, rolls_left) for keep in distinct_keeps(hand))
            return max(best, final(hand, True)) if rolls_left == 2 else best

        @cache
        def kept(keep: tuple, rolls_left: int) -> float:
            """Mean over every ordered reroll of the dice not kept."""
            hands = rerolled_hands(keep)
            return sum(holding(hand, rolls_left - 1) for hand in hands) / len(hands)

        return kept((), 3)

    return future(frozenset(sheet.items()), extra)


def all_but(ruleset_id: str, free: tuple[str, ...], **points) -> dict:
    """A sheet with every box filled but ``free``: upper boxes as given (default 0), others 0."""
    boxes = sheet_rules(ruleset_id).box_ids
    return {box: points.get(box.replace("-", "_"), 0) for box in boxes if box not in free}


SMALL_STATES = [
    ("yahtzee", all_but("yahtzee", ("chance",), yahtzee=50)),
    ("yahtzee", all_but("yahtzee", ("sixes",), ones=3, twos=6, threes=9, fours=16, fives=15,
                        yahtzee=50)),
    ("yahtzee", all_but("yahtzee", ("fours", "full-house"), ones=3, twos=6, threes=12, fives=15,
                        sixes=18, yahtzee=50)),
    ("yahtzee-no-joker", all_but("yahtzee-no-joker", ("full-house", "large-straight"),
                                 yahtzee=50)),
    ("yacht-bonus", all_but("yacht-bonus", ("sixes", "yacht"), ones=4, twos=8, threes=12,
                            fours=12, fives=15)),
    ("yacht", all_but("yacht", ("little-straight",))),
    ("generala", all_but("generala", ("escalera", "doble-generala"), generala=100)),
    ("generala", all_but("generala", ("doble-generala",), generala=50)),
    ("generala", all_but("generala", ("doble-generala",))),
    ("generala", all_but("generala", ("generala", "doble-generala"))),
    ("generala", all_but("generala", ("full", "poker"))),
    ("yatzy", all_but("yatzy", ("sixes", "two-pairs"), ones=3, twos=6, threes=9, fours=12,
                      fives=15)),
]


@pytest.mark.parametrize(("ruleset_id", "sheet"), SMALL_STATES)
def test_last_one_or_two_boxes_match_brute_force(ruleset_id, sheet):
    rules = sheet_rules(ruleset_id)
    values = solve(rules, lowest_layer=rules.boxes - 2)
    expected = brute_force_to_come(ruleset_id, sheet, 0)
    assert values[Position(ruleset_id, sheet).state(rules)] == pytest.approx(expected, abs=1e-9)


def test_verhoeff_free_choice_joker_optimum(solved):
    """Tom Verhoeff's optimal solitaire Yahtzee: 254.5896 expected points."""
    assert f"{solved('yahtzee', 'free').optimum:.4f}" == "254.5896"


def test_forced_joker_optimum_is_a_little_lower(solved):
    forced, free = solved("yahtzee").optimum, solved("yahtzee", "free").optimum
    assert f"{forced:.4f}" == "254.5877"
    assert forced < free


@pytest.mark.parametrize(("ruleset_id", "optimum"), [("yacht", "166.9551"),
                                                      ("yacht-bonus", "191.7609"),
                                                      ("generala", "159.9410")])
def test_twelve_and_eleven_box_optima(solved, ruleset_id, optimum):
    assert f"{solved(ruleset_id).optimum:.4f}" == optimum
