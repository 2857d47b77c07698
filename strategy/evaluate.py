"""The expected final score of every choice in a position, from a solved table.

*Expected final score* of a choice: the points already scored (bonuses included) plus the
expected points still to come when that choice is made and every later one is optimal.
"""

from dataclasses import dataclass

import numpy as np

from .boxvalues import box_values
from .dice import HAND_INDEX, KEEP_INDEX, sub_keeps
from .position import Position
from .tables import Table
from .turn import turn_values


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
    mask, upper, flag = position.state(table.rules)
    return position.total() + float(table.values[mask, upper, flag])


def evaluate(table: Table, position: Position) -> Evaluation:
    """The expected final score of every keep (if a roll is left) and every allowed box."""
    hand = position.hand()
    mask, upper, flag = position.state(table.rules)
    per_box = box_values(table.rules, table.values, np.array([mask]), np.array([upper]),
                         np.array([flag]))[:, 0, :]
    total = position.total()
    column = HAND_INDEX[hand]
    boxes = {box: total + float(per_box[b, column])
             for b, box in enumerate(table.rules.box_ids) if np.isfinite(per_box[b, column])}
    keeps: dict[tuple[int, ...], float] = {}
    if position.rolls_left > 0:
        keep_values = turn_values(per_box.max(axis=0)[None, :]).keep_values[position.rolls_left]
        keeps = {keep: total + float(keep_values[KEEP_INDEX[keep], 0]) for keep in sub_keeps(hand)}
    return Evaluation(hand, position.rolls_left, keeps, boxes)
