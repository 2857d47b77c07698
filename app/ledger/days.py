"""A challenge date's life: when it opens, ends, closes and is revealed, in UTC.

Date ``D`` is "today" somewhere on Earth from ``D`` 00:00 at UTC+14 to ``D`` 24:00 at UTC−12:
it opens at ``D−1 10:00Z`` and ends at ``D+1 12:00Z``. New games start only in that window.
Games already started may still be played for a grace period after the end, until
``closes_at``; a game unfinished then is abandoned. The seed is revealed one settle minute
later, so that an action accepted just before ``closes_at`` is stored before the reveal reads
the day.
"""

import datetime as dt
from dataclasses import dataclass

from fairness import InvalidDate, parse_date

OPENS_BEFORE = dt.timedelta(hours=14)
ENDS_AFTER = dt.timedelta(days=1, hours=12)
SETTLE = dt.timedelta(seconds=60)
EARLIEST_OFFSET = dt.timedelta(hours=-12)
# The dates the service takes: every window, neighbouring date and timestamp of these stays
# on the calendar (from 0001-01-01 to 9999-12-31, Python's), so none overflows.
FIRST_DATE = dt.date(1970, 1, 1)
LAST_DATE = dt.date(9998, 12, 31)

UPCOMING = "upcoming"
OPEN = "open"
CLOSED = "closed"
REVEALED = "revealed"


@dataclass(frozen=True)
class DayWindow:
    """The four instants of one date: opens, ends, closes (end + grace), reveal (close + 1 min)."""

    date: str
    opens_at: dt.datetime
    ends_at: dt.datetime
    closes_at: dt.datetime
    reveal_at: dt.datetime

    def is_today_somewhere(self, now: dt.datetime) -> bool:
        """True while the date is the local date somewhere on Earth: new games may start."""
        return self.opens_at <= now < self.ends_at

    def accepts_actions(self, now: dt.datetime) -> bool:
        """True while games of this date may still be played."""
        return self.opens_at <= now < self.closes_at

    def is_due(self, now: dt.datetime) -> bool:
        """True once the date's seed may be revealed."""
        return now >= self.reveal_at

    def status(self, now: dt.datetime, revealed: bool) -> str:
        """``upcoming``, ``open`` (today somewhere), ``closed`` (ended) or ``revealed``."""
        if revealed:
            return REVEALED
        if now < self.opens_at:
            return UPCOMING
        if now < self.ends_at:
            return OPEN
        return CLOSED


def service_date(value) -> str:
    """``value`` as a ``YYYY-MM-DD`` date from FIRST_DATE to LAST_DATE, else InvalidDate
    (a 400 ``invalid-date`` in the API)."""
    parsed = parse_date(value)
    if not FIRST_DATE <= parsed <= LAST_DATE:
        raise InvalidDate(f"{parsed.isoformat()} is outside the dates this service knows, "
                          f"{FIRST_DATE.isoformat()} to {LAST_DATE.isoformat()}")
    return parsed.isoformat()


def day_window(date, grace_seconds: int) -> DayWindow:
    """The window of ``date`` (a date ``service_date`` accepts) with a grace of
    ``grace_seconds`` after its end."""
    date = service_date(date)
    midnight = dt.datetime.combine(parse_date(date), dt.time(), tzinfo=dt.UTC)
    ends_at = midnight + ENDS_AFTER
    closes_at = ends_at + dt.timedelta(seconds=grace_seconds)
    return DayWindow(
        date=date,
        opens_at=midnight - OPENS_BEFORE,
        ends_at=ends_at,
        closes_at=closes_at,
        reveal_at=closes_at + SETTLE,
    )


def earliest_today(now: dt.datetime) -> dt.date:
    """The earliest date that is still "today" somewhere (the date at UTC−12)."""
    return (now + EARLIEST_OFFSET).date()


def latest_due_date(now: dt.datetime, grace_seconds: int) -> dt.date:
    """The latest date whose reveal time has passed at ``now``."""
    return (now - ENDS_AFTER - dt.timedelta(seconds=grace_seconds) - SETTLE).date()
