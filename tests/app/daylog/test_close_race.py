"""One close per log, whatever the writers race: on a real Redis, several log services (as
several workers would have: each its own ``_closed`` memory) close a date and cut its
checkpoints at the same moment — reveals closing it, passes past the close closing it, a pass
whose clock lags cutting a minute's checkpoint — again and again. Every time, each sheet's log
ends with exactly one close checkpoint, last, its chain unbroken, and every closer returned
that one close."""

import datetime as dt
import threading

from app.daylog.service import LogService
from app.daylog.store import closed_key, log_key
from app.services import EXTENSION
from fairness.checkpoint import body_hash, parse_checkpoint
from fairness.note import parse_note
from tests.app.logplay import finish_games

ROUNDS = 40
CLOSERS = 2  # reveals closing the date
LATE_PASSES = 2  # passes whose clock is past the close: they close it too
LAGGING_PASSES = 2  # passes whose clock lags: they cut the last minute's checkpoint
PAST_CLOSE = "2026-03-11T13:00:30Z"
LAGGING = "2026-03-11T12:59:30Z"
LOG_PARTS = ("checkpoints", "bodies", "sizes", "cosignatures", "hashes")


def clock_at(moment: str):
    """A clock stopped at ``moment``."""
    now = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return lambda: now


def worker_service(services, moment: str) -> LogService:
    """The log service of another worker, its clock at ``moment``."""
    logs = services.logs
    return LogService(logs.games, logs.ledger, logs.logs, logs.secrets, clock_at(moment),
                      logs.grace_seconds, logs.new_day_format)


def reopen(services, date: str, sheets) -> None:
    """Take the date's logs back to their leaves alone: no checkpoint, not closing."""
    client = services.game_store.client
    keys = [closed_key(date)]
    for sheet in sheets:
        keys += [log_key(date, sheet, part) for part in LOG_PARTS]
        keys += [log_key(date, sheet, f"hashes:{level}") for level in range(1, 8)]
    client.delete(*keys)


def race(services, date: str) -> tuple[list, list[BaseException]]:
    """Every writer at once, released together: the closes they returned and what raised."""
    jobs = []
    for _ in range(CLOSERS):
        jobs.append(lambda: worker_service(services, PAST_CLOSE).close(date)[0])
    for _ in range(LATE_PASSES):
        jobs.append(lambda: worker_service(services, PAST_CLOSE).cut_due())
    for _ in range(LAGGING_PASSES):
        jobs.append(lambda: worker_service(services, LAGGING).cut_due())
    start = threading.Barrier(len(jobs))
    closes, errors, lock = [], [], threading.Lock()

    def run(job) -> None:
        """Wait for the others, then write."""
        start.wait()
        try:
            result = job()
        except Exception as error:  # reported below
            with lock:
                errors.append(error)
            return
        if isinstance(result, dict):
            with lock:
                closes.append(result)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return closes, errors


def check_one_close(services, date: str, sheet: str, closes: list) -> None:
    """The log is a chain ending in its only close checkpoint, the one every closer got."""
    stored = services.logs.logs.checkpoints(date, sheet)
    kinds = [parse_checkpoint(parse_note(cp.note)[0]) for cp in stored]
    assert [c.close is not None for c in kinds].count(True) == 1, [c.size for c in kinds]
    assert kinds[-1].close is not None
    previous = bytes(32)
    for cp, checkpoint in zip(stored, kinds, strict=True):
        assert checkpoint.prev == previous
        previous = body_hash(cp.body)
    assert {got[sheet].body for got in closes} == {stored[-1].body}


def test_closers_and_cutters_leave_one_close_per_log(logged_app, clock):
    """ROUNDS races of closers and cutters on one log: never a second close, never a cut after
    the close, never a closer that gives up."""
    finish_games(logged_app, clock, 3, "yahtzee", seed=11, pause=0)
    finish_games(logged_app, clock, 2, "yacht", seed=12, pause=0)
    services = logged_app.extensions[EXTENSION]
    date = "2026-03-10"
    sheets = services.logs.sheets_of(date)
    for round_number in range(ROUNDS):
        reopen(services, date, sheets)
        closes, errors = race(services, date)
        assert errors == [], f"round {round_number}: {errors!r}"
        for sheet in sheets:
            check_one_close(services, date, sheet, closes)
