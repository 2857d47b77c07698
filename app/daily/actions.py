"""A daily game's actions as the service takes them: a roll (with the hold it carries) or a
scoring, the counting of one action request against its game's limits, and the game as an
answer shows it (``Played``, with its status). The actions themselves, ``Roll`` and ``Score``,
and the parsing of a hold are the core's (``fairness.actions``), the same for every player."""

import datetime as dt
from dataclasses import dataclass

from app.daily.store import GameRecord
from app.ledger.days import DayWindow
from fairness import Game
from fairness.actions import Action, Roll, Score
from fairness.hold import parse_hold

PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"

__all__ = ["ABANDONED", "FINISHED", "PLAYING", "Action", "CountedOnce", "Played", "Roll",
           "Score", "parse_hold"]


class CountedOnce:
    """The game's action limits to count on one request's first compare-and-set only: a retry
    within the request (another worker had moved the game) is the same action. ``reached``
    tells whether the request got that far (then Redis counted it)."""

    def __init__(self, limits: tuple[tuple[int, int], ...]):
        """Hold the limits until taken."""
        self.limits = limits
        self.reached = False

    def take(self) -> tuple[tuple[int, int], ...]:
        """The limits the first time, nothing afterwards."""
        limits, self.limits, self.reached = self.limits, (), True
        return limits


@dataclass(frozen=True)
class Played:
    """A game as an answer shows it: the record (up to the answered action) and its rebuilt game."""

    record: GameRecord
    game: Game
    window: DayWindow

    def status(self, now: dt.datetime) -> str:
        """``finished``, ``abandoned`` (unfinished when its date closed) or ``playing``."""
        if self.game.finished:
            return FINISHED
        if now >= self.window.closes_at:
            return ABANDONED
        return PLAYING
