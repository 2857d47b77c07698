"""Tables under load: concurrent tables of 4 seats (2 scripted humans, 2 bots) played whole
against gunicorn started with deploy/gunicorn.conf.py on gevent workers, over one redis-server
(unix socket, AOF with fsync always, as ``yacht-daily serve`` runs it).

Each human is one thread holding its seat's event stream (GET /tables/<id>/events, SSE) and
playing its turn when an event hands it the turn (one roll, then the box that scores most).
Measured: the push latency from a human's action (just before its POST is sent) to the other
human's stream delivering that action's event, p50 / p99 / max; requests per second (every
POST and GET, streams not counted); the stream connections opened; and Redis memory per
table (``used_memory`` before the tables and after they all ended, over the table count: the
table, its match, its events, the players' lists).

    .venv/bin/python bench/bench_tables.py --tables 50 --workers 2

The issue's run is ``--tables 200``; the default is 20 (a shared machine). Loopback only and
bounded: at most 200 tables, 10 s per request, 60 s of silence on a stream. The bots'
strategy table of the sheet is built (or loaded) into ``YACHT_DAILY_STRATEGY_DIR`` (default
``var/bench-strategy``) first.
"""

import argparse
import datetime as dt
import http.client
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from http_load import ServerProcess, free_port, quantile_ms, send

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from app.ledger import keys  # noqa: E402
from app.storage.embedded import EmbeddedRedis  # noqa: E402
from app.storage.store import connect  # noqa: E402
from strategy import load_or_build  # noqa: E402

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
MAX_TABLES = 200
RULESET = "yacht"
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
API = "/api/v1"
STREAM_TIMEOUT = 60.0
RETRIES = 3


class Recorder:
    """What every thread measured: when each human action was sent, when the other human's
    stream delivered it, the requests and their errors."""

    def __init__(self):
        """Nothing measured yet."""
        self.lock = threading.Lock()
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.requests = 0
        self.streams = 0
        self.errors: Counter = Counter()

    def request(self, port: int, method: str, path: str, body=None, cookie=None):
        """One counted request, sent again with the same body (the same action number: applied
        once) while it gets no answer; (status, answer, Set-Cookie)."""
        for attempt in range(RETRIES + 1):
            try:
                status, answer, set_cookie = send(port, method, API + path, body, cookie)
                break
            except OSError:
                with self.lock:
                    self.errors["no answer"] += 1
                if attempt == RETRIES:
                    raise
        with self.lock:
            self.requests += 1
            if status >= 400:
                self.errors[status] += 1
        return status, answer, set_cookie


def cookie_of(set_cookie: str | None, old: str | None) -> str | None:
    """The player cookie a response set (its name=value part), else the one kept."""
    return set_cookie.split(";", 1)[0] if set_cookie else old


def read_events(response):
    """The SSE messages of a streamed response as (kind, data) pairs, comments skipped."""
    kind, data = None, None
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif not line and kind is not None:
            yield kind, data
            kind, data = None, None


class Human:
    """A scripted human at one seat: reads its stream, plays its turn when handed it."""

    def __init__(self, port: int, recorder: Recorder, table_id: str, seat: int, cookie: str):
        """Bind to the table and the seat, with the player's cookie."""
        self.port, self.recorder = port, recorder
        self.table_id, self.seat, self.cookie = table_id, seat, cookie
        self.acted_to = -1

    def run(self, ready: threading.Barrier) -> None:
        """Hold the seat's stream (reopened if it ends) until the table ends."""
        ready.wait()
        while True:
            connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                    timeout=STREAM_TIMEOUT)
            connection.request("GET", f"{API}/tables/{self.table_id}/events",
                               headers={"Cookie": self.cookie})
            response = connection.getresponse()
            with self.recorder.lock:
                self.recorder.streams += 1
            try:
                for kind, data in read_events(response):
                    if self.handle(kind, data):
                        return
            finally:
                connection.close()

    def handle(self, kind: str, data: dict) -> bool:
        """React to one event; True once the table has ended."""
        arrived = time.perf_counter()
        if kind == "ended":
            return True
        if kind == "snapshot":
            match = data["match"]
            if match and match["status"] == "playing" and match["turn"] == self.seat:
                self.play(match["next_action"])
            return False
        if kind == "started" and data["turn"] == self.seat:
            self.play(0)
        if kind == "actions":
            if data["by"] == "player" and data["actions"] and \
                    data["actions"][0]["seat"] != self.seat:
                with self.recorder.lock:
                    sent = self.recorder.sent.pop((self.table_id, data["from"]), None)
                    if sent is not None:
                        self.recorder.latencies.append(arrived - sent)
            if data["status"] == "playing" and data["turn"] == self.seat and \
                    data["to"] > self.acted_to:
                self.play(data["to"])
        return False

    def play(self, number: int) -> None:
        """One roll, then the box that scores most: the whole turn."""
        path = f"/tables/{self.table_id}"
        with self.recorder.lock:
            self.recorder.sent[(self.table_id, number)] = time.perf_counter()
        status, answer, _ = self.recorder.request(self.port, "POST", f"{path}/roll",
                                                  {"hold": None, "roll": number}, self.cookie)
        if status != 200:
            return
        match = answer["table"]["match"]
        previews = match["play"]["previews"]
        box = max(previews, key=lambda name: previews[name])
        with self.recorder.lock:
            self.recorder.sent[(self.table_id, number + 1)] = time.perf_counter()
        status, answer, _ = self.recorder.request(self.port, "POST", f"{path}/score",
                                                  {"category": box, "roll": number + 1},
                                                  self.cookie)
        if status == 200:
            self.acted_to = number + 2


