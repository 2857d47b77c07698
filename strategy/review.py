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
"""

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from fairness import FairnessError, Game

from .errors import InvalidTranscript
from .evaluate import Evaluation, evaluate, expected_from_turn_start
from .policy import ranked_choices
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

    def to_json(self) -> dict:
        """The review as plain JSON-ready data."""
        return asdict(self)


def _choice(evaluation: Evaluation, box: str | None, keep: tuple[int, ...] | None) -> dict:
    """A choice made in ``evaluation`` as JSON-ready data with its expected final score."""
    if box is not None:
        return {"kind": "box", "box": box, "expected": evaluation.boxes[box]}
    return {"kind": "keep", "keep": list(keep), "expected": evaluation.keeps[keep]}


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
    position = Position(ruleset)
    start = expected_from_turn_start(table, position)
    value = start
    decisions: list[Decision] = []
    rolls: list[Roll] = []
    turns: list[Turn] = []
    turn_loss = turn_luck = 0.0
    evaluation: Evaluation | None = None
    for index, entry in enumerate(transcript):
        turn = len(position.boxes) + 1
        if entry["action"] == "roll":
            if evaluation is not None:  # a keep: a decision before this roll
                kept = tuple(sorted(d for d, held in zip(position.dice, entry["hold"],
                                                         strict=True) if held))
                decision = _decide(evaluation, turn, index, position, None, kept, table)
                decisions.append(decision)
                turn_loss += decision.loss
                value = decision.chosen["expected"]
            position = Position(ruleset, position.boxes, tuple(entry["dice"]),
                                position.rolls_left - 1, position.extra_bonus)
            evaluation = evaluate(table, position)
            luck = evaluation.best - value
            rolls.append(Roll(turn, index, list(entry["dice"]), value, evaluation.best, luck))
            turn_luck += luck
            value = evaluation.best
            continue
        decision = _decide(evaluation, turn, index, position, entry["category"], None, table)
        decisions.append(decision)
        turn_loss += decision.loss
        value = decision.chosen["expected"]
        turns.append(Turn(turn, entry["category"], entry["points"], turn_loss, turn_luck))
        turn_loss = turn_luck = 0.0
        position = Position(ruleset, {**position.boxes, entry["category"]: entry["points"]},
                            None, 3, position.extra_bonus + entry["bonus"])
        evaluation = None
    finished = len(position.boxes) == table.rules.boxes
    if rolls and not finished and position.dice is not None:
        turns.append(Turn(len(position.boxes) + 1, None, None, turn_loss, turn_luck))
    return Review(ruleset, finished, start, value, sum(d.loss for d in decisions),
                  sum(r.luck for r in rolls), decisions, rolls, turns)


def _decide(evaluation: Evaluation, turn: int, index: int, position: Position,
            box: str | None, keep: tuple[int, ...] | None, table: Table) -> Decision:
    """The Decision record of choosing ``box`` or ``keep`` in ``evaluation``."""
    best = ranked_choices(evaluation, table.rules.box_ids)[0].as_dict()
    chosen = _choice(evaluation, box, keep)
    loss = max(0.0, best["expected"] - chosen["expected"])
    return Decision(turn, index, list(position.dice), position.rolls_left, best, chosen, loss)
