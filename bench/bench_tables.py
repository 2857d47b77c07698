"""Tables under load: concurrent tables of 4 seats (2 scripted humans, 2 bots) played whole
against gunicorn started with deploy/gunicorn.conf.py on gevent workers, over one redis-server
(unix socket, AOF with fsync always, as ``yacht-daily serve`` runs it).

Each human holds its seat's event stream (GET /tables/<id>/events, SSE; reopened after its
last event's id when a response ends, as EventSource does) in a thread and plays its turn, on
one kept-alive connection (``--new-connections``: one an action), when an event hands it the
turn: it thinks ``--think`` seconds (uniformly random between the two bounds, as a person
reading the dice; ``--think 0`` plays at once and measures saturation), rolls once, thinks
again, and fills the box that scores most. The humans are spread over ``--clients`` processes
(both humans of a table in one), so that the bench's own GIL is not the latency measured;
``--spectators`` more streams per table only watch.
Measured: the push latency from a human's action (just before its POST is sent) to each other
stream of the table (the other human's, the spectators') delivering that action's event, p50 /
p99 / max; requests per second (every POST, streams not counted); the stream connections
opened; Redis memory per table (``used_memory`` before the tables and after they all ended,
over the table count: the table, its match, its events, the players' lists); the CPU time of
the gunicorn workers and of Redis per request (from /proc: what the machine's load does not
inflate); the load average.

    .venv/bin/python bench/bench_tables.py --tables 50 --workers 2
    .venv/bin/python bench/bench_tables.py --tables 200 --ramp 20 --timeout 240

The issue's run is ``--tables 200``, started over ``--ramp`` seconds (evenly; 0: all at once);
the default is 20 tables (a shared machine). Tables that do not end within ``--timeout`` and
starts that keep failing are counted in the errors, and the figures measured until then are
printed. Loopback only and bounded: at most 200 tables, 10 s per request, 60 s of silence on
a stream, READY_TIMEOUT for the server to be ready. Every sheet's strategy table the server
warms is built (or loaded) into ``YACHT_DAILY_STRATEGY_DIR`` (default ``var/bench-strategy``)
first, so the workers only read the files.
"""

import argparse
import datetime as dt
import http.client
import json
import multiprocessing
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from http_load import REQUEST_TIMEOUT, ServerProcess, exchange, free_port, quantile_ms, send

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from app.ledger import secrets as keys  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.platform.redis import connect  # noqa: E402
from fairness.sheets import DAILY_RULESETS_WITH_YATZY  # noqa: E402
from strategy import load_or_build  # noqa: E402

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
MAX_TABLES = 200
MAX_SPECTATORS = 4
MAX_RAMP_SECONDS = 300
RULESET = "yacht"
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
API = "/api/v1"
STREAM_TIMEOUT = 60.0
READY_TIMEOUT = 120.0
SEAT_TIMEOUT = 180.0
RETRIES = 3
RETRY_AFTER_SECONDS = 1.0
REPORT_SECONDS = 60.0  # past a client's own timeout, for its report to come


class KeptConnection:
    """One player's HTTP/1.1 connection, kept alive between its requests as a browser keeps
    its own (and nginx its upstream pool, deploy/nginx): reopened when the server has closed
    it meanwhile (gunicorn's keep-alive is a few seconds), as a browser does."""

    def __init__(self, port: int):
        """Nothing opened yet."""
        self.port = port
        self.http: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body=None, cookie: str | None = None):
        """One request; (status, JSON body or raw bytes, Set-Cookie). A connection the server
        closed while idle is reopened once, the request sent again on it."""
        reused = self.http is not None
        while True:
            if self.http is None:
                self.http = http.client.HTTPConnection("127.0.0.1", self.port,
                                                       timeout=REQUEST_TIMEOUT)
            try:
                return exchange(self.http, method, path, body, cookie)
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if not reused:
                    raise
                reused = False
            except (OSError, http.client.HTTPException):
                self.close()
                raise

    def close(self) -> None:
        """Close the connection (the next request opens another)."""
        if self.http is not None:
            self.http.close()
            self.http = None


