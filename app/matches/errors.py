"""The matches' refusals: each its HTTP status and its stable code (docs/api.md, "Matches").

The service raises these; the API's one handler for ``DomainError`` (``app/api/errors.py``)
answers them, except a ``MatchConflict`` on the matches' own routes, answered with the match as
it stands (``routes.py``). A table's match raises them too: the tables catch ``MatchConflict``.
"""

from app.matches.model import Match
from app.platform.errors import DomainError


class MatchError(DomainError):
    """Any refusal of the matches feature."""


class MatchNotFound(MatchError):
    """No match has this id (a malformed one is never looked up)."""

    status = 404

    def __init__(self):
        """The one answer for every match Redis does not hold."""
        super().__init__("match-not-found", "No match has this id (or it has been removed).")


class InvalidMatch(MatchError):
    """A match's request refused as written: ``invalid-bots``, ``unknown-ruleset``,
    ``client-seed-required``."""

    status = 400


class NotYourMatch(MatchError):
    """An action or a hint by someone who holds no seat in the match."""

    status = 403

    def __init__(self):
        """The answer to a caller without a seat."""
        super().__init__("not-your-match", "You hold no seat in this match.")


class NoHints(MatchError):
    """A hint asked in a match of more than one human."""

    status = 403

    def __init__(self):
        """The answer to a hint outside practice and games against the computer."""
        super().__init__("no-hints", "Hints are for practice and games against the computer "
                                     "only.")


class MatchConflict(MatchError):
    """A 409 about the match's state (not your turn, stale number, a move the rules refuse),
    carrying the match as it stands so that the client can resync."""

    status = 409

    def __init__(self, code: str, message: str, match: Match):
        """Keep the match alongside the error."""
        super().__init__(code, message)
        self.match = match
