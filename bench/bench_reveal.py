"""Reveal benchmark: time and peak memory of revealing one big sheet, then serving it.

    .venv/bin/python bench/bench_reveal.py                        # 20,000 and 100,000 games
    .venv/bin/python bench/bench_reveal.py --games 20000,100000,200000

For each size it starts a fresh embedded redis-server (the service's own command line: unix
socket, ``appendonly yes``, ``appendfsync always``), makes a data directory whose epoch starts
on the play date, and writes that many finished games of one sheet, plus 5 % abandoned ones,
straight into Redis in the store's format (bench/stored_day.py; with ``appendfsync no`` while
writing, to spare the disk, and ``always`` again before the reveal). Then it runs the real
``yacht-daily reveal`` command in a child process with the clock past the reveal time, and
reports its wall time and peak resident memory (the child's own ``VmHWM`` as it exits: a
forked child's ``ru_maxrss`` would count the parent's memory at the fork), the Redis memory
before and after (``used_memory``) and the redis-server's peak resident memory (``VmHWM``).
Last, through the app (Flask test client, same process as the writer): one day page of 1,000
games, one inclusion proof and one ``POST /verify``, each timed once.

The reveal's time should grow linearly with the games and its memory stay flat; wall times
move with the machine's load, so compare the rows of one run.
"""

import argparse
import datetime as dt
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.ledger import secrets as keys  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.services import EXTENSION  # noqa: E402
from bench.stored_day import store_day  # noqa: E402

PLAY_DATE = "2026-11-27"
PLAY_TIME = f"{PLAY_DATE}T12:00:00Z"
AFTER_REVEAL = "2026-11-28T14:00:00Z"
RULESET = "yacht"
ABANDONED_SHARE = 0.05
PAGE = 1000


# The command, reporting its own peak RSS on exit (click ends it with sys.exit).
REVEAL_COMMAND = """
import atexit, sys
from pathlib import Path
from app.cli.main import main

def report_peak():
    hwm = next(line for line in Path("/proc/self/status").read_text().splitlines()
               if line.startswith("VmHWM:"))
    sys.stderr.write("peak " + hwm.split()[1] + "\\n")

atexit.register(report_peak)
main()
"""


def peak_rss_kib(pid: int) -> int:
    """A live process's peak resident memory (``VmHWM``), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmHWM for process {pid}")


def run_reveal(data_dir: Path, redis_url: str,
               clock_file: Path) -> tuple[float, float, int, str]:
    """Run ``yacht-daily reveal`` in a child; (wall seconds, its CPU seconds, its peak RSS in
    KiB, what it printed)."""
    env = {**os.environ, "REDIS_URL": redis_url, "YACHT_DAILY_CLOCK_FILE": str(clock_file),
           "YACHT_DAILY_DATA_DIR": str(data_dir)}
    started = time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", REVEAL_COMMAND, "reveal"], env=env,
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    if done.returncode != 0:
        raise RuntimeError(f"yacht-daily reveal failed:\n{done.stdout}{done.stderr}")
    peak = int(done.stderr.strip().splitlines()[-1].split()[1])
    return elapsed, cpu, peak, done.stdout.strip()


def timed(call) -> tuple[float, object]:
    """(milliseconds, result) of one call."""
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def measure(finished: int) -> dict:
    """Write, reveal and serve one sheet of ``finished`` games; the row of the table."""
    abandoned = int(finished * ABANDONED_SHARE)
    with tempfile.TemporaryDirectory(prefix="yd-bench-reveal-") as work:
        work = Path(work)
        data_dir = work / "var"
        keys.initialise(data_dir, dt.date.fromisoformat(PLAY_DATE), 30)
        clock_file = work / "clock"
        clock_file.write_text(PLAY_TIME)
        os.environ["YACHT_DAILY_CLOCK_FILE"] = str(clock_file)
        with EmbeddedRedis(data_dir) as redis_server:
            app = create_app({"REDIS_URL": redis_server.url, "DATA_DIR": str(data_dir)})
            services = app.extensions[EXTENSION]
            services.prepare()
            client = services.game_store.client
            client.config_set("appendfsync", "no")
            write_started = time.perf_counter()
            games = store_day(services, PLAY_DATE, RULESET, finished, abandoned)
            write_seconds = time.perf_counter() - write_started
            client.config_set("appendfsync", "always")
            redis_before = client.info("memory")["used_memory"]
            clock_file.write_text(AFTER_REVEAL)
            seconds, cpu, reveal_rss, said = run_reveal(data_dir, redis_server.url,
                                                        clock_file)
            redis_after = client.info("memory")["used_memory"]
            redis_peak = peak_rss_kib(client.info("server")["process_id"])

            chosen = games[finished // 2]
            http = app.test_client()
            page_ms, page = timed(lambda: http.get(
                f"/api/v1/days/{PLAY_DATE}/{RULESET}/games?limit={PAGE}"))
            proof_ms, proof = timed(lambda: http.get(f"/api/v1/games/{chosen.id}/proof"))
            verify_ms, verdict = timed(lambda: http.post("/api/v1/verify",
                                                         json={"game": chosen.id}))
            assert page.status_code == 200 and len(page.get_json()["games"]) == PAGE
            assert proof.status_code == 200
            assert verdict.status_code == 200 and verdict.get_json()["ok"] is True
            return {"games": finished, "abandoned": abandoned, "write_s": write_seconds,
                    "reveal_s": seconds, "reveal_cpu_s": cpu, "reveal_rss_mib": reveal_rss / 1024,
                    "redis_before_mib": redis_before / 2**20,
                    "redis_after_mib": redis_after / 2**20, "redis_peak_mib": redis_peak / 1024,
                    "page_ms": page_ms, "proof_ms": proof_ms, "verify_ms": verify_ms,
                    "said": said}


def main() -> None:
    """Measure each size and print the Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="20000,100000",
                        help="comma-separated finished-game counts (default 20000,100000)")
    sizes = [int(size) for size in parser.parse_args().games.split(",")]
    print("| finished games (+ 5 % abandoned) | reveal s | reveal CPU s | CPU µs per game "
          "| reveal peak RSS MiB | Redis MiB before → after | redis-server peak RSS MiB "
          "| page of 1,000 ms | proof ms | verify ms |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for size in sizes:
        row = measure(size)
        print(f"| {row['games']:,} (+ {row['abandoned']:,}) | {row['reveal_s']:.1f} "
              f"| {row['reveal_cpu_s']:.1f} | {row['reveal_cpu_s'] / row['games'] * 1e6:.0f} "
              f"| {row['reveal_rss_mib']:.0f} "
              f"| {row['redis_before_mib']:.0f} → {row['redis_after_mib']:.0f} "
              f"| {row['redis_peak_mib']:.0f} | {row['page_ms']:.0f} | {row['proof_ms']:.1f} "
              f"| {row['verify_ms']:.1f} |", flush=True)
        writer_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"<!-- wrote the games in {row['write_s']:.1f} s; reveal said: {row['said']}; "
              f"writer's peak RSS {writer_rss:.0f} MiB -->", flush=True)


if __name__ == "__main__":
    main()
