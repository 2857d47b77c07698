"""Further five-of-a-kinds on the 13-box sheet: the +100 bonus and the forced Joker placement.

Documents 003 and 004: once the Yahtzee box is filled, another five-of-a-kind earns +100 if
that box holds 50 (nothing if it holds 0) and, under the Joker rule, must go in the matching
upper box if free, else in any free lower box (Full House 25, straights 30/40), else a 0 in a
free upper box. The variants drop the Joker, the +100, or both.
"""

import pytest

from fairness import Game, JokerForbids, extra_bonus, placement, score
from fairness.rules import JOKER_LOWER, JOKER_UPPER, JOKER_UPPER_ZERO

SIXES = [6, 6, 6, 6, 6]
LOWER = (
    "three-of-a-kind",
    "four-of-a-kind",
    "full-house",
    "small-straight",
    "large-straight",
    "yahtzee",
    "chance",
)
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
JOKER_RULESETS = ("yahtzee", "yahtzee-no-bonus")
NO_JOKER_RULESETS = ("yahtzee-no-joker", "yahtzee-no-joker-no-bonus")


class TestFirstFiveOfAKind:
    """The first five-of-a-kind is free to go anywhere at its normal value, with no bonus."""

    @pytest.mark.parametrize("ruleset_id", JOKER_RULESETS + NO_JOKER_RULESETS)
    def test_goes_anywhere(self, ruleset_id):
        placed = placement(ruleset_id, SIXES, {})
        assert placed.allowed == UPPER + LOWER
        assert placed.restriction is None and placed.reason() is None
        assert extra_bonus(ruleset_id, SIXES, {}) == 0
        assert score(ruleset_id, "full-house", SIXES, {}) == 0


class TestJokerPlacementOrder:
    """Under the Joker rule the free boxes narrow in the documented order."""

    @pytest.mark.parametrize("ruleset_id", JOKER_RULESETS)
    @pytest.mark.parametrize("yahtzee_box", [50, 0])
    def test_matching_upper_box_first(self, ruleset_id, yahtzee_box):
        placed = placement(ruleset_id, SIXES, {"yahtzee": yahtzee_box})
        assert placed.allowed == ("sixes",)
        assert (placed.restriction, placed.face, placed.box) == (JOKER_UPPER, 6, "sixes")
        assert score(ruleset_id, "sixes", SIXES, {"yahtzee": yahtzee_box}) == 30

    @pytest.mark.parametrize("ruleset_id", JOKER_RULESETS)
    @pytest.mark.parametrize("yahtzee_box", [50, 0])
    def test_then_any_free_lower_box_at_its_joker_value(self, ruleset_id, yahtzee_box):
        sheet = {"yahtzee": yahtzee_box, "sixes": 18, "chance": 22}
        placed = placement(ruleset_id, SIXES, sheet)
        assert placed.allowed == (
            "three-of-a-kind",
            "four-of-a-kind",
            "full-house",
            "small-straight",
            "large-straight",
        )
        assert (placed.restriction, placed.box) == (JOKER_LOWER, "sixes")
        points = {box: score(ruleset_id, box, SIXES, sheet) for box in placed.allowed}
        assert points == {
            "three-of-a-kind": 30,
            "four-of-a-kind": 30,
            "full-house": 25,
            "small-straight": 30,
            "large-straight": 40,
        }

    @pytest.mark.parametrize("ruleset_id", JOKER_RULESETS)
    def test_chance_scores_the_sum_under_the_joker(self, ruleset_id):
        sheet = {"yahtzee": 50, "twos": 6}
        assert placement(ruleset_id, [2] * 5, sheet).allowed[-1] == "chance"
        assert score(ruleset_id, "chance", [2] * 5, sheet) == 10

    @pytest.mark.parametrize("ruleset_id", JOKER_RULESETS)
    def test_last_a_zero_in_a_free_upper_box(self, ruleset_id):
        sheet = {box: 0 for box in LOWER} | {"sixes": 24, "twos": 8}
        placed = placement(ruleset_id, SIXES, sheet)
        assert placed.allowed == ("ones", "threes", "fours", "fives")
        assert placed.restriction == JOKER_UPPER_ZERO
        assert all(score(ruleset_id, box, SIXES, sheet) == 0 for box in placed.allowed)

    def test_no_free_box_of_either_kind_means_the_sheet_is_full(self):
        sheet = {box: 0 for box in UPPER + LOWER}
        assert placement("yahtzee", SIXES, sheet).allowed == ()

    def test_joker_values_need_a_filled_yahtzee_box(self):
        assert score("yahtzee", "full-house", SIXES, {"sixes": 30}) == 0
        assert score("yahtzee", "large-straight", SIXES, {"sixes": 30}) == 0

    @pytest.mark.parametrize(
        ("sheet", "language", "reason"),
        [
            (
                {"yahtzee": 0},
                "en",
                "Joker rule: five 6s must go in the Sixes box while it is free: 30 points.",
            ),
            (
                {"yahtzee": 50},
                "fr",
                "Règle du joker : cinq 6 vont obligatoirement dans la case Six "
                "tant qu'elle est libre : 30 points. Votre case Yahtzee vaut 50 : vous gagnez "
                "aussi +100.",
            ),
            (
                {"yahtzee": 0, "sixes": 24, "three-of-a-kind": 20, "four-of-a-kind": 0,
                 "chance": 22},
                "en",
                "Joker rule: the Sixes box is already filled, so these five 6s go in a free "
                "lower box: Full House 25, Small Straight 30, Large Straight 40.",
            ),
            (
                {"yahtzee": 50, "sixes": 24, "full-house": 25},
                "en",
                "Joker rule: the Sixes box is already filled, so these five 6s go in a free "
                "lower box: Three of a Kind 30, Four of a Kind 30, Small Straight 30, "
                "Large Straight 40, Chance 30. Your Yahtzee box holds 50, so you also get +100.",
            ),
            (
                {"yahtzee": 0, "sixes": 24, "three-of-a-kind": 20, "four-of-a-kind": 0,
                 "full-house": 25, "chance": 22},
                "fr",
                "Règle du joker : la case Six est déjà remplie, ces cinq 6 vont donc dans une case "
                "libre du bas : Petite suite 30, Grande suite 40.",
            ),
            (
                {box: 0 for box in LOWER} | {"sixes": 24},
                "en",
                "Joker rule: the lower section is full, so a 0 goes in a free upper box.",
            ),
            (
                {box: 0 for box in LOWER if box != "yahtzee"} | {"yahtzee": 50, "sixes": 24},
                "de",
                "Joker rule: the lower section is full, so a 0 goes in a free upper box. "
                "Your Yahtzee box holds 50, so you also get +100.",
            ),
        ],
    )
    def test_the_restriction_says_why(self, sheet, language, reason):
        assert placement("yahtzee", SIXES, sheet).reason(language) == reason


