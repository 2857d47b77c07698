"""The reveal runner's thread while its real Redis is killed and started again: one warning when
Redis goes away, one line when it is back, not one a pass; and its passes work again after."""

import logging
import time

from playkit import app_on

from app.ledger.reveal_runner import RevealRunner
from app.services import EXTENSION

POLL_SECONDS = 0.02
PASSES_WHILE_DOWN = 25
WAIT_LIMIT_SECONDS = 30.0
RUNNER_LOGGER = "app.ledger.reveal_runner"


class CountedRunner(RevealRunner):
    """A reveal runner that counts its passes, so that the test knows how many ran, each a
    minute after the last on the app's clock (a runner looks for checkpoints, in Redis, once a
    minute)."""

    passes = 0

    def __init__(self, services, clock, **options):
        """A runner of ``services`` that moves ``clock`` on a minute before each pass."""
        super().__init__(services, **options)
        self.clock = clock

    def run_once(self):
        """One pass, counted, a minute after the last."""
        self.clock.advance(minutes=1)
        try:
            return super().run_once()
        finally:
            self.passes += 1


def wait_until(condition, what: str) -> None:
    """Poll ``condition`` until it holds; fail after WAIT_LIMIT_SECONDS (not a timing claim: a
    loaded machine only takes longer)."""
    deadline = time.monotonic() + WAIT_LIMIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(POLL_SECONDS)


def events(caplog, event: str) -> list[logging.LogRecord]:
    """The runner's log records of ``event``."""
    return [record for record in caplog.records
            if record.name == RUNNER_LOGGER and getattr(record, "event", None) == event]


def test_redis_down_is_logged_once_and_its_return_once(killable_redis, data_dir, clock, caplog):
    """Many passes while Redis is dead make one ``redis-down`` warning; its restart, one
    ``redis-back``; the passes after it log neither again."""
    caplog.set_level(logging.INFO, logger=RUNNER_LOGGER)
    app = app_on(killable_redis.url, data_dir, clock)
    runner = CountedRunner(app.extensions[EXTENSION], clock, poll_seconds=POLL_SECONDS)
    runner.start()
    try:
        wait_until(lambda: runner.passes >= 2, "the first passes")
        assert events(caplog, "redis-down") == []
        killable_redis.kill()
        down_from = runner.passes
        wait_until(lambda: runner.passes >= down_from + PASSES_WHILE_DOWN, "passes while down")
        (down,) = events(caplog, "redis-down")
        assert down.levelno == logging.WARNING and down.error == "ConnectionError"
        assert events(caplog, "redis-back") == []
        killable_redis.start()
        wait_until(lambda: events(caplog, "redis-back"), "Redis back")
        back_at = runner.passes
        wait_until(lambda: runner.passes >= back_at + 5, "passes after")
    finally:
        runner.stop()
    assert len(events(caplog, "redis-down")) == 1 and len(events(caplog, "redis-back")) == 1
    assert [record for record in caplog.records
            if record.name == RUNNER_LOGGER and record.levelno >= logging.ERROR] == []
