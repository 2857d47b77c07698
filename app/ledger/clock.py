"""What time it is: the system clock, or a test clock read from a file.

With ``YACHT_DAILY_CLOCK_FILE`` set, every call reads the ISO UTC timestamp in that file, so a
test can move a live server through a day and past its reveal. A missing or empty file means
the real time.
"""

import datetime as dt
import os
from collections.abc import Callable
from pathlib import Path

Clock = Callable[[], dt.datetime]


def system_now() -> dt.datetime:
    """The current UTC time, or the test clock file's time when one is set and not empty."""
    path = os.environ.get("YACHT_DAILY_CLOCK_FILE")
    if path:
        try:
            text = Path(path).read_text().strip()
        except FileNotFoundError:
            text = ""
        if text:
            return parse_timestamp(text)
    return dt.datetime.now(dt.UTC)


def parse_timestamp(text: str) -> dt.datetime:
    """An aware UTC datetime from an ISO-8601 string (``Z`` or an offset; naive means UTC)."""
    moment = dt.datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC)


def format_timestamp(moment: dt.datetime) -> str:
    """A UTC time as the API writes it: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
