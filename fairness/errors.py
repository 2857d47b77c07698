"""Every error the core raises, each with a stable ``code`` the service maps to a 4xx.

An error leaves the object it was raised from unchanged: states are immutable, so a
rejected action simply returns nothing new.
"""


class FairnessError(Exception):
    """Base class of every error of the core."""

    code = "fairness-error"


class UnknownRuleset(FairnessError, ValueError):
    """Raised when a ruleset id names no sheet this core knows."""

    code = "unknown-ruleset"


class UnknownCategory(FairnessError, ValueError):
    """Raised when a box id is not on the game's sheet."""

    code = "unknown-category"


class InvalidDice(FairnessError, ValueError):
    """Raised when dice are not five integers from 1 to 6."""

    code = "invalid-dice"


class InvalidDate(FairnessError, ValueError):
    """Raised when a date is not an ISO ``YYYY-MM-DD`` calendar date."""

    code = "invalid-date"


class InvalidSeed(FairnessError, ValueError):
    """Raised when a seed is not exactly 32 bytes (64 hex digits)."""

    code = "invalid-seed"


class IllegalMove(FairnessError):
    """Base class of the moves the rules forbid; the game state stays as it was."""

    code = "illegal-move"


class InvalidHold(IllegalMove, ValueError):
    """Raised when a hold is not a list of exactly five booleans."""

    code = "invalid-hold"


class HoldOnFirstRoll(IllegalMove):
    """Raised when dice are held on a turn's first roll, before any die was seen."""

    code = "hold-on-first-roll"


class NoRollsLeft(IllegalMove):
    """Raised on a fourth roll in one turn."""

    code = "no-rolls-left"


class NotRolled(IllegalMove):
    """Raised when a box is scored before the turn's first roll."""

    code = "not-rolled"


class BoxFilled(IllegalMove):
    """Raised when a box that already holds a score (even 0) is chosen again."""

    code = "box-filled"


class JokerForbids(IllegalMove):
    """Raised when the forced Joker rule does not allow the chosen box for these dice."""

    code = "joker-forbids"


class GameOver(IllegalMove):
    """Raised on any action after every box of the sheet is filled."""

    code = "game-over"


class ReplayMismatch(FairnessError):
    """Raised when a transcript entry differs from what the rules and the stream give.

    ``index`` is the 0-based position of the first entry that does not match.
    """

    code = "replay-mismatch"

    def __init__(self, index: int, message: str):
        """Record the failing entry's position with the message."""
        super().__init__(f"action {index}: {message}")
        self.index = index


class ChainError(FairnessError, ValueError):
    """Raised when a day lies outside its epoch or epoch parameters are invalid."""

    code = "chain-error"


class LedgerError(FairnessError, ValueError):
    """Raised when a ledger entry, receipt or proof is malformed."""

    code = "ledger-error"


class InvalidClientSeed(FairnessError, ValueError):
    """Raised when a client seed is not 1 to 64 characters of ``A-Z a-z 0-9 - . _ ~``."""

    code = "invalid-client-seed"


class InvalidMatch(FairnessError, ValueError):
    """Raised when a match's id, kind, seats or result fields are not what the protocol allows."""

    code = "invalid-match"
