"""Caps on open event streams: per client address, and per worker.

An open stream holds one of its worker's connections (and one Redis connection) for up to a
minute. Without a cap, one address holding a few thousand streams took every connection the
workers accept, and health checks and the API waited behind them. Two caps, each a refusal as
soon as the request arrives, before anything is read for it:

- **Per worker** (``STREAMS_PER_WORKER``), counted in this process's memory: the streams this
  worker holds stay below the connections it accepts (gevent: ``worker_connections``, 1000 by
  default), so whatever the number of streams, the worker keeps room, and time, for the
  requests that come and go. Past it: ``503 streams-busy`` with a short Retry-After (another
  worker may have room).
- **Per client address** (``STREAMS_PER_ADDRESS``), counted in Redis so that it holds across
  every worker and replica: one sorted set per address, ``{sa:<address>}``, whose members are
  the address's open streams, each scored by the time it ends. Opening one is a single script
  (prune the ended, count, add); closing removes it. A stream whose worker died without closing
  it is pruned ``LEASE_GRACE_SECONDS`` after its end, so a killed worker never leaks a slot for
  longer than one stream lasts. Past it: ``429 too-many-streams`` with Retry-After the seconds
  until the address's first stream ends. An IPv6 address counts by its /64 (one subscriber's
  usual allocation), so that an address's neighbours are not new addresses.

Refusals are ``StreamRefused`` errors (``errors.py``: their status, code and Retry-After).
"""

import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import redis

from app.platform.keys import stream_address_key as address_key
from app.tables.errors import StreamRefused
from app.tables.sse import BLOCK_MS

WORKER_RETRY_AFTER = 2
# A stream ends at most one blocking read after its planned end.
LEASE_GRACE_SECONDS = BLOCK_MS / 1000 + 5

log = logging.getLogger(__name__)

# KEYS: the address's open streams. ARGV: the score below which a stream has surely ended, this
# stream's planned end, the cap, this stream's token, the key's ttl in seconds. Returns nothing
# when the stream is admitted (and added), else the planned end of the address's first stream.
_OPEN_STREAM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  return redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return false
"""


class WorkerStreams:
    """The streams this process holds open, at most ``cap``."""

    def __init__(self, cap: int):
        """Count up to ``cap`` open streams."""
        self.cap = cap
        self.open = 0
        self._lock = threading.Lock()

    def take(self) -> None:
        """Count one more open stream, or StreamRefused when ``cap`` are open."""
        with self._lock:
            if self.open >= self.cap:
                raise StreamRefused("worker", self.cap, WORKER_RETRY_AFTER)
            self.open += 1

    def give_back(self) -> None:
        """Count one stream fewer."""
        with self._lock:
            self.open -= 1


class AddressStreams:
    """The streams each client address holds open, at most ``cap``, in Redis."""

    def __init__(self, client, cap: int, now: Callable[[], float] = time.time):
        """Count in the redis-py ``client`` (plain or cluster); ``now`` is Unix time (every
        machine's clock kept by NTP, as for reveals)."""
        self.client = client
        self.cap = cap
        self.now = now
        self._open = client.register_script(_OPEN_STREAM)

    def take(self, address: str, seconds: float) -> str:
        """Count a stream of ``address`` lasting ``seconds``; its token, or StreamRefused when
        ``cap`` of the address's streams are open."""
        now = self.now()
        token = uuid.uuid4().hex
        first_end = self._open(
            keys=[address_key(address)],
            args=[repr(now - LEASE_GRACE_SECONDS), repr(now + seconds), self.cap, token,
                  math.ceil(seconds + LEASE_GRACE_SECONDS)])
        if first_end is not None:
            retry_after = max(1, math.ceil(float(first_end) - now))
            raise StreamRefused("address", self.cap, retry_after)
        return token

    def give_back(self, address: str, token: str) -> None:
        """Count the stream ``token`` of ``address`` closed (with Redis away, its place is
        pruned once the stream's planned end has passed)."""
        try:
            self.client.zrem(address_key(address), token)
        except redis.RedisError as error:
            log.warning("an event stream's place stays counted until it lapses: %s",
                        type(error).__name__)


@dataclass
class StreamSlot:
    """One open stream's place under both caps; ``release`` (once, whatever the number of
    calls) gives it back."""

    caps: "StreamCaps"
    address: str
    token: str
    released: bool = False

    def release(self) -> None:
        """Give the stream's place back to both caps (the first call only)."""
        if self.released:
            return
        self.released = True
        self.caps.worker.give_back()
        self.caps.addresses.give_back(self.address, self.token)


class StreamCaps:
    """Both caps of one worker: ``open`` a stream's slot, or StreamRefused."""

    def __init__(self, client, per_address: int, per_worker: int):
        """Cap streams at ``per_address`` per client address (in ``client``'s Redis) and at
        ``per_worker`` in this process."""
        self.worker = WorkerStreams(per_worker)
        self.addresses = AddressStreams(client, per_address)

    def open(self, address: str, seconds: float) -> StreamSlot:
        """The slot of a stream of ``address`` lasting ``seconds``: the worker's cap first (no
        round trip), then the address's."""
        self.worker.take()
        try:
            token = self.addresses.take(address, seconds)
        except BaseException:
            self.worker.give_back()
            raise
        return StreamSlot(self, address, token)
