"""The service as deployed: gunicorn with deploy/gunicorn.conf.py, several workers and several
servers on one Redis and one data directory's secrets."""

import datetime as dt
import json
import os
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from players import RetryingPlayer
from test_faults import get
from test_observability import metric_value

from app.ledger.days import day_window
from app.ledger.signing import verify_signature
from app.platform.clock import format_timestamp
from fairness import audit
from fairness.ledger import REVEAL_TYPE

API = "/api/v1"
BATCH = 16
MAX_BATCHES = 25
SERVERS = 3


def access_lines(server) -> dict[str, dict]:
    """The JSON access lines of the rulesets route, by request id (every line must be JSON).
    Only whole lines are read: a worker may be writing the last one while the log is read."""
    whole = server.log().rpartition("\n")[0]
    lines = [json.loads(line) for line in whole.splitlines()]
    return {line["request_id"]: line for line in lines
            if line["logger"] == "gunicorn.access" and line.get("path") == f"{API}/rulesets"}


def test_metrics_merge_every_worker_and_access_log_is_json_with_request_ids(killable_redis,
                                                                           deploy_server):
    """Whichever worker answers the scrape, it counts every worker's requests; every log line is
    JSON, and each access line carries the request id the proxy sent."""
    server = deploy_server(killable_redis.url, workers=2)

    def fetch(number: int) -> int:
        """GET the rulesets with a request id of our own."""
        player = RetryingPlayer(server.port, None, time.monotonic() + 10)
        return player.send("GET", "/rulesets", headers={"X-Request-ID": f"req-{number}"})[0]

    # Concurrent batches until both workers have answered some (the kernel picks the worker).
    sent = 0
    with ThreadPoolExecutor(8) as pool:
        while sent < BATCH * MAX_BATCHES:
            assert set(pool.map(fetch, range(sent, sent + BATCH))) == {200}
            sent += BATCH
            if len({line["pid"] for line in access_lines(server).values()}) == 2:
                break
    access = access_lines(server)
    assert {line["pid"] for line in access.values()} == set(server.worker_pids())

    # So a total equal to every request sent, in every scrape, is a merged one.
    route = {"method": "GET", "route": f"{API}/rulesets", "status": "200"}
    for _ in range(6):
        metrics = get(server.port, "/metrics")[2]
        assert metric_value(metrics, "yacht_daily_http_requests_total", **route) == sent
    deadline = time.monotonic() + 5
    while len(access) < sent and time.monotonic() < deadline:
        time.sleep(0.1)
        access = access_lines(server)
    assert set(access) == {f"req-{number}" for number in range(sent)}
    assert all(line["status"] == 200 and line["method"] == "GET" and line["duration_ms"] > 0
               for line in access.values())


def reveal_entries(entries: list[dict]) -> list[str]:
    """The dates of the reveal entries, in ledger order."""
    return [entry["date"] for entry in entries if entry["type"] == REVEAL_TYPE]


def test_several_servers_on_one_redis_and_secrets_reveal_each_date_once(
        killable_redis, deploy_server, clock_file, play_date, data_dir):
    """Three servers (two workers each, a reveal thread in each) and the reveal command race
    for the same due dates while requests come in: each date is revealed exactly once, the
    ledger checks, and every server's game counts."""
    servers = [deploy_server(killable_redis.url, workers=2) for _ in range(SERVERS)]
    finished = []
    for index, server in enumerate(servers):
        player = RetryingPlayer(server.port, random.Random(index), time.monotonic() + 60)
        player.play_game("yacht", play_date)
        finished += player.report.finished
    assert len(finished) == SERVERS

    before = reveal_entries(get(servers[0].port, f"{API}/ledger")[2]["entries"])
    assert play_date not in before
    due = day_window(play_date, 3600).reveal_at + dt.timedelta(minutes=5)
    clock_file.write_text(format_timestamp(due))

    racers = [threading.Thread(target=get, args=(server.port, f"{API}/challenges"))
              for server in servers for _ in range(4)]
    command = subprocess.Popen(
        [sys.executable, "-c", "from app.cli.main import main; main()", "reveal",
         "--data-dir", str(data_dir)],
        env={**os.environ, "REDIS_URL": killable_redis.url,
             "YACHT_DAILY_CLOCK_FILE": str(clock_file)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    output = command.communicate(timeout=60)[0].decode()
    assert command.returncode == 0, output

    deadline = time.monotonic() + 60  # the lease holder may be a worker still at work
    while get(servers[0].port, f"{API}/ledger/{play_date}")[0] != 200:
        assert time.monotonic() < deadline, f"{play_date} was never revealed"
        time.sleep(0.1)
    entries = get(servers[0].port, f"{API}/ledger")[2]["entries"]
    revealed = reveal_entries(entries)
    assert len(revealed) == len(set(revealed))
    assert play_date in revealed and revealed[:len(before)] == before
    assert [entry["seq"] for entry in entries] == list(range(len(entries)))
    assert all(check.ok for check in audit.check_ledger(entries, verify_signature))
    entry = next(entry for entry in entries if entry.get("date") == play_date)
    assert entry["games"]["yacht"] == SERVERS
    for server in servers:
        assert get(server.port, f"{API}/ledger/{play_date}")[2]["entry"] == entry
