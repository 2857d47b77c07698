"""The review of a game: what each decision gave away against perfect play, and the luck.

Figures (all in points of expected final score, see docs/strategy.md):
- a *decision* is each action taken with dice showing: a roll after the first (a keep) or a
  score (a box). ``best`` is the largest expected final score of any choice there, ``chosen``
  that of the choice made, ``loss = best - chosen`` (never negative).
- a *roll*'s luck is the expected final score of the position it lands on (its best choice)
  minus the expected final score just before it (the chosen keep, or at a turn's first roll the
  expected final score from the turn's start).
- identity: value now = start + luck - loss, where start is the empty sheet's optimum and value
  now is the final score of a finished game (the expected final score of the last position
  otherwise).

The figures are those of ``evaluate`` and ``ranked_choices`` position by position, computed
with the same floating-point operations in fewer, larger steps: every turn of the game is
valued in one batch (box values, then the keeps, for all its turn-start states at once), and
each decision reads its best choice from those arrays (``_Showing``) instead of ranking every
choice.
"""

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from fairness import FairnessError, Game

from .dice import HAND_INDEX, KEEP_INDEX, best_sub_keep, keep_values_from, sub_keeps
from .errors import InvalidTranscript
from .evaluate import FIRST_ROLL_LEFT, expected_from_turn_start
from .policy import TIE
from .position import Position
from .tables import Table
from .turn import ROLLS_PER_TURN

_ANY_DATE = "2000-01-01"  # the transcript alone fixes the play; the date is only a label


@dataclass(frozen=True)
class Decision:
    """One decision: where (turn, action index, dice, rolls left), the best and the chosen."""

    turn: int
    action: int
    dice: list[int]
    rolls_left: int
    best: dict
    chosen: dict
    loss: float


@dataclass(frozen=True)
class Roll:
    """One roll's luck: expected final score before it and of the position it gave."""

    turn: int
    action: int
    dice: list[int]
    before: float
    after: float
    luck: float


@dataclass(frozen=True)
class Turn:
    """A turn's sums: loss and luck over its decisions and rolls, and the box filled."""

    turn: int
    box: str | None
    points: int | None
    loss: float
    luck: float


@dataclass(frozen=True)
class Review:
    """A whole review; ``value`` = ``start`` + ``luck`` - ``loss`` up to rounding."""

    ruleset: str
    finished: bool
    start: float
    value: float
    loss: float
    luck: float
    decisions: list[Decision] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)

    def to_json_text(self) -> str:
        """The review as JSON text, written straight from its records' fields (``asdict``
        would copy every nested record first: about half the cost of a review)."""
        return json.dumps(self, default=vars)

    def to_json(self) -> dict:
        """The review as plain JSON-ready data: ``to_json_text`` read back."""
        return json.loads(self.to_json_text())


@dataclass(frozen=True)
class _HandKeeps:
    """A hand's keeps as a review reads them: the row of the keep of all five dice in the keep
    arrays, and every other keep in the perfect policy's tie order (more dice held first, then
    the smaller values) with their rows."""

    whole: int
    ranked: tuple[tuple[int, ...], ...]
    rows: np.ndarray


@cache
def _hand_keeps(hand: tuple[int, ...]) -> _HandKeeps:
    """The keeps of ``hand`` (sorted dice), computed once per hand."""
    ranked = tuple(sorted((keep for keep in sub_keeps(hand) if keep != hand),
                          key=lambda keep: (-len(keep), keep)))
    return _HandKeeps(KEEP_INDEX[hand], ranked, np.array([KEEP_INDEX[k] for k in ranked]))


@dataclass(frozen=True)
class _GameValues:
    """A game's turns valued in one batch, row ``i`` for its ``i``-th turn's start state:
    ``boxes[i, hand, box]`` the box values (``-inf`` where not allowed), ``first_boxes`` the
    same with the turn's first roll showing, ``keeps[r][i, keep]`` the keep values with ``r``
    rolls left (``keeps[0]`` is None)."""

    boxes: np.ndarray
    first_boxes: np.ndarray
    keeps: tuple[np.ndarray | None, ...]


def _game_values(table: Table, states: Sequence[tuple[int, int, int]]) -> _GameValues:
    """The values of every turn-start state in ``states``, as ``evaluate`` computes them for
    one state (each element goes through the same operations as ``turn.turn_values``; a
    first-roll bonus changes only a turn's start value, not its keeps)."""
    masks, uppers, flags = (np.array(part) for part in zip(*states, strict=True))
    per_box = table.box_values(masks, uppers, flags)
    first_per_box = table.box_values(masks, uppers, flags, first_roll=True) \
        if table.rules.first_roll_bonus else per_box
    one_roll = keep_values_from(np.ascontiguousarray(per_box.max(axis=0).T))
    two_rolls = keep_values_from(best_sub_keep(one_roll))  # as turn_values, without its start
    return _GameValues(per_box.transpose(1, 2, 0).copy(), first_per_box.transpose(1, 2, 0).copy(),
                       (None, one_roll.T.copy(), two_rolls.T.copy()))


