"""The game state machine: what each action records, and how every bad action is refused.

A refused action raises its typed error (with its stable ``code``) and leaves the state exactly
as it was: states are immutable, every action returns a new one.
"""

import copy
import datetime as dt

import pytest
from fairness_testkit import DATE, SEED

from fairness import (
    BoxFilled,
    DiceStream,
    Game,
    GameOver,
    HoldOnFirstRoll,
    InvalidDate,
    InvalidHold,
    JokerForbids,
    NoRollsLeft,
    NotRolled,
    UnknownCategory,
    UnknownRuleset,
)

HOLD_NONE = [False] * 5


def stream(ruleset_id: str = "yahtzee", date: str = DATE) -> DiceStream:
    """The test stream of a sheet."""
    return DiceStream(SEED, date, ruleset_id)


def finished_game(ruleset_id: str) -> Game:
    """A game played to the end: one roll per turn, each scored in the first allowed box."""
    dice = stream(ruleset_id)
    game = Game.new(ruleset_id, DATE)
    while not game.finished:
        rolled = game.roll(None, dice)
        game = rolled.score(rolled.placement().allowed[0])
    return game


class TestActions:
    """Each action returns a new state and appends one transcript entry."""

    def test_new_game(self):
        game = Game.new("yacht-bonus", DATE)
        assert (game.ruleset, game.date, dict(game.boxes), game.dice) == (
            "yacht-bonus",
            DATE,
            {},
            None,
        )
        assert (game.turn, game.rolls_left, game.next_action, game.finished) == (1, 3, 0, False)
        assert game.placement() is None and game.previews() == {}

    def test_new_game_accepts_a_date_object(self):
        assert Game.new("yacht", dt.date(2026, 12, 1)).date == DATE

    def test_first_roll_takes_roll_0_of_the_stream(self):
        dice = stream()
        game = Game.new("yahtzee", DATE).roll(None, dice)
        assert game.dice == dice.roll(0)
        assert game.transcript == (
            {"action": "roll", "hold": HOLD_NONE, "dice": list(dice.roll(0))},
        )
        assert (game.rolls_in_turn, game.rolls_taken, game.rolls_left) == (1, 1, 2)

    def test_held_dice_keep_their_value_and_consume_their_draw(self):
        dice = stream()
        first = Game.new("yahtzee", DATE).roll(HOLD_NONE, dice)
        hold = [True, False, True, False, False]
        second = first.roll(hold, dice)
        drawn = dice.roll(1)
        assert second.dice == tuple(first.dice[p] if hold[p] else drawn[p] for p in range(5))
        assert second.rolls_taken == 2

    def test_score_fills_the_box_and_ends_the_turn(self):
        dice = stream()
        rolled = Game.new("yahtzee", DATE).roll(None, dice)
        game = rolled.score("chance")
        assert game.boxes == {"chance": sum(rolled.dice)}
        assert (game.dice, game.rolls_in_turn, game.turn, game.rolls_left) == (None, 0, 2, 3)
        assert game.transcript[-1] == {
            "action": "score",
            "category": "chance",
            "points": sum(rolled.dice),
            "bonus": 0,
        }

    def test_the_next_turn_continues_the_stream(self):
        dice = stream()
        game = Game.new("yahtzee", DATE).roll(None, dice).score("chance").roll(None, dice)
        assert game.dice == dice.roll(1)

    def test_previews_cover_the_allowed_boxes(self):
        game = Game.new("yacht", DATE).roll(None, stream("yacht"))
        assert set(game.previews()) == set(game.placement().allowed)
        assert game.previews()["choice"] == sum(game.dice)

    @pytest.mark.parametrize(
        ("ruleset_id", "turns"), [("yacht", 12), ("yacht-bonus", 12), ("yahtzee", 13)]
    )
    def test_a_whole_game(self, ruleset_id, turns):
        game = finished_game(ruleset_id)
        assert game.finished and len(game.boxes) == turns == game.turn - 1
        assert game.rolls_left == 0 and game.placement() is None
        parts = game.totals()
        assert parts.total == sum(game.boxes.values()) + parts.upper_bonus + parts.extra_bonus


def assert_refused(game: Game, action, error: type, code: str) -> None:
    """``action(game)`` raises ``error`` with ``code`` and the game is exactly as before."""
    before = copy.deepcopy(game)
    with pytest.raises(error) as raised:
        action(game)
    assert raised.value.code == code
    assert str(raised.value)
    assert game == before
    assert game.transcript == before.transcript


