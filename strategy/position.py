"""A position to evaluate: the filled boxes, the bonuses earned, and the dice on the table."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fairness import Game, rules
from fairness.dice import ROLLS_PER_TURN

from .errors import InvalidPosition
from .sheetrules import SheetRules

if TYPE_CHECKING:
    from .columns import ColumnsRules


@dataclass(frozen=True)
class Position:
    """A point of a game: ``boxes`` filled so far, ``extra_bonus`` earned, ``dice`` showing
    (None before the turn's first roll) and ``rolls_left`` in the turn (3 before it)."""

    ruleset: str
    boxes: Mapping[str, int] = field(default_factory=dict)
    dice: tuple[int, ...] | None = None
    rolls_left: int = ROLLS_PER_TURN
    extra_bonus: int = 0

    @classmethod
    def from_game(cls, game: Game) -> "Position":
        """The position a ``fairness.Game`` is in."""
        return cls(game.ruleset, dict(game.boxes), game.dice, game.rolls_left, game.extra_bonus)

    def hand(self) -> tuple[int, ...]:
        """The dice showing, sorted; raise InvalidPosition before the turn's first roll."""
        if self.dice is None:
            raise InvalidPosition("no dice showing: roll before asking what to do")
        return tuple(sorted(rules.validate_dice(tuple(self.dice))))

    def total(self) -> int:
        """The points scored so far, bonuses included."""
        return rules.totals(self.ruleset, self.boxes, self.extra_bonus).total

    def state(self, sheet: "SheetRules | ColumnsRules") -> tuple[int, int, int]:
        """The solver's (mask, capped upper total, five-of-a-kind box holds its points)."""
        if sheet.ruleset_id != self.ruleset:
            raise InvalidPosition(f"a {self.ruleset} position needs the {self.ruleset} table, "
                                  f"not {sheet.ruleset_id}")
        if not 0 <= self.rolls_left <= ROLLS_PER_TURN:
            raise InvalidPosition(f"rolls_left must be 0..{ROLLS_PER_TURN}")
        unknown = set(self.boxes) - set(sheet.box_ids)
        if unknown:
            raise InvalidPosition(f"not boxes of {self.ruleset}: {', '.join(sorted(unknown))}")
        if len(self.boxes) == sheet.boxes:
            raise InvalidPosition("the sheet is full: nothing is left to decide")
        return sheet.state_of(self.boxes)
