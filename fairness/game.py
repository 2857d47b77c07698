"""The game: an immutable state machine whose every action returns a new state.

A state is fully determined by its ruleset, date (None for a match game, whose dice come from
a seat's stream: fairness.match) and transcript. The transcript lists the
actions in order: ``{"action": "roll", "hold": [5 booleans], "dice": [5 ints]}`` and
``{"action": "score", "category": id, "points": int, "bonus": int}``.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from . import rules
from .canonical import canonical_json
from .dates import format_date
from .dice import ROLLS_PER_TURN, DiceStream
from .errors import (
    BoxFilled,
    FairnessError,
    GameOver,
    HoldOnFirstRoll,
    JokerForbids,
    NoRollsLeft,
    NotRolled,
    ReplayMismatch,
)
from .hold import NO_HOLD, parse_hold
from .sheets import get_ruleset

__all__ = ["NO_HOLD", "ROLLS_PER_TURN", "Game", "replay"]


@dataclass(frozen=True)
class Game:
    """One player's game on one (date, ruleset), or one seat's game of a match (date None)."""

    ruleset: str
    date: str | None
    boxes: Mapping[str, int] = field(default_factory=dict)
    dice: tuple[int, ...] | None = None
    rolls_in_turn: int = 0
    rolls_taken: int = 0
    extra_bonus: int = 0
    transcript: tuple[Mapping, ...] = ()

    @classmethod
    def new(cls, ruleset_id: str, date) -> "Game":
        """A fresh game: empty sheet, no dice yet."""
        return cls(get_ruleset(ruleset_id).id, format_date(date))

    @classmethod
    def from_transcript(cls, ruleset_id: str, date, transcript: Sequence[Mapping]) -> "Game":
        """Rebuild a stored game from its transcript, taking the dice as recorded."""
        return _fold(cls.new(ruleset_id, date), transcript, stream=None)

    @classmethod
    def new_match(cls, ruleset_id: str) -> "Game":
        """A fresh seat's game of a match: no date, its dice from a ``fairness.match`` stream."""
        return cls(get_ruleset(ruleset_id).id, None)

    @classmethod
    def from_match_transcript(cls, ruleset_id: str, transcript: Sequence[Mapping]) -> "Game":
        """Rebuild a stored seat's game of a match from its transcript, dice as recorded."""
        return _fold(cls.new_match(ruleset_id), transcript, stream=None)

    def extended(self, transcript: Sequence[Mapping]) -> "Game":
        """This match seat's game with the next entries of its transcript applied, dice as
        recorded: ``from_match_transcript`` of the whole transcript, without replaying the
        entries already applied."""
        return _fold(self, transcript, stream=None)

    @property
    def finished(self) -> bool:
        """True once every box of the sheet is filled."""
        return len(self.boxes) == len(get_ruleset(self.ruleset).categories)

    @property
    def turn(self) -> int:
        """The 1-based number of the turn being played (sheet size + 1 once finished)."""
        return len(self.boxes) + 1

    @property
    def rolls_left(self) -> int:
        """Rolls still allowed this turn."""
        return 0 if self.finished else ROLLS_PER_TURN - self.rolls_in_turn

    @property
    def first_roll(self) -> bool:
        """True when the dice on the table came on the turn's first roll (nothing rerolled)."""
        return self.rolls_in_turn == 1

    @property
    def next_action(self) -> int:
        """The number the next action will have (the transcript's length)."""
        return len(self.transcript)

    def totals(self) -> rules.Totals:
        """The sheet's breakdown so far."""
        return rules.totals(self.ruleset, self.boxes, self.extra_bonus)

    def placement(self) -> rules.Placement | None:
        """Where the current dice may be scored, or None before the turn's first roll."""
        if self.dice is None or self.finished:
            return None
        return rules.placement(self.ruleset, self.dice, self.boxes, self.first_roll)

    def previews(self) -> dict[str, int]:
        """What the current dice would score in each box they may go in now."""
        if self.dice is None or self.finished:
            return {}
        return rules.placement_and_previews(self.ruleset, self.dice, self.boxes,
                                            self.first_roll)[1]

    def roll(self, hold, stream: DiceStream) -> "Game":
        """Roll the dice not held, from the slot the stream's dealing gives this roll; the
        drawn die of a held position is consumed all the same."""
        self._check_stream(stream)
        return self._roll(hold, stream.deal(len(self.boxes), self.rolls_in_turn,
                                            self.rolls_taken))

    def score(self, category: str) -> "Game":
        """Fill ``category`` with the current dice and end the turn."""
        if self.finished:
            raise GameOver("the game is over: every box is filled")
        if self.dice is None:
            raise NotRolled("roll the dice before choosing a box")
        if isinstance(category, str) and category in self.boxes:
            raise BoxFilled(f"the {category} box is already filled")
        points, allowed, bonus = rules.score_placement_and_bonus(
            self.ruleset, category, self.dice, self.boxes, self.first_roll)
        if category not in allowed.allowed:
            raise JokerForbids(allowed.reason("en"))
        entry = {"action": "score", "category": category, "points": points, "bonus": bonus}
        return replace(
            self,
            boxes={**self.boxes, category: points},
            dice=None,
            rolls_in_turn=0,
            extra_bonus=self.extra_bonus + bonus,
            transcript=(*self.transcript, entry),
        )

    def _roll(self, hold, drawn: Sequence[int]) -> "Game":
        """Apply a roll whose fresh dice are ``drawn``."""
        if self.finished:
            raise GameOver("the game is over: every box is filled")
        hold = parse_hold(hold)
        if self.rolls_in_turn >= ROLLS_PER_TURN:
            raise NoRollsLeft(f"no rolls left: a turn has {ROLLS_PER_TURN} rolls, choose a box")
        if self.dice is None and any(hold):
            raise HoldOnFirstRoll("nothing can be held on a turn's first roll")
        current = self.dice or (0,) * 5
        dice = tuple(current[p] if hold[p] else drawn[p] for p in range(5))
        entry = {"action": "roll", "hold": list(hold), "dice": list(dice)}
        return replace(
            self,
            dice=dice,
            rolls_in_turn=self.rolls_in_turn + 1,
            rolls_taken=self.rolls_taken + 1,
            transcript=(*self.transcript, entry),
        )

    def _check_stream(self, stream: DiceStream) -> None:
        """Refuse a stream made for another date, ruleset or kind of game (a programming error)."""
        if (stream.date, stream.ruleset) != (self.date, self.ruleset):
            of = f"of {self.date}" if self.date is not None else "of a match"
            raise ValueError(f"{stream!r} does not belong to a {self.ruleset} game {of}")


