"""The perfect policy, its deterministic tie-break, and whole games played through fairness.Game.

Tie-break, among the choices whose expected final score is within ``TIE`` of the best:
a box before a keep (stop rather than roll); boxes in sheet order; keeps holding more dice
first, then the smaller sorted tuple of held values. Keeping all five dice and rolling is never
chosen: its value is always matched by stopping or by another keep. A keep holds the leftmost
dice showing each kept value.
"""

from collections.abc import Callable
from dataclasses import dataclass

from fairness import DiceStream, Game
from fairness.game import NO_HOLD

from .evaluate import Evaluation, evaluate
from .position import Position
from .tables import Table

TIE = 1e-9


@dataclass(frozen=True)
class Choice:
    """A decision: fill ``box``, or keep the dice ``keep`` (sorted values) and roll the rest."""

    expected: float
    box: str | None = None
    keep: tuple[int, ...] | None = None

    @property
    def kind(self) -> str:
        """``"box"`` or ``"keep"``."""
        return "box" if self.box is not None else "keep"

    def as_dict(self) -> dict:
        """JSON-ready: kind, the box or the kept dice, and the expected final score."""
        target = {"box": self.box} if self.box is not None else {"keep": list(self.keep)}
        return {"kind": self.kind, **target, "expected": self.expected}


def ranked_choices(evaluation: Evaluation, box_order: tuple[str, ...]) -> list[Choice]:
    """Every choice but keep-all, best first, ties (within TIE) in the documented order."""
    choices = [Choice(value, box=box) for box, value in evaluation.boxes.items()]
    choices += [Choice(value, keep=keep) for keep, value in evaluation.keeps.items()
                if keep != evaluation.hand]

    def order(choice: Choice) -> tuple:
        """Tie-break rank: boxes in sheet order, then keeps by more dice held, then values."""
        if choice.box is not None:
            return (0, box_order.index(choice.box), ())
        return (1, -len(choice.keep), choice.keep)

    best = max(choice.expected for choice in choices)
    tied = sorted((c for c in choices if c.expected >= best - TIE), key=order)
    rest = sorted((c for c in choices if c.expected < best - TIE),
                  key=lambda c: (-c.expected, order(c)))
    return tied + rest


def perfect_choice(table: Table, position: Position) -> Choice:
    """The perfect policy's decision in ``position`` (dice showing)."""
    return ranked_choices(evaluate(table, position), table.rules.box_ids)[0]


def hold_for(dice: tuple[int, ...], keep: tuple[int, ...]) -> list[bool]:
    """The hold (five booleans) keeping the values ``keep``: the leftmost matching dice."""
    wanted = list(keep)
    hold = []
    for die in dice:
        hold.append(die in wanted)
        if hold[-1]:
            wanted.remove(die)
    if wanted:
        raise ValueError(f"cannot keep {keep} from {dice}")
    return hold


Policy = Callable[[Table, Position], Choice]


def play_game(table: Table, stream: DiceStream, policy: Policy = perfect_choice) -> Game:
    """Play a whole game on ``stream`` with ``policy``, through fairness.Game's own rules."""
    game = Game.new(stream.ruleset, stream.date)
    while not game.finished:
        if game.dice is None:
            game = game.roll(NO_HOLD, stream)
            continue
        choice = policy(table, Position.from_game(game))
        if choice.box is not None:
            game = game.score(choice.box)
        else:
            game = game.roll(hold_for(game.dice, choice.keep), stream)
    return game
