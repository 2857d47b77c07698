"""The refusals services raise on purpose, each carrying its answer.

A service states why it refuses (a table that does not exist, a seat already taken …) with a
subclass of ``DomainError``: the HTTP status the refusal maps to, a stable ``code``, a human
``message``, the response ``headers`` it needs (Retry-After …) and ``extra`` fields of the error
JSON. Services never import the HTTP layer; one error handler at the edge
(``app/api/errors.py``) answers every ``DomainError`` as the API's error JSON.
"""

from collections.abc import Mapping


class DomainError(Exception):
    """A refusal with its answer; a subclass sets ``status`` (400 unless it says otherwise)."""

    status = 400

    def __init__(self, code: str, message: str, headers: Mapping[str, str] | None = None,
                 extra: Mapping | None = None):
        """Keep what the answer will show."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.headers: dict[str, str] = dict(headers or {})
        self.extra = dict(extra or {})
