"""Benchmark: whole games over HTTP against ``yacht-daily serve``, beside a bare Flask endpoint.

Starts ``yacht-daily serve`` (embedded redis-server, a fresh data directory, rate limits off so
that one loopback address can play many games) on a free loopback port, plays ``--games`` full
games with ``--clients`` concurrent players, then serves a bare Flask JSON endpoint under the
same gunicorn settings and sends it as many requests with as many clients. Prints games/s,
actions/s, p50/p99 latency, and the Redis commands per action (``INFO commandstats`` delta,
commands run inside Lua scripts included) and, from a short MONITOR pass after the timed run,
the commands the service itself sends per action.

    .venv/bin/python bench/bench_api.py --games 200 --clients 8 --workers 2

Loopback only and bounded: at most 5000 games, 64 clients, 10 s per request.
"""

import argparse
import datetime as dt
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.server import GunicornServer, server_options  # noqa: E402

MAX_GAMES = 5000
MAX_CLIENTS = 64
REQUEST_TIMEOUT = 10.0
START_TIMEOUT = 30.0
MONITOR_GAMES = 6
FLOOR_WRITES = 300
RULESETS = ("yacht", "yacht-bonus", "yahtzee")


# ---------------------------------------------------------------- the servers


def create_bare_app():
    """A Flask app with one JSON endpoint: the floor any Flask route under gunicorn pays."""
    from flask import Flask, jsonify, request

    bare = Flask("bare")

    @bare.post("/api/v1/echo")
    def echo():
        """Parse a small JSON body and answer a small JSON object."""
        body = request.get_json()
        return jsonify({"ok": True, "roll": body.get("roll")})

    return bare


def free_port() -> int:
    """A free loopback port."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A server subprocess on a loopback port, stopped with SIGTERM."""

    def __init__(self, command: list[str], port: int, env: dict, log: Path, probe: tuple):
        """Start it and wait until ``probe`` (method, path, body) answers."""
        self.port = port
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited:\n{log.read_text()}")
            try:
                status, _, _ = request(port, *probe)
                if status < 500:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start:\n{log.read_text()}")

    def stop(self) -> None:
        """SIGTERM, then wait."""
        self.process.terminate()
        self.process.wait(30)


