"""Accepting a witness's cosignature of a checkpoint (FAIRNESS.md, "Witnesses and
cosignatures"): it must be one signature line of a configured witness's key over a checkpoint
this log cut, verify, be plausibly timed, and never be older than the one it replaces.

- **Time.** A cosignature's time is when the witness signed: not before the checkpoint's own
  ``time`` (the witness cannot have seen it earlier), and at most ``FUTURE_WINDOW`` after this
  server's clock (room for two honest clocks that disagree a little, none for a time that would
  outrank every later cosignature).
- **Only forward.** Per (checkpoint, witness) the kept cosignature is the latest: an older one is
  refused (409 ``stale-cosignature``), one of the same time or newer is kept; the comparison and
  the write are one compare-and-set, so two posts racing cannot put the older one last.
"""

import datetime as dt
from collections.abc import Callable, Sequence

from app.daylog.errors import (
    BadCosignature,
    CosignatureBusy,
    ImplausibleTime,
    StaleCosignature,
    UnknownCheckpoint,
    UnknownWitness,
)
from app.daylog.store import LogStore
from app.ledger.signing import verify_signature
from app.platform.clock import parse_timestamp
from fairness.checkpoint import body_hash, cosigned_message, parse_checkpoint, read_cosignature
from fairness.errors import LedgerError
from fairness.note import NoteSignature, VerifierKey, parse_note

FUTURE_WINDOW = dt.timedelta(minutes=10)
MAX_REPLACE_ATTEMPTS = 5  # each failed attempt means another post of this witness won


def accept(logs: LogStore, witnesses: Callable[[], Sequence[VerifierKey]],
           clock: Callable[[], dt.datetime], date: str, ruleset: str, body, signature) -> None:
    """Keep the cosignature line ``signature`` of the checkpoint ``body`` of (date, sheet)'s
    log, made by one of the ``witnesses``' keys, plausibly timed by ``clock`` and not older
    than the one it replaces; a 4xx ``LogError`` when it is not one, nothing kept."""
    if not isinstance(body, str) or not isinstance(signature, str):
        raise BadCosignature("Post {\"body\": <checkpoint body>, \"signature\": <one signature "
                             "line>}.")
    position = logs.checkpoint_position(date, ruleset, body_hash(body).hex()) \
        if body.endswith("\n") else None
    if position is None:
        raise UnknownCheckpoint()
    try:
        _, (line,) = parse_note(body + "\n" + signature)
    except (LedgerError, ValueError):
        raise BadCosignature("signature must be one signature line '— <name> <base64>\\n'."
                             ) from None
    witness = next((key for key in witnesses()
                    if key.name == line.name and key.key_id == line.key_id), None)
    if witness is None:
        raise UnknownWitness()
    try:
        timestamp, raw = read_cosignature(line.payload)
    except LedgerError as error:
        raise BadCosignature(str(error)) from None
    if not verify_signature(witness.public_key.hex(), cosigned_message(body, timestamp),
                            raw.hex()):
        raise BadCosignature("The cosignature does not verify under the witness's key.")
    check_time(timestamp, parse_checkpoint(body).time, clock())
    keep_latest(logs, date, ruleset, position, body, line, timestamp)


def check_time(timestamp: int, checkpoint_time: str, now: dt.datetime) -> None:
    """A 400 ``ImplausibleTime`` unless ``timestamp`` (POSIX seconds) is between the
    checkpoint's ``time`` and ``FUTURE_WINDOW`` after ``now``."""
    earliest = parse_timestamp(checkpoint_time)
    latest = now + FUTURE_WINDOW
    if timestamp < earliest.timestamp():
        raise ImplausibleTime(
            f"The cosignature's time {timestamp} is before the checkpoint's own time "
            f"{checkpoint_time} ({int(earliest.timestamp())}).")
    if timestamp > latest.timestamp():
        raise ImplausibleTime(
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
    ``position`` unless the one kept is newer: then a 409 ``StaleCosignature``; a 503
    ``CosignatureBusy`` when other posts won every attempt."""
    for _ in range(MAX_REPLACE_ATTEMPTS):
        kept = logs.cosignature(date, ruleset, position, line.name)
        if kept is not None:
            kept_time = line_time(body, kept)
            if kept_time > timestamp:
                raise StaleCosignature(kept_time, timestamp)
        if logs.replace_cosignature(date, ruleset, position, line.name, kept, line.line()):
            return
    raise CosignatureBusy()
