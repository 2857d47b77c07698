"""Where reveals run: never in a request, but in one place at a time under a Redis lease.

Every gunicorn worker runs a ``RevealRunner`` thread (started by the ``post_worker_init`` hook,
``app/observability/gunicorn_hooks.py``); ``yacht-daily reveal`` runs one pass of it. Whoever
finds a date due takes the lease ``{ledger}:reveal-lease`` (a redis-py lock with a timeout,
renewed while the reveal works); the others wait. If the holder dies, its lease runs out and
the next one to look takes over; the ledger's compare-and-set keeps a reveal exactly-once even
if two ever overlap.

Each pass first cuts the day's log checkpoints that are due (``LogService.cut_due``: the end of
every UTC minute in which games finished, and each v2 date's close) under its own lease
``{ledger}:log-lease``, so that one process cuts while the others stand by; a failed cut is logged
and tried again at the next pass, and never holds the reveals back. A checkpoint can only fall due
at a minute's end or at a date's close, so a runner looks for them once then (the first pass
after each), not every pass: between those moments a pass only asks the ledger, in memory,
whether a reveal is due, and makes no round trip at all. While Redis is unreachable
the passes go on quietly: the runner logs once when it goes away (``redis-down``) and once when
it answers again (``redis-back``), not at every pass.

A failed attempt is logged with its cause, counted in ``yacht_daily_reveal_failures_total``,
recorded in Redis (for ``/readyz`` and the ``yacht_daily_reveal_failed_attempts`` gauge of every
replica) and retried with exponential backoff; playing goes on meanwhile.
"""

import datetime as dt
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from app.daylog.service import floor_minute
from app.ledger.days import day_window
from app.ledger.service import LedgerMismatch, RevealFailed
from app.platform.clock import format_timestamp
from app.platform.keys import LOG_LEASE, REVEAL_LEASE
from app.platform.leased_loop import STORAGE_ERRORS, PassThread, leased

LEASE_SECONDS = 30.0
POLL_SECONDS = 1.0
FIRST_BACKOFF_SECONDS = 2.0
MAX_BACKOFF_SECONDS = 300.0
ERROR_TEXT_LIMIT = 500

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pass:
    """What one pass did: the dates it revealed, or that another process holds the lease."""

    revealed: list[str] = field(default_factory=list)
    lease_held_elsewhere: bool = False
    checkpoints: list[tuple[str, str, int]] = field(default_factory=list)


