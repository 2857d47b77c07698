"""A ruleset's rules as arrays: what each hand scores in each box, and the Joker's changes.

Built from ``fairness``'s own scorers so that the solver scores exactly as the game does.
``joker`` is ``"forced"`` (the rule ``fairness.rules.placement`` applies), ``"none"``, or
``"free"``: the free-choice reading behind Tom Verhoeff's published optimum, where a further
five-of-a-kind may go in any free box and Full House and the straights score their fixed value
only once the matching upper box is filled.
"""

from dataclasses import dataclass, field

import numpy as np

from fairness import get_ruleset
from fairness.sheets import JOKER_POINTS, UPPER, UPPER_BONUS_THRESHOLD

from .dice import FACES, FIVE_OF_A_KIND, HANDS

JOKER_MODES = ("forced", "none", "free")
UPPER_CAP = UPPER_BONUS_THRESHOLD


@dataclass(frozen=True, eq=False)  # arrays inside: identity, not value, equality
class SheetRules:
    """The arrays the solver needs for one ruleset and Joker reading."""

    ruleset_id: str
    joker: str
    box_ids: tuple[str, ...]
    points: np.ndarray = field(repr=False)  # (boxes, 252): plain points of each hand
    joker_delta: np.ndarray = field(repr=False)  # (boxes, 6): Joker points minus plain points
    upper_bonus: int
    extra_bonus: int
    five_box: int | None  # index of the five-of-a-kind box where the +extra / Joker matter

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
        """2 when "the five-of-a-kind box holds 50" matters (a +extra bonus exists), else 1."""
        return 2 if self.extra_bonus else 1

    @property
    def lower_bits(self) -> int:
        """The bit mask of the lower-section boxes."""
        return sum(1 << b for b in range(len(FACES), self.boxes))

    @property
    def joker_active_bit(self) -> int:
        """The mask bit whose being set makes the Joker apply (0 when there is no Joker)."""
        if self.joker == "none" or self.five_box is None:
            return 0
        return 1 << self.five_box


def sheet_rules(ruleset_id: str, joker: str | None = None) -> SheetRules:
    """The arrays of ``ruleset_id``; ``joker`` defaults to what the ruleset itself applies."""
    ruleset = get_ruleset(ruleset_id)
    if joker is None:
        joker = "forced" if ruleset.joker else "none"
    if joker not in JOKER_MODES:
        raise ValueError(f"joker must be one of {', '.join(JOKER_MODES)}, got {joker!r}")
    categories = ruleset.categories
    if tuple(c.section for c in categories[: len(FACES)]) != (UPPER,) * len(FACES):
        raise ValueError(f"{ruleset_id}: the six upper boxes must come first")
    points = np.array([[c.scorer(hand) for hand in HANDS] for c in categories], dtype=np.int64)
    delta = np.zeros((len(categories), len(FACES)), dtype=np.int64)
    for b, category in enumerate(categories):
        if category.id in JOKER_POINTS:
            delta[b] = JOKER_POINTS[category.id] - points[b, FIVE_OF_A_KIND]
    five_box = ruleset.category_ids.index(ruleset.five_of_a_kind_box) \
        if ruleset.five_of_a_kind_box else None
    if joker != "none" and five_box is None:
        raise ValueError(f"{ruleset_id} has no five-of-a-kind box for a Joker")
    return SheetRules(ruleset.id, joker, ruleset.category_ids, points, delta,
                      ruleset.upper_bonus, ruleset.extra_bonus, five_box)
