"""A web worker's background work: passes in a daemon thread, and Redis leases held around them.

Each worker runs a few loops beside its requests (the reveal runner, ``app/ledger/
reveal_runner.py``; the turn clock, ``app/tables/turn_clock.py``; the coach's pass,
``app/coach/service.py``), each the same shape: a ``PassThread`` runs a pass, waits, and runs the
next until ``stop``; the wait is ``poll_seconds`` unless the loop's ``wait_after`` says how long
its work lets it sleep (the clock until its next deadline, the coach longer while nothing is
queued), and ``wake`` ends it early (this process has just queued work for the loop). A pass
that raises never ends the thread: its ``on_failure`` logs the error and says how long to wait
before the next one (the reveal backs off, the others wait their poll). Where only one process
of many may do a piece of work, the work runs inside ``leased``: a Redis lease that whoever takes
it first holds, renewed while the work lasts, released after; a process that dies holding it
loses it when it runs out.
"""

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator

import redis
from redis.exceptions import LockError, RedisClusterException

STORAGE_ERRORS = (redis.RedisError, RedisClusterException)

log = logging.getLogger(__name__)


class PassThread:
    """Runs ``run_pass`` in a daemon thread named ``name`` until ``stop``: the first pass after
    ``first_wait`` (default ``poll_seconds``), each next one after ``wait_after(result)`` of the
    last pass's result (default ``poll_seconds``), or as soon as ``wake`` is called.

    A pass that raises is handed to ``on_failure(error, failures in a row)``, which returns the
    wait before the next pass; by default the error is logged (Redis being away without a
    traceback: the requests' 503s say the same) and the next pass comes after ``poll_seconds``.
    """

    def __init__(self, run_pass: Callable[[], object], name: str, poll_seconds: float,
                 on_failure: Callable[[Exception, int], float] | None = None,
                 wait_after: Callable[[object], float] | None = None,
                 first_wait: float | None = None):
        """Bind the pass, the thread's name, the pause between passes, the failure policy, the
        pause a pass's result asks for and the wait before the first pass."""
        self.run_pass = run_pass
        self.name = name
        self.poll_seconds = poll_seconds
        self.on_failure = on_failure or self.log_failure
        self.wait_after = wait_after or (lambda result: self.poll_seconds)
        self.first_wait = poll_seconds if first_wait is None else first_wait
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None

    def start(self) -> threading.Thread:
        """Start the thread."""
        self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        """Ask the thread to end after its current pass and wait for it."""
        self._stopping = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()

    def wake(self) -> None:
        """Run the next pass now (at once if the thread is waiting, else right after the
        current pass)."""
        self._wake.set()

    def log_failure(self, error: Exception, failures: int) -> float:
        """The default ``on_failure``: log ``error``, retry after the usual pause."""
        if isinstance(error, STORAGE_ERRORS):
            log.warning("%s pass failed: %s", self.name, error,
                        extra={"event": f"{self.name}-retry", "error": type(error).__name__})
        else:
            log.error("%s pass failed: %s", self.name, error, exc_info=error,
                      extra={"event": f"{self.name}-retry", "error": type(error).__name__})
        return self.poll_seconds

    def _sleep(self, seconds: float) -> bool:
        """Wait ``seconds`` or until woken; False once ``stop`` was asked."""
        self._wake.wait(seconds)
        self._wake.clear()
        return not self._stopping

    def _loop(self) -> None:
        """Pass after pass until ``stop``; the wait after a failure is ``on_failure``'s."""
        failures, wait = 0, self.first_wait
        while self._sleep(wait):
            try:
                result = self.run_pass()
            except Exception as error:  # the thread outlives any pass
                failures += 1
                wait = self.on_failure(error, failures)
                continue
            failures, wait = 0, self.wait_after(result)


@contextlib.contextmanager
def leased(client, name: str, seconds: float) -> Iterator[bool]:
    """Take the Redis lease ``name`` if nobody holds it, for the body: yields whether this
    process holds it. The lease (a redis-py lock) lasts ``seconds`` and is renewed every third
    of that while the body runs, then released. An error reaching Redis while taking it is
    raised; one while renewing or releasing it is logged or ignored (the lease runs out)."""
    lease = client.lock(name, timeout=seconds, blocking=False, thread_local=False)
    if not lease.acquire():
        yield False
        return
    try:
        with _renewed(lease, name, seconds):
            yield True
    finally:
        with contextlib.suppress(LockError, *STORAGE_ERRORS):
            lease.release()


@contextlib.contextmanager
def _renewed(lease, name: str, seconds: float) -> Iterator[None]:
    """Renew ``lease`` every third of ``seconds`` in a thread of its own until the body ends."""
    done = threading.Event()

    def renew() -> None:
        """Extend the lease by its length at every third of it, until the body is done."""
        while not done.wait(seconds / 3):
            try:
                lease.reacquire()
            except (LockError, *STORAGE_ERRORS) as error:
                log.warning("could not renew the lease %s: %s", name, error,
                            extra={"event": "lease-not-renewed", "lease": name})

    renewer = threading.Thread(target=renew, name=f"lease {name}", daemon=True)
    renewer.start()
    try:
        yield
    finally:
        done.set()
        renewer.join()
