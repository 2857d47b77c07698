"""Where reveals run and what a failed one does: never in a request; one process at a time
under the Redis lease; a failure is logged with its cause, counted, shown on /readyz and
retried with backoff while today's challenge stays playable; and a revealed date takes no
action or new game, whatever the clock of the process that serves it says."""

import json
import random
import re
import time

import pytest
from playkit import PLAY_DATE, app_on, call, play_to_end, redis_snapshot, start

from app.ledger.reveal_runner import RevealRunner
from app.ledger.service import RevealFailed
from app.observability.gunicorn_hooks import reveal_runner
from app.platform.clock import parse_timestamp
from app.platform.keys import LOG_LEASE, REVEAL_LEASE, game_key
from app.platform.redis import connect
from app.services import EXTENSION

REVEAL_AT = "2026-03-11T13:01:00Z"
NEXT_DAY = "2026-03-11"


def metric(text: str, name: str, **labels) -> float:
    """One sample of a Prometheus exposition (0 when absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if wanted else "")
    found = re.search(rf"^{pattern} (\S+)$", text, re.MULTILINE)
    return float(found[1]) if found else 0.0


def runner_of(app, **options) -> RevealRunner:
    """A reveal runner on the app's services."""
    return RevealRunner(app.extensions[EXTENSION], **options)


def test_requests_never_reveal(client, clock):
    """A due date stays unrevealed through any number of requests, until a runner reveals it."""
    clock.set(REVEAL_AT)
    for path in ("/ledger", "/challenges", f"/days/{PLAY_DATE}/yacht/games",
                 f"/ledger/{PLAY_DATE}"):
        call(client, "GET", path)
    assert call(client, "GET", f"/ledger/{PLAY_DATE}")[0] == 404


def test_one_process_at_a_time_holds_the_lease(app, client, clock, redis_client):
    """While another process holds the lease nothing is revealed here; once it is released
    (or runs out) the next pass reveals."""
    clock.set(REVEAL_AT)
    other = redis_client.lock(REVEAL_LEASE, timeout=30)
    assert other.acquire(blocking=False)
    waiting = runner_of(app).run_once()
    assert waiting.lease_held_elsewhere and waiting.revealed == []
    assert call(client, "GET", f"/ledger/{PLAY_DATE}")[0] == 404
    other.release()
    assert PLAY_DATE in runner_of(app).run_once().revealed
    assert redis_client.exists(REVEAL_LEASE) == 0


def test_dates_before_the_epoch_are_never_revealed(app, client, clock, reveal):
    """With the epoch's dates revealed, a date before its first one (or the calendar's first
    day) still counts as unrevealed."""
    clock.set(REVEAL_AT)
    reveal()
    ledger = app.extensions[EXTENSION].ledger
    assert ledger.is_revealed(PLAY_DATE) and ledger.is_revealed("2026-03-01")
    assert not ledger.is_revealed("2026-02-28") and not ledger.is_revealed("0001-01-01")
    status, answer = call(client, "GET", "/days/2026-02-28/yacht/games")
    assert (status, answer["error"]["code"]) == (404, "not-revealed")


def lagging_and_revealed(app, redis_url, data_dir):
    """Reveal PLAY_DATE from another process whose clock is right, while ``app``'s clock stays
    at noon of PLAY_DATE: a day behind."""
    right_time = parse_timestamp(REVEAL_AT)
    revealer = app_on(redis_url, data_dir, lambda: right_time)
    assert PLAY_DATE in runner_of(revealer).run_once().revealed


def test_a_revealed_date_takes_no_action_on_a_lagging_clock(app, client, redis_url, data_dir,
                                                            redis_client):
    """A game left unfinished at the reveal cannot be played on by a process whose clock says
    the date is still open (its cached copy included): a 409, nothing written; nor can a new
    game of the date start there."""
    game = start(client, "yacht", PLAY_DATE)
    _, rolled = call(client, "POST", f"/games/{game['id']}/roll", {"roll": 0})
    lagging_and_revealed(app, redis_url, data_dir)
    before = redis_snapshot(redis_client)

    status, answer = call(client, "POST", f"/games/{game['id']}/score",
                          {"roll": 1, "category": rolled["game"]["allowed"][0]})
    assert (status, answer["error"]["code"]) == (409, "day-closed")
    assert "revealed" in answer["error"]["message"]
    status, answer = call(client, "POST", f"/games/{game['id']}/roll",
                          {"roll": 1, "hold": [True] * 5})
    assert (status, answer["error"]["code"]) == (409, "day-closed")
    newcomer = app.test_client()
    status, answer = call(newcomer, "POST", "/games", {"ruleset": "yahtzee", "date": PLAY_DATE})
    assert (status, answer["error"]["code"]) == (409, "day-closed")
    assert redis_snapshot(redis_client) == before
    status, body = call(client, "GET", f"/games/{game['id']}")
    assert status == 200 and body["game"]["transcript"] == rolled["game"]["transcript"]