class _Showing:
    """The dice showing at one point of a turn, with the expected final score of each choice
    (plain floats: a decision reads a few dozen of them, fewer than numpy's call costs):
    ``boxes[b]`` of filling box ``b`` (``-inf`` where not allowed), ``keeps[j]`` of keeping
    ``ranked[j]``, ``whole`` of keeping all five dice (no keep once no roll is left)."""

    __slots__ = ("boxes", "keep_values", "keeps", "ranked", "total", "whole")

    def __init__(self, values: _GameValues, row: int, total: int, dice: Sequence[int],
                 rolls_left: int):
        """Value ``dice`` with ``rolls_left`` in the turn of row ``row``, ``total`` scored."""
        hand = tuple(sorted(dice))
        column = HAND_INDEX[hand]
        first = rolls_left == FIRST_ROLL_LEFT
        self.total = total
        self.boxes = ((values.first_boxes if first else values.boxes)[row, column]
                      + total).tolist()
        self.keep_values = values.keeps[rolls_left][row] if rolls_left else None
        self.keeps: list[float] = []
        if self.keep_values is not None:
            hand_keeps = _hand_keeps(hand)
            self.ranked = hand_keeps.ranked
            self.keeps = (self.keep_values[hand_keeps.rows] + total).tolist()
            self.whole = total + float(self.keep_values[hand_keeps.whole])

    def best(self) -> float:
        """The expected final score of the best choice, keeping all five dice included."""
        top = max(self.boxes)
        if self.keep_values is None:
            return top
        return max(top, max(self.keeps), self.whole)

    def perfect(self, box_ids: tuple[str, ...]) -> dict:
        """The perfect policy's choice (``policy.ranked_choices``' first) as JSON-ready data."""
        floor = max(max(self.boxes), max(self.keeps, default=-math.inf)) - TIE
        for box, expected in enumerate(self.boxes):
            if expected >= floor:
                return {"kind": "box", "box": box_ids[box], "expected": expected}
        keep = next(j for j, expected in enumerate(self.keeps) if expected >= floor)
        return {"kind": "keep", "keep": list(self.ranked[keep]), "expected": self.keeps[keep]}

    def box(self, box: str, box_index: Mapping[str, int]) -> dict:
        """The choice of filling ``box``, as JSON-ready data."""
        return {"kind": "box", "box": box, "expected": self.boxes[box_index[box]]}

    def keep(self, keep: tuple[int, ...]) -> dict:
        """The choice of keeping ``keep`` (sorted values) and rolling, as JSON-ready data."""
        return {"kind": "keep", "keep": list(keep),
                "expected": self.total + float(self.keep_values[KEEP_INDEX[keep]])}


def _turn_starts(ruleset: str, transcript: Sequence[Mapping]) -> list[Position]:
    """The position at the start of every turn of ``transcript`` that has rolled."""
    starts: list[Position] = []
    boxes: dict[str, int] = {}
    extra_bonus, rolled = 0, False
    for entry in transcript:
        if entry["action"] == "roll":
            if not rolled:
                starts.append(Position(ruleset, dict(boxes), None, ROLLS_PER_TURN, extra_bonus))
            rolled = True
        else:
            boxes[entry["category"]] = entry["points"]
            extra_bonus += entry["bonus"]
            rolled = False
    return starts


def review(table: Table, transcript: Sequence[Mapping], checked: bool = False) -> Review:
    """Review ``transcript`` (fairness.game entries; finished or not) against perfect play;
    ``checked`` when it is the transcript of a ``Game`` the core made (its replay, about a
    third of a review, is then skipped)."""
    ruleset = table.ruleset_id
    try:
        if not checked:
            Game.from_transcript(ruleset, _ANY_DATE, transcript)
    except FairnessError as error:
        raise InvalidTranscript(str(error)) from None
    starts = _turn_starts(ruleset, transcript)
    values = _game_values(table, [p.state(table.rules) for p in starts]) if starts else None
    box_ids = table.rules.box_ids
    box_index = {box: b for b, box in enumerate(box_ids)}
    start = expected_from_turn_start(table, Position(ruleset))
    value = start
    decisions: list[Decision] = []
    rolls: list[Roll] = []
    turns: list[Turn] = []
    turn_loss = turn_luck = 0.0
    row, total = -1, 0
    dice: tuple[int, ...] | None = None
    rolls_left = ROLLS_PER_TURN
    showing: _Showing | None = None
    for index, entry in enumerate(transcript):
        turn = len(turns) + 1
        if entry["action"] == "roll":
            if showing is None:  # the turn's first roll
                row += 1
                total = starts[row].total()
            else:  # a keep: a decision before this roll
                kept = tuple(sorted(d for d, held in zip(dice, entry["hold"], strict=True)
                                    if held))
                decision = _decide(showing, turn, index, dice, rolls_left,
                                   showing.keep(kept), box_ids)
                decisions.append(decision)
                turn_loss += decision.loss
                value = decision.chosen["expected"]
            dice, rolls_left = tuple(entry["dice"]), rolls_left - 1
            showing = _Showing(values, row, total, dice, rolls_left)
            best = showing.best()
            luck = best - value
            rolls.append(Roll(turn, index, list(dice), value, best, luck))
            turn_luck += luck
            value = best
            continue
        decision = _decide(showing, turn, index, dice, rolls_left,
                           showing.box(entry["category"], box_index), box_ids)
        decisions.append(decision)
        turn_loss += decision.loss
        value = decision.chosen["expected"]
        turns.append(Turn(turn, entry["category"], entry["points"], turn_loss, turn_luck))
        turn_loss = turn_luck = 0.0
        dice, rolls_left, showing = None, ROLLS_PER_TURN, None
    finished = len(turns) == table.rules.boxes
    if rolls and not finished and dice is not None:
        turns.append(Turn(len(turns) + 1, None, None, turn_loss, turn_luck))
    return Review(ruleset, finished, start, value, sum(d.loss for d in decisions),
                  sum(r.luck for r in rolls), decisions, rolls, turns)


def _decide(showing: _Showing, turn: int, index: int, dice: tuple[int, ...], rolls_left: int,
            chosen: dict, box_ids: tuple[str, ...]) -> Decision:
    """The Decision record of making the choice ``chosen`` with ``showing`` on the table."""
    best = showing.perfect(box_ids)
    loss = max(0.0, best["expected"] - chosen["expected"])
    return Decision(turn, index, list(dice), rolls_left, best, chosen, loss)
