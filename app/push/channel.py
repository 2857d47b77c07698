"""A table's events in Redis: one stream per table, the fan-out and the resume point at once.

Every event of a table (a seat joined, a roll, a box filled, the clock played, the end) is
appended with XADD to the Redis stream ``{t:<table>}:events``. Every watcher, in whichever
gunicorn worker or machine, reads it with XREAD BLOCK from the last id it has: Redis wakes each
blocked reader as an event lands, so nothing is fanned out in a process and a worker that dies
loses nothing. The stream id is the SSE ``id:``: a browser that reconnects sends it back as
``Last-Event-ID`` and reads on from there. The stream lives as long as its table (its expiry is
renewed with each event) and keeps at most ``MAX_EVENTS`` (more than any table makes), so it is
one key of one hash slot and works on Redis Cluster as is.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

MAX_EVENTS = 2000
EVENT_TTL_SECONDS = 24 * 3600
STREAM_ID = re.compile(r"\d{1,20}-\d{1,20}")
START = "0-0"


def events_key(table_id: str) -> str:
    """The stream of ``table_id``'s events (the table's own hash tag)."""
    return f"{{t:{table_id}}}:events"


def valid_event_id(text: str | None) -> bool:
    """Whether ``text`` is a stream id this channel could have given (``<ms>-<seq>``)."""
    return bool(text) and STREAM_ID.fullmatch(text) is not None


@dataclass(frozen=True)
class Event:
    """One event of a table: its stream id, its kind and its JSON data."""

    id: str
    kind: str
    data: dict


class TableChannel:
    """Publish a table's events and read them from a given point, blocking for new ones."""

    def __init__(self, client, ttl_seconds: int = EVENT_TTL_SECONDS):
        """Bind to a redis-py client (plain or cluster); events expire ``ttl_seconds`` after
        the table's last one."""
        self.client = client
        self.ttl_seconds = ttl_seconds

    def publish(self, table_id: str, kind: str, data: Mapping) -> str:
        """Append an event; returns its id. One round trip (XADD and EXPIRE pipelined)."""
        key = events_key(table_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.xadd(key, {"kind": kind, "data": json.dumps(dict(data), separators=(",", ":"))},
                  maxlen=MAX_EVENTS, approximate=True)
        pipe.expire(key, self.ttl_seconds)
        event_id, _ = pipe.execute()
        return event_id

    def last_id(self, table_id: str) -> str:
        """The id of the table's latest event, or ``0-0`` when it has none."""
        newest = self.client.xrevrange(events_key(table_id), count=1)
        return newest[0][0] if newest else START

    def read(self, table_id: str, after: str, block_ms: int | None = None,
             count: int = 200) -> list[Event]:
        """Up to ``count`` events after id ``after``; with ``block_ms``, wait up to that long
        for one when there are none yet (an empty list when none came)."""
        reply = self.client.xread({events_key(table_id): after}, count=count, block=block_ms)
        if not reply:
            return []
        (_, entries), = reply  # one stream asked, one answered (RESP2's list form)
        return [Event(event_id, fields["kind"], json.loads(fields["data"]))
                for event_id, fields in entries]

    def forget(self, table_id: str) -> None:
        """Drop a table's events (when the table itself is removed)."""
        self.client.delete(events_key(table_id))
