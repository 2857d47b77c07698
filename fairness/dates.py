"""Calendar dates as the protocol writes them: ISO ``YYYY-MM-DD``, ASCII digits only."""

import datetime as dt
import re

from .errors import InvalidDate

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


def parse_date(value) -> dt.date:
    """Return the date that ``value`` (``YYYY-MM-DD``, exactly) names, or raise InvalidDate."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
        raise InvalidDate(f"date must be written YYYY-MM-DD, got {value!r}"[:200])
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidDate(f"{value!r} is not a calendar date (YYYY-MM-DD)") from None


def format_date(value) -> str:
    """Return ``value`` as the protocol's ``YYYY-MM-DD`` string, validating it."""
    return parse_date(value).isoformat()