def request(port: int, method: str, path: str, body=None, cookie: str | None = None):
    """One HTTP request on a new connection; returns (status, body, set-cookie)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = cookie
    try:
        connection.request(method, path, data, headers)
        response = connection.getresponse()
        raw = response.read()
        set_cookie = response.getheader("Set-Cookie")
        payload = json.loads(raw) if raw and response.getheader("Content-Type", "").startswith(
            "application/json") else raw
        return response.status, payload, set_cookie
    finally:
        connection.close()


# ---------------------------------------------------------------- players


class Timings:
    """Latencies (seconds) and counts gathered by the client threads."""

    def __init__(self):
        """Empty."""
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.actions = 0
        self.games = 0
        self.errors = Counter()

    def add(self, seconds: float, status: int, is_action: bool) -> None:
        """Record one request."""
        with self.lock:
            self.latencies.append(seconds)
            if status != 200 and status != 201:
                self.errors[status] += 1
            elif is_action:
                self.actions += 1


def timed(timings: Timings, port: int, method: str, path: str, body, cookie, is_action: bool):
    """A request whose latency goes into ``timings``."""
    started = time.perf_counter()
    status, payload, set_cookie = request(port, method, path, body, cookie)
    timings.add(time.perf_counter() - started, status, is_action)
    return status, payload, set_cookie


def play_game(port: int, date: str, ruleset: str, rng: random.Random, timings: Timings) -> None:
    """One new player plays one whole game: rolls one to three times a turn, scores the best box."""
    status, body, set_cookie = timed(timings, port, "POST", "/api/v1/games",
                                     {"ruleset": ruleset, "date": date}, None, False)
    if status not in (200, 201):
        return
    cookie = set_cookie.split(";", 1)[0]
    state = body["game"]
    while state["status"] == "playing":
        if state["dice"] is not None and (state["rolls_left"] == 0 or rng.random() < 0.4):
            box = max(state["allowed"], key=lambda b: (state["previews"][b], rng.random()))
            path, payload = "score", {"category": box, "roll": state["next_action"]}
        else:
            hold = [False] * 5
            if state["dice"] is not None:
                face = Counter(state["dice"]).most_common(1)[0][0]
                hold = [die == face for die in state["dice"]]
            path, payload = "roll", {"hold": hold, "roll": state["next_action"]}
        status, body, _ = timed(timings, port, "POST", f"/api/v1/games/{state['id']}/{path}",
                                payload, cookie, True)
        if status != 200:
            return
        state = body["game"]
    with timings.lock:
        timings.games += 1


def run_clients(clients: int, jobs: list, work) -> float:
    """Run ``work(job)`` for every job on ``clients`` threads; returns the wall time."""
    queue = list(reversed(jobs))
    lock = threading.Lock()

    def worker():
        """Take jobs until none is left."""
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop()
            work(job)

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile, in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def command_calls(client) -> Counter:
    """Redis calls per command so far (INFO commandstats)."""
    return Counter({name.removeprefix("cmdstat_"): stats["calls"]
                    for name, stats in client.info("commandstats").items()})


def monitored_commands(socket_path: Path, port: int, date: str) -> tuple[Counter, int]:
    """Play a few games under MONITOR: commands the service sent itself (not from Lua), actions."""
    seen: Counter = Counter()
    ready = threading.Event()
    stop = threading.Event()

    def watch():
        """Count MONITOR lines, telling a client's commands from a script's."""
        client = redis.Redis(unix_socket_path=str(socket_path))
        with client.monitor() as monitor:
            ready.set()
            for event in monitor.listen():
                if stop.is_set():
                    return
                command = event["command"].split(" ", 1)[0].lower()
                if command in ("info", "monitor"):
                    continue
                seen[("lua" if event.get("client_type") == "lua" else "client", command)] += 1

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    ready.wait(5)
    timings = Timings()
    for number in range(MONITOR_GAMES):
        play_game(port, date, RULESETS[number % 3], random.Random(number), timings)
    time.sleep(0.5)
    stop.set()
    redis.Redis(unix_socket_path=str(socket_path)).ping()  # wakes the watcher up
    watcher.join(5)
    return seen, timings.actions


# ---------------------------------------------------------------- the run


def bench_service(args, workdir: Path) -> dict:
    """Play the games against ``yacht-daily serve``; returns the figures."""
    port = free_port()
    env = {**os.environ, "YACHT_DAILY_DATA_DIR": str(workdir / "var"),
           "YACHT_DAILY_RATE_LIMITS": "off"}
    for name in ("REDIS_URL", "YACHT_DAILY_CLOCK_FILE"):
        env.pop(name, None)
    command = [sys.executable, "-c", "from app.cli import main; main()", "serve",
               "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
               "--threads", str(args.threads)]
    server = Server(command, port, env, workdir / "serve.log", ("GET", "/api/v1/rulesets"))
    try:
        date = dt.datetime.now(dt.UTC).date().isoformat()
        socket_path = workdir / "var" / "redis.sock"
        store = redis.Redis(unix_socket_path=str(socket_path), decode_responses=True)
        for ruleset in RULESETS:  # warm each worker's epoch check and day seed
            play_game(port, date, ruleset, random.Random(ruleset), Timings())
        before = command_calls(store)
        timings = Timings()
        jobs = [(RULESETS[n % 3], n) for n in range(args.games)]
        wall = run_clients(args.clients, jobs, lambda job: play_game(
            port, date, job[0], random.Random(job[1]), timings))
        delta = command_calls(store) - before
        delta.pop("info", None)
        monitor, monitored_actions = monitored_commands(socket_path, port, date)
        write_floor = fsynced_write_latencies(store)
    finally:
        server.stop()
    return {"wall": wall, "timings": timings, "commands": delta, "monitor": monitor,
            "monitored_actions": monitored_actions, "write_floor": write_floor}


def fsynced_write_latencies(store) -> list[float]:
    """One client's bare RPUSH round trips on the same Redis (AOF, fsync always): the floor
    under every action, which appends to its game's transcript."""
    latencies = []
    for _ in range(FLOOR_WRITES):
        started = time.perf_counter()
        store.rpush("bench:floor", "x" * 80)
        latencies.append(time.perf_counter() - started)
    store.delete("bench:floor")
    return latencies


