"""A table's events in Redis: one stream per table, the fan-out and the resume point at once.

Every event of a table (a seat joined, a roll, a box filled, the clock played, the end) is
appended with XADD to the Redis stream ``{t:<table>}:events``. Every watcher, in whichever
gunicorn worker or machine, reads it with XREAD BLOCK from the last id it has: Redis wakes each
blocked reader as an event lands, so nothing is fanned out in a process and a worker that dies
loses nothing. The stream id is the SSE ``id:``: a browser that reconnects sends it back as
``Last-Event-ID`` and reads on from there. The stream lives ``EVENT_TTL_SECONDS`` (a day) past
its latest event (its expiry is renewed with each; the table itself, eight days) and keeps at most
``MAX_EVENTS`` (more than any table makes), so it is one key of one hash slot and works on
Redis Cluster as is.

A table's turn is timed only by ``publish_turn``: one script on the table's hash tag that
times the turn an action (or the start) hands over, unless it is timed already (the table's
``turn`` and ``deadline``: the first writer's deadline stands), and writes that action's events,
each with its ``seconds_left`` from that deadline; so an action costs its compare-and-set on
the match and this one round trip.
"""

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

from app.platform.keys import table_events_key as events_key
from app.platform.redis import LazyClusterClient
from app.tables.store import TABLE_TTL_SECONDS, table_key

MAX_EVENTS = 2000
EVENT_TTL_SECONDS = 24 * 3600
STREAM_ID = re.compile(r"(\d{1,20})-(\d{1,20})")
# Each part of a Redis stream id is an unsigned 64-bit number: XREAD refuses a larger one.
STREAM_ID_PART_MAX = 2**64 - 1
START = "0-0"
LEFT_FIELD = "seconds_left"
# Readers a process may hold blocked in XREAD at once: one a stream open on that worker.
STREAM_CONNECTIONS = 4000

# KEYS: the table's hash, its events. ARGV: the turn to time ('' for none), its deadline if it
# is not timed yet, the table's ttl, now, the events' ttl, their maximum length, the match
# version the events bring the table to ('' when they carry no action), then for each event its
# kind, '1' when it carries the turn's seconds left (its data is then a JSON object without its
# closing brace, the script adds the member) else '0', and its data. Events that bring the
# table to a version already published (the table's ``published``) are not written again: two
# runners that both played the same clock move, or a repeat of an action already published,
# publish it once. Returns the turn's deadline ('' when none), 1 when this call timed the
# turn, and the events' ids.
_PUBLISH_TURN = """
local deadline, timed = '', 0
local fresh = true
if ARGV[7] ~= '' and redis.call('EXISTS', KEYS[1]) == 1 then
  local published = tonumber(redis.call('HGET', KEYS[1], 'published') or '-1')
  if tonumber(ARGV[7]) <= published then
    fresh = false
  else
    redis.call('HSET', KEYS[1], 'published', ARGV[7])
  end
end
if ARGV[1] ~= '' and redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'turn') ~= ARGV[1] then
    redis.call('HSET', KEYS[1], 'turn', ARGV[1], 'deadline', ARGV[2])
    redis.call('EXPIRE', KEYS[1], ARGV[3])
    timed = 1
  end
  deadline = redis.call('HGET', KEYS[1], 'deadline')
end
local left = 'null'
if deadline ~= '' then
  left = string.format('%.3f', math.max(0, tonumber(deadline) - tonumber(ARGV[4])))
end
local ids = {}
for index = 8, fresh and #ARGV or 0, 3 do
  local data = ARGV[index + 2]
  if ARGV[index + 1] == '1' then data = data .. ',"seconds_left":' .. left .. '}' end
  ids[#ids + 1] = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], '*',
                             'kind', ARGV[index], 'data', data)
end
if #ids > 0 then redis.call('EXPIRE', KEYS[2], ARGV[5]) end
return {deadline, timed, ids}
"""


def valid_event_id(text: str | None) -> bool:
    """Whether ``text`` is a stream id this channel could have given (``<ms>-<seq>``, each part
    at most ``STREAM_ID_PART_MAX``): any other is never sent to Redis."""
    found = STREAM_ID.fullmatch(text) if text else None
    return found is not None and all(int(part) <= STREAM_ID_PART_MAX for part in found.groups())


