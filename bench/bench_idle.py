"""What an idle server costs: the CPU of gunicorn's master and of each worker, and the Redis
commands and CPU their background threads cause, with no traffic at all.

Starts the service under deploy/gunicorn.conf.py (sync workers, as production runs them) on an
embedded redis-server of its own and a fresh data directory, waits until its workers have
loaded the strategy tables (``--tables``, built there first if missing) and are quiet, then
reads ``/proc`` over ``--seconds``: CPU seconds per second of the master and of each worker,
and of the Redis server, and the commands Redis ran per second. ``--baseline DIR`` runs the
service of another tree (say ``/work/main``: its code first on the server's ``PYTHONPATH``, run
by that tree's ``.venv`` when it has one, so with its own dependencies) on its own Redis beside
it, measured over the same seconds, so that the machine's noise hits both alike.

    .venv/bin/python bench/bench_idle.py --workers 1,2 --seconds 40 --baseline /work/main

Loopback only; at most 4 workers and 120 s a measure.
"""

import argparse
import datetime as dt
import shutil
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from bench_load import process_cpu_seconds, redis_cpu_seconds, start_gunicorn
from bench_overhead import add_tree_options, baseline_python, prepare_trees, wait_until_idle

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from app.ledger import secrets as keys  # noqa: E402
from app.ledger.days import earliest_today  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.platform.redis import connect  # noqa: E402

MAX_WORKERS = 4
MAX_SECONDS = 120.0
SERVICE = "service"
BASELINE = "baseline"


@dataclass(frozen=True)
class Reading:
    """One moment of a server: CPU seconds of its master and of each worker (by pid), and of
    its Redis, and the commands its Redis has run."""

    master: float
    workers: dict[int, float]
    redis_cpu: float
    redis_commands: int


@dataclass(frozen=True)
class Idle:
    """A server's idle cost per second of wall time, over one measure."""

    master_ms: float
    worker_ms: list[float]
    redis_ms: float
    redis_commands: float


def worker_pids(master: int) -> list[int]:
    """The pids of the processes whose parent is ``master``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == master:
                    pids.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return sorted(pids)


def read(master: int, redis_url: str) -> Reading:
    """The CPU and command counters of a server and its Redis now."""
    commands = connect(redis_url).info("stats")["total_commands_processed"]
    return Reading(process_cpu_seconds(master),
                   {pid: process_cpu_seconds(pid) for pid in worker_pids(master)},
                   redis_cpu_seconds(redis_url), commands)


def idle_cost(before: Reading, after: Reading, seconds: float) -> Idle:
    """Per second between two readings (a worker that was replaced in between is left out);
    the commands exclude the two reads' own INFO."""
    workers = [(after.workers[pid] - before.workers[pid]) * 1000 / seconds
               for pid in before.workers if pid in after.workers]
    return Idle((after.master - before.master) * 1000 / seconds, workers,
                (after.redis_cpu - before.redis_cpu) * 1000 / seconds,
                (after.redis_commands - before.redis_commands - 1) / seconds)


def measure(args, workdir: Path, workers: int) -> dict[str, Idle]:
    """Start each target's server on ``workers`` workers and read them over the same seconds."""
    targets = {SERVICE: ({}, sys.executable)}
    if args.baseline:
        targets[BASELINE] = ({"PYTHONPATH": str(args.baseline)}, baseline_python(args.baseline))
    with ExitStack() as stack:
        servers = {}
        for target, (extra, python) in targets.items():
            home = workdir / f"{target}-{workers}"
            data_dir = home / "var"
            keys.initialise(data_dir, earliest_today(dt.datetime.now(dt.UTC)), 30)
            redis_server = stack.enter_context(EmbeddedRedis(home / "redis"))
            env = {"REDIS_URL": redis_server.url, "YACHT_DAILY_DATA_DIR": str(data_dir),
                   "YACHT_DAILY_STRATEGY_DIR": str(args.tables), **extra}
            server = start_gunicorn(home, workers, "sync", 1, env, python=python)
            stack.callback(server.stop)
            servers[target] = (server.process.pid, redis_server.url)
        for master, _ in servers.values():
            wait_until_idle(master)
        before = {target: read(*server) for target, server in servers.items()}
        start = time.monotonic()
        time.sleep(args.seconds)
        elapsed = time.monotonic() - start
        after = {target: read(*server) for target, server in servers.items()}
    return {target: idle_cost(before[target], after[target], elapsed) for target in servers}


def print_table(args, results: dict[int, dict[str, Idle]]) -> None:
    """The measured idle costs as a Markdown table."""
    print(f"idle, {args.seconds:g} s per measure")
    print("| workers | target | master CPU ms/s | each worker CPU ms/s | Redis CPU ms/s "
          "| Redis commands/s |")
    print("|--:|---|--:|--:|--:|--:|")
    for workers, by_target in results.items():
        for target, idle in by_target.items():
            each = " / ".join(f"{ms:.2f}" for ms in idle.worker_ms)
            print(f"| {workers} | {target} | {idle.master_ms:.2f} | {each} | "
                  f"{idle.redis_ms:.2f} | {idle.redis_commands:.1f} |")


def main() -> None:
    """Parse the options and measure every worker count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=40.0, help="seconds per measure")
    add_tree_options(parser)
    args = parser.parse_args()
    counts = [int(count) for count in args.workers.split(",")]
    if not (all(1 <= count <= MAX_WORKERS for count in counts)
            and 0 < args.seconds <= MAX_SECONDS):
        parser.error(f"--workers 1..{MAX_WORKERS}, --seconds up to {MAX_SECONDS:g}")
    prepare_trees(args)
    workdir = Path(tempfile.mkdtemp(prefix="yd-idle-", dir="/tmp"))
    try:
        results = {workers: measure(args, workdir, workers) for workers in counts}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print_table(args, results)


if __name__ == "__main__":
    main()
