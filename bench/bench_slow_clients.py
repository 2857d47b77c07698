"""Benchmark: how ``yacht-daily serve`` answers while slow clients hold connections open.

For each worker class, starts ``yacht-daily serve`` (two workers, embedded redis-server, a fresh
data directory, rate limits off) on a free loopback port, measures ``--samples`` rounds of
GET /healthz, POST /games (a new player) and its first roll, then opens ``--slow`` connections
that each send the start of a request and then one byte every 0.2 s, never finishing it (half
stop in their headers, half in a JSON body), and measures the same rounds again while they are
open. A request unanswered within 5 s counts as stalled; a row stops after 3 stalls.

    .venv/bin/python bench/bench_slow_clients.py --worker-classes sync,gevent --slow 50

Loopback only and bounded: at most 200 slow connections and 100 samples.
"""

import argparse
import contextlib
import datetime as dt
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

from http_load import ServerProcess, free_port, quantile_ms, send

ROOT = Path(__file__).resolve().parent.parent
MAX_SLOW = 200
MAX_SAMPLES = 100
STALL_TIMEOUT = 5.0
MAX_STALLS = 3
DRIP_PAUSE = 0.2
HEADERS_START = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
BODY_START = (b"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n{\"ruleset\": ")
KINDS = ("healthz", "create", "roll")


def open_slow(port: int, count: int) -> tuple[list[socket.socket], threading.Event]:
    """``count`` connections with unfinished requests, and the event that stops their drip."""
    connections = []
    for number in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=STALL_TIMEOUT)
        connection.sendall(HEADERS_START if number % 2 else BODY_START)
        connections.append(connection)
    stop = threading.Event()

    def drip():
        """One more byte on every connection, until stopped."""
        while not stop.wait(DRIP_PAUSE):
            for connection in connections:
                with contextlib.suppress(OSError):
                    connection.send(b"a")

    threading.Thread(target=drip, daemon=True).start()
    return connections, stop


def timed(latencies: dict, kind: str, port: int, *request) -> tuple:
    """Send one request, recording its latency (None when it stalled); its answer or None."""
    started = time.monotonic()
    try:
        answer = send(port, *request)
    except OSError:
        latencies[kind].append(None)
        return None
    latencies[kind].append(time.monotonic() - started)
    return answer


def measure_rounds(port: int, samples: int, date: str) -> dict:
    """``samples`` rounds of /healthz, a new game and its first roll; latencies by kind."""
    latencies = {kind: [] for kind in KINDS}
    for _ in range(samples):
        if sum(values.count(None) for values in latencies.values()) >= MAX_STALLS:
            break
        timed(latencies, "healthz", port, "GET", "/healthz")
        created = timed(latencies, "create", port, "POST", "/api/v1/games",
                        {"ruleset": "yahtzee", "date": date})
        if created is None or created[0] != 201:
            latencies["roll"].append(None)
            continue
        cookie = created[2].split(";", 1)[0]
        timed(latencies, "roll", port, "POST", f"/api/v1/games/{created[1]['game']['id']}/roll",
              {"roll": 0}, cookie)
    return latencies


def summary(values: list) -> str:
    """p50 / max in ms of the answered requests; how many were sent, stalled, over 1 s."""
    answered = [value for value in values if value is not None]
    counts = (f"{len(values)} / {len(values) - len(answered)} / "
              f"{sum(1 for value in answered if value > 1.0)}")
    if not answered:
        return f"- / - | {counts}"
    return f"{quantile_ms(answered, 0.5):.1f} / {max(answered) * 1000:.1f} | {counts}"


def bench_class(worker_class: str, args, workdir: Path) -> list[str]:
    """Both measurements for one worker class; the table rows."""
    port = free_port()
    env = {**os.environ, "YACHT_DAILY_DATA_DIR": str(workdir / worker_class),
           "YACHT_DAILY_RATE_LIMITS": "off"}
    for name in ("REDIS_URL", "YACHT_DAILY_CLOCK_FILE", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(name, None)
    command = [sys.executable, "-c", "from app.cli.main import main; main()", "serve", "--bind",
               f"127.0.0.1:{port}", "--workers", "2", "--worker-class", worker_class]
    server = ServerProcess(command, port, env, workdir / f"{worker_class}.log",
                           ("GET", "/readyz", None), cwd=ROOT)
    date = dt.datetime.now(dt.UTC).date().isoformat()
    rows = []
    try:
        measure_rounds(port, 2, date)  # warm both workers up
        for slow_count in (0, args.slow):
            connections, stop = open_slow(port, slow_count)
            try:
                latencies = measure_rounds(port, args.samples, date)
            finally:
                stop.set()
                for connection in connections:
                    connection.close()
            rows.append(f"| {worker_class} | {slow_count} | "
                        + " | ".join(summary(latencies[kind]) for kind in KINDS) + " |")
    finally:
        server.stop()
    return rows


def main() -> None:
    """Parse the options, run each worker class in turn, print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worker-classes", default="sync,gevent")
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--samples", type=int, default=20)
    args = parser.parse_args()
    if not 1 <= args.slow <= MAX_SLOW or not 1 <= args.samples <= MAX_SAMPLES:
        parser.error(f"--slow 1..{MAX_SLOW}, --samples 1..{MAX_SAMPLES}")
    workdir = Path(tempfile.mkdtemp(prefix="yd-slow-", dir="/tmp"))
    try:
        rows = []
        for worker_class in args.worker_classes.split(","):
            rows += bench_class(worker_class, args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{args.samples} rounds per row, 2 workers; latencies in ms as p50 / max of the "
          f"answered requests; sent / stalled (no answer within {STALL_TIMEOUT:.0f} s) / over 1 s")
    print("| worker class | slow connections | healthz | sent / stalled / > 1 s | create | "
          "sent / stalled / > 1 s | roll | sent / stalled / > 1 s |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