def replay(transcript: Sequence[Mapping], stream: DiceStream) -> Game:
    """Rebuild a game from ``transcript``, checking every action against the rules and ``stream``.

    Raises ReplayMismatch on the first entry that differs from what the rules give. A match
    seat's stream (``fairness.match.seat_stream``, no date) replays a match game.
    """
    if stream.date is None:
        return _fold(Game.new_match(stream.ruleset), transcript, stream)
    return _fold(Game.new(stream.ruleset, stream.date), transcript, stream)


def _fold(game: Game, transcript: Sequence[Mapping], stream: DiceStream | None) -> Game:
    """Apply each transcript entry in turn; with a stream, the dice must be the stream's."""
    if not isinstance(transcript, list | tuple):
        raise ReplayMismatch(0, "a transcript is a list of actions")
    for index, entry in enumerate(transcript):
        try:
            game = _apply(game, entry, stream)
        except ReplayMismatch:
            raise
        except FairnessError as error:
            raise ReplayMismatch(index, str(error)) from None
        if not _same_entry(game.transcript[-1], entry):
            expected = _compact(game.transcript[-1])
            raise ReplayMismatch(index, f"recorded {_compact(entry)} but the rules give {expected}")
    return game


def _apply(game: Game, entry: Mapping, stream: DiceStream | None) -> Game:
    """Apply one transcript entry."""
    action = entry.get("action") if isinstance(entry, Mapping) else None
    if action == "roll":
        if stream is not None:
            return game.roll(entry.get("hold"), stream)
        return game._roll(entry.get("hold"), _recorded_dice(entry))
    if action == "score":
        return game.score(entry.get("category"))
    raise ReplayMismatch(game.next_action, f"unknown action {action!r} (expected roll or score)")


def _recorded_dice(entry: Mapping) -> tuple[int, ...]:
    """The dice a stored roll entry records."""
    return rules.validate_dice(entry.get("dice"))


def _same_entry(expected: Mapping, recorded) -> bool:
    """True when a recorded entry encodes exactly as the entry the rules give.

    A recorded entry that has no canonical JSON form (a float, a set...) differs by definition.
    """
    try:
        return canonical_json(recorded) == canonical_json(expected)
    except (TypeError, ValueError):
        return False


def _compact(entry) -> str:
    """An entry as short canonical JSON text for error messages."""
    try:
        return canonical_json(entry).decode()
    except (TypeError, ValueError):
        return repr(entry)
