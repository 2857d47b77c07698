"""Replaying a transcript check by check, on a day's dice stream drawn once, scoring cached.

``replay_checks`` accepts exactly what ``fairness.game.replay`` accepts but goes on after a
mismatch, naming every wrong entry; ``SharedStream`` and ``CachedRules`` let a whole day's
games share the stream and the scoring.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass

from .. import rules
from ..dice import DICE_PER_ROLL, ROLLS_PER_TURN, DiceStream, roll_slot, slots_of_game
from ..scoring import is_five_of_a_kind
from ..sheets import UPPER, UPPER_BONUS_THRESHOLD, get_ruleset
from .checks import Check, dice_text, hold_text

ROLL_KEYS = frozenset({"action", "hold", "dice"})
SCORE_KEYS = frozenset({"action", "category", "points", "bonus"})


@dataclass
class Replayed:
    """A replay's outcome: the checks (failures only unless explained), the sheet and totals."""

    checks: list
    boxes: dict
    extra_bonus: int
    ruleset: str

    @property
    def totals(self) -> rules.Totals:
        """The recomputed breakdown."""
        return rules.totals(self.ruleset, self.boxes, self.extra_bonus)


class SharedStream:
    """A day's dice stream computed once for all the day's games: every slot a game can take."""

    def __init__(self, stream: DiceStream):
        """Draw all the slots of a full game (3 per box) from ``stream``."""
        self.date = stream.date
        self.ruleset = stream.ruleset
        self.dealing = stream.dealing
        count = slots_of_game(len(get_ruleset(stream.ruleset).categories))
        self.rolls = [stream.roll(number) for number in range(count)]

    def roll(self, number: int) -> tuple:
        """The five dice of slot ``number``."""
        return self.rolls[number]

    def deal(self, turn: int, roll_in_turn: int, rolls_taken: int) -> tuple:
        """``DiceStream.deal``: the fresh dice of a game's roll, by the stream's dealing."""
        return self.rolls[roll_slot(self.dealing, turn, roll_in_turn, rolls_taken)]


def replay_checks(transcript, stream: DiceStream | SharedStream, explain: bool = False,
                  scorer: "CachedRules | None" = None) -> Replayed:
    """Replay ``transcript`` on ``stream``: a check per roll and per box, and one for completion.

    It accepts exactly the transcripts ``fairness.game.replay`` accepts, but goes on after a
    mismatch (with what the rules give) so that every wrong entry is named. With ``explain``
    False only failing checks are kept (the whole-day audit's fast path).
    """
    ruleset = get_ruleset(stream.ruleset)
    scorer = scorer or CachedRules(ruleset.id)
    state = ReplayState(ruleset, explain)
    if not isinstance(transcript, list | tuple):
        state.fail("transcript", "the transcript is not a list of actions")
        return state.result()
    for index, entry in enumerate(transcript):
        action = entry.get("action") if isinstance(entry, Mapping) else None
        if action == "roll":
            state.roll(index, entry, stream)
        elif action == "score":
            state.score(index, entry, scorer)
        else:
            state.fail(f"action {index}", f"unknown action {action!r} (a roll or a score)")
    complete = len(state.boxes) == len(ruleset.categories)
    state.record("game complete", complete,
                 f"{len(state.boxes)} of {len(ruleset.categories)} boxes filled")
    return state.result()


def rolled(drawn: tuple, dice: tuple | None, hold) -> tuple:
    """The five dice a roll leaves: the stream's ``drawn`` dice, except where ``hold`` keeps
    the turn's current ``dice`` (None before its first roll, when nothing may be held)."""
    if dice is None:
        return tuple(drawn)
    kept = list(drawn)
    for position, held in enumerate(hold):
        if held:
            kept[position] = dice[position]
    return tuple(kept)


def turn_roll_problem(rolls_in_turn: int, dice: tuple | None, hold) -> str | None:
    """Why a roll with five true/false ``hold`` flags may not be taken at this point of the
    turn (``rolls_in_turn`` rolls so far, its current ``dice``), or None."""
    if rolls_in_turn >= ROLLS_PER_TURN:
        return f"no rolls left: a turn has {ROLLS_PER_TURN} rolls"
    if dice is None and any(hold):
        return f"hold {hold_text(hold)} on a turn's first roll (nothing can be held yet)"
    return None


