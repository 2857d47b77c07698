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
with the same floating-point operations in fewer, larger steps: the transcript is read once
(``_walk``), every turn of the game is valued in one batch (box values, then the keeps, for
all its turn-start states at once), every figure a roll's decision reads is gathered from
those arrays in a few array operations (``_showings``), and the records are written from
plain floats.
"""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from fairness import FairnessError, Game, get_ruleset
from fairness.dice import ROLLS_PER_TURN
from fairness.rules import totals_of_valid

from .dice import HAND_INDEX, KEEP_INDEX, best_sub_keep, keep_values_from, sub_keeps
from .errors import InvalidTranscript
from .evaluate import FIRST_ROLL_LEFT, expected_from_turn_start
from .policy import TIE
from .position import Position
from .tables import Table

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
class RollLuck:
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
    rolls: list[RollLuck] = field(default_factory=list)
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
    """A hand's keeps as a review reads them: every keep but the whole hand in the perfect
    policy's tie order (more dice held first, then the smaller values), then the whole hand;
    ``rows`` their rows in the keep arrays, ``place`` each keep's place in that order."""

    ranked: tuple[tuple[int, ...], ...]
    rows: np.ndarray
    place: dict[tuple[int, ...], int]


@cache
def _hand_keeps(hand: tuple[int, ...]) -> _HandKeeps:
    """The keeps of ``hand`` (sorted dice), computed once per hand."""
    ranked = tuple(sorted((keep for keep in sub_keeps(hand) if keep != hand),
                          key=lambda keep: (-len(keep), keep)))
    return _HandKeeps(ranked, np.array([KEEP_INDEX[k] for k in (*ranked, hand)]),
                      {keep: place for place, keep in enumerate((*ranked, hand))})


@dataclass
class _Walk:
    """A transcript read once: each turn that rolled (its start state and points scored),
    each roll (the turn's row, its dice as rolled and sorted, the rolls left after it) and, for each
    roll after a turn's first, the keep it rerolled from."""

    states: list[tuple[int, int, int]] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    dice: list[list[int]] = field(default_factory=list)
    hands: list[tuple[int, ...]] = field(default_factory=list)
    rolls_left: list[int] = field(default_factory=list)
    kept: list[tuple[int, ...] | None] = field(default_factory=list)


def _walk(table: Table, transcript: Sequence[Mapping]) -> _Walk:
    """Read ``transcript`` (a valid one) into a ``_Walk``."""
    walk = _Walk()
    ruleset = get_ruleset(table.ruleset_id)
    boxes: dict[str, int] = {}
    extra_bonus, dice, rolls_left = 0, None, ROLLS_PER_TURN
    for entry in transcript:
        if entry["action"] == "score":
            boxes[entry["category"]] = entry["points"]
            extra_bonus += entry["bonus"]
            dice, rolls_left = None, ROLLS_PER_TURN
            continue
        if dice is None:
            walk.states.append(table.rules.state_of(boxes))
            walk.totals.append(totals_of_valid(ruleset, boxes, extra_bonus).total)
            walk.kept.append(None)
        else:
            walk.kept.append(tuple(sorted(d for d, held in zip(dice, entry["hold"], strict=True)
                                          if held)))
        dice, rolls_left = entry["dice"], rolls_left - 1
        walk.rows.append(len(walk.states) - 1)
        walk.dice.append(list(dice))
        walk.hands.append(tuple(sorted(dice)))
        walk.rolls_left.append(rolls_left)
    return walk


@dataclass
class _Showings:
    """The expected final score of every choice at each roll of a game, as plain floats:
    ``boxes[s][b]`` of filling box ``b`` after roll ``s`` (``-inf`` where not allowed),
    ``keeps[s]`` of each keep in ``_hand_keeps`` order (the whole hand last; empty once no
    roll is left), ``best[s]`` of the best choice and ``perfect[s]`` the perfect policy's
    choice (``policy.ranked_choices``' first) as JSON-ready data."""

    boxes: list[list[float]]
    keeps: list[list[float]]
    best: list[float]
    perfect: list[dict]


