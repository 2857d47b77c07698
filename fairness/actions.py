"""A player's two actions as values: roll the dice not held, or fill a box.

Every player of the core — the daily game's requests, a match's seats, the bots — says what it
does with these, and ``apply`` plays it through ``Game``'s own rules. A transcript entry
records the action's outcome (FAIRNESS.md, "The game"): ``matches`` tells whether an entry is
this very action, so that a retried request is recognised rather than applied twice.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import UnknownCategory
from .sheets import get_ruleset

if TYPE_CHECKING:
    from .dice import DiceStream
    from .game import Game


@dataclass(frozen=True)
class Roll:
    """Roll the dice not held (``hold``: five booleans, True for a die kept)."""

    hold: tuple[bool, ...]

    def matches(self, entry: Mapping) -> bool:
        """True when the transcript ``entry`` is this very roll."""
        return entry.get("action") == "roll" and tuple(entry.get("hold") or ()) == self.hold

    def apply(self, game: "Game", stream: "DiceStream") -> "Game":
        """The game after this roll."""
        return game.roll(self.hold, stream)


@dataclass(frozen=True)
class Score:
    """Fill ``box`` with the dice showing."""

    box: str

    def matches(self, entry: Mapping) -> bool:
        """True when the transcript ``entry`` is this very scoring."""
        return entry.get("action") == "score" and entry.get("category") == self.box

    def apply(self, game: "Game", stream: "DiceStream") -> "Game":
        """The game after this scoring; a box the sheet does not have is UnknownCategory
        whatever the game's state."""
        ruleset = get_ruleset(game.ruleset)
        if ruleset.category(self.box) is None:
            raise UnknownCategory(f"{self.box!r} is not a box of {ruleset.id} "
                                  f"(boxes: {', '.join(ruleset.category_ids)})"[:300])
        return game.score(self.box)


Action = Roll | Score