def seat_table(port: int, recorder: Recorder, index: int) -> list[Human]:
    """Create a table (creator and a friend, two bots, no clock), join it; its two humans."""
    status, answer, set_cookie = recorder.request(port, "POST", "/tables", {
        "ruleset": RULESET, "seats": [{"kind": "human"}, *BOTS], "clock": 0,
        "name": f"Ann {index}", "client_seed": f"ann-{index}"})
    assert status == 201, answer
    table_id, creator = answer["table"]["id"], cookie_of(set_cookie, None)
    status, answer, set_cookie = recorder.request(port, "POST", f"/tables/{table_id}/join", {
        "name": f"Bob {index}", "client_seed": f"bob-{index}"})
    assert status == 200, answer
    return [Human(port, recorder, table_id, 0, creator),
            Human(port, recorder, table_id, 1, cookie_of(set_cookie, None))]


def run(args, workdir: Path) -> None:
    """Start Redis and gunicorn, play the tables, print the report."""
    strategy_dir = Path(os.environ.get("YACHT_DAILY_STRATEGY_DIR") or ROOT / "var" /
                        "bench-strategy")
    load_or_build(strategy_dir, RULESET)
    data_dir = workdir / "var"
    today = dt.datetime.now(dt.UTC).date()
    keys.initialise(data_dir, today, 30)  # no day to reveal: the coach stays idle
    with EmbeddedRedis(workdir / "redis") as redis_server:
        client = connect(redis_server.url)
        env = {**os.environ, "REDIS_URL": redis_server.url, "YACHT_DAILY_DATA_DIR": str(data_dir),
               "YACHT_DAILY_STRATEGY_DIR": str(strategy_dir), "YACHT_DAILY_RATE_LIMITS": "off",
               "WEB_CONCURRENCY": str(args.workers), "YACHT_DAILY_WORKER_CLASS": "gevent"}
        port = free_port()
        env["YACHT_DAILY_BIND"] = f"127.0.0.1:{port}"
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        server = ServerProcess([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)],
                               port, env, workdir / "gunicorn.log", ("GET", "/readyz", None),
                               cwd=workdir)
        try:
            recorder = Recorder()
            memory_before = client.info("memory")["used_memory"]
            humans = [human for index in range(args.tables)
                      for human in seat_table(port, recorder, index)]
            ready = threading.Barrier(len(humans) + 1)
            threads = [threading.Thread(target=human.run, args=(ready,)) for human in humans]
            for thread in threads:
                thread.start()
            ready.wait()
            time.sleep(0.5)  # every stream open before the first start
            started = time.perf_counter()
            requests_before = recorder.requests
            for creator in humans[::2]:
                status, answer, _ = recorder.request(port, "POST",
                                                     f"/tables/{creator.table_id}/start", {},
                                                     creator.cookie)
                assert status == 200, answer
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - started
            memory_after = client.info("memory")["used_memory"]
        finally:
            server.stop()
    latencies = recorder.latencies
    print(f"{args.tables} tables of 4 seats (2 humans, 2 bots, {RULESET}), "
          f"{args.workers} gevent workers, one redis-server (unix socket, fsync always)")
    print("| tables | push latency p50 / p99 / max (ms) | pushes measured | requests/s "
          "| streams opened | Redis memory per table | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {args.tables} | {quantile_ms(latencies, 0.5):.1f} / "
          f"{quantile_ms(latencies, 0.99):.1f} / {1000 * max(latencies):.1f} | {len(latencies)} "
          f"| {(recorder.requests - requests_before) / wall:.0f} | {recorder.streams} "
          f"| {(memory_after - memory_before) / args.tables / 1024:.1f} KiB "
          f"| {dict(recorder.errors) or 0} |")


def main() -> None:
    """Parse the arguments and run the benchmark in a scratch directory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20,
                        help=f"concurrent tables (at most {MAX_TABLES})")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1 to {MAX_TABLES}")
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-tables-"))
    try:
        run(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