class Recorder:
    """What the threads of one client process measured: when each human action was sent,
    when the table's other streams delivered it, the requests and their errors."""

    def __init__(self):
        """Nothing measured yet."""
        self.lock = threading.Lock()
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.requests = 0
        self.streams = 0
        self.errors: Counter = Counter()

    def request(self, port: int, method: str, path: str, body=None, cookie=None,
                connection: KeptConnection | None = None):
        """One counted request (on ``connection`` if given, else on a new one), sent again with
        the same body (the same action number: applied once) while it gets no answer or a
        503; (status, answer, Set-Cookie)."""
        for attempt in range(RETRIES + 1):
            try:
                if connection is not None:
                    status, answer, set_cookie = connection.send(method, API + path, body,
                                                                 cookie)
                else:
                    status, answer, set_cookie = send(port, method, API + path, body, cookie)
            except (OSError, http.client.HTTPException):
                with self.lock:
                    self.errors["no answer"] += 1
                if attempt == RETRIES:
                    raise
                continue
            with self.lock:
                self.requests += 1
                if status >= 400:
                    self.errors[status] += 1
            if status != 503 or attempt == RETRIES:
                return status, answer, set_cookie
            time.sleep(RETRY_AFTER_SECONDS)  # as the pages do on "try again shortly"
        raise AssertionError("unreachable")

    def delivered(self, table_id: str, number: int, arrived: float) -> None:
        """A stream received the event of the human action ``number`` at ``arrived``."""
        with self.lock:
            sent = self.sent.get((table_id, number))
            if sent is not None:
                self.latencies.append(arrived - sent)


def cookie_of(set_cookie: str | None, old: str | None) -> str | None:
    """The player cookie a response set (its name=value part), else the one kept."""
    return set_cookie.split(";", 1)[0] if set_cookie else old


def read_events(response):
    """The SSE messages of a streamed response as (id, kind, data), comments skipped."""
    event_id, kind, data = None, None, None
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line.startswith("id: "):
            event_id = line[4:]
        elif line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif not line and kind is not None:
            yield event_id, kind, data
            event_id, kind, data = None, None, None


class Watcher:
    """One stream of a table (a seat's or a spectator's): reads it until the table ends,
    noting when each other seat's human action arrives."""

    seat: int | None = None
    passed = False  # past the barrier of the opened streams
    ended = False  # the table's end was delivered

    def __init__(self, port: int, recorder: Recorder, table_id: str, cookie: str | None):
        """Bind to the table, with the player's cookie (None: a spectator)."""
        self.port, self.recorder = port, recorder
        self.table_id, self.cookie = table_id, cookie

    def run(self, opened: threading.Barrier) -> None:
        """Hold the stream until the table ends; a stream or a request that keeps failing
        (an overloaded server) is counted and ends this seat's part: the turn clock plays on."""
        try:
            self.watch(opened)
        except (OSError, AssertionError, ValueError) as error:
            with self.recorder.lock:
                self.recorder.errors[f"gave up: {type(error).__name__}"] += 1
            if not self.passed:
                opened.abort()  # never opened: the run fails rather than wait for it

    def watch(self, opened: threading.Barrier) -> None:
        """Hold the stream (reopened after the last event's id when it ends, as a browser's
        EventSource does) until the table ends; pass ``opened`` once the first connection
        has its snapshot."""
        first, last_id = True, None
        while True:
            connection = http.client.HTTPConnection("127.0.0.1", self.port,
                                                    timeout=STREAM_TIMEOUT)
            headers = {"Cookie": self.cookie} if self.cookie else {}
            if last_id is not None:  # as EventSource does: resume, no snapshot
                headers["Last-Event-ID"] = last_id
            connection.request("GET", f"{API}/tables/{self.table_id}/events", headers=headers)
            response = connection.getresponse()
            with self.recorder.lock:
                self.recorder.streams += 1
            try:
                for event_id, kind, data in read_events(response):
                    last_id = event_id or last_id
                    if first:
                        opened.wait()
                        first, self.passed = False, True
                    if self.handle(kind, data):
                        self.ended = True
                        return
            finally:
                connection.close()

    def handle(self, kind: str, data: dict) -> bool:
        """Note a delivered action; True once the table has ended."""
        if kind == "actions" and data["by"] == "player" and data["actions"] and \
                data["actions"][0]["seat"] != self.seat:
            self.recorder.delivered(self.table_id, data["from"], time.perf_counter())
        return kind == "ended"


