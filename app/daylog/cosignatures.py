"""What a witness's verified cosignature must also be to be kept (FAIRNESS.md, "Witnesses and
cosignatures"): plausibly timed, and never older than the one it replaces.

- **Time.** A cosignature's time is when the witness signed: not before the checkpoint's own
  ``time`` (the witness cannot have seen it earlier), and at most ``FUTURE_WINDOW`` after this
  server's clock (room for two honest clocks that disagree a little, none for a time that would
  outrank every later cosignature).
- **Only forward.** Per (checkpoint, witness) the kept cosignature is the latest: an older one is
  refused (409 ``stale-cosignature``), one of the same time or newer is kept; the comparison and
  the write are one compare-and-set, so two posts racing cannot put the older one last.
"""

import datetime as dt

from app.api.errors import ApiError
from app.daylog.store import LogStore
from app.platform.clock import parse_timestamp
from fairness.checkpoint import read_cosignature
from fairness.note import NoteSignature, parse_note

FUTURE_WINDOW = dt.timedelta(minutes=10)
MAX_REPLACE_ATTEMPTS = 5  # each failed attempt means another post of this witness won


def check_time(timestamp: int, checkpoint_time: str, now: dt.datetime) -> None:
    """A 400 ``implausible-time`` unless ``timestamp`` (POSIX seconds) is between the
    checkpoint's ``time`` and ``FUTURE_WINDOW`` after ``now``."""
    earliest = parse_timestamp(checkpoint_time)
    latest = now + FUTURE_WINDOW
    if timestamp < earliest.timestamp():
        raise ApiError(400, "implausible-time",
                       f"The cosignature's time {timestamp} is before the checkpoint's own time "
                       f"{checkpoint_time} ({int(earliest.timestamp())}).")
    if timestamp > latest.timestamp():
        raise ApiError(400, "implausible-time",
                       f"The cosignature's time {timestamp} is more than "
                       f"{int(FUTURE_WINDOW.total_seconds() // 60)} minutes after this server's "
                       f"clock ({int(now.timestamp())}).")


def line_time(body: str, line: str) -> int:
    """The time of a kept cosignature line of ``body``."""
    _, (signature,) = parse_note(body + "\n" + line)
    return read_cosignature(signature.payload)[0]


def keep_latest(logs: LogStore, date: str, ruleset: str, position: int, body: str,
                line: NoteSignature, timestamp: int) -> None:
    """Keep ``line`` (time ``timestamp``) as its witness's cosignature of the checkpoint at
    ``position`` unless the one kept is newer: then a 409 ``stale-cosignature``."""
    for _ in range(MAX_REPLACE_ATTEMPTS):
        kept = logs.cosignature(date, ruleset, position, line.name)
        if kept is not None:
            kept_time = line_time(body, kept)
            if kept_time > timestamp:
                raise ApiError(409, "stale-cosignature",
                               f"This witness's cosignature of this checkpoint at time "
                               f"{kept_time} is kept; one at an earlier time ({timestamp}) "
                               f"does not replace it.")
        if logs.replace_cosignature(date, ruleset, position, line.name, kept, line.line()):
            return
    busy = ApiError(503, "busy", "This witness's cosignature of this checkpoint changed too often "
                                 "meanwhile; try again.")
    busy.headers["Retry-After"] = "1"
    raise busy
