"""A hint: the perfect policy's choice with its expected final score, and the runner-up's."""

from dataclasses import dataclass

from .evaluate import evaluate
from .policy import Choice, ranked_choices
from .position import Position
from .tables import Table


@dataclass(frozen=True)
class Hint:
    """The best choice and the next best (None when there is only one choice)."""

    best: Choice
    runner_up: Choice | None

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {"best": self.best.as_dict(),
                "runner_up": self.runner_up.as_dict() if self.runner_up else None}


def hint(table: Table, position: Position) -> Hint:
    """The hint for ``position`` (dice showing), in the perfect policy's order."""
    ranked = ranked_choices(evaluate(table, position), table.rules.box_ids)
    return Hint(ranked[0], ranked[1] if len(ranked) > 1 else None)