@dataclass(frozen=True)
class Published:
    """What ``publish_turn`` did: the timed turn's deadline (None when no turn is timed),
    whether this call timed it (a new turn), and the events' ids."""

    deadline: float | None
    timed: bool
    ids: list[str]


@dataclass(frozen=True)
class Event:
    """One event of a table: its stream id, its kind and its JSON data."""

    id: str
    kind: str
    data: dict


def reading_client(client):
    """The client of the streams' blocking reads: a pool of its own of up to
    STREAM_CONNECTIONS connections to the same server, so that the watchers waiting in XREAD
    (each holds a connection while it waits) never take the connections the requests need
    (redis-py's pools stop at 100 by default: a worker with 100 open streams answered every
    request 503). A cluster client, whose pools are per node and unbounded, is used as is."""
    if isinstance(client, (RedisCluster, LazyClusterClient)):
        return client  # asked nothing: a cluster that is away must not stop a worker's boot
    pool = client.connection_pool
    return redis.Redis(connection_pool=type(pool)(
        connection_class=pool.connection_class, max_connections=STREAM_CONNECTIONS,
        **pool.connection_kwargs))


class TableChannel:
    """Publish a table's events and read them from a given point, blocking for new ones."""

    def __init__(self, client, ttl_seconds: int = EVENT_TTL_SECONDS):
        """Bind to a redis-py client (plain or cluster); events expire ``ttl_seconds`` after
        the table's last one."""
        self.client = client
        self.reader = reading_client(client)
        self.ttl_seconds = ttl_seconds
        self._publish_turn = client.register_script(_PUBLISH_TURN)

    def publish(self, table_id: str, kind: str, data: Mapping) -> str:
        """Append an event; returns its id. One round trip (XADD and EXPIRE pipelined)."""
        key = events_key(table_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.xadd(key, {"kind": kind, "data": _json(data)},
                  maxlen=MAX_EVENTS, approximate=True)
        pipe.expire(key, self.ttl_seconds)
        event_id, _ = pipe.execute()
        return event_id

    def publish_turn(self, table_id: str, turn: str | None, deadline: float, now: float,
                     events: Sequence[tuple[str, Mapping, bool]],
                     version: int | None = None) -> Published:
        """Time ``turn`` (``<seat>:<round>``; None: none) until ``deadline`` unless it is timed
        already, and append ``events`` (kind, data, whether the data gets the turn's
        ``seconds_left`` at ``now``) unless the match ``version`` they bring the table to was
        published already (None: events of no action, always written): one script on the
        table's hash tag."""
        args = [turn or "", repr(deadline), TABLE_TTL_SECONDS, repr(now), self.ttl_seconds,
                MAX_EVENTS, "" if version is None else str(version)]
        for kind, data, timed in events:
            text = _json(data)
            if timed:
                if not data or LEFT_FIELD in data:
                    raise ValueError("a timed event's data is a non-empty object without "
                                     f"{LEFT_FIELD}")
                text = text[:-1]
            args += [kind, "1" if timed else "0", text]
        stored, timed_now, ids = self._publish_turn(
            keys=[table_key(table_id), events_key(table_id)], args=args)
        return Published(float(stored) if stored else None, timed_now == 1, list(ids))

    def last_id(self, table_id: str) -> str:
        """The id of the table's latest event, or ``0-0`` when it has none."""
        newest = self.client.xrevrange(events_key(table_id), count=1)
        return newest[0][0] if newest else START

    def read(self, table_id: str, after: str, block_ms: int | None = None,
             count: int = 200) -> list[Event]:
        """Up to ``count`` events after id ``after``; with ``block_ms``, wait up to that long
        for one when there are none yet (an empty list when none came)."""
        reply = self.reader.xread({events_key(table_id): after}, count=count, block=block_ms)
        if not reply:
            return []
        (_, entries), = reply  # one stream asked, one answered (RESP2's list form)
        return [Event(event_id, fields["kind"], json.loads(fields["data"]))
                for event_id, fields in entries]

    def forget(self, table_id: str) -> None:
        """Drop a table's events (when the table itself is removed)."""
        self.client.delete(events_key(table_id))


def _json(data: Mapping) -> str:
    """An event's data as compact JSON text."""
    return json.dumps(dict(data), separators=(",", ":"))