class CachedRules:
    """The core's scoring of one sheet, cached per (box, dice as a multiset, first roll): at
    most 252 multisets of five dice, and the same dice recur all day.

    Its callers pass boxes of the sheet, five dice 1..6 as a tuple, and sheets of such boxes
    (the replay checks them first), so a further five-of-a-kind, whose points depend on the
    sheet, is scored by the rules without validating them again.
    """

    def __init__(self, ruleset_id: str):
        """Bind the cache to a sheet."""
        self.ruleset = get_ruleset(ruleset_id)
        self._points: dict = {}
        self._upper = tuple(c.id for c in self.ruleset.categories if c.section == UPPER)
        self._zeros = (0,) * len(self._upper)
        self._one_column = self.ruleset.columns == 1
        self._upper_bonus = self.ruleset.upper_bonus
        self._five_boxes = self.ruleset.boxes_of_kind(self.ruleset.five_of_a_kind_box)

    def sheet_matters(self, dice: tuple, boxes: Mapping) -> bool:
        """True when the sheet can change what ``dice`` score: a further five-of-a-kind, once
        every box of its kind is filled. Before, the rules (the Joker rule, the extra bonus,
        the doble generala's condition) score five of a kind as on an empty sheet."""
        return is_five_of_a_kind(dice) and rules.five_boxes_filled(self.ruleset, boxes)

    def five_boxes_filled(self, boxes: Mapping) -> bool:
        """True when every box of the sheet's five-of-a-kind kind is filled in ``boxes``: then
        the sheet matters to five of a kind (``sheet_matters``): ``rules.five_boxes_filled``
        with the sheet's boxes of that kind looked up once."""
        return bool(self._five_boxes) and all(map(boxes.__contains__, self._five_boxes))

    def further_five(self, category: str, dice: tuple, boxes: Mapping,
                     first_roll: bool) -> tuple[int, int] | None:
        """(points, extra bonus) of a further five of a kind ``dice`` (``sheet_matters`` is
        True) scored in box ``category`` of the sheet ``boxes`` where it is free, exactly as
        ``allowed``, ``points`` and ``bonus`` give them; None when the Joker rule forbids that
        box."""
        ruleset = self.ruleset
        if ruleset.joker and category not in rules.joker_boxes(ruleset, dice, boxes)[0]:
            return None
        box = ruleset.category(category)
        return (rules.score_of_valid(ruleset, box, dice, boxes, first_roll),
                rules.extra_bonus_of_valid(ruleset, dice, boxes, box))

    def points(self, category: str, dice: tuple, boxes: Mapping, first_roll: bool = False) -> int:
        """``rules.score``: cached unless a further five-of-a-kind makes the sheet matter."""
        if self.sheet_matters(dice, boxes):
            return rules.score_of_valid(self.ruleset, self.ruleset.category(category), dice,
                                        boxes, first_roll)
        return self.points_anywhere(category, dice, first_roll)

    def points_anywhere(self, category: str, dice: tuple, first_roll: bool) -> int:
        """What ``dice`` score in ``category`` on a sheet where they do not make it matter
        (``sheet_matters`` is False, as on an empty sheet): cached per dice multiset."""
        key = (category, tuple(sorted(dice)), first_roll)  # the order of the dice is moot
        points = self._points.get(key)
        if points is None:
            points = self._points[key] = self.points_on_empty_sheet(category, dice, first_roll)
        return points

    def points_on_empty_sheet(self, category: str, dice: tuple, first_roll: bool) -> int:
        """What ``dice`` score in ``category`` on an empty sheet (``points_anywhere`` without
        its cache, for a caller that keeps what it needs)."""
        return rules.score_of_valid(self.ruleset, self.ruleset.category(category), dice, {},
                                    first_roll)

    def allowed(self, category: str, dice: tuple, boxes: Mapping) -> rules.Placement | None:
        """None when ``category`` is free and allowed, else the placement that forbids it."""
        if self.joker(dice, boxes) and category not in rules.joker_boxes(self.ruleset, dice,
                                                                         boxes)[0]:
            return rules.placement(self.ruleset.id, dice, boxes)
        return None

    def bonus(self, dice: tuple, boxes: Mapping, category: str | None = None) -> int:
        """``rules.extra_bonus`` for dice scored in ``category`` (zero unless five of a kind)."""
        if not self.sheet_matters(dice, boxes):
            return 0
        box = self.ruleset.category(category) if category is not None else None
        return rules.extra_bonus_of_valid(self.ruleset, dice, boxes, box)

    def joker(self, dice: tuple, boxes: Mapping) -> bool:
        """True when the forced Joker rule applies to these dice on this sheet."""
        return rules.joker_applies(self.ruleset, dice, boxes)

    def total(self, boxes: Mapping, extra_bonus_points: int) -> int:
        """The grand total of ``totals``, without building the breakdown."""
        if not self._one_column:
            return self.totals(boxes, extra_bonus_points).total
        upper = sum(map(boxes.get, self._upper, self._zeros))
        bonus = self._upper_bonus if upper >= UPPER_BONUS_THRESHOLD else 0
        return sum(boxes.values()) + bonus + extra_bonus_points

    def totals(self, boxes: Mapping, extra_bonus_points: int) -> rules.Totals:
        """``rules.totals`` for a sheet whose boxes are known valid, without re-validating."""
        if self.ruleset.columns > 1:
            return rules.totals_of_valid(self.ruleset, boxes, extra_bonus_points)
        upper = sum(map(boxes.get, self._upper, self._zeros))
        bonus = self.ruleset.upper_bonus if upper >= UPPER_BONUS_THRESHOLD else 0
        return rules.Totals(upper, bonus, sum(boxes.values()) - upper, extra_bonus_points)