class TestExtraBonus:
    """+100 per further five-of-a-kind, only while the Yahtzee box holds 50, on sheets with it."""

    @pytest.mark.parametrize(
        ("ruleset_id", "sheet", "bonus"),
        [
            ("yahtzee", {"yahtzee": 50}, 100),
            ("yahtzee", {"yahtzee": 0}, 0),
            ("yahtzee-no-joker", {"yahtzee": 50}, 100),
            ("yahtzee-no-joker", {"yahtzee": 0}, 0),
            ("yahtzee-no-bonus", {"yahtzee": 50}, 0),
            ("yahtzee-no-joker-no-bonus", {"yahtzee": 50}, 0),
            ("yacht-bonus", {"yacht": 50}, 0),
            ("yacht", {"yacht": 50}, 0),
        ],
    )
    def test_bonus(self, ruleset_id, sheet, bonus):
        assert extra_bonus(ruleset_id, SIXES, sheet) == bonus

    def test_no_bonus_for_dice_that_are_not_five_of_a_kind(self):
        assert extra_bonus("yahtzee", [6, 6, 6, 6, 5], {"yahtzee": 50}) == 0

    def test_second_yacht_on_the_12_box_sheets_is_just_dice(self):
        """001: a second five-of-a-kind scores where it goes, nothing more, no Joker."""
        sheet = {"yacht": 50}
        placed = placement("yacht-bonus", SIXES, sheet)
        assert placed.restriction is None and "full-house" in placed.allowed
        assert score("yacht-bonus", "full-house", SIXES, sheet) == 0
        assert score("yacht-bonus", "four-of-a-kind", SIXES, sheet) == 30


class TestVariantsWithoutJoker:
    """Without the Joker a further five-of-a-kind goes anywhere at its normal value."""

    @pytest.mark.parametrize("ruleset_id", NO_JOKER_RULESETS)
    def test_anywhere_at_normal_value(self, ruleset_id):
        sheet = {"yahtzee": 50}
        placed = placement(ruleset_id, SIXES, sheet)
        assert placed.restriction is None
        assert placed.allowed == UPPER + tuple(box for box in LOWER if box != "yahtzee")
        assert score(ruleset_id, "full-house", SIXES, sheet) == 0
        assert score(ruleset_id, "small-straight", SIXES, sheet) == 0
        assert score(ruleset_id, "ones", SIXES, sheet) == 0


class TestJokerInAGame:
    """The game enforces the placement and books the +100 with the score."""

    def _game_at_second_yahtzee(self, ruleset_id: str, yahtzee_box: int, sixes: int | None):
        """A game whose sheet is set and whose current dice are five sixes."""
        boxes = {"yahtzee": yahtzee_box} | ({} if sixes is None else {"sixes": sixes})
        return Game(
            ruleset_id,
            "2026-12-01",
            boxes=boxes,
            dice=tuple(SIXES),
            rolls_in_turn=1,
            rolls_taken=len(boxes) + 1,
        )

    def test_forbidden_box_raises_and_changes_nothing(self):
        game = self._game_at_second_yahtzee("yahtzee", 50, None)
        with pytest.raises(JokerForbids, match="Sixes box while it is free"):
            game.score("full-house")
        assert game == self._game_at_second_yahtzee("yahtzee", 50, None)

    def test_allowed_box_books_the_bonus(self):
        game = self._game_at_second_yahtzee("yahtzee", 50, 18).score("large-straight")
        assert game.boxes["large-straight"] == 40
        assert game.extra_bonus == 100
        assert game.transcript[-1] == {
            "action": "score",
            "category": "large-straight",
            "points": 40,
            "bonus": 100,
        }

    def test_zero_in_the_yahtzee_box_still_forces_the_joker_without_bonus(self):
        game = self._game_at_second_yahtzee("yahtzee", 0, None)
        with pytest.raises(JokerForbids):
            game.score("chance")
        scored = game.score("sixes")
        assert (scored.boxes["sixes"], scored.extra_bonus) == (30, 0)

    def test_no_joker_variant_lets_it_go_anywhere_with_the_bonus(self):
        game = self._game_at_second_yahtzee("yahtzee-no-joker", 50, None).score("full-house")
        assert (game.boxes["full-house"], game.extra_bonus) == (0, 100)
