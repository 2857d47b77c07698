"""The coach's background pass on its PassThread: it sleeps long while nothing is queued, and
whatever its process queues wakes it at once; a date whose references another process computes
(it holds the date's lease) stays queued until that lease is free."""

import time

from app.platform.keys import references_lease
from app.services import EXTENSION

WAIT_LIMIT_SECONDS = 120.0


def wait_for(condition) -> bool:
    """Poll ``condition`` until it holds or WAIT_LIMIT_SECONDS pass (not a timing claim: a
    loaded machine only takes longer)."""
    deadline = time.monotonic() + WAIT_LIMIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_queued_date_wakes_the_idle_pass_which_stores_its_references(app, play_date,
                                                                      redis_client):
    """An hour-long idle pause, yet asking for a date's missing references has them computed
    now: the ask queues the date and wakes the pass (the test would otherwise time out)."""
    coach = app.extensions[EXTENSION].coach
    assert coach.tables.wait(300)
    coach.idle_seconds = 3600.0
    coach.start()
    try:
        assert wait_for(lambda: coach._caught_up)  # the first pass ran: the thread sleeps
        assert coach.references(play_date, "yacht") is None
        assert wait_for(lambda: coach.skill.references(play_date, "yacht") is not None)
    finally:
        coach.stop()
    assert coach.skill.pending_references() == []
    assert not redis_client.exists(references_lease(play_date))  # released after the work


def test_a_date_leased_by_another_process_stays_queued_until_the_lease_is_free(
        app, play_date, redis_client):
    coach = app.extensions[EXTENSION].coach
    assert coach.tables.wait(300)
    coach.skill.queue_references(play_date)
    other = redis_client.lock(references_lease(play_date), timeout=60, blocking=False)
    assert other.acquire()
    assert coach.run_once() is True  # work left waiting: the pass comes again soon
    assert coach.skill.references(play_date, "yacht") is None
    assert coach.skill.pending_references() == [play_date]
    other.release()
    assert coach.run_once() is False
    assert coach.skill.references(play_date, "yacht")["optimum"] > 0
    assert coach.skill.pending_references() == []
