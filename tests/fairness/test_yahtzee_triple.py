"""Triple Yahtzee: three Yahtzee columns worth ×1, ×2 and ×3, an upper bonus per column, and a
further Yahtzee (bonus and Joker) once all three Yahtzee boxes are filled."""

import itertools

import pytest

from fairness import RULESETS, Game, JokerForbids, extra_bonus, placement, score, totals
from fairness.rules import JOKER_LOWER, JOKER_UPPER, JOKER_UPPER_ZERO

ALL_THROWS = list(itertools.combinations_with_replacement(range(1, 7), 5))
TRIPLE = RULESETS["yahtzee-triple"]
YAHTZEE_BOXES = RULESETS["yahtzee"].category_ids
FIVE_FOURS = [4] * 5


def test_39_boxes_column_by_column():
    assert TRIPLE.category_ids == tuple(f"{box}@{k}" for k in (1, 2, 3) for box in YAHTZEE_BOXES)
    assert TRIPLE.category("full-house@2").kind == "full-house"
    assert TRIPLE.boxes_of_kind("yahtzee") == ("yahtzee@1", "yahtzee@2", "yahtzee@3")


@pytest.mark.parametrize("box", YAHTZEE_BOXES)
@pytest.mark.parametrize("column", [1, 2, 3])
def test_each_box_is_the_yahtzee_box_times_its_column(box, column):
    for throw in ALL_THROWS:
        assert score("yahtzee-triple", f"{box}@{column}", throw) == \
            column * score("yahtzee", box, throw), throw


def test_examples():
    assert score("yahtzee-triple", "full-house@3", [2, 2, 5, 5, 5]) == 75
    assert score("yahtzee-triple", "chance@2", [6, 5, 4, 3, 1]) == 38
    assert score("yahtzee-triple", "yahtzee@3", FIVE_FOURS) == 150


@pytest.mark.parametrize(
    ("column", "upper", "bonus"),
    [(1, 63, 35), (1, 62, 0), (2, 126, 70), (2, 124, 0), (3, 189, 105), (3, 186, 0)])
def test_upper_bonus_per_column(column, upper, bonus):
    """Column k's bonus is 35 × k once its upper boxes (already × k) total 63 × k."""
    raw, sheet = upper // column, {}
    for face in range(6, 0, -1):
        count = min(5, raw // face)
        sheet[f"{YAHTZEE_BOXES[face - 1]}@{column}"] = count * face * column
        raw -= count * face
    breakdown = totals("yahtzee-triple", sheet)
    assert (breakdown.upper, breakdown.upper_bonus) == (upper, bonus)


def test_bonuses_of_three_columns_add_up():
    sheet = {f"sixes@{k}": 30 * k for k in (1, 2, 3)}
    sheet |= {f"fives@{k}": 25 * k for k in (1, 2, 3)}
    sheet |= {f"fours@{k}": 8 * k for k in (1, 2)}
    assert totals("yahtzee-triple", sheet).upper_bonus == 35 + 70


class TestFurtherYahtzee:
    """A further Yahtzee comes once all three Yahtzee boxes are filled."""

    ALL_YAHTZEES = {"yahtzee@1": 50, "yahtzee@2": 100, "yahtzee@3": 150}

    def test_before_the_third_yahtzee_box_is_filled_five_equal_go_anywhere(self):
        sheet = {"yahtzee@1": 50, "yahtzee@3": 150}
        assert placement("yahtzee-triple", FIVE_FOURS, sheet).restriction is None
        assert score("yahtzee-triple", "full-house@1", FIVE_FOURS, sheet) == 0
        assert extra_bonus("yahtzee-triple", FIVE_FOURS, sheet, "fours@1") == 0

    def test_joker_upper_offers_every_free_matching_box(self):
        sheet = {**self.ALL_YAHTZEES, "fours@2": 8}
        placed = placement("yahtzee-triple", FIVE_FOURS, sheet)
        assert (placed.restriction, placed.allowed, placed.points) == (
            JOKER_UPPER, ("fours@1", "fours@3"), (20, 60))
        assert "Fours" in placed.reason("en") and "+100 × the column" in placed.reason("en")

    def test_joker_lower_values_times_the_column(self):
        sheet = {**self.ALL_YAHTZEES, "fours@1": 8, "fours@2": 16, "fours@3": 24}
        placed = placement("yahtzee-triple", FIVE_FOURS, sheet)
        assert placed.restriction == JOKER_LOWER
        worth = dict(zip(placed.allowed, placed.points, strict=True))
        assert (worth["full-house@1"], worth["small-straight@2"], worth["large-straight@3"]) \
            == (25, 60, 120)
        assert worth["chance@3"] == 60

    def test_extra_bonus_is_100_times_the_column_scored_in(self):
        for column in (1, 2, 3):
            assert extra_bonus("yahtzee-triple", FIVE_FOURS, self.ALL_YAHTZEES,
                               f"chance@{column}") == 100 * column

    def test_no_extra_bonus_when_a_yahtzee_box_holds_zero(self):
        sheet = {**self.ALL_YAHTZEES, "yahtzee@2": 0}
        assert extra_bonus("yahtzee-triple", FIVE_FOURS, sheet, "fours@3") == 0
        assert placement("yahtzee-triple", FIVE_FOURS, sheet).restriction == JOKER_UPPER

    def test_joker_upper_zero_when_the_lower_boxes_are_full(self):
        sheet = {f"{box}@{k}": 0 for k in (1, 2, 3) for box in YAHTZEE_BOXES[6:]}
        sheet |= {"fours@1": 8, "fours@2": 16, "fours@3": 24}
        placed = placement("yahtzee-triple", FIVE_FOURS, sheet)
        assert placed.restriction == JOKER_UPPER_ZERO and set(placed.points) == {0}
        assert "fours@1" not in placed.allowed

    def test_a_game_refuses_a_box_the_joker_forbids(self):
        transcript = []
        boxes = {**self.ALL_YAHTZEES}
        for box, points in boxes.items():
            transcript += [{"action": "roll", "hold": [False] * 5, "dice": [4] * 5},
                           {"action": "score", "category": box, "points": points, "bonus": 0}]
        transcript.append({"action": "roll", "hold": [False] * 5, "dice": [4] * 5})
        game = Game.from_transcript("yahtzee-triple", "2026-12-01", transcript)
        with pytest.raises(JokerForbids):
            game.score("chance@2")
        assert game.score("fours@3").transcript[-1] == {
            "action": "score", "category": "fours@3", "points": 60, "bonus": 300}
