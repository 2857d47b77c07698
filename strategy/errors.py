"""Every error the strategy engine raises."""


class StrategyError(Exception):
    """Base class of every error of the strategy engine."""

    code = "strategy-error"


class ValueTablesNotReady(StrategyError):
    """Raised by ``TableCache.get`` while the ruleset's table is still being computed."""

    code = "tables-not-ready"


class TableFileError(StrategyError):
    """Raised by ``load_table`` when a file is missing, corrupt, or built for another key."""

    code = "table-file-error"


class InvalidPosition(StrategyError, ValueError):
    """Raised when a position cannot be evaluated: no dice yet, a finished game, or bad fields."""

    code = "invalid-position"


class InvalidTranscript(StrategyError, ValueError):
    """Raised by ``review`` when a transcript does not replay under the ruleset's rules."""

    code = "invalid-transcript"