class Human(Watcher):
    """A scripted human at one seat: reads its stream, plays its turn when handed it."""

    def __init__(self, port: int, recorder: Recorder, table_id: str, seat: int, cookie: str,
                 think: tuple[float, float], rng: random.Random, keep_alive: bool = True):
        """Bind to the table and the seat, with the player's cookie and think time; its
        actions go on one kept-alive connection (a new one each with ``keep_alive`` False)."""
        super().__init__(port, recorder, table_id, cookie)
        self.seat, self.think, self.rng = seat, think, rng
        self.connection = KeptConnection(port) if keep_alive else None
        self.acted_to = -1

    def handle(self, kind: str, data: dict) -> bool:
        """Note a delivered action, then play when the event hands this seat the turn."""
        if super().handle(kind, data):
            return True
        if kind == "snapshot":
            match = data["match"]
            if match and match["status"] == "playing" and match["turn"] == self.seat:
                self.play(match["next_action"])
        elif kind == "started" and data["turn"] == self.seat:
            self.play(0)
        elif kind == "actions" and data["status"] == "playing" and \
                data["turn"] == self.seat and data["to"] > self.acted_to:
            self.play(data["to"])
        return False

    def pause(self) -> None:
        """Think before an action."""
        low, high = self.think
        if high > 0:
            time.sleep(self.rng.uniform(low, high))

    def play(self, number: int) -> None:
        """One roll, then the box that scores most: the whole turn, thinking before each."""
        path = f"/tables/{self.table_id}"
        self.pause()
        with self.recorder.lock:
            self.recorder.sent[(self.table_id, number)] = time.perf_counter()
        status, answer, _ = self.recorder.request(self.port, "POST", f"{path}/roll",
                                                  {"hold": None, "roll": number}, self.cookie,
                                                  self.connection)
        if status != 200:
            return
        previews = answer["table"]["match"]["play"]["previews"]
        box = max(previews, key=lambda name: previews[name])
        self.pause()
        with self.recorder.lock:
            self.recorder.sent[(self.table_id, number + 1)] = time.perf_counter()
        status, answer, _ = self.recorder.request(self.port, "POST", f"{path}/score",
                                                  {"category": box, "roll": number + 1},
                                                  self.cookie, self.connection)
        if status == 200:
            self.acted_to = number + 2


def seat_table(port: int, recorder: Recorder, index: int, think: tuple[float, float],
               clock: int, spectators: int,
               keep_alive: bool = True) -> tuple[str, str, list[Watcher]]:
    """Create a table (creator and a friend, two bots), join it; its id, the creator's cookie,
    and its streams (the two humans, then the spectators)."""
    status, answer, set_cookie = recorder.request(port, "POST", "/tables", {
        "ruleset": RULESET, "seats": [{"kind": "human"}, *BOTS], "clock": clock,
        "name": f"Ann {index}", "client_seed": f"ann-{index}"})
    assert status == 201, answer
    table_id, creator = answer["table"]["id"], cookie_of(set_cookie, None)
    status, answer, set_cookie = recorder.request(port, "POST", f"/tables/{table_id}/join", {
        "name": f"Bob {index}", "client_seed": f"bob-{index}"})
    assert status == 200, answer
    watchers: list[Watcher] = [
        Human(port, recorder, table_id, 0, creator, think, random.Random(2 * index),
              keep_alive),
        Human(port, recorder, table_id, 1, cookie_of(set_cookie, None), think,
              random.Random(2 * index + 1), keep_alive)]
    watchers += [Watcher(port, recorder, table_id, None) for _ in range(spectators)]
    return table_id, creator, watchers


