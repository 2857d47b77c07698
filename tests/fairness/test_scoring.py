"""What five dice score in each box of each sheet, without the Joker rule (see test_joker.py).

The reference documents' own examples come first, then every box of every sheet is checked
against a second, independent statement of the rules over all 252 distinct throws.
"""

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairness import RULESETS, InvalidDice, UnknownCategory, UnknownRuleset, score, totals
from fairness.scoring import faces_shown_twice, most_copies, most_shown_face
from fairness.sheets import UPPER_BONUS_THRESHOLD

YAHTZEE_FAMILY = ("yahtzee", "yahtzee-no-joker", "yahtzee-no-bonus", "yahtzee-no-joker-no-bonus")
# The sheets of the reference documents, restated below; the sheets from public descriptions
# (yatzy, generala, yahtzee-triple) have their own tests (test_yatzy.py, test_generala.py...).
DOCUMENTED = ("yacht", "yacht-bonus", *YAHTZEE_FAMILY)
ALL_THROWS = list(itertools.combinations_with_replacement(range(1, 7), 5))
ALL_ORDERED_THROWS = list(itertools.product(range(1, 7), repeat=5))
UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
dice_lists = st.lists(st.integers(1, 6), min_size=5, max_size=5)


class TestSheetLayout:
    """Each sheet has its boxes in the documented order, with French and English names."""

    @pytest.mark.parametrize(
        ("ruleset_id", "lower"),
        [
            ("yacht", "full-house four-of-a-kind little-straight big-straight choice yacht"),
            ("yacht-bonus", "choice four-of-a-kind full-house small-straight large-straight yacht"),
            *(
                (
                    ruleset_id,
                    "three-of-a-kind four-of-a-kind full-house small-straight "
                    "large-straight yahtzee chance",
                )
                for ruleset_id in YAHTZEE_FAMILY
            ),
        ],
    )
    def test_box_ids_in_sheet_order(self, ruleset_id, lower):
        assert RULESETS[ruleset_id].category_ids == UPPER_IDS + tuple(lower.split())

    def test_nine_rulesets_exist(self):
        assert set(RULESETS) == {*DOCUMENTED, "yatzy", "generala", "yahtzee-triple"}

    @pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
    def test_every_box_has_french_and_english_names_and_rules(self, ruleset_id):
        ruleset = RULESETS[ruleset_id]
        assert ruleset.names["en"] and ruleset.names["fr"]
        for box in ruleset.categories:
            assert box.names["en"] and box.names["fr"], box.id
            assert box.rule["en"] and box.rule["fr"], box.id

    def test_sheet_level_rules(self):
        summary = {
            ruleset_id: (r.upper_bonus, r.extra_bonus, r.joker, len(r.categories))
            for ruleset_id, r in RULESETS.items()
        }
        assert summary == {
            "yacht": (0, 0, False, 12),
            "yacht-bonus": (35, 0, False, 12),
            "yahtzee": (35, 100, True, 13),
            "yahtzee-no-joker": (35, 100, False, 13),
            "yahtzee-no-bonus": (35, 0, True, 13),
            "yahtzee-no-joker-no-bonus": (35, 0, False, 13),
            "yatzy": (50, 0, False, 15),
            "generala": (0, 0, False, 11),
            "yahtzee-triple": (35, 100, True, 39),
        }


