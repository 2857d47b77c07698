"""The tables' refusals: each its HTTP status and its stable code (docs/api.md, "Tables").

The service, its store and its streams raise these; the API's one handler for ``DomainError``
(``app/api/errors.py``) answers them, and the tables' pages turn a missing table into their 404.
"""

from app.platform.errors import DomainError


class TableError(DomainError):
    """Any refusal of the tables feature."""


class TableNotFound(TableError):
    """No table has this id or code (a malformed one is never looked up)."""

    status = 404

    def __init__(self):
        """The one answer for every table Redis does not hold."""
        super().__init__("table-not-found", "No table has this id or code (or it has ended "
                                            "long ago).")


class InvalidTable(TableError):
    """A table's request the tables refuse as written: ``invalid-clock``, ``invalid-seats``,
    ``invalid-bots``, ``invalid-client-seed``, ``invalid-name``."""

    status = 400


class NotAllowed(TableError):
    """The caller does not hold what the action needs: ``not-creator``, ``not-your-match``."""

    status = 403


class TableConflict(TableError):
    """The table is not in a state that allows the action: ``table-started``, ``table-full``,
    ``seats-open``, ``table-waiting``, or ``busy`` when it changed too often meanwhile."""

    status = 409


class NoFreeCode(TableError):
    """Every short code drawn was taken: ``busy``, try again."""

    status = 503

    def __init__(self):
        """The answer when the codes drawn for a new table were all taken."""
        super().__init__("busy", "Could not find a free table code; try again.")


class StreamRefused(TableError):
    """An event stream refused by a cap, ``per`` ``address`` (429 ``too-many-streams``: this
    address holds its share already) or ``worker`` (503 ``streams-busy``: this worker does), with
    Retry-After ``retry_after`` whole seconds."""

    def __init__(self, per: str, cap: int, retry_after: int):
        """The refusal of a stream past ``cap`` streams per ``per``."""
        if per == "address":
            self.status = 429
            super().__init__("too-many-streams", f"Your connection holds {cap} live tables "
                             "open already; close one, or try again later.")
        else:
            self.status = 503
            super().__init__("streams-busy", "The server holds as many live tables as it "
                             "can; try again in a moment.")
        self.headers["Retry-After"] = str(retry_after)
        self.per = per
        self.cap = cap
        self.retry_after = retry_after
