"""What time it is: the system clock, or a test clock read from a file.

With ``YACHT_DAILY_CLOCK_FILE`` set when the app is made, every call of its clock reads the ISO
UTC timestamp in that file, so a test can move a live server through a day and past its
reveal. The file is the time or an error, never the real time: a reader that finds it empty or
holding part of a time (a shell's ``>`` truncates it before writing) reads it again for up to
``CLOCK_FILE_PATIENCE_SECONDS``, then raises ``ClockFileError``; so does a missing file. A
writer should replace the file whole (write a temporary file, then rename it over the clock).
"""

import datetime as dt
import functools
import os
import time
from collections.abc import Callable
from pathlib import Path

Clock = Callable[[], dt.datetime]
CLOCK_FILE_VARIABLE = "YACHT_DAILY_CLOCK_FILE"
# Far longer than a writer takes between truncating the file and writing its few bytes.
CLOCK_FILE_PATIENCE_SECONDS = 0.5
CLOCK_FILE_RETRY_SECONDS = 0.01


class ClockFileError(RuntimeError):
    """The test clock file cannot be read as a time (missing, empty, or not a whole time)."""


def system_clock() -> Clock:
    """The process's clock, chosen once from the environment: the test clock file's
    (``YACHT_DAILY_CLOCK_FILE``) when one is named, else the system's UTC time (a service asks
    the time several times an action: the environment is read once, not at each). A named file
    is read once here: one without a time raises ClockFileError, so an app (a server's worker)
    does not start on it."""
    path = os.environ.get(CLOCK_FILE_VARIABLE)
    if not path:
        return utc_now
    clock = functools.partial(file_time, Path(path))
    clock()
    return clock


def system_now() -> dt.datetime:
    """The current time of ``system_clock()``, for a command that asks it once."""
    return system_clock()()


def utc_now() -> dt.datetime:
    """The system's current UTC time."""
    return dt.datetime.now(dt.UTC)


def file_time(path: Path, patience: float = CLOCK_FILE_PATIENCE_SECONDS) -> dt.datetime:
    """The time written in the test clock file ``path``: a date and a time (``T``), ISO UTC.
    Read again every CLOCK_FILE_RETRY_SECONDS while it holds none, for up to ``patience``
    seconds (a writer between truncating the file and writing it); then ClockFileError."""
    deadline = time.monotonic() + patience
    while True:
        try:
            return _whole_time(path.read_text())
        except FileNotFoundError:
            problem = "it is missing"
        except (OSError, ValueError) as error:
            problem = str(error)
        if time.monotonic() >= deadline:
            raise ClockFileError(f"the test clock file {path} ({CLOCK_FILE_VARIABLE}) holds no "
                                 f"time: {problem}; write an ISO UTC time such as "
                                 f"2026-03-10T12:00:00Z into it (never the real time instead)")
        time.sleep(CLOCK_FILE_RETRY_SECONDS)


def _whole_time(text: str) -> dt.datetime:
    """The time of a clock file's ``text``; ValueError unless it holds a date and a time (a
    date alone can be the start of a time still being written)."""
    text = text.strip()
    if not text:
        raise ValueError("it is empty")
    if "T" not in text.upper():
        raise ValueError(f"{text!r} is not a date and a time")
    return parse_timestamp(text)


def parse_timestamp(text: str) -> dt.datetime:
    """An aware UTC datetime from an ISO-8601 string (``Z`` or an offset; naive means UTC)."""
    moment = dt.datetime.fromisoformat(text.strip())
    if moment.tzinfo is None:
        return moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC)


def format_timestamp(moment: dt.datetime) -> str:
    """A UTC time as the API writes it: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
