"""The server's turn clock: when a seat's time runs out, the server plays for it, once.

Each table whose clock runs has one member in the sorted set ``{clock}:deadlines``, scored by
the moment (Unix seconds) its current turn ends. The deadline's truth is the table's own record;
this set is the index the runners poll. Every gunicorn worker runs a ``ClockRunner`` thread
(``start_in``, from the ``post_worker_init`` hook, as the reveal thread): each pass *claims* the
due members with one script that pushes their score ``LEASE_SECONDS`` ahead, so one runner works
a table at a time, and one that dies mid-move leaves the member due again after the lease. The
move itself is applied with the table's compare-and-set on the seat's action version, so even
two runners on the same turn (a lease that ran out) apply it once; the loser finds the turn
played and moves on. After the move the table re-arms the next turn's deadline (or disarms).
"""

import logging
import threading
import time
from collections.abc import Callable

from app.storage.leased_loop import PassThread

DEADLINES = "{clock}:deadlines"
LEASE_SECONDS = 10.0
POLL_SECONDS = 0.25
CLAIM_BATCH = 50

_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member) end
return due
"""

log = logging.getLogger(__name__)


class TurnClock:
    """The deadlines of the tables whose clock runs, in Redis."""

    def __init__(self, client, now: Callable[[], float] = time.time):
        """Bind to a redis-py client; ``now`` gives the time in Unix seconds (a test's own)."""
        self.client = client
        self.now = now
        self._claim_due = client.register_script(_CLAIM_DUE)

    def arm(self, table_id: str, deadline: float) -> None:
        """Let ``table_id``'s current turn end at ``deadline``."""
        self.client.zadd(DEADLINES, {table_id: deadline})

    def disarm(self, table_id: str) -> None:
        """Stop watching ``table_id`` (ended, or its clock is off)."""
        self.client.zrem(DEADLINES, table_id)

    def deadline(self, table_id: str) -> float | None:
        """When ``table_id``'s turn is due, as the index holds it, or None."""
        return self.client.zscore(DEADLINES, table_id)

    def claim_due(self, lease_seconds: float = LEASE_SECONDS,
                  count: int = CLAIM_BATCH) -> list[str]:
        """The tables whose turn is due now, each claimed for ``lease_seconds`` (no other
        claim returns it before then)."""
        now = self.now()
        return self._claim_due(keys=[DEADLINES], args=[now, now + lease_seconds, count])


class ClockRunner:
    """Plays the due turns: claims them, then hands each table to ``expire`` (the tables
    service's move, which re-arms or disarms the table itself)."""

    def __init__(self, clock: TurnClock, expire: Callable[[str], None],
                 poll_seconds: float = POLL_SECONDS, lease_seconds: float = LEASE_SECONDS):
        """Bind to the deadlines and the move; pause ``poll_seconds`` between passes."""
        self.clock = clock
        self.expire = expire
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self._passes = PassThread(self.run_once, "turn-clock", poll_seconds)

    def run_once(self) -> list[str]:
        """Claim and play every due turn; returns the tables worked. A table whose move fails
        stays claimed until its lease ends, then is tried again (by any runner)."""
        claimed = self.clock.claim_due(self.lease_seconds)
        for table_id in claimed:
            try:
                self.expire(table_id)
            except Exception:
                log.exception("the turn clock could not play table %s", table_id,
                              extra={"event": "turn-clock-failed", "table": table_id})
        return claimed

    def start(self) -> threading.Thread:
        """Run passes in a daemon thread until ``stop``; Redis being away only delays the
        clock."""
        return self._passes.start()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self._passes.stop()


def start_in(app) -> ClockRunner | None:
    """Start the turn clock's thread of a Yacht Daily app (a bare WSGI app gets none)."""
    from app.services import EXTENSION

    extensions = getattr(app, "extensions", {})
    if EXTENSION not in extensions:
        return None
    tables = extensions[EXTENSION].tables
    runner = ClockRunner(tables.clock, tables.expire)
    runner.start()
    return runner
