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
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import redis
from http_load import (
    BARE_KIND,
    BARE_PATH,
    Measures,
    ServerProcess,
    bare_app,
    bare_request,
    free_port,
    play_game,
    quantile_ms,
    run_players,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.cli.server import WORKER_CLASSES, GunicornServer, server_options  # noqa: E402

MAX_GAMES = 5000
MAX_CLIENTS = 64
MONITOR_GAMES = 6
FLOOR_WRITES = 300
RULESETS = ("yacht", "yacht-bonus", "yahtzee")


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
    measures = Measures()
    for number in range(MONITOR_GAMES):
        play_game(port, date, RULESETS[number % 3], random.Random(number), measures)
    time.sleep(0.5)
    stop.set()
    redis.Redis(unix_socket_path=str(socket_path)).ping()  # wakes the watcher up
    watcher.join(5)
    return seen, measures.actions


# ---------------------------------------------------------------- the run


def bench_service(args, workdir: Path) -> dict:
    """Play the games against ``yacht-daily serve``; returns the figures."""
    port = free_port()
    env = {**os.environ, "YACHT_DAILY_DATA_DIR": str(workdir / "var"),
           "YACHT_DAILY_RATE_LIMITS": "off"}
    for name in ("REDIS_URL", "YACHT_DAILY_CLOCK_FILE"):
        env.pop(name, None)
    command = [sys.executable, "-c", "from app.cli.main import main; main()", "serve",
               "--bind", f"127.0.0.1:{port}", "--workers", str(args.workers),
               "--worker-class", args.worker_class, "--threads", str(args.threads)]
    server = ServerProcess(command, port, env, workdir / "serve.log",
                           ("GET", "/api/v1/rulesets"))
    try:
        date = dt.datetime.now(dt.UTC).date().isoformat()
        socket_path = workdir / "var" / "redis.sock"
        store = redis.Redis(unix_socket_path=str(socket_path), decode_responses=True)
        for ruleset in RULESETS:  # warm each worker's epoch check and day seed
            play_game(port, date, ruleset, random.Random(ruleset), Measures())
        before = command_calls(store)
        measures = Measures()
        jobs = [(RULESETS[n % 3], n) for n in range(args.games)]
        wall = run_players(args.clients, jobs, lambda job: play_game(
            port, date, job[0], random.Random(job[1]), measures))
        delta = command_calls(store) - before
        delta.pop("info", None)
        monitor, monitored_actions = monitored_commands(socket_path, port, date)
        write_floor = fsynced_write_latencies(store)
    finally:
        server.stop()
    return {"wall": wall, "measures": measures, "commands": delta, "monitor": monitor,
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
               "--workers", str(args.workers), "--worker-class", args.worker_class,
               "--threads", str(args.threads)]
    server = ServerProcess(command, port, dict(os.environ), workdir / "bare.log",
                           ("POST", BARE_PATH, bare_request(0)))
    measures = Measures()
    try:
        wall = run_players(args.clients, list(range(requests)), lambda n: measures.timed(
            BARE_KIND, port, "POST", BARE_PATH, bare_request(n)))
    finally:
        server.stop()
    return {"wall": wall, "measures": measures}


def report(args, service: dict, bare: dict) -> None:
    """Print the figures side by side."""
    measures, wall = service["measures"], service["wall"]
    actions = measures.actions
    print(f"yacht-daily bench: {args.games} games, {args.clients} clients, {args.workers} "
          f"{args.worker_class} workers x {args.threads} threads, embedded redis-server "
          f"(AOF, fsync always), "
          f"{os.cpu_count()} CPUs shared by clients and servers")
    print(f"{'target':<24}{'requests':>9}{'games/s':>9}{'actions/s':>10}{'req/s':>8}"
          f"{'p50 ms':>8}{'p99 ms':>8}{'errors':>8}")
    requests, latencies = measures.requests, measures.every_latency()
    print(f"{'yacht-daily serve':<24}{requests:>9}{measures.games / wall:>9.1f}"
          f"{actions / wall:>10.1f}{requests / wall:>8.1f}"
          f"{quantile_ms(latencies, 0.5):>8.2f}{quantile_ms(latencies, 0.99):>8.2f}"
          f"{sum(measures.errors.values()):>8}")
    bare_measures, bare_wall = bare["measures"], bare["wall"]
    bare_requests, bare_latencies = bare_measures.requests, bare_measures.every_latency()
    print(f"{'bare Flask JSON POST':<24}{bare_requests:>9}{'-':>9}"
          f"{bare_requests / bare_wall:>10.1f}{bare_requests / bare_wall:>8.1f}"
          f"{quantile_ms(bare_latencies, 0.5):>8.2f}{quantile_ms(bare_latencies, 0.99):>8.2f}"
          f"{sum(bare_measures.errors.values()):>8}")
    commands = service["commands"]
    print(f"Redis commands per action (INFO commandstats, Lua's inner calls included): "
          f"{sum(commands.values()) / actions:.2f} — "
          + ", ".join(f"{name} {calls / actions:.2f}" for name, calls in commands.most_common()))
    floor = service["write_floor"]
    print(f"Floor: one bare Redis write (RPUSH, fsync always) from one client: p50 "
          f"{quantile_ms(floor, 0.5):.2f} ms, p99 {quantile_ms(floor, 0.99):.2f} ms")
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
    parser.add_argument("--worker-class", default="gevent", choices=WORKER_CLASSES)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--serve-bare", metavar="HOST:PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_bare:
        GunicornServer(bare_app,
                       server_options(args.serve_bare, args.workers, args.threads,
                                      args.worker_class)).run()
        return
    if not 1 <= args.games <= MAX_GAMES or not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--games 1..{MAX_GAMES}, --clients 1..{MAX_CLIENTS}")
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-", dir="/tmp"))
    try:
        service = bench_service(args, workdir)
        bare = bench_bare(args, workdir, service["measures"].requests)
        report(args, service, bare)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