def _showings(table: Table, walk: _Walk) -> _Showings:
    """Value every roll of ``walk``: each turn valued in one batch (box values, then the keeps,
    for all its turn-start states at once, each element through the same operations as
    ``evaluate``'s ``turn.turn_values``; a first-roll bonus changes only a turn's start value,
    not its keeps), then every figure the review reads gathered in a few array operations."""
    masks, uppers, flags = (np.array(part) for part in zip(*walk.states, strict=True))
    per_box = table.box_values(masks, uppers, flags)
    one_roll = keep_values_from(np.ascontiguousarray(per_box.max(axis=0).T))
    two_rolls = keep_values_from(best_sub_keep(one_roll))  # as turn_values, without its start
    rows, rolls_left = np.array(walk.rows), np.array(walk.rolls_left)
    totals = np.array(walk.totals)[rows]
    columns = np.array([HAND_INDEX[hand] for hand in walk.hands])
    boxes = per_box[:, rows, columns]
    if table.rules.first_roll_bonus:
        first = table.box_values(masks, uppers, flags, first_roll=True)[:, rows, columns]
        boxes = np.where(rolls_left == FIRST_ROLL_LEFT, first, boxes)
    boxes += totals
    floor = boxes.max(axis=0)
    best = floor.copy()
    keeping = np.flatnonzero(rolls_left)
    keeps = [[] for _ in rows]
    if keeping.size:
        hand_keeps = [_hand_keeps(walk.hands[s]).rows for s in keeping]
        sizes = np.array([len(rows_of) for rows_of in hand_keeps])
        ends = np.cumsum(sizes)
        starts = ends - sizes
        repeat = np.repeat(keeping, sizes)
        flat = np.concatenate((one_roll, two_rolls)).reshape(-1)
        stride = one_roll.shape[1]
        index = ((rolls_left[repeat] - 1) * len(one_roll) + np.concatenate(hand_keeps)) * stride
        values = flat.take(index + rows[repeat]) + totals[repeat]
        tops = np.maximum.reduceat(values, np.stack((starts, ends - 1), axis=1).reshape(-1))
        ranked_top, whole = tops[0::2], tops[1::2]
        floor[keeping] = np.maximum(floor[keeping], ranked_top)
        best[keeping] = np.maximum(floor[keeping], whole)
        as_floats = values.tolist()
        for s, start, end in zip(keeping.tolist(), starts.tolist(), ends.tolist(), strict=True):
            keeps[s] = as_floats[start:end]
    floor -= TIE
    box_lists = boxes.T.tolist()
    box_ids = table.rules.box_ids
    perfect = []
    for s, limit in enumerate(floor.tolist()):
        perfect.append(_perfect(box_lists[s], keeps[s], limit, walk.hands[s], box_ids))
    return _Showings(box_lists, keeps, best.tolist(), perfect)


def _perfect(boxes: list[float], keeps: list[float], floor: float, hand: tuple[int, ...],
             box_ids: tuple[str, ...]) -> dict:
    """The first choice within ``TIE`` of the best (the first box, else the first keep in tie
    order), as JSON-ready data."""
    for box, expected in enumerate(boxes):
        if expected >= floor:
            return {"kind": "box", "box": box_ids[box], "expected": expected}
    keep = next(j for j, expected in enumerate(keeps) if expected >= floor)
    return {"kind": "keep", "keep": list(_hand_keeps(hand).ranked[keep]),
            "expected": keeps[keep]}


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
    walk = _walk(table, transcript)
    showings = _showings(table, walk) if walk.states else None
    box_ids = table.rules.box_ids
    box_index = {box: b for b, box in enumerate(box_ids)}
    start = expected_from_turn_start(table, Position(ruleset))
    value = start
    decisions: list[Decision] = []
    rolls: list[RollLuck] = []
    turns: list[Turn] = []
    turn_loss = turn_luck = 0.0
    shown = -1  # the roll whose dice are showing, -1 before a turn's first roll
    roll = 0
    for index, entry in enumerate(transcript):
        turn = len(turns) + 1
        if entry["action"] == "roll":
            if shown >= 0:  # a keep: a decision before this roll
                kept = walk.kept[roll]
                chosen = {"kind": "keep", "keep": list(kept), "expected": showings.keeps[shown][
                    _hand_keeps(walk.hands[shown]).place[kept]]}
                decision = _decide(showings, shown, turn, index, walk, chosen)
                decisions.append(decision)
                turn_loss += decision.loss
                value = chosen["expected"]
            best = showings.best[roll]
            luck = best - value
            rolls.append(RollLuck(turn, index, list(entry["dice"]), value, best, luck))
            turn_luck += luck
            value = best
            shown, roll = roll, roll + 1
            continue
        chosen = {"kind": "box", "box": entry["category"],
                  "expected": showings.boxes[shown][box_index[entry["category"]]]}
        decision = _decide(showings, shown, turn, index, walk, chosen)
        decisions.append(decision)
        turn_loss += decision.loss
        value = chosen["expected"]
        turns.append(Turn(turn, entry["category"], entry["points"], turn_loss, turn_luck))
        turn_loss = turn_luck = 0.0
        shown = -1
    finished = len(turns) == table.rules.boxes
    if rolls and not finished and shown >= 0:
        turns.append(Turn(len(turns) + 1, None, None, turn_loss, turn_luck))
    return Review(ruleset, finished, start, value, sum(d.loss for d in decisions),
                  sum(r.luck for r in rolls), decisions, rolls, turns)


def _decide(showings: _Showings, shown: int, turn: int, index: int, walk: _Walk,
            chosen: dict) -> Decision:
    """The Decision record of making the choice ``chosen`` with roll ``shown``'s dice."""
    best = showings.perfect[shown]
    loss = max(0.0, best["expected"] - chosen["expected"])
    return Decision(turn, index, walk.dice[shown], walk.rolls_left[shown], best, chosen,
                    loss)