class ReplayState:
    """The sheet being rebuilt while a transcript is checked."""

    def __init__(self, ruleset, explain: bool):
        """An empty sheet of ``ruleset``."""
        self.ruleset = ruleset
        self.explain = explain
        self.checks: list[Check] = []
        self.boxes: dict[str, int] = {}
        self.dice: tuple | None = None
        self.rolls_in_turn = 0
        self.rolls_taken = 0
        self.extra_bonus = 0

    def record(self, name: str, ok: bool, detail: str) -> None:
        """Keep a check (a passing one only when explaining)."""
        if self.explain or not ok:
            self.checks.append(Check(name, ok, detail))

    def fail(self, name: str, detail: str) -> None:
        """Keep a failing check."""
        self.checks.append(Check(name, False, detail))

    def result(self) -> Replayed:
        """The outcome so far."""
        return Replayed(self.checks, self.boxes, self.extra_bonus, self.ruleset.id)

    @property
    def finished(self) -> bool:
        """True once every box is filled."""
        return len(self.boxes) == len(self.ruleset.categories)

    def roll(self, index: int, entry: Mapping, stream: DiceStream) -> None:
        """Check a roll entry; when legal, continue with the dice the stream gives."""
        name = f"roll {self.rolls_taken}"
        hold = entry.get("hold")
        problem = self.roll_problem(entry, hold)
        if problem:
            self.fail(name, f"action {index}: {problem}")
            return
        slot = roll_slot(stream.dealing, len(self.boxes), self.rolls_in_turn, self.rolls_taken)
        drawn = stream.roll(slot)
        dice = rolled(drawn, self.dice, hold)
        recorded = entry["dice"]
        exact = (isinstance(recorded, list | tuple) and len(recorded) == 5
                 and all(type(d) is int for d in recorded) and tuple(recorded) == dice)
        if self.explain or not exact:  # the detail is written only when it is kept
            first = DICE_PER_ROLL * slot
            text = (f"stream dice {first}–{first + 4} give {dice_text(drawn)} with hold "
                    f"{hold_text(hold)} → {dice_text(dice)}")
            self.record(name, exact,
                        text if exact else f"{text} but the transcript records {recorded!r}")
        self.dice = dice
        self.rolls_in_turn += 1
        self.rolls_taken += 1

    def roll_problem(self, entry: Mapping, hold) -> str | None:
        """Why this roll is not a legal, well-formed roll entry now, or None."""
        if set(entry) != ROLL_KEYS:
            return f"a roll entry has exactly the keys action, dice, hold; got {sorted(entry)}"
        if not isinstance(hold, list | tuple) or len(hold) != 5 or any(
            type(flag) is not bool for flag in hold
        ):
            return f"hold {hold!r} is not five true/false values"
        if self.finished:
            return "the game is over: every box is filled"
        return turn_roll_problem(self.rolls_in_turn, self.dice, hold)

    def score(self, index: int, entry: Mapping, scorer: CachedRules) -> None:
        """Check a score entry; when legal, fill the box with what the rules give."""
        category = entry.get("category")
        name = f"box {category if isinstance(category, str) else _compact(category)}"
        problem = self.score_problem(entry, scorer)
        if problem:
            self.fail(name, f"action {index}: {problem}")
            return
        points = scorer.points(category, self.dice, self.boxes, self.rolls_in_turn == 1)
        bonus = scorer.bonus(self.dice, self.boxes, category)
        recorded = (entry["points"], entry["bonus"])
        exact = (type(recorded[0]) is int and type(recorded[1]) is int
                 and recorded == (points, bonus))
        if self.explain or not exact:  # the detail is written only when it is kept
            joker = " (Joker rule)" if scorer.joker(self.dice, self.boxes) else ""
            text = (f"turn {len(self.boxes) + 1}: {dice_text(self.dice)} score {points} in "
                    f"{category}{joker}, bonus {bonus}")
            self.record(name, exact, f"{text} = recorded {points}, bonus {bonus}" if exact else
                        f"{text} but the transcript records points {recorded[0]!r}, "
                        f"bonus {recorded[1]!r}")
        self.boxes[category] = points
        self.extra_bonus += bonus
        self.dice = None
        self.rolls_in_turn = 0

    def score_problem(self, entry: Mapping, scorer: CachedRules) -> str | None:
        """Why this score is not a legal, well-formed score entry now, or None."""
        category = entry.get("category")
        if set(entry) != SCORE_KEYS:
            return (f"a score entry has exactly the keys action, bonus, category, points; "
                    f"got {sorted(entry)}")
        if self.finished:
            return "the game is over: every box is filled"
        if self.dice is None:
            return "a box is scored before the turn's first roll"
        if not isinstance(category, str) or self.ruleset.category(category) is None:
            return f"{category!r} is not a box of {self.ruleset.id}"
        if category in self.boxes:
            return f"the {category} box is already filled"
        forbidding = scorer.allowed(category, self.dice, self.boxes)
        if forbidding is not None:
            return f"{forbidding.reason('en')} ({dice_text(self.dice)} may not go in {category})"
        return None


def _compact(value) -> str:
    """A value as compact JSON for a check's name or message (repr if it has none)."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(value)