def bench_bare(args, workdir: Path, requests: int) -> dict:
    """Send as many JSON POSTs to a bare Flask endpoint under the same gunicorn settings."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "--serve-bare", f"127.0.0.1:{port}",
               "--workers", str(args.workers), "--threads", str(args.threads)]
    server = Server(command, port, dict(os.environ), workdir / "bare.log",
                    ("POST", "/api/v1/echo", {"roll": 0}))
    timings = Timings()
    try:
        wall = run_clients(args.clients, list(range(requests)), lambda n: timed(
            timings, port, "POST", "/api/v1/echo", {"roll": n, "hold": [False] * 5}, None, True))
    finally:
        server.stop()
    return {"wall": wall, "timings": timings}


def report(args, service: dict, bare: dict) -> None:
    """Print the figures side by side."""
    timings, wall = service["timings"], service["wall"]
    actions = timings.actions
    print(f"yacht-daily bench: {args.games} games, {args.clients} clients, {args.workers} "
          f"workers x {args.threads} threads, embedded redis-server (AOF, fsync always), "
          f"{os.cpu_count()} CPUs shared by clients and servers")
    print(f"{'target':<24}{'requests':>9}{'games/s':>9}{'actions/s':>10}{'req/s':>8}"
          f"{'p50 ms':>8}{'p99 ms':>8}{'errors':>8}")
    requests = len(timings.latencies)
    print(f"{'yacht-daily serve':<24}{requests:>9}{timings.games / wall:>9.1f}"
          f"{actions / wall:>10.1f}{requests / wall:>8.1f}"
          f"{percentile(timings.latencies, 0.5):>8.2f}{percentile(timings.latencies, 0.99):>8.2f}"
          f"{sum(timings.errors.values()):>8}")
    b_timings, b_wall = bare["timings"], bare["wall"]
    b_requests = len(b_timings.latencies)
    print(f"{'bare Flask JSON POST':<24}{b_requests:>9}{'-':>9}{b_timings.actions / b_wall:>10.1f}"
          f"{b_requests / b_wall:>8.1f}{percentile(b_timings.latencies, 0.5):>8.2f}"
          f"{percentile(b_timings.latencies, 0.99):>8.2f}{sum(b_timings.errors.values()):>8}")
    commands = service["commands"]
    print(f"Redis commands per action (INFO commandstats, Lua's inner calls included): "
          f"{sum(commands.values()) / actions:.2f} — "
          + ", ".join(f"{name} {calls / actions:.2f}" for name, calls in commands.most_common()))
    floor = service["write_floor"]
    print(f"Floor: one bare Redis write (RPUSH, fsync always) from one client: p50 "
          f"{percentile(floor, 0.5):.2f} ms, p99 {percentile(floor, 0.99):.2f} ms")
    monitor, monitored = service["monitor"], service["monitored_actions"]
    sent = Counter({name: n for (origin, name), n in monitor.items() if origin == "client"})
    print(f"Commands the service sends per action (MONITOR, {MONITOR_GAMES} games, {monitored} "
          f"actions, game creation included): {sum(sent.values()) / monitored:.2f} — "
          + ", ".join(f"{name} {n / monitored:.2f}" for name, n in sent.most_common()))


def main() -> None:
    """Parse the options; run the benchmark, or serve the bare app when asked to."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--serve-bare", metavar="HOST:PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        GunicornServer(create_bare_app,
                       server_options(args.serve_bare, args.workers, args.threads)).run()
        return
    if not 1 <= args.games <= MAX_GAMES or not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--games 1..{MAX_GAMES}, --clients 1..{MAX_CLIENTS}")
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-", dir="/tmp"))
    try:
        service = bench_service(args, workdir)
        bare = bench_bare(args, workdir, len(service["timings"].latencies))
        report(args, service, bare)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