def start_tables(port: int, recorder: Recorder, tables: list[tuple[str, str, list[Watcher]]],
                 indexes: list[int], args: dict) -> None:
    """Start this process's tables, table ``i`` of all ``i * ramp / tables`` seconds after
    every process passed the barrier; a start that keeps failing is counted (its table is
    then not played)."""
    began = time.monotonic()
    for index, (table_id, creator, _) in zip(indexes, tables, strict=True):
        time.sleep(max(0.0, began + index * args["ramp"] / args["tables"] - time.monotonic()))
        try:
            status, answer, _ = recorder.request(port, "POST", f"/tables/{table_id}/start", {},
                                                 creator)
        except OSError:
            status = None
        if status != 200:
            with recorder.lock:
                recorder.errors["start failed"] += 1


def client_process(port: int, indexes: list[int], args: dict, everyone: multiprocessing.Barrier,
                   results: multiprocessing.Queue) -> None:
    """One client process: seat its tables, open their streams, wait for every process, start
    its tables (over the ramp), play them to the end or until the timeout, and send back what
    it measured, the tables that did not end included."""
    recorder = Recorder()
    think = (args["think_min"], args["think_max"])
    tables = [seat_table(port, recorder, index, think, args["clock"], args["spectators"],
                         args["keep_alive"]) for index in indexes]
    watchers = [watcher for _, _, table_watchers in tables for watcher in table_watchers]
    opened = threading.Barrier(len(watchers) + 1)
    threads = [threading.Thread(target=watcher.run, args=(opened,), daemon=True)
               for watcher in watchers]
    for thread in threads:
        thread.start()
    opened.wait()  # every stream has its snapshot
    requests_before = recorder.requests
    everyone.wait()
    start_tables(port, recorder, tables, indexes, args)
    deadline = time.monotonic() + args["timeout"]
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with recorder.lock:  # the threads still playing (a timeout) no longer count
        results.put({"latencies": list(recorder.latencies),
                     "requests": recorder.requests - requests_before,
                     "streams": recorder.streams, "errors": dict(recorder.errors),
                     "unfinished": sum(not all(w.ended for w in table_watchers)
                                       for _, _, table_watchers in tables),
                     "ended": time.perf_counter()})


def collect(results: multiprocessing.Queue, processes: list, timeout: float) -> list[dict]:
    """Every client process's measures (each stops at its own timeout, with what it has),
    failing as soon as one of them dies."""
    measured, deadline = [], time.monotonic() + timeout
    while len(measured) < len(processes):
        try:
            measured.append(results.get(timeout=1.0))
        except queue.Empty:
            if any(process.exitcode not in (None, 0) for process in processes):
                raise RuntimeError("a client process failed (its traceback is above)") from None
            if time.monotonic() > deadline:
                raise RuntimeError(f"a client process did not report within {timeout:.0f} s "
                                   "of its own timeout") from None
    return measured


def cpu_seconds(pid: int, kernel_only: bool = False) -> float:
    """The CPU time (user and system, or system alone) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = int(fields[12]) if kernel_only else int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def workers_cpu(master: int, kernel_only: bool = False) -> float:
    """The CPU time (or its system part) the gunicorn master's workers have used so far."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sum(cpu_seconds(int(child), kernel_only) for child in children)


def prepare_strategy(directory: Path) -> None:
    """Build or load every sheet's table the server warms, before the server starts."""
    for ruleset in dict.fromkeys((RULESET, *DAILY_RULESETS_WITH_YATZY)):
        load_or_build(directory, ruleset)


