"""Server-Sent Events of a table: the response a browser's EventSource reads.

A connection without ``Last-Event-ID`` first gets a ``snapshot`` event (the table as it stands,
with the id of the latest event it includes), then every later event as it lands; a
reconnection with ``Last-Event-ID`` (EventSource sends it by itself) gets exactly the events it
missed, then the live ones. Each response lasts at most ``max_seconds`` and writes a comment line
while the table is quiet, so a proxy's read timeout never cuts it and a worker's connections
turn over; the browser reconnects ``RETRY_MS`` later and resumes from its last id. Events may
repeat after a snapshot (the snapshot already holds them): each carries the versions it brings
the table to, and the page skips what it has.
"""

import json
import time
from collections.abc import Callable, Iterator, Mapping

from app.tables.events import TableChannel, valid_event_id

RETRY_MS = 1000
BLOCK_MS = 5000  # below the Redis client's socket timeout (10 s)
MAX_SECONDS = 55.0
HEADERS = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}
END_KIND = "ended"


def format_event(event_id: str, kind: str, data: Mapping) -> str:
    """One SSE message: its id, its event name and its JSON data on one line."""
    payload = json.dumps(dict(data), separators=(",", ":"), ensure_ascii=False)
    return f"id: {event_id}\nevent: {kind}\ndata: {payload}\n\n"


def table_events(channel: TableChannel, table_id: str, last_event_id: str | None,
                 snapshot: Callable[[], Mapping], *, max_seconds: float = MAX_SECONDS,
                 block_ms: int = BLOCK_MS,
                 monotonic: Callable[[], float] = time.monotonic) -> Iterator[str]:
    """The text of one SSE response for ``table_id``, from ``last_event_id`` when the browser
    sent a valid one, else from a snapshot; ends after ``max_seconds``, after the table's
    ``ended`` event, or at once after a snapshot whose ``status`` is ``ended``."""
    yield f"retry: {RETRY_MS}\n\n"
    if valid_event_id(last_event_id):
        after = last_event_id
    else:
        after = channel.last_id(table_id)  # before the snapshot: later events are re-sent
        state = snapshot()
        yield format_event(after, "snapshot", state)
        if state.get("status") == END_KIND:
            return
    until = monotonic() + max_seconds
    while True:
        wait_ms = int(min(block_ms, max(0.0, until - monotonic()) * 1000))
        if wait_ms <= 0:
            return
        events = channel.read(table_id, after, block_ms=wait_ms)
        if not events:
            yield ": quiet\n\n"
            continue
        for event in events:
            yield format_event(event.id, event.kind, event.data)
            after = event.id
            if event.kind == END_KIND:
                return
