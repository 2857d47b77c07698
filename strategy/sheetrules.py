"""A ruleset's rules as arrays: what each hand scores in each box, and the Joker's changes.

Built from ``fairness``'s own scorers so that the solver scores exactly as the game does.
``scores[first, fifty]`` are the points of every box and hand when the dice are (``first`` = 1)
or are not the turn's first roll, and while the five-of-a-kind box holds its points
(``fifty`` = 1) or not: they differ only on sheets with a first-roll bonus (Generala's
"servida") or a box that counts only after a five-of-a-kind (Doble Generala).
``joker`` is ``"forced"`` (the rule ``fairness.rules.placement`` applies), ``"none"``, or
``"free"``: the free-choice reading behind Tom Verhoeff's published optimum, where a further
five-of-a-kind may go in any free box and Full House and the straights score their fixed value
only once the matching upper box is filled.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np

from fairness import get_ruleset, rules
from fairness.sheets import JOKER_POINTS, UPPER, UPPER_BONUS_THRESHOLD, Ruleset

from .dice import FACES, FIVE_OF_A_KIND, HANDS

JOKER_MODES = ("forced", "none", "free")
UPPER_CAP = UPPER_BONUS_THRESHOLD


@dataclass(frozen=True, eq=False)  # arrays inside: identity, not value, equality
class SheetRules:
    """The arrays the solver needs for one ruleset and Joker reading."""

    ruleset_id: str
    joker: str
    box_ids: tuple[str, ...]
    scores: np.ndarray = field(repr=False)  # (2 first roll, 2 fifty, boxes, 252)
    joker_delta: np.ndarray = field(repr=False)  # (boxes, 6): Joker points minus plain points
    upper_bonus: int
    extra_bonus: int
    five_box: int | None  # index of the five-of-a-kind box where the +extra / Joker matter

    @property
    def points(self) -> np.ndarray:
        """(boxes, 252): the plain points of each hand (not a first roll, no 50 held)."""
        return self.scores[0, 0]

    @cached_property
    def first_roll_bonus(self) -> bool:
        """True when some box scores more for dice of the turn's first roll."""
        return not np.array_equal(self.scores[0], self.scores[1])

    @cached_property
    def fifty_dependent(self) -> bool:
        """True when some box's points depend on the five-of-a-kind box holding its points."""
        return not np.array_equal(self.scores[:, 0], self.scores[:, 1])

    @property
    def boxes(self) -> int:
        """The number of boxes on the sheet."""
        return len(self.box_ids)

    @property
    def upper_states(self) -> int:
        """How many upper totals the state tracks: 0..63 with a bonus, else only 0."""
        return UPPER_CAP + 1 if self.upper_bonus else 1

    @property
    def flag_states(self) -> int:
        """2 when "the five-of-a-kind box holds its points" matters (a +extra bonus, or a box
        that depends on it), else 1."""
        return 2 if self.extra_bonus or self.fifty_dependent else 1

    @property
    def lower_bits(self) -> int:
        """The bit mask of the lower-section boxes."""
        return sum(1 << b for b in range(len(FACES), self.boxes))

    @property
    def five_box_ids(self) -> tuple[str, ...]:
        """The box every five of a kind scores 50 in (``five_box_ids``)."""
        return five_box_ids(self.ruleset_id)

    def state_of(self, boxes: Mapping[str, int]) -> tuple[int, int, int]:
        """The solver's (mask, capped upper total, flag) of a sheet filled with ``boxes``."""
        mask = sum(1 << b for b, box in enumerate(self.box_ids) if box in boxes)
        upper = 0
        if self.upper_states > 1:
            upper = min(UPPER_CAP, sum(boxes.get(box, 0) for box in self.box_ids[:len(FACES)]))
        flag = 0
        if self.flag_states > 1 and boxes.get(self.box_ids[self.five_box], 0) > 0:
            flag = 1
        return mask, upper, flag

    def after_scoring(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray,
                      boxes: np.ndarray, hands: np.ndarray, first_roll: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(masks, uppers, flags, upper bonus earned) once box ``boxes[i]`` of state ``i`` is
        filled with hand ``hands[i]`` (``first_roll[i]``: the dice of the turn's first roll)."""
        points = self.scores[first_roll.astype(np.int64), flags, boxes, hands]
        upper = boxes < len(FACES)
        after = np.where(upper, np.minimum(uppers + points, UPPER_CAP), uppers) \
            if self.upper_states > 1 else uppers
        bonus = self.upper_bonus * ((uppers < UPPER_CAP) & (after >= UPPER_CAP))
        if self.flag_states > 1:
            flags = np.where(boxes == self.five_box, (points > 0).astype(np.int64), flags)
        return masks | (1 << boxes), after, flags, bonus

    @property
    def joker_active_bit(self) -> int:
        """The mask bit whose being set makes the Joker apply (0 when there is no Joker)."""
        if self.joker == "none" or self.five_box is None:
            return 0
        return 1 << self.five_box


def five_box_ids(ruleset_id: str) -> tuple[str, ...]:
    """The boxes every five of a kind scores 50 in (times its column's multiplier): the Yacht,
    Yatzy, Yahtzee or Generala box, one per column."""
    return tuple(c.id for c in get_ruleset(ruleset_id).categories
                 if all(c.scorer((face,) * 5) == 50 * c.multiplier for face in FACES))


@cache
def sheet_rules(ruleset_id: str, joker: str | None = None) -> SheetRules:
    """The arrays of ``ruleset_id``; ``joker`` defaults to what the ruleset itself applies.
    Computed once per (sheet, Joker reading) and shared: its arrays are read-only."""
    ruleset = get_ruleset(ruleset_id)
    if ruleset.columns > 1:
        raise ValueError(f"{ruleset_id} has {ruleset.columns} columns: strategy.columns "
                         f"approximates it, no table solves it")
    if joker is None:
        joker = "forced" if ruleset.joker else "none"
    if joker not in JOKER_MODES:
        raise ValueError(f"joker must be one of {', '.join(JOKER_MODES)}, got {joker!r}")
    categories = ruleset.categories
    if tuple(c.section for c in categories[: len(FACES)]) != (UPPER,) * len(FACES):
        raise ValueError(f"{ruleset_id}: the six upper boxes must come first")
    scores = _scores(ruleset)
    points = scores[0, 0]
    delta = np.zeros((len(categories), len(FACES)), dtype=np.int64)
    for b, category in enumerate(categories):
        if category.id in JOKER_POINTS:
            delta[b] = JOKER_POINTS[category.id] - points[b, FIVE_OF_A_KIND]
    five_box = ruleset.category_ids.index(ruleset.five_of_a_kind_box) \
        if ruleset.five_of_a_kind_box else None
    if joker != "none" and five_box is None:
        raise ValueError(f"{ruleset_id} has no five-of-a-kind box for a Joker")
    scores.setflags(write=False)
    delta.setflags(write=False)
    return SheetRules(ruleset.id, joker, ruleset.category_ids, scores, delta,
                      ruleset.upper_bonus, ruleset.extra_bonus, five_box)


def _scores(ruleset: Ruleset) -> np.ndarray:
    """(2 first roll, 2 fifty, boxes, 252): every box's points for every hand and context.

    Scored by ``fairness.rules.score`` on a sheet where the Joker does not apply: empty, or
    (fifty) holding only the five-of-a-kind box's 50 on a sheet whose other boxes depend on it.
    """
    fifty_sheet = {}
    if ruleset.second_five_box:
        fifty_sheet = {ruleset.five_of_a_kind_box: 50}
    sheets = ({}, fifty_sheet)
    return np.array([[[[rules.score(ruleset.id, c.id, hand, sheet, bool(first)) for hand in HANDS]
                       for c in ruleset.categories] for sheet in sheets] for first in (0, 1)],
                    dtype=np.int64)