def wait_ready(port: int, timeout: float) -> float:
    """Wait until /readyz answers 200 (a worker that loads tables off its event loop answers
    at once); the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if send(port, "GET", "/readyz")[0] == 200:
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server was not ready within {timeout:.0f} s")


def run(args, workdir: Path) -> None:
    """Start Redis and gunicorn, play the tables from the client processes, print the report."""
    strategy_dir = Path(os.environ.get("YACHT_DAILY_STRATEGY_DIR") or ROOT / "var" /
                        "bench-strategy")
    prepare_strategy(strategy_dir)
    data_dir = workdir / "var"
    today = dt.datetime.now(dt.UTC).date()
    keys.initialise(data_dir, today, 30)  # no day to reveal: the coach stays idle
    load_before = os.getloadavg()
    with EmbeddedRedis(workdir / "redis") as redis_server:
        client = connect(redis_server.url)
        env = {**os.environ, "REDIS_URL": redis_server.url, "YACHT_DAILY_DATA_DIR": str(data_dir),
               "YACHT_DAILY_STRATEGY_DIR": str(strategy_dir), "YACHT_DAILY_RATE_LIMITS": "off",
               "WEB_CONCURRENCY": str(args.workers), "YACHT_DAILY_WORKER_CLASS": "gevent",
               "YACHT_DAILY_MAX_REQUESTS": "0"}  # no worker recycled mid-run
        port = free_port()
        env["YACHT_DAILY_BIND"] = f"127.0.0.1:{port}"
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        server = ServerProcess([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)],
                               port, env, workdir / "gunicorn.log", ("GET", "/healthz", None),
                               cwd=workdir)
        try:
            ready_seconds = wait_ready(port, READY_TIMEOUT)
            memory_before = client.info("memory")["used_memory"]
            redis_pid = client.info("server")["process_id"]
            context = multiprocessing.get_context("spawn")
            clients = min(args.clients, args.tables)
            everyone = context.Barrier(clients + 1)
            results = context.Queue()
            shared = {"think_min": args.think[0], "think_max": args.think[1],
                      "clock": args.clock, "spectators": args.spectators,
                      "ramp": args.ramp, "tables": args.tables, "timeout": args.timeout,
                      "keep_alive": not args.new_connections}
            processes = [context.Process(target=client_process, daemon=True, args=(
                port, list(range(args.tables))[number::clients], shared, everyone, results))
                for number in range(clients)]
            for process in processes:
                process.start()
            try:
                everyone.wait(timeout=SEAT_TIMEOUT)
            except threading.BrokenBarrierError:
                raise RuntimeError("a client process failed (its traceback is above)") from None
            started = time.perf_counter()
            cpu_before = (workers_cpu(server.process.pid), cpu_seconds(redis_pid),
                          workers_cpu(server.process.pid, kernel_only=True))
            measured = collect(results, processes, args.timeout + args.ramp + REPORT_SECONDS)
            cpu_after = (workers_cpu(server.process.pid), cpu_seconds(redis_pid),
                         workers_cpu(server.process.pid, kernel_only=True))
            for process in processes:
                process.join(10)
            memory_after = client.info("memory")["used_memory"]
        finally:
            server.stop()
            redis_errors = Counter(re.findall(r"redis unavailable: (\w+)",
                                              (workdir / "gunicorn.log").read_text()))
            if redis_errors:
                print(f"The workers answered 503 on Redis errors: {dict(redis_errors)}.")
    load_after = os.getloadavg()
    print_report(args, measured, started, (load_before, load_after), ready_seconds,
                 (cpu_before, cpu_after), (memory_before, memory_after))


def print_report(args, measured: list[dict], started: float, loads: tuple, ready_seconds: float,
                 cpus: tuple, memories: tuple) -> None:
    """The run's figures as a Markdown row, partial ones too (tables that did not end within
    the timeout, starts that failed: counted in the errors)."""
    (load_before, load_after), (cpu_before, cpu_after) = loads, cpus
    wall = max(result["ended"] for result in measured) - started
    latencies = [value for result in measured for value in result["latencies"]]
    errors = sum((Counter(result["errors"]) for result in measured), Counter())
    unfinished = sum(result["unfinished"] for result in measured)
    if unfinished:
        errors[f"tables not ended within {args.timeout:g} s"] = unfinished
    think = "no think time" if args.think[1] == 0 else \
        f"think {args.think[0]:g}–{args.think[1]:g} s"
    print(f"{args.tables} tables of 4 seats (2 humans, 2 bots, {RULESET}), {think}, clock "
          f"{args.clock or 'off'}, started over {args.ramp:g} s, "
          f"{'a new connection an action' if args.new_connections else 'kept-alive connections'}"
          f", {args.spectators} spectators "
          f"a table, {min(args.clients, args.tables)} client processes, {args.workers} gevent "
          f"workers, one redis-server (unix socket, fsync always); ready {ready_seconds:.1f} s "
          f"after the workers answered; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after (1 min); `uptime`: "
          f"{subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    if unfinished:
        print(f"PARTIAL: {unfinished} of {args.tables} tables did not end; the figures are "
              "those measured until the timeout.")
    requests = sum(result["requests"] for result in measured)
    per_request = [1000 * (after - before) / max(1, requests)
                   for before, after in zip(cpu_before, cpu_after, strict=True)]
    print(f"The workers' CPU per request, {per_request[0]:.1f} ms, is {per_request[2]:.1f} ms "
          "in the kernel (system time: the sockets' sends and receives, epoll).")
    latency = "none measured" if not latencies else \
        f"{quantile_ms(latencies, 0.5):.1f} / {quantile_ms(latencies, 0.99):.1f} / " \
        f"{1000 * max(latencies):.1f}"
    print("| tables | think (s) | ramp (s) | push latency p50 / p99 / max (ms) "
          "| pushes measured | requests/s | CPU ms per request: workers + Redis "
          "| streams opened | Redis memory per table | wall (s) | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| {args.tables} | {args.think[0]:g}–{args.think[1]:g} | {args.ramp:g} | {latency} "
          f"| {len(latencies)} | {requests / wall:.0f} "
          f"| {per_request[0]:.1f} + {per_request[1]:.1f} "
          f"| {sum(result['streams'] for result in measured)} "
          f"| {(memories[1] - memories[0]) / args.tables / 1024:.1f} KiB | {wall:.0f} "
          f"| {dict(errors) or 0} |")


def think_range(text: str) -> tuple[float, float]:
    """``--think``: ``LOW-HIGH`` seconds, or one number (``0``: no think time)."""
    low, _, high = text.partition("-")
    bounds = (float(low), float(high or low))
    if not 0 <= bounds[0] <= bounds[1] <= 30:
        raise argparse.ArgumentTypeError("think is LOW-HIGH seconds, 0 <= LOW <= HIGH <= 30")
    return bounds


def main() -> None:
    """Parse the arguments and run the benchmark in a scratch directory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20,
                        help=f"concurrent tables (at most {MAX_TABLES})")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--clients", type=int, default=4, help="client processes")
    parser.add_argument("--think", type=think_range, default=(1.0, 2.0),
                        help="a human's think time before each action, LOW-HIGH seconds "
                             "(default 1-2; 0 for none: saturation)")
    parser.add_argument("--clock", type=int, default=45,
                        help="the tables' turn clock in seconds (0: off)")
    parser.add_argument("--spectators", type=int, default=0,
                        help=f"streams a table that only watch (at most {MAX_SPECTATORS})")
    parser.add_argument("--timeout", type=float, default=900.0,
                        help="seconds the tables may take once started (then the figures "
                             "measured so far are printed, the tables left counted)")
    parser.add_argument("--new-connections", action="store_true",
                        help="a new connection for each human action (the default keeps one "
                             "alive a human, as browsers and nginx's upstream pool do)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the tables start, evenly (0: all at once; "
                             "a service sees tables start over time: 200 tables over 20 s)")
    args = parser.parse_args()
    if not 1 <= args.tables <= MAX_TABLES:
        parser.error(f"--tables must be 1 to {MAX_TABLES}")
    if not 0 <= args.spectators <= MAX_SPECTATORS or not 1 <= args.clients <= 16:
        parser.error(f"--spectators is 0 to {MAX_SPECTATORS}, --clients 1 to 16")
    if not 0 <= args.ramp <= MAX_RAMP_SECONDS:
        parser.error(f"--ramp is 0 to {MAX_RAMP_SECONDS} seconds")
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-tables-"))
    try:
        run(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
