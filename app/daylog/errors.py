"""The day's log's refusals: each its HTTP status and its stable code (docs/api.md, "Ledger and
audit", "The day's log").

The log's service, its cosignatures' acceptance and its routes raise these; the API's one handler
for ``DomainError`` (``app/api/errors.py``) answers them.
"""

from app.platform.errors import DomainError


class LogError(DomainError):
    """Any refusal of the day's log."""


class DayClosed(LogError):
    """A game finished after its date's log closed without it (a process whose clock lags)."""

    status = 409

    def __init__(self, date: str):
        """The refusal of a finish on ``date``."""
        super().__init__("day-closed", f"The {date} challenge is closed: no more actions.")


class UnknownLog(LogError):
    """No log of this (date, sheet): not playable yet, a v1 date, or not a daily sheet."""

    status = 404

    def __init__(self, date: str, ruleset: str):
        """The answer for a (date, sheet) without a log."""
        super().__init__("unknown-log", f"There is no log of {date} {ruleset}: the date is not "
                                        "playable yet, not logged, or not a daily sheet.")


class NoCheckpoint(LogError):
    """The log has cut no checkpoint yet."""

    status = 404

    def __init__(self, date: str, ruleset: str):
        """The answer for a log of (date, sheet) without a checkpoint."""
        super().__init__("no-checkpoint", f"The {date} {ruleset} log has no checkpoint yet.")


class InvalidSize(LogError):
    """A tree size that is not a whole number, or not that of one of the log's checkpoints:
    ``invalid-size``, the message saying which."""

    def __init__(self, message: str):
        """The refusal of a size, ``message`` saying what it must be."""
        super().__init__("invalid-size", message)


class BadCosignature(LogError):
    """A posted cosignature that is not one (malformed, or not verifying): ``bad-cosignature``,
    the message saying why."""

    def __init__(self, message: str):
        """The refusal of a cosignature, ``message`` saying why."""
        super().__init__("bad-cosignature", message)


class UnknownCheckpoint(LogError):
    """A cosignature of a body the log never cut."""

    status = 404

    def __init__(self):
        """The one answer for a body that is not one of the log's checkpoints."""
        super().__init__("unknown-checkpoint", "This log cut no checkpoint with this body.")


class UnknownWitness(LogError):
    """A cosignature by a witness this server does not have configured."""

    status = 403

    def __init__(self):
        """The one answer for a signature line of no configured witness key."""
        super().__init__("unknown-witness", "No witness of this name and key ID is configured "
                                            "here.")


class ImplausibleTime(LogError):
    """A cosignature timed before its checkpoint or too far past this server's clock:
    ``implausible-time``, the message saying which."""

    def __init__(self, message: str):
        """The refusal of a cosignature's time, ``message`` saying why."""
        super().__init__("implausible-time", message)


class StaleCosignature(LogError):
    """A cosignature older than the one its witness has kept for the checkpoint."""

    status = 409

    def __init__(self, kept_time: int, timestamp: int):
        """The refusal of a cosignature at ``timestamp`` when one at ``kept_time`` is kept."""
        super().__init__("stale-cosignature",
                         f"This witness's cosignature of this checkpoint at time {kept_time} is "
                         f"kept; one at an earlier time ({timestamp}) does not replace it.")


class CosignatureBusy(LogError):
    """The witness's kept cosignature changed under every attempt to replace it: ``busy``,
    retry after a second."""

    status = 503

    def __init__(self):
        """The one answer when other posts kept winning the compare-and-set."""
        super().__init__("busy", "This witness's cosignature of this checkpoint changed too "
                                 "often meanwhile; try again.", headers={"Retry-After": "1"})