class TestReferenceExamples:
    """Every scoring example the reference documents give, on the sheet they give it for."""

    @pytest.mark.parametrize(
        ("ruleset_id", "box", "dice", "points"),
        [
            # 000 / 002: traditional Yacht.
            ("yacht", "fives", [5, 5, 5, 2, 1], 15),
            ("yacht", "four-of-a-kind", [5, 5, 5, 5, 2], 20),
            ("yacht", "four-of-a-kind", [6, 6, 6, 6, 6], 24),
            ("yacht", "little-straight", [1, 2, 3, 4, 5], 30),
            ("yacht", "little-straight", [2, 3, 4, 5, 6], 0),
            ("yacht", "little-straight", [1, 2, 3, 4, 4], 0),
            ("yacht", "big-straight", [2, 3, 4, 5, 6], 30),
            ("yacht", "big-straight", [1, 2, 3, 4, 5], 0),
            ("yacht", "full-house", [6, 6, 6, 5, 5], 28),
            ("yacht", "full-house", [4, 4, 4, 4, 4], 0),
            # 001: Yacht with the upper bonus.
            ("yacht-bonus", "fours", [4, 4, 4, 2, 1], 12),
            ("yacht-bonus", "choice", [6, 5, 4, 3, 1], 19),
            ("yacht-bonus", "four-of-a-kind", [5, 5, 5, 5, 2], 22),
            ("yacht-bonus", "full-house", [6, 6, 6, 5, 5], 28),
            ("yacht-bonus", "full-house", [1, 1, 1, 2, 2], 7),
            ("yacht-bonus", "small-straight", [2, 3, 4, 5, 5], 15),
            ("yacht-bonus", "large-straight", [2, 3, 4, 5, 6], 30),
            ("yacht-bonus", "yacht", [3, 3, 3, 3, 3], 50),
            ("yacht-bonus", "sixes", [6, 6, 6, 6, 6], 30),
            ("yacht-bonus", "choice", [6, 6, 6, 6, 6], 30),
            ("yacht-bonus", "four-of-a-kind", [6, 6, 6, 6, 6], 30),
            ("yacht-bonus", "full-house", [6, 6, 6, 6, 6], 0),
            ("yacht-bonus", "yacht", [6, 6, 6, 6, 6], 50),
            # 003: Yahtzee.
            ("yahtzee", "fives", [5, 5, 5, 5, 1], 20),
            ("yahtzee", "full-house", [2, 2, 3, 3, 3], 25),
            ("yahtzee", "small-straight", [1, 2, 3, 4, 6], 30),
            ("yahtzee", "large-straight", [2, 3, 4, 5, 6], 40),
            ("yahtzee", "yahtzee", [4, 4, 4, 4, 4], 50),
            ("yahtzee", "chance", [6, 5, 4, 3, 1], 19),
            # 004: the daily-challenge game.
            ("yahtzee", "fours", [4, 4, 2, 4, 6], 12),
            ("yahtzee", "three-of-a-kind", [6, 6, 6, 2, 1], 21),
            ("yahtzee", "small-straight", [1, 2, 3, 4, 5], 30),
            ("yahtzee", "large-straight", [1, 2, 3, 4, 5], 40),
            ("yahtzee", "small-straight", [1, 2, 3, 4, 4], 30),
            ("yahtzee", "full-house", [5, 5, 5, 5, 5], 0),
            ("yahtzee", "four-of-a-kind", [6, 6, 6, 2, 1], 0),
        ],
    )
    def test_example(self, ruleset_id, box, dice, points):
        assert score(ruleset_id, box, dice) == points

    def test_best_possible_yacht_bonus_sheet_is_323(self):
        """001: 105 in the number boxes, 183 in the combinations, plus the bonus of 35."""
        best = {
            box: max(score("yacht-bonus", box, throw) for throw in ALL_THROWS)
            for box in RULESETS["yacht-bonus"].category_ids
        }
        breakdown = totals("yacht-bonus", best)
        assert (breakdown.upper, breakdown.lower, breakdown.upper_bonus) == (105, 183, 35)
        assert breakdown.total == 323

    def test_63_is_three_of_each_face(self):
        """001 and 004: 63 is exactly three dice of each face."""
        sheet = {box: 3 * face for face, box in enumerate(UPPER_IDS, start=1)}
        assert sum(sheet.values()) == UPPER_BONUS_THRESHOLD == 63