class TestBadHold:
    """A hold is exactly five booleans (None means hold nothing)."""

    @pytest.mark.parametrize(
        "hold",
        [
            [1, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
            ["true", False, False, False, False],
            [False] * 4,
            [False] * 6,
            [None, False, False, False, False],
            "FFFFF",
            5,
            {},
            [],
            {0: False, 1: False, 2: False, 3: False, 4: False},
        ],
    )
    def test_not_five_booleans(self, hold):
        game = Game.new("yahtzee", DATE).roll(None, stream())
        assert_refused(game, lambda g: g.roll(hold, stream()), InvalidHold, "invalid-hold")

    def test_invalid_on_the_first_roll_too(self):
        assert_refused(
            Game.new("yacht", DATE),
            lambda g: g.roll([1] * 5, stream("yacht")),
            InvalidHold,
            "invalid-hold",
        )

    def test_a_tuple_hold_is_accepted(self):
        game = Game.new("yahtzee", DATE).roll(None, stream())
        assert game.roll((True, False, False, False, True), stream()).rolls_in_turn == 2

    @pytest.mark.parametrize("hold", [[True, False, False, False, False], [True] * 5])
    def test_holding_on_a_turns_first_roll(self, hold):
        game = Game.new("yahtzee", DATE)
        assert_refused(
            game, lambda g: g.roll(hold, stream()), HoldOnFirstRoll, "hold-on-first-roll"
        )
        later_turn = game.roll(None, stream()).score("chance")
        assert_refused(
            later_turn, lambda g: g.roll(hold, stream()), HoldOnFirstRoll, "hold-on-first-roll"
        )


class TestBadTurn:
    """Three rolls a turn at most, and a box needs dice."""

    def test_fourth_roll(self):
        dice = stream()
        game = (
            Game.new("yahtzee", DATE).roll(None, dice).roll(HOLD_NONE, dice).roll(HOLD_NONE, dice)
        )
        assert game.rolls_left == 0
        assert_refused(game, lambda g: g.roll(HOLD_NONE, dice), NoRollsLeft, "no-rolls-left")

    def test_scoring_before_rolling(self):
        assert_refused(
            Game.new("yahtzee", DATE), lambda g: g.score("chance"), NotRolled, "not-rolled"
        )

    def test_scoring_before_rolling_in_a_later_turn(self):
        game = Game.new("yahtzee", DATE).roll(None, stream()).score("chance")
        assert_refused(game, lambda g: g.score("ones"), NotRolled, "not-rolled")


class TestBadBox:
    """The box must be on the sheet, free, and allowed by the Joker rule."""

    @pytest.mark.parametrize("box", ["yacht", "little-straight", "Chance", "", None, 6, ["ones"]])
    def test_unknown_box(self, box):
        game = Game.new("yahtzee", DATE).roll(None, stream())
        assert_refused(game, lambda g: g.score(box), UnknownCategory, "unknown-category")

    def test_already_filled_box(self):
        dice = stream()
        game = Game.new("yahtzee", DATE).roll(None, dice).score("chance").roll(None, dice)
        assert_refused(game, lambda g: g.score("chance"), BoxFilled, "box-filled")

    def test_a_box_filled_with_zero_is_filled(self):
        dice = stream()
        game = Game.new("yahtzee", DATE).roll(None, dice).score("yahtzee").roll(None, dice)
        assert game.boxes["yahtzee"] == 0
        assert_refused(game, lambda g: g.score("yahtzee"), BoxFilled, "box-filled")

    def test_box_the_joker_forbids(self):
        game = Game(
            "yahtzee",
            DATE,
            boxes={"yahtzee": 50},
            dice=(2, 2, 2, 2, 2),
            rolls_in_turn=1,
            rolls_taken=2,
        )
        assert_refused(game, lambda g: g.score("chance"), JokerForbids, "joker-forbids")


class TestAfterTheEnd:
    """Once every box is filled, every action is refused with game-over."""

    @pytest.mark.parametrize("ruleset_id", ["yacht", "yacht-bonus", "yahtzee"])
    @pytest.mark.parametrize(
        "action",
        [
            lambda g, s: g.roll(None, s),
            lambda g, s: g.roll(HOLD_NONE, s),
            lambda g, s: g.roll([True] * 5, s),
            lambda g, s: g.roll("not a hold", s),
            lambda g, s: g.score("chance"),
            lambda g, s: g.score("ones"),
            lambda g, s: g.score("no-such-box"),
        ],
    )
    def test_any_action(self, ruleset_id, action):
        game = finished_game(ruleset_id)
        dice = stream(ruleset_id)
        assert_refused(game, lambda g: action(g, dice), GameOver, "game-over")


class TestBadGameSetup:
    """A game needs a known sheet, an ISO date, and a stream made for that sheet and date."""

    @pytest.mark.parametrize("ruleset_id", ["Yacht", "kniffel", "", None, ["yacht"]])
    def test_unknown_ruleset(self, ruleset_id):
        with pytest.raises(UnknownRuleset) as raised:
            Game.new(ruleset_id, DATE)
        assert raised.value.code == "unknown-ruleset"

    @pytest.mark.parametrize(
        "date", ["2026-02-29", "2026-12-1", "01-12-2026", "2026-12-01Z", "", None, 20261201]
    )
    def test_invalid_date(self, date):
        with pytest.raises(InvalidDate) as raised:
            Game.new("yacht", date)
        assert raised.value.code == "invalid-date"

    @pytest.mark.parametrize(
        ("ruleset_id", "date"), [("yacht-bonus", DATE), ("yacht", "2026-12-02")]
    )
    def test_a_stream_of_another_sheet_or_date_is_refused(self, ruleset_id, date):
        game = Game.new("yacht", DATE)
        with pytest.raises(ValueError, match="does not belong"):
            game.roll(None, stream(ruleset_id, date))
