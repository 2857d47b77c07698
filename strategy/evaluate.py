"""The expected final score of every choice in a position, from a solved table.

*Expected final score* of a choice: the points already scored (bonuses included) plus the
expected points still to come when that choice is made and every later one is optimal.
"""

import threading
from dataclasses import dataclass

import numpy as np

from fairness.dice import ROLLS_PER_TURN

from .dice import HAND_INDEX, KEEP_INDEX, sub_keeps
from .position import Position
from .tables import Table  # or a strategy.columns.ColumnsTable: the same methods
from .turn import turn_values

FIRST_ROLL_LEFT = ROLLS_PER_TURN - 1  # rolls left once the turn's first roll is showing
RECENT_TURNS = 64  # turn-start states kept per table: a turn's decisions share one
_recent_lock = threading.Lock()


@dataclass(frozen=True)
class Evaluation:
    """Every choice of one position and its expected final score.

    ``keeps`` maps each distinct keep of the dice (sorted values held, ``()`` = reroll all,
    the whole hand = keep everything) to its value; empty when no roll is left. ``boxes`` maps
    each box the rules allow now to its value. ``best`` is the largest of them all.
    """

    hand: tuple[int, ...]
    rolls_left: int
    keeps: dict[tuple[int, ...], float]
    boxes: dict[str, float]

    @property
    def best(self) -> float:
        """The expected final score of the best choice."""
        return max([*self.keeps.values(), *self.boxes.values()])


def expected_from_turn_start(table: Table, position: Position) -> float:
    """The expected final score before the turn's first roll (``position.dice`` is ignored)."""
    return position.total() + table.start_value(position.state(table.rules))


def evaluate(table: Table, position: Position) -> Evaluation:
    """The expected final score of every keep (if a roll is left) and every allowed box."""
    hand = position.hand()
    per_box, first_per_box, keep_values = _turn(table, position.state(table.rules))
    if position.rolls_left == FIRST_ROLL_LEFT:
        per_box = first_per_box
    total = position.total()
    column = HAND_INDEX[hand]
    boxes = {box: total + float(per_box[b, column])
             for b, box in enumerate(table.rules.box_ids) if np.isfinite(per_box[b, column])}
    keeps: dict[tuple[int, ...], float] = {}
    if position.rolls_left > 0:
        values = keep_values[position.rolls_left]
        keeps = {keep: total + float(values[KEEP_INDEX[keep], 0]) for keep in sub_keeps(hand)}
    return Evaluation(hand, position.rolls_left, keeps, boxes)


def _turn(table: Table, state: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, tuple]:
    """(boxes, 252) box values (for other rolls, for the first roll) and the keep values of a
    turn-start state, recently used first."""
    with _recent_lock:
        if state in table.recent_turns:
            table.recent_turns.move_to_end(state)
            return table.recent_turns[state]
    rules, arrays = table.rules, tuple(np.array([part]) for part in state)
    per_box = table.box_values(*arrays)[:, 0, :]
    first_per_box = table.box_values(*arrays, first_roll=True)[:, 0, :] \
        if rules.first_roll_bonus else per_box
    first_best = first_per_box.max(axis=0)[None, :] if rules.first_roll_bonus else None
    turn = (per_box, first_per_box,
            turn_values(per_box.max(axis=0)[None, :], first_best).keep_values)
    with _recent_lock:
        table.recent_turns[state] = turn
        while len(table.recent_turns) > RECENT_TURNS:
            table.recent_turns.popitem(last=False)
    return turn
