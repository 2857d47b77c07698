"""Faults for real, on loopback, against gunicorn started with the deploy config: Redis killed
with SIGKILL mid-load and restarted, a gunicorn worker killed with SIGKILL mid-load, Redis
unreachable. Bounded: a few players for a few seconds each.

Each player retries any request left without an answer with the same body (the same action
number), as the web page does; afterwards every game is read back from Redis and compared with
what the server acknowledged.
"""

import http.client
import json
import os
import signal
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

from players import PlayerReport, entry_matches, play_until

from app.daily.store import GameStore
from app.platform.redis import connect
from fairness import DAILY_RULESETS

PLAYERS = 6
WARM_UP = 1.5
AFTER_FAULT = 1.5
LOAD_DEADLINE = 90.0
REDIS_OUTAGE = 1.0  # longer than the client's own retries (about 0.3 s), so requests see it
RECOVERY_TIMEOUT = 15.0


def run_load(port: int, date: str, fault) -> tuple[PlayerReport, float, float]:
    """Players play whole games while ``fault()`` runs; (report, fault start, fault end)."""
    stop = threading.Event()
    deadline = time.monotonic() + LOAD_DEADLINE
    with ThreadPoolExecutor(PLAYERS) as pool:
        futures = [pool.submit(play_until, port, stop, seed, date, deadline, DAILY_RULESETS)
                   for seed in range(PLAYERS)]
        time.sleep(WARM_UP)
        fault_started = time.monotonic()
        fault()
        fault_ended = time.monotonic()
        time.sleep(AFTER_FAULT)
        stop.set()
        report = PlayerReport()
        for future in futures:
            report.merge(future.result())
    return report, fault_started, fault_ended


def assert_nothing_lost_nothing_doubled(redis_url: str, report: PlayerReport) -> None:
    """Every game finished; each stored action is the one acknowledged for its number, once."""
    assert report.unexpected == []
    assert report.games and sorted(report.finished) == sorted(report.games)
    stored = {record.id: record.transcript
              for record in GameStore(connect(redis_url)).load_games(report.games)}
    assert sorted(stored) == sorted(report.games)
    acknowledged = defaultdict(dict)
    for ack in report.acknowledged:
        assert ack.number not in acknowledged[ack.game], "one number acknowledged twice"
        acknowledged[ack.game][ack.number] = ack
        assert stored[ack.game][ack.number] == ack.entry
        assert entry_matches(ack.intended["action"], ack.intended, ack.entry)
    for game, transcript in stored.items():
        assert sorted(acknowledged[game]) == list(range(len(transcript))), game


def games_spanning(report: PlayerReport, start: float, end: float) -> set[str]:
    """The games with actions acknowledged both before ``start`` and after ``end``."""
    before = {ack.game for ack in report.acknowledged if ack.at < start}
    after = {ack.game for ack in report.acknowledged if ack.at > end}
    return before & after


def get(port: int, path: str) -> tuple[int, dict, object]:
    """GET ``path``; (status, lower-cased headers, JSON body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        headers = {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()
    if headers.get("content-type", "").startswith("application/json"):
        return response.status, headers, json.loads(body)
    return response.status, headers, body.decode()


def post(port: int, path: str, body: dict) -> tuple[int, dict, dict]:
    """POST ``body`` as JSON; (status, lower-cased headers, JSON body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, json.dumps(body),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        headers = {name.lower(): value for name, value in response.getheaders()}
    finally:
        connection.close()
    return response.status, headers, answer


def wait_for_status(port: int, path: str, status: int) -> None:
    """Poll ``path`` until it answers ``status`` (bounded)."""
    deadline = time.monotonic() + RECOVERY_TIMEOUT
    while time.monotonic() < deadline:
        if get(port, path)[0] == status:
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} never answered {status}")


def test_redis_killed_mid_game_loses_no_acknowledged_action(killable_redis, deploy_server,
                                                            play_date):
    """SIGKILL Redis under load and start it again on its AOF: every acknowledged action is
    still stored, the players' retries resume their games, and the outage answered 503."""
    server = deploy_server(killable_redis.url, workers=2)

    def kill_and_restart_redis():
        """The fault: Redis dies without a shutdown, and is back a moment later."""
        killable_redis.kill()
        time.sleep(REDIS_OUTAGE)
        killable_redis.start()

    report, killed_at, restarted_at = run_load(server.port, play_date, kill_and_restart_redis)

    assert_nothing_lost_nothing_doubled(killable_redis.url, report)
    assert games_spanning(report, killed_at, restarted_at), "no game was in play across the fault"
    assert report.unavailable, "the outage was never seen"
    for status, retry_after, answer in report.unavailable:
        assert status == 503 and retry_after and retry_after.isdigit()
        assert answer["error"]["code"] == "storage-unavailable"
    assert "Traceback" not in server.log()


def test_worker_killed_mid_game_loses_nothing_and_applies_nothing_twice(killable_redis,
                                                                         deploy_server,
                                                                         play_date):
    """SIGKILL gunicorn workers under load: requests they held get no answer, the players retry
    them with the same action number, and each action is applied exactly once."""
    server = deploy_server(killable_redis.url, workers=2)
    killed = {}

    def kill_workers():
        """The fault: two workers die abruptly, one after the other."""
        for _ in range(2):
            victim = server.worker_pids()[0]
            os.kill(victim, signal.SIGKILL)
            killed[victim] = time.monotonic()
            time.sleep(0.4)

    report, _, _ = run_load(server.port, play_date, kill_workers)

    assert_nothing_lost_nothing_doubled(killable_redis.url, report)
    for moment in killed.values():
        assert games_spanning(report, moment, moment), "no game was in play at a kill"
    survivors = server.worker_pids()
    assert len(survivors) == 2 and not set(killed) & set(survivors)
    assert server.process.poll() is None


def test_redis_unreachable_answers_503_and_recovers_by_itself(killable_redis, deploy_server,
                                                              play_date):
    """With Redis gone: 503 with Retry-After and a JSON error (no stack trace), /readyz red,
    /healthz green; when Redis is back, the same server is ready and plays again untouched."""
    server = deploy_server(killable_redis.url, workers=1)
    assert get(server.port, "/readyz")[0] == 200
    killable_redis.kill()

    started = time.monotonic()
    status, headers, answer = post(server.port, "/api/v1/games",
                                   {"ruleset": "yacht", "date": play_date})
    assert time.monotonic() - started < 5.0
    assert status == 503 and headers["retry-after"].isdigit()
    assert set(answer) == {"error"} and answer["error"]["code"] == "storage-unavailable"
    status, headers, ready = get(server.port, "/readyz")
    assert status == 503 and headers["retry-after"].isdigit()
    assert ready["status"] == "unavailable" and ready["checks"]["redis"]["ok"] is False
    assert get(server.port, "/healthz")[0] == 200
    status, _, metrics = get(server.port, "/metrics")
    assert status == 200 and "yacht_daily_redis_up 0.0" in metrics
    assert 'yacht_daily_redis_errors_total{error="ConnectionError"}' in metrics

    killable_redis.start()
    wait_for_status(server.port, "/readyz", 200)
    status, _, answer = post(server.port, "/api/v1/games", {"ruleset": "yacht", "date": play_date})
    assert status == 201 and answer["game"]["status"] == "playing"
    assert "Traceback" not in server.log()