@pytest.fixture
def damaged_day(client, redis_client):
    """PLAY_DATE with a finished game whose stored receipt was cut short (a damaged write):
    (game id, the receipt as it was)."""
    final = play_to_end(client, start(client, "yacht", PLAY_DATE), random.Random(3))
    stored = redis_client.hget(game_key(final["id"]), "receipt")
    redis_client.hset(game_key(final["id"]), "receipt", stored[: len(stored) // 2])
    return final["id"], stored


def test_a_failed_reveal_is_logged_counted_shown_and_today_plays_on(app, client, clock,
                                                                     redis_client, damaged_day,
                                                                     caplog):
    """The reveal of the damaged date fails: the error and its cause are logged, counted and
    on /readyz (which stays 200); a new game of today is played to its end meanwhile; once
    the receipt is repaired the next pass reveals and the failure is cleared."""
    game_id, stored = damaged_day
    clock.set("2026-03-11T13:30:00Z")  # the damaged date due for half an hour
    counted = metric(client.get("/metrics").get_data(as_text=True),
                     "yacht_daily_reveal_failures_total", error="CorruptRecord")
    with pytest.raises(RevealFailed) as failure:
        reveal_runner(app).run_once()  # as a worker runs it: counted in the metrics
    assert failure.value.date == PLAY_DATE
    logged = [r for r in caplog.records if getattr(r, "event", None) == "reveal-failed"]
    assert logged and logged[-1].date == PLAY_DATE and logged[-1].error == "CorruptRecord"
    assert game_id in str(logged[-1].exc_info[1].__cause__)

    scrape = client.get("/metrics").get_data(as_text=True)
    assert metric(scrape, "yacht_daily_reveal_failures_total", error="CorruptRecord") == (
        counted + 1)
    assert metric(scrape, "yacht_daily_reveal_failed_attempts") == 1
    assert metric(scrape, "yacht_daily_reveal_overdue_seconds") > 0
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["status"] == "ready"
    shown = ready.get_json()["reveal"]
    assert shown["ok"] is False and shown["date"] == PLAY_DATE and shown["attempts"] == 1
    assert "CorruptRecord" in shown["error"] and shown["last_revealed"] == "2026-03-09"

    today = app.test_client()
    final = play_to_end(today, start(today, "yacht", NEXT_DAY), random.Random(4))
    assert final["status"] == "finished" and final["receipt"]["date"] == NEXT_DAY

    redis_client.hset(game_key(game_id), "receipt", stored)
    assert runner_of(app).run_once().revealed == [PLAY_DATE]
    assert client.get("/readyz").get_json()["reveal"] == {
        "ok": True, "last_revealed": PLAY_DATE, "detail": f"last revealed {PLAY_DATE}"}
    assert metric(client.get("/metrics").get_data(as_text=True),
                  "yacht_daily_reveal_failed_attempts") == 0


def test_the_reveal_thread_retries_with_backoff_until_it_succeeds(app, clock, redis_client,
                                                                  damaged_day):
    """The background thread keeps trying after failures, waiting twice as long each time (up
    to five minutes), and reveals once the cause is gone; an error never ends it."""
    game_id, stored = damaged_day
    clock.set(REVEAL_AT)
    runner = runner_of(app, poll_seconds=0.01, first_backoff_seconds=0.02)
    assert [runner.backoff(n) for n in (1, 2, 3, 4, 20)] == [0.02, 0.04, 0.08, 0.16, 300]
    store = app.extensions[EXTENSION].ledger_store
    runner.start()
    try:
        deadline = time.monotonic() + 60
        while (store.reveal_failure() or {"attempts": 0})["attempts"] < 3:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        redis_client.hset(game_key(game_id), "receipt", stored)
        while store.reveal_seq(PLAY_DATE) is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        runner.stop()
    assert store.reveal_failure() is None


@pytest.mark.own_redis  # a live server on its own Redis
def test_a_live_server_keeps_serving_today_while_its_reveal_fails(make_live_server):
    """Under gunicorn, the workers' reveal threads fail again and again on a damaged receipt:
    /readyz stays 200 and says why, the log has the error as JSON, and a whole game of today
    is played meanwhile."""
    server = make_live_server()  # at noon on PLAY_DATE
    player = server.client()
    final = play_to_end(player, start(player, "yacht", PLAY_DATE), random.Random(5))
    damaged = connect(f"unix://{server.data_dir / 'redis.sock'}")
    stored = damaged.hget(game_key(final["id"]), "receipt")
    damaged.hset(game_key(final["id"]), "receipt", stored[:-1])
    server.set_clock("2026-03-11T13:30:00Z")

    deadline = time.monotonic() + 60
    while True:
        status, _, ready = server.client().get("/readyz")
        assert status == 200 and ready["status"] == "ready"
        if ready["reveal"]["ok"] is False and ready["reveal"]["attempts"] >= 2:
            break
        assert time.monotonic() < deadline, ready
        time.sleep(0.2)
    assert ready["reveal"]["date"] == PLAY_DATE and "CorruptRecord" in ready["reveal"]["error"]

    today = server.client()
    finished = play_to_end(today, start(today, "yahtzee", NEXT_DAY), random.Random(6))
    assert finished["status"] == "finished"
    failures = [json.loads(line) for line in server.log().splitlines()
                if '"reveal-failed"' in line]
    assert failures and failures[-1]["date"] == PLAY_DATE
    assert "CorruptRecord" in failures[-1]["exception"]
    damaged.close()
    assert server.stop() == 0


def redis_commands(client) -> int:
    """How many commands the Redis server has run (this call's INFO included)."""
    return client.info("stats")["total_commands_processed"]


def test_a_runner_looks_for_checkpoints_once_a_minute_and_at_each_close(redis_url, data_dir,
                                                                        clock, redis_client):
    """Passes within a minute make no round trip once the first looked (idle workers cost Redis
    nothing); a minute's end or a date's close (here 90 s after the day's end, off the minute)
    makes the next pass look again."""
    app = app_on(redis_url, data_dir, clock, REVEAL_GRACE=90)
    runner = runner_of(app)
    runner.run_once()

    def round_trips_of_a_pass() -> int:
        """The commands one more pass sends (beyond the count's own)."""
        before = redis_commands(redis_client)
        runner.run_once()
        return redis_commands(redis_client) - before - 1

    clock.advance(seconds=50)
    assert round_trips_of_a_pass() == 0
    clock.advance(seconds=10)  # 12:01: the minute ended
    assert round_trips_of_a_pass() > 0
    assert round_trips_of_a_pass() == 0
    clock.set("2026-03-11T12:01:20Z")  # PLAY_DATE's day ended at 12:00, it closes at 12:01:30
    assert round_trips_of_a_pass() > 0
    clock.advance(seconds=5)
    assert round_trips_of_a_pass() == 0
    clock.advance(seconds=5)  # 12:01:30: the close
    assert round_trips_of_a_pass() > 0


def test_a_runner_that_found_the_log_lease_held_looks_again_when_it_would_have_run_out(
        redis_url, data_dir, clock, redis_client):
    """A process that dies while cutting leaves its lease to run out (30 s): the others look
    again then, not only at the next minute's end."""
    app = app_on(redis_url, data_dir, clock)
    runner = runner_of(app)
    elsewhere = redis_client.lock(LOG_LEASE, timeout=runner.lease_seconds, blocking=False)
    assert elsewhere.acquire()
    runner.run_once()  # 12:00:00, the lease held by another process
    before = redis_commands(redis_client)
    clock.advance(seconds=runner.lease_seconds - 1)
    runner.run_once()
    assert redis_commands(redis_client) - before - 1 == 0
    elsewhere.release()  # its holder died: the lease ran out
    clock.advance(seconds=1)
    before = redis_commands(redis_client)
    runner.run_once()
    assert redis_commands(redis_client) - before - 1 > 0