def oracle(ruleset_id: str, box: str, dice) -> int:
    """The rules restated from the reference digest, independently of ``fairness.scoring``."""
    if box in UPPER_IDS:
        face = UPPER_IDS.index(box) + 1
        return sum(die for die in dice if die == face)
    shape = sorted(Counter(dice).values())
    ordered = sorted(dice)
    faces = set(dice)
    total = sum(dice)
    four_in_a_row = any({start, start + 1, start + 2, start + 3} <= faces for start in (1, 2, 3))
    five_in_a_row = ordered in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    if ruleset_id == "yacht":
        return {
            "full-house": total if shape == [2, 3] else 0,
            "four-of-a-kind": 4 * Counter(dice).most_common(1)[0][0] if shape[-1] >= 4 else 0,
            "little-straight": 30 if ordered == [1, 2, 3, 4, 5] else 0,
            "big-straight": 30 if ordered == [2, 3, 4, 5, 6] else 0,
            "choice": total,
            "yacht": 50 if shape == [5] else 0,
        }[box]
    if ruleset_id == "yacht-bonus":
        return {
            "choice": total,
            "four-of-a-kind": total if shape[-1] >= 4 else 0,
            "full-house": total if shape == [2, 3] else 0,
            "small-straight": 15 if four_in_a_row else 0,
            "large-straight": 30 if five_in_a_row else 0,
            "yacht": 50 if shape == [5] else 0,
        }[box]
    return {
        "three-of-a-kind": total if shape[-1] >= 3 else 0,
        "four-of-a-kind": total if shape[-1] >= 4 else 0,
        "full-house": 25 if shape == [2, 3] else 0,
        "small-straight": 30 if four_in_a_row else 0,
        "large-straight": 40 if five_in_a_row else 0,
        "yahtzee": 50 if shape == [5] else 0,
        "chance": total,
    }[box]


class TestEveryBoxOfEverySheet:
    """Over all 252 distinct throws, every box scores what the restated rules say."""

    @pytest.mark.parametrize(
        ("ruleset_id", "box"),
        [(r, box) for r in DOCUMENTED for box in RULESETS[r].category_ids],
    )
    def test_box_matches_the_rules_for_every_throw(self, ruleset_id, box):
        for throw in ALL_THROWS:
            assert score(ruleset_id, box, throw) == oracle(ruleset_id, box, throw), throw

    @given(dice=dice_lists, ruleset_id=st.sampled_from(sorted(RULESETS)), data=st.data())
    def test_order_of_the_dice_never_matters(self, dice, ruleset_id, data):
        shuffled = data.draw(st.permutations(dice))
        for box in RULESETS[ruleset_id].category_ids:
            assert score(ruleset_id, box, shuffled) == score(ruleset_id, box, dice)

    @pytest.mark.parametrize("ruleset_id", YAHTZEE_FAMILY)
    def test_a_large_straight_is_also_a_small_straight(self, ruleset_id):
        for throw in ALL_THROWS:
            if score(ruleset_id, "large-straight", throw):
                assert score(ruleset_id, "small-straight", throw) == 30

    @pytest.mark.parametrize("ruleset_id", [*DOCUMENTED, "yatzy"])
    def test_five_equal_is_never_a_full_house_on_an_empty_sheet(self, ruleset_id):
        for face in range(1, 7):
            assert score(ruleset_id, "full-house", [face] * 5) == 0


class TestCountingHelpers:
    """The scorers count faces with ``tuple.count``; over all 7,776 ordered throws each helper
    says what ``collections.Counter`` says (the scorers counted with it before)."""

    def test_most_copies_is_the_largest_count(self):
        for throw in ALL_ORDERED_THROWS:
            assert most_copies(throw) == max(Counter(throw).values()), throw

    def test_most_shown_face_is_counters_most_common(self):
        for throw in ALL_ORDERED_THROWS:
            assert most_shown_face(throw) == Counter(throw).most_common(1)[0][0], throw

    def test_faces_shown_twice_are_those_counted_twice(self):
        for throw in ALL_ORDERED_THROWS:
            expected = sorted(face for face, count in Counter(throw).items() if count >= 2)
            assert sorted(faces_shown_twice(throw)) == expected, throw

    @pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
    def test_every_ordering_of_every_throw_scores_as_the_sorted_one(self, ruleset_id):
        for box in RULESETS[ruleset_id].categories:
            for throw in ALL_ORDERED_THROWS:
                assert box.scorer(throw) == box.scorer(tuple(sorted(throw))), (box.id, throw)


