"""The daily games' refusals: each its HTTP status and its stable code (docs/api.md).

The games' service raises these; the API's one handler for ``DomainError``
(``app/api/errors.py``) answers them, and a refused action's 409 (``GameConflict``) carries the
game as it stands, answered by the daily routes' own handler.
"""

from typing import TYPE_CHECKING

from app.platform.errors import DomainError

if TYPE_CHECKING:
    from app.daily.actions import Played


class DailyError(DomainError):
    """Any refusal of the daily games."""


class GameNotFound(DailyError):
    """No game has this id (never made, or Redis lost it)."""

    status = 404

    def __init__(self):
        """The one answer for every game Redis does not hold."""
        super().__init__("game-not-found", "No game has this id.")


class DayClosed(DailyError):
    """The game's date takes no more actions (closed on this process's clock, or revealed)."""

    status = 409

    def __init__(self, message: str):
        """A ``day-closed`` refusal saying why."""
        super().__init__("day-closed", message)


class DateNotToday(DailyError):
    """No new game starts on a date that is not today anywhere on Earth."""

    status = 409

    def __init__(self, date: str):
        """The refusal of a new game on ``date``."""
        super().__init__("date-not-today",
                         f"{date} is not today anywhere on Earth: no new game can start.")


class NotADailySheet(DailyError):
    """The sheet has no daily challenge on the date."""

    status = 400

    def __init__(self, ruleset: str, date: str, daily: tuple[str, ...]):
        """The refusal of ``ruleset`` on ``date``, naming the date's daily sheets."""
        super().__init__("not-a-daily-sheet",
                         f"{ruleset} has no daily challenge on {date} (that date's daily "
                         f"sheets: {', '.join(daily)}).")


class NotYourGame(DailyError):
    """An action on another player's game."""

    status = 403

    def __init__(self):
        """The refusal of an action on a game the caller does not play."""
        super().__init__("not-your-game", "This game belongs to another player.")


class TooManyActions(DailyError):
    """An action past its game's rate limit (nothing written), with Retry-After."""

    status = 429

    def __init__(self, retry_after: int):
        """The refusal, to try again in ``retry_after`` seconds."""
        super().__init__("too-many-requests",
                         f"This game has taken as many actions as its limit allows for now; try "
                         f"again in {retry_after} s.",
                         headers={"Retry-After": str(retry_after)})


class GameConflict(DailyError):
    """A 409 about a game's state: stale action number or a move the rules refuse now.

    The answer carries the game as it stands, so the client can resync.
    """

    status = 409

    def __init__(self, code: str, message: str, played: "Played"):
        """Keep the game alongside the error."""
        super().__init__(code, message)
        self.played = played
