"""The background loop the reveal runner and the turn clock share: a pass that raises never ends
its thread, the failure policy sees the failures in a row; and a Redis lease (real Redis) is
held by one holder at a time, renewed while its work lasts, released after, even on an error."""

import logging
import threading
import time

import pytest
import redis

from app.platform.leased_loop import PassThread, leased

WAIT_LIMIT_SECONDS = 30.0


class Scripted:
    """A pass that raises or returns as its script says, then sets ``done``."""

    def __init__(self, script: list[Exception | None]):
        """``script``: per pass, the error to raise or None; the passes after it succeed."""
        self.script = list(script)
        self.passes = 0
        self.done = threading.Event()

    def __call__(self) -> None:
        """One pass."""
        self.passes += 1
        if self.passes > len(self.script):
            self.done.set()
            return
        error = self.script[self.passes - 1]
        if error is not None:
            raise error


def test_a_failing_pass_never_ends_the_thread_and_failures_count_in_a_row():
    boom = RuntimeError("boom")
    run = Scripted([boom, boom, None, boom])
    seen = []

    def on_failure(error, failures):
        """Record what the policy is told; retry at once."""
        seen.append((error, failures))
        return 0.001

    passes = PassThread(run, "test-loop", 0.001, on_failure)
    thread = passes.start()
    try:
        assert run.done.wait(WAIT_LIMIT_SECONDS)
    finally:
        passes.stop()
    assert not thread.is_alive()
    assert seen == [(boom, 1), (boom, 2), (boom, 1)]
    assert thread.name == "test-loop"


def test_by_default_a_failure_is_logged_and_the_next_pass_follows(caplog):
    run = Scripted([redis.ConnectionError("away"), ValueError("bug")])
    passes = PassThread(run, "test-loop", 0.001)
    with caplog.at_level(logging.WARNING, logger="app.platform.leased_loop"):
        passes.start()
        try:
            assert run.done.wait(WAIT_LIMIT_SECONDS)
        finally:
            passes.stop()
    storage, bug = [r for r in caplog.records if r.name == "app.platform.leased_loop"]
    assert (storage.levelname, storage.event, storage.exc_info) == ("WARNING", "test-loop-retry",
                                                                    None)
    assert (bug.levelname, bug.event, bug.exc_info[0]) == ("ERROR", "test-loop-retry", ValueError)


def test_stop_before_the_first_pass_runs_none():
    run = Scripted([])
    passes = PassThread(run, "test-loop", 60)
    passes.start()
    passes.stop()
    assert run.passes == 0


def test_one_holder_at_a_time_and_the_lease_is_released_after(redis_client):
    with leased(redis_client, "test:lease", 30) as first:
        with leased(redis_client, "test:lease", 30) as second:
            assert (first, second) == (True, False)
        assert redis_client.exists("test:lease")  # the refused one released nothing
    assert not redis_client.exists("test:lease")
    with leased(redis_client, "test:lease", 30) as again:
        assert again


def test_the_lease_is_renewed_while_the_work_outlasts_it(redis_client):
    with leased(redis_client, "test:lease", 0.9) as held:
        assert held
        time.sleep(3.0)  # over three lease lengths
        assert redis_client.pttl("test:lease") > 0
        with leased(redis_client, "test:lease", 0.9) as other:
            assert not other
    assert not redis_client.exists("test:lease")


def test_the_lease_is_released_when_the_work_raises(redis_client):
    with pytest.raises(ValueError), leased(redis_client, "test:lease", 30):
        raise ValueError("the work failed")
    assert not redis_client.exists("test:lease")
