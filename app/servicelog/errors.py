"""The service log's refusals: each its HTTP status and its stable code (docs/api.md, "The
service log"). The service and its routes raise these; ``app/api/errors.py`` answers them."""

from app.platform.errors import DomainError


class ServiceLogError(DomainError):
    """Any refusal of the service log."""


class OriginMismatch(ServiceLogError):
    """The configured origin is not the one the log recorded at its first checkpoint: the
    recorded one is the log's identity, so the service refuses to run the log under another."""

    status = 500

    def __init__(self, recorded: str, configured: str):
        """The refusal naming both origins."""
        super().__init__("log-origin-mismatch",
                         f"The service log's origin is {recorded!r} (recorded at its first "
                         f"checkpoint) but this process is configured for {configured!r}: set "
                         f"YACHT_DAILY_PUBLIC_URL or YACHT_DAILY_LOG_ORIGIN back so that the "
                         f"origin is {recorded!r}.")
        self.recorded = recorded
        self.configured = configured


class LogKeyMismatch(ServiceLogError):
    """This process's log key is not the one the log recorded at its first checkpoint: every
    machine must hold the same ``log-key.pem``, or two keys would sign one log."""

    status = 500

    def __init__(self, recorded: str, own: str):
        """The refusal naming both keys."""
        super().__init__("log-key-mismatch",
                         f"The service log's key is {recorded} (recorded at its first "
                         f"checkpoint) but this process holds {own}: copy log-key.pem from "
                         f"the data directory of the machines already serving the log.")


class NoLogCheckpoint(ServiceLogError):
    """The service log has cut no checkpoint yet."""

    status = 404

    def __init__(self):
        """The answer before the first checkpoint."""
        super().__init__("no-checkpoint", "The service log has no checkpoint yet.")


class InvalidLogSize(ServiceLogError):
    """A tree size that is not a whole number, or a pair of sizes out of order."""

    def __init__(self, message: str):
        """The refusal, ``message`` saying what the size must be."""
        super().__init__("invalid-size", message)


class UnknownLogSize(ServiceLogError):
    """A size the service log never cut a checkpoint of."""

    status = 404

    def __init__(self, size: int):
        """The refusal of ``size``."""
        super().__init__("unknown-size", f"The service log has no checkpoint of size {size}.")


class UnknownEntry(ServiceLogError):
    """A day checkpoint that is not (yet) an entry of the service log, or not in the tree of
    the size asked for."""

    status = 404

    def __init__(self, message: str):
        """The refusal, ``message`` saying which."""
        super().__init__("unknown-entry", message)


class BadTilePath(ServiceLogError):
    """A tile path that is not written as c2sp.org/tlog-tiles says."""

    def __init__(self, message: str):
        """The refusal, ``message`` saying what is wrong."""
        super().__init__("bad-tile-path", message)


class NoSuchTile(ServiceLogError):
    """A tile or entry bundle beyond the latest checkpoint, or a partial one of a size never
    checkpointed."""

    status = 404

    def __init__(self, path: str):
        """The refusal of ``path``."""
        super().__init__("no-such-tile", f"The service log serves no {path}.")
