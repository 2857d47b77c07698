"""The server's turn clock: when a seat's time runs out, the server plays for it, once.

Each table whose clock runs has one member in the sorted set ``{clock}:deadlines``, scored by
the moment (Unix seconds) its current turn ends. The deadline's truth is the table's own record;
this set is the index the runners poll. Every gunicorn worker runs a ``ClockRunner`` thread
(``app.tables.start_turn_clock``, from the ``post_worker_init`` hook, as the reveal thread):
each pass *claims* the due members with one script that pushes their score ``LEASE_SECONDS``
ahead, so one runner works a table at a time, and one that dies mid-move leaves the member due
again after the lease. The move itself is applied with the table's compare-and-set on the seat's
action version, so even two runners on the same turn (a lease that ran out) apply it once; the
loser finds the turn played and moves on. After the move the table re-arms the next turn's
deadline (or disarms).

A runner sleeps until the earliest deadline in the set (the claim returns it), or
``IDLE_POLL_SECONDS`` when there is none or it is further: an idle worker makes one round trip
every few seconds, not four a second. A deadline armed in this process wakes its runner at once,
so a turn armed by a request is timed from its own worker; one armed by a process without a
runner (the command line) is seen within ``IDLE_POLL_SECONDS`` by every worker.
"""

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from app.platform.keys import TURN_DEADLINES as DEADLINES
from app.platform.leased_loop import PassThread

LEASE_SECONDS = 10.0
POLL_SECONDS = 0.25
IDLE_POLL_SECONDS = 5.0
CLAIM_BATCH = 50

_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member) end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {due, first[2] or false}
"""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Claim:
    """What one claim found: the tables due (now claimed) and the earliest deadline left in
    the set after it (None when the set is empty)."""

    due: list[str]
    next_deadline: float | None


class TurnClock:
    """The deadlines of the tables whose clock runs, in Redis."""

    def __init__(self, client, now: Callable[[], float] = time.time):
        """Bind to a redis-py client; ``now`` gives the time in Unix seconds (a test's own)."""
        self.client = client
        self.now = now
        self._claim_due = client.register_script(_CLAIM_DUE)
        self.armed: list[Callable[[], None]] = []  # called after each arm: this process's runner

    def arm(self, table_id: str, deadline: float) -> None:
        """Let ``table_id``'s current turn end at ``deadline`` (and wake this process's runner,
        which sleeps until the deadlines it knows)."""
        self.client.zadd(DEADLINES, {table_id: deadline})
        for listener in self.armed:
            listener()

    def disarm(self, table_id: str) -> None:
        """Stop watching ``table_id`` (ended, or its clock is off)."""
        self.client.zrem(DEADLINES, table_id)

    def deadline(self, table_id: str) -> float | None:
        """When ``table_id``'s turn is due, as the index holds it, or None."""
        return self.client.zscore(DEADLINES, table_id)

    def claim_due(self, lease_seconds: float = LEASE_SECONDS, count: int = CLAIM_BATCH) -> Claim:
        """The tables whose turn is due now, each claimed for ``lease_seconds`` (no other
        claim returns it before then), and the earliest deadline after the claim."""
        now = self.now()
        due, first = self._claim_due(keys=[DEADLINES], args=[now, now + lease_seconds, count])
        return Claim([member.decode() if isinstance(member, bytes) else member for member in due],
                     None if first is None else float(first))


class ClockRunner:
    """Plays the due turns: claims them, then hands each table to ``expire`` (the tables
    service's move, which re-arms or disarms the table itself)."""

    def __init__(self, clock: TurnClock, expire: Callable[[str], None],
                 poll_seconds: float = POLL_SECONDS, lease_seconds: float = LEASE_SECONDS,
                 idle_seconds: float = IDLE_POLL_SECONDS):
        """Bind to the deadlines and the move; after a failed pass wait ``poll_seconds``, after
        the others until the next deadline, at most ``idle_seconds``."""
        self.clock = clock
        self.expire = expire
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.idle_seconds = idle_seconds
        self._next_deadline: float | None = None
        self._passes = PassThread(self.run_once, "turn-clock", poll_seconds,
                                  wait_after=self._wait_after)

    def run_once(self) -> list[str]:
        """Claim and play every due turn; returns the tables worked. A table whose move fails
        stays claimed until its lease ends, then is tried again (by any runner)."""
        claim = self.clock.claim_due(self.lease_seconds)
        self._next_deadline = claim.next_deadline
        for table_id in claim.due:
            try:
                self.expire(table_id)
            except Exception:
                log.exception("the turn clock could not play table %s", table_id,
                              extra={"event": "turn-clock-failed", "table": table_id})
        return claim.due

    def _wait_after(self, worked: list[str]) -> float:
        """The pause after a pass: until the earliest deadline the claim saw, at most
        ``idle_seconds`` (the moves just played re-armed their tables: that woke the thread)."""
        if self._next_deadline is None:
            return self.idle_seconds
        return min(self.idle_seconds, max(0.0, self._next_deadline - self.clock.now()))

    def start(self) -> threading.Thread:
        """Run passes in a daemon thread until ``stop``, woken by every deadline armed in this
        process; Redis being away only delays the clock."""
        self.clock.armed.append(self._passes.wake)
        return self._passes.start()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self.clock.armed.remove(self._passes.wake)
        self._passes.stop()

