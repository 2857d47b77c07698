"""Load benchmark of the deployed shape: concurrent players play whole games against gunicorn
started with deploy/gunicorn.conf.py, on 1, 2 and 4 workers over one redis-server (unix
socket, AOF with fsync always, as ``yacht-daily serve`` runs it) and on a 3-master Redis
Cluster (loopback TCP, AOF with fsync always on every master), each beside a bare Flask JSON
endpoint under the same gunicorn settings. ``--compare-fsync`` adds a row on a redis-server
with ``appendfsync everysec``: what the durability of every acknowledged action costs.

Prints a Markdown table: games/s, actions/s, p50/p99/p99.9 latency per action (create, roll,
score), the error count, and the CPU time the servers spent per request (gunicorn's processes,
and Redis's): a figure that holds even when other jobs share the machine, unlike the rates.
Every player is a new anonymous player (its own cookie); rate limits are off because every
player comes from 127.0.0.1, unless ``--rate-limits`` turns them on with limits too high to
refuse anything (to measure what counting costs).

    .venv/bin/python bench/bench_load.py --players 16 --games 150 --workers 1,2,4 --cluster \
        --compare-fsync

Loopback only and bounded: at most 64 players, 2000 games per row, 10 s per request.
"""

import argparse
import datetime as dt
import os
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from http_load import (
    ACTION_KINDS,
    BARE_KIND,
    BARE_PATH,
    Measures,
    ServerProcess,
    bare_request,
    free_port,
    play_game,
    quantile_ms,
    run_players,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from processes import free_port_run  # noqa: E402
from redis_cluster import LocalRedisCluster  # noqa: E402

from app.ledger import secrets as keys  # noqa: E402
from app.ledger.days import earliest_today  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
MAX_PLAYERS = 64
MAX_GAMES = 2000
RULESETS = ("yacht", "yacht-bonus", "yahtzee")
KINDS = ("create", *ACTION_KINDS)
UNREACHABLE_LIMIT = "1000000/minute"


# ---------------------------------------------------------------- servers


def start_gunicorn(workdir: Path, workers: int, worker_class: str, threads: int, env: dict,
                   bare: bool = False, rate_limits: bool = False,
                   reference: str = "bare_app", python: str = sys.executable,
                   variant: str | None = None, worker_ports: bool = False) -> ServerProcess:
    """gunicorn -c deploy/gunicorn.conf.py on a loopback port, run by ``python``, serving the
    service (ready once /readyz answers), or ``variant``, an http_load factory of the service
    altered (``hookless_app``), or, if ``bare``, a reference endpoint of http_load
    (``reference``: the bare endpoint, or ``floor_app``: the bare one plus one EVALSHA).
    With ``worker_ports``, each worker listens on a loopback port of its own
    (``YACHT_DAILY_WORKER_PORTS``), every one ready; the server's ``ports`` lists them (one
    shared port otherwise)."""
    port = free_port_run(workers) if worker_ports else free_port()
    ports = list(range(port, port + workers)) if worker_ports else [port]
    command = [python, "-m", "gunicorn", "-c", str(GUNICORN_CONF)]
    if bare or variant:
        command += ["--pythonpath", str(Path(__file__).resolve().parent),
                    f"http_load:{variant or reference}()"]
    environment = {**os.environ, **env, "YACHT_DAILY_BIND": f"127.0.0.1:{port}",
                   "WEB_CONCURRENCY": str(workers), "YACHT_DAILY_WORKER_CLASS": worker_class,
                   "YACHT_DAILY_THREADS": str(threads), "YACHT_DAILY_RATE_LIMITS": "off"}
    if rate_limits:
        environment.update({f"YACHT_DAILY_RATE_LIMIT_{kind}": UNREACHABLE_LIMIT
                            for kind in ("CREATE", "ACTIONS", "VERIFY")},
                           YACHT_DAILY_RATE_LIMITS="on")
    environment.pop("PROMETHEUS_MULTIPROC_DIR", None)
    environment["YACHT_DAILY_WORKER_PORTS"] = str(port) if worker_ports else ""
    probe = ("POST", BARE_PATH, bare_request(0)) if bare else ("GET", "/readyz", None)
    return ServerProcess(command, port, environment, workdir / f"gunicorn-{port}.log", probe,
                         cwd=workdir, ports=ports)


class RelaxedRedis(EmbeddedRedis):
    """The embedded Redis's command line with ``appendfsync everysec``: at most a second of
    acknowledged writes lost in a power cut (a killed process loses none)."""

    def command_line(self) -> list[str]:
        """The embedded server's arguments; the later ``--appendfsync`` wins."""
        return [*super().command_line(), "--appendfsync", "everysec"]


def process_cpu_seconds(pid: int, reaped_children: bool = False) -> float:
    """CPU time (user + system) of a process, with its reaped children's if asked."""
    return sum(process_cpu_split(pid, reaped_children))


def process_cpu_split(pid: int, reaped_children: bool = False) -> tuple[float, float]:
    """(user, system) CPU seconds of a process, with its reaped children's if asked."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    user, system = int(fields[11]), int(fields[12])
    if reaped_children:
        user, system = user + int(fields[13]), system + int(fields[14])
    ticks = os.sysconf("SC_CLK_TCK")
    return user / ticks, system / ticks


def gunicorn_cpu_seconds(master: int) -> float:
    """CPU time of a gunicorn master and of every worker it ever had."""
    return sum(gunicorn_cpu_split(master))


def gunicorn_cpu_split(master: int) -> tuple[float, float]:
    """(user, system) CPU seconds of a gunicorn master and of every worker it ever had."""
    user, system = process_cpu_split(master, reaped_children=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    worker_user, worker_system = process_cpu_split(int(entry.name))
                    user, system = user + worker_user, system + worker_system
            except (OSError, IndexError):
                continue
    return user, system


def redis_cpu_seconds(redis_url: str) -> float:
    """CPU time of the Redis server(s) behind ``redis_url`` (every node of a cluster)."""
    from app.platform.redis import connect

    client = connect(redis_url)
    info = client.info("server")
    if "process_id" in info:
        return process_cpu_seconds(info["process_id"])
    return sum(process_cpu_seconds(node["process_id"]) for node in info.values())


# ---------------------------------------------------------------- one row


@dataclass
class Row:
    """One measured configuration."""

    target: str
    workers: int
    wall: float
    measures: Measures
    app_cpu: float
    redis_cpu: float | None = None

    @property
    def requests(self) -> int:
        """Requests answered."""
        return self.measures.requests


def bench_service(args, workdir: Path, data_dir: Path, redis_url: str, label: str,
                  workers: int) -> Row:
    """Play ``--games`` whole games with ``--players`` players against one gunicorn."""
    env = {"REDIS_URL": redis_url, "YACHT_DAILY_DATA_DIR": str(data_dir)}
    server = start_gunicorn(workdir, workers, args.worker_class, args.threads, env,
                            rate_limits=args.rate_limits)
    try:
        date = dt.datetime.now(dt.UTC).date().isoformat()
        warm = Measures()
        run_players(workers * 2, list(range(workers * 2)), lambda n: play_game(
            server.port, date, RULESETS[n % 3], random.Random(-n - 1), warm))
        measures = Measures()
        jobs = [(RULESETS[n % 3], n) for n in range(args.games)]
        app_cpu, redis_cpu = gunicorn_cpu_seconds(server.process.pid), redis_cpu_seconds(redis_url)
        wall = run_players(args.players, jobs, lambda job: play_game(
            server.port, date, job[0], random.Random(job[1]), measures))
        app_cpu = gunicorn_cpu_seconds(server.process.pid) - app_cpu
        redis_cpu = redis_cpu_seconds(redis_url) - redis_cpu
    finally:
        server.stop()
    return Row(label, workers, wall, measures, app_cpu, redis_cpu)


def bench_bare(args, workdir: Path, workers: int, requests: int) -> Row:
    """As many JSON POSTs to the bare endpoint, with as many players and the same settings."""
    server = start_gunicorn(workdir, workers, args.worker_class, args.threads, {}, bare=True)
    measures = Measures()
    try:
        app_cpu = gunicorn_cpu_seconds(server.process.pid)
        wall = run_players(args.players, list(range(requests)), lambda n: measures.timed(
            BARE_KIND, server.port, "POST", BARE_PATH, bare_request(n)))
        app_cpu = gunicorn_cpu_seconds(server.process.pid) - app_cpu
    finally:
        server.stop()
    return Row("bare Flask JSON POST", workers, wall, measures, app_cpu)


# ---------------------------------------------------------------- report


def latency_cell(values: list[float]) -> str:
    """``p50 / p99 / p99.9`` in milliseconds, or a dash without a value."""
    if not values:
        return "-"
    return " / ".join(f"{quantile_ms(values, q):.1f}" for q in (0.5, 0.99, 0.999))


def print_table(args, rows: list[Row]) -> None:
    """The rows as one Markdown table."""
    print(f"{args.players} players, {args.games} games per row, worker class "
          f"{args.worker_class} x {args.threads} thread(s), rate limits "
          f"{'counted' if args.rate_limits else 'off'}, {os.cpu_count()} CPUs shared by "
          f"players, gunicorn and Redis; latencies in ms as p50 / p99 / p99.9")
    print()
    print("| target | workers | games/s | actions/s | req/s | create | roll | score | errors "
          "| CPU ms/req gunicorn + redis |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for row in rows:
        latencies = row.measures.latencies
        actions = row.measures.actions
        is_bare = BARE_KIND in latencies
        games = "-" if is_bare else f"{row.measures.games / row.wall:.1f}"
        action_rate = "-" if is_bare else f"{actions / row.wall:.0f}"
        cells = ([latency_cell(latencies[BARE_KIND]), "-", "-"] if is_bare
                 else [latency_cell(latencies[kind]) for kind in KINDS])
        errors = sum(row.measures.errors.values())
        cpu = f"{1000 * row.app_cpu / row.requests:.2f}"
        if row.redis_cpu is not None:
            cpu += f" + {1000 * row.redis_cpu / row.requests:.2f}"
        print(f"| {row.target} | {row.workers} | {games} | {action_rate} | "
              f"{row.requests / row.wall:.0f} | {' | '.join(cells)} | {errors} | {cpu} |")


def main() -> None:
    """Parse the options and run every row."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--workers", default="1,2,4", help="worker counts, comma-separated")
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread", "gevent"])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cluster", action="store_true",
                        help="add a row on a 3-master Redis Cluster (largest worker count)")
    parser.add_argument("--rate-limits", action="store_true",
                        help="count requests against (unreachable) rate limits in Redis")
    parser.add_argument("--compare-fsync", action="store_true",
                        help="add a row on appendfsync everysec (largest worker count)")
    args = parser.parse_args()
    worker_counts = [int(count) for count in args.workers.split(",")]
    if not 1 <= args.players <= MAX_PLAYERS or not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--players 1..{MAX_PLAYERS}, --games 1..{MAX_GAMES}")

    workdir = Path(tempfile.mkdtemp(prefix="yd-load-", dir="/tmp"))
    rows = []
    try:
        data_dir = workdir / "var"
        keys.initialise(data_dir, earliest_today(dt.datetime.now(dt.UTC)), 30)
        with EmbeddedRedis(workdir / "redis") as redis_server:
            for workers in worker_counts:
                service = bench_service(args, workdir, data_dir, redis_server.url,
                                        "redis-server, AOF fsync always", workers)
                rows += [service, bench_bare(args, workdir, workers, service.requests)]
        workers = max(worker_counts)
        if args.compare_fsync:
            with RelaxedRedis(workdir / "relaxed") as relaxed:
                rows.append(bench_service(args, workdir, data_dir, relaxed.url,
                                          "redis-server, AOF fsync everysec", workers))
        if args.cluster:
            with LocalRedisCluster(workdir / "cluster", durable=True) as cluster:
                rows.append(bench_service(args, workdir, data_dir, cluster.url,
                                          "Redis Cluster, 3 masters, fsync always", workers))
        print_table(args, rows)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
