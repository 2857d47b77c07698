"""What time it is: the system clock, or a test clock read from a file.

With ``YACHT_DAILY_CLOCK_FILE`` set when the app is made, every call of its clock reads the ISO
UTC timestamp in that file, so a test can move a live server through a day and past its
reveal. A missing or empty file means the real time.
"""

import datetime as dt
import functools
import os
from collections.abc import Callable
from pathlib import Path

Clock = Callable[[], dt.datetime]


def system_clock() -> Clock:
    """The process's clock, chosen once from the environment: the test clock file's
    (``YACHT_DAILY_CLOCK_FILE``) when one is named, else the system's UTC time (a service asks
    the time several times an action: the environment is read once, not at each)."""
    path = os.environ.get("YACHT_DAILY_CLOCK_FILE")
    return functools.partial(file_time, Path(path)) if path else utc_now


def system_now() -> dt.datetime:
    """The current time of ``system_clock()``, for a command that asks it once."""
    return system_clock()()


def utc_now() -> dt.datetime:
    """The system's current UTC time."""
    return dt.datetime.now(dt.UTC)


def file_time(path: Path) -> dt.datetime:
    """The time written in the test clock file ``path``, or the system's when it is missing or
    empty."""
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        text = ""
    return parse_timestamp(text) if text else utc_now()


def parse_timestamp(text: str) -> dt.datetime:
    """An aware UTC datetime from an ISO-8601 string (``Z`` or an offset; naive means UTC)."""
    moment = dt.datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC)


def format_timestamp(moment: dt.datetime) -> str:
    """A UTC time as the API writes it: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
