"""Calendar dates as the protocol writes them: ISO ``YYYY-MM-DD``."""

import datetime as dt

from .errors import InvalidDate


def parse_date(value) -> dt.date:
    """Return the date that ``value`` (``YYYY-MM-DD``, exactly) names, or raise InvalidDate."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str) or len(value) != 10:
        raise InvalidDate(f"date must be written YYYY-MM-DD, got {value!r}")
    try:
        parsed = dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidDate(f"{value!r} is not a calendar date (YYYY-MM-DD)") from None
    if parsed.isoformat() != value:
        raise InvalidDate(f"date must be written YYYY-MM-DD, got {value!r}")
    return parsed


def format_date(value) -> str:
    """Return ``value`` as the protocol's ``YYYY-MM-DD`` string, validating it."""
    return parse_date(value).isoformat()