class TestUpperBonus:
    """The +35 comes once the number boxes total 63 or more, on the sheets that have it."""

    @pytest.mark.parametrize(
        ("ruleset_id", "upper", "bonus"),
        [
            ("yacht", 105, 0),
            ("yacht-bonus", 62, 0),
            ("yacht-bonus", 63, 35),
            ("yacht-bonus", 105, 35),
            ("yahtzee", 62, 0),
            ("yahtzee", 63, 35),
            ("yahtzee-no-joker-no-bonus", 63, 35),
        ],
    )
    def test_bonus_at_63(self, ruleset_id, upper, bonus):
        sheet = _upper_sheet_totalling(upper)
        breakdown = totals(ruleset_id, sheet)
        assert (breakdown.upper, breakdown.upper_bonus) == (upper, bonus)

    def test_bonus_shows_as_soon_as_the_threshold_is_crossed(self):
        """001: the bonus is added as soon as 63 is reached, even with boxes still free."""
        breakdown = totals("yacht-bonus", {"sixes": 30, "fives": 25, "fours": 8})
        assert breakdown.upper_bonus == 35
        assert breakdown.as_dict() == {
            "upper": 63,
            "upper_bonus": 35,
            "lower": 0,
            "extra_bonus": 0,
            "total": 98,
        }

    def test_total_is_the_sum_of_its_parts(self):
        breakdown = totals("yahtzee", {"sixes": 24, "chance": 20, "yahtzee": 50}, 200)
        assert breakdown.as_dict() == {
            "upper": 24,
            "upper_bonus": 0,
            "lower": 70,
            "extra_bonus": 200,
            "total": 294,
        }


def _upper_sheet_totalling(points: int) -> dict[str, int]:
    """Number boxes (each a legal score) that add up to ``points``."""
    sheet: dict[str, int] = {}
    for face in range(6, 0, -1):
        count = min(5, points // face)
        sheet[UPPER_IDS[face - 1]] = count * face
        points -= count * face
    assert points == 0
    return sheet


class TestBadScoringInput:
    """Scoring refuses what is not five dice, a known sheet and one of its boxes."""

    @pytest.mark.parametrize(
        "dice",
        [
            [1, 2, 3, 4],
            [1, 2, 3, 4, 5, 6],
            [0, 1, 2, 3, 4],
            [1, 2, 3, 4, 7],
            [1.0, 2, 3, 4, 5],
            [True, 2, 3, 4, 5],
            ["1", 2, 3, 4, 5],
            "12345",
            None,
            12345,
        ],
    )
    def test_invalid_dice(self, dice):
        with pytest.raises(InvalidDice):
            score("yacht", "choice", dice)

    @pytest.mark.parametrize(
        ("ruleset_id", "box"),
        [
            ("yacht", "chance"),
            ("yacht", "small-straight"),
            ("yacht-bonus", "little-straight"),
            ("yahtzee", "yacht"),
            ("yahtzee", "choice"),
            ("yahtzee", "Ones"),
            ("yahtzee", ""),
            ("yahtzee", None),
            ("yahtzee", ["ones"]),
            ("yahtzee", "upper-bonus"),
        ],
    )
    def test_unknown_box(self, ruleset_id, box):
        with pytest.raises(UnknownCategory):
            score(ruleset_id, box, [1, 2, 3, 4, 5])

    def test_a_sheet_naming_a_box_of_another_sheet(self):
        with pytest.raises(UnknownCategory):
            score("yahtzee", "ones", [1, 1, 1, 1, 1], {"yacht": 50})

    @pytest.mark.parametrize("ruleset_id", ["Yacht", "kniffel", "", None, ["yacht"], {}])
    def test_unknown_ruleset(self, ruleset_id):
        with pytest.raises(UnknownRuleset):
            score(ruleset_id, "ones", [1, 1, 1, 1, 1])