class RevealRunner:
    """Reveals the due dates of one app's services, under the shared lease."""

    def __init__(self, services, lease_seconds: float = LEASE_SECONDS,
                 poll_seconds: float = POLL_SECONDS,
                 first_backoff_seconds: float = FIRST_BACKOFF_SECONDS,
                 on_revealed: Callable[[int], None] = lambda count: None,
                 on_failure: Callable[[str], None] = lambda error_type: None):
        """Bind to the app's services (ledger and its store, clock), with the lease's length, the
        thread's pause between passes and its first wait after a failure; ``on_revealed`` hears
        how many dates each pass revealed and ``on_failure`` the type name of each failure's
        cause (the metrics count them)."""
        self.services = services
        self.on_revealed = on_revealed
        self.on_failure = on_failure
        self.lease_seconds = lease_seconds
        self.poll_seconds = poll_seconds
        self.first_backoff_seconds = first_backoff_seconds
        self._passes = PassThread(self.run_once, "reveal-runner", poll_seconds,
                                  self._retry_after)
        self._redis_away = False
        self._looked: tuple[dt.datetime, dt.datetime] | None = None  # (when, next moment)

    def run_once(self) -> Pass:
        """Cut the checkpoints due if a minute ended or a date closed since the last look, then
        reveal what is due if this process gets the lease; records the outcome in Redis.

        Raises RevealFailed (or a Redis error) after recording and counting it.
        """
        checkpoints = self.cut_checkpoints() if self._checkpoints_may_be_due() else []
        ledger = self.services.ledger
        if not ledger.has_due():
            return Pass(checkpoints=checkpoints)
        try:
            with leased(self.services.ledger_store.client, REVEAL_LEASE,
                        self.lease_seconds) as held:
                if not held:
                    return Pass(lease_held_elsewhere=True, checkpoints=checkpoints)
                revealed = ledger.reveal_due()
        except LedgerMismatch as error:  # this process's secrets, not the reveal: see /readyz
            log.error("not revealing: %s", error, extra={"event": "secrets-mismatch"})
            raise
        except Exception as error:
            self._record_failure(error)
            raise
        self.on_revealed(len(revealed))
        if revealed:
            log.info("revealed %s", ", ".join(revealed),
                     extra={"event": "reveal", "dates": revealed})
        self.services.ledger_store.clear_reveal_failure()
        return Pass(revealed=revealed, checkpoints=checkpoints)

    def cut_checkpoints(self, strict: bool = False) -> list[tuple[str, str, int]]:
        """Cut the day's log checkpoints due now if this process gets the log lease: the
        (date, sheet, size) of each cut; a failure is logged (the next pass tries again) and,
        if ``strict``, raised."""
        now = self.services.now()
        try:
            with leased(self.services.ledger_store.client, LOG_LEASE,
                        self.lease_seconds) as held:
                self._redis_answered()
                cut = self.services.logs.cut_due() if held else []
            self._looked = (now, self._next_look(now, held))
        except STORAGE_ERRORS as error:  # taking the lease or cutting: the next pass retries
            self._redis_went_away(error)
            if strict:
                raise
            return []
        except Exception as error:  # logged; the reveals go on, the next pass retries
            log.error("cutting checkpoints failed: %s", error, exc_info=error,
                      extra={"event": "checkpoint-failed", "error": type(error).__name__})
            if strict:
                raise
            return []
        if cut:
            log.info("cut checkpoints %s", ", ".join(f"{d} {r} {n}" for d, r, n in cut),
                     extra={"event": "checkpoint", "checkpoints": len(cut)})
        return cut

    def _checkpoints_may_be_due(self) -> bool:
        """True unless this runner looked for checkpoints since the last minute's end and the
        last date's close (a clock set back looks again)."""
        if self._looked is None:
            return True
        now = self.services.now()
        looked_at, next_look = self._looked
        return now >= next_look or now < looked_at

    def _next_look(self, now: dt.datetime, held: bool) -> dt.datetime:
        """The next moment a checkpoint can fall due after ``now``: the end of its minute, or a
        date's close if one comes first; if another process held the log lease, no later than
        the lease's length, so that a holder that died while cutting is taken over then."""
        logs = self.services.logs
        closes = [day_window(date, logs.grace_seconds).closes_at for date in logs.log_dates(now)]
        taken_over = [] if held else [now + dt.timedelta(seconds=self.lease_seconds)]
        return min([floor_minute(now) + dt.timedelta(minutes=1),
                    *(moment for moment in closes if moment > now), *taken_over])

    def _redis_went_away(self, error: Exception) -> None:
        """Log that Redis is unreachable, the first time a pass finds it so (its 503s and
        /readyz say the same meanwhile): a pass a second would otherwise repeat it."""
        if self._redis_away:
            return
        self._redis_away = True
        log.warning("Redis is unreachable, checkpoints and reveals wait for it: %s", error,
                    extra={"event": "redis-down", "error": type(error).__name__})

    def _redis_answered(self) -> None:
        """Log that Redis answers again, once, if a pass had found it unreachable."""
        if self._redis_away:
            self._redis_away = False
            log.info("Redis answers again, checkpoints and reveals go on",
                     extra={"event": "redis-back"})

    def _record_failure(self, error: Exception) -> None:
        """Log the failure with its cause, count it, and tell every replica through Redis.

        Redis being away is logged without a traceback (its 503s say the same); anything
        else with the whole chain of causes.
        """
        date = error.date if isinstance(error, RevealFailed) else None
        cause = error.__cause__ if isinstance(error, RevealFailed) else error
        self.on_failure(type(cause).__name__)
        text = f"{type(cause).__name__}: {cause}"[:ERROR_TEXT_LIMIT]
        storage = isinstance(cause, STORAGE_ERRORS)
        log.error("reveal failed: %s", error, exc_info=None if storage else error,
                  extra={"event": "reveal-failed", "date": date, "error": type(cause).__name__})
        try:
            self.services.ledger_store.record_reveal_failure(
                date, text, format_timestamp(self.services.now()))
        except STORAGE_ERRORS as unrecorded:
            log.warning("could not record the reveal failure in Redis: %s", unrecorded)

    # The background thread

    def start(self) -> threading.Thread:
        """Run passes in a daemon thread until ``stop`` (a pass every ``poll_seconds`` while
        nothing fails, backing off after failures); returns the thread."""
        return self._passes.start()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self._passes.stop()

    def backoff(self, failures: int) -> float:
        """The wait after ``failures`` failed passes in a row: doubling, up to five minutes."""
        return min(self.first_backoff_seconds * 2 ** (failures - 1), MAX_BACKOFF_SECONDS)

    def _retry_after(self, error: Exception, failures: int) -> float:
        """The thread's ``on_failure``: the pass logged and recorded ``error``; say when the
        next attempt comes."""
        wait = self.backoff(failures)
        log.warning("next reveal attempt in %.1f s", wait,
                    extra={"event": "reveal-retry", "retry_in": wait,
                           "error": type(error).__name__})
        return wait
