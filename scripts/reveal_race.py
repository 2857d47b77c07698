"""The README's reveal recipe, run again and again on a busy machine, counting each log's close
checkpoints: a log must end with exactly one, last, its chain of ``prev`` hashes unbroken.

Each run starts a live ``yacht-daily serve`` (2 workers, a fresh data directory, the day's log
on) on a test clock file at noon UTC today, plays one game of every daily sheet through the
HTTP API, keeps every core busy with a CPU-burning process, moves the clock past the reveal
(tomorrow 13:05Z), waits for the reveal and for the workers' passes to settle, then reads
every listed log (``GET /api/v1/logs``: today's and the recent dates the server closed) and
counts its close checkpoints. A summary follows; the exit status is 1 if any log went wrong.

    .venv/bin/python scripts/reveal_race.py --runs 30

The strategy tables are built once into ``--tables`` (kept across runs and reruns).
"""

import argparse
import base64
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from processes import ServerProcess, free_port  # noqa: E402

from fairness import RULESETS  # noqa: E402
from strategy import load_or_build  # noqa: E402
from tests.app.playkit import play_to_end, start  # noqa: E402

SERVE = [sys.executable, "-c", "from app.cli.main import main; main()", "serve"]
BURN = [sys.executable, "-c", "while True: pass"]
REVEAL_TIMEOUT = 180.0
SETTLE_SECONDS = 3.0  # after the reveal: the other worker's pass may still be closing
DAILY_SHEETS = ("yacht", "yacht-bonus", "yahtzee")


class HttpPlayer:
    """One player over HTTP, keeping its cookie (the ``request`` shape playkit's ``call``
    takes: (status, headers, decoded JSON))."""

    def __init__(self, base_url: str):
        """Bind to the server; no cookie yet."""
        self.base_url = base_url
        self.cookie: str | None = None

    def request(self, method: str, path: str, body=None, **_):
        """Send a JSON request."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, answer, header = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, answer, header = error.code, error.read(), error.headers
        cookie = header.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return status, header, json.loads(answer) if answer else None


class Server(ServerProcess):
    """``yacht-daily serve`` with 2 workers on a test clock file, in ``workdir``."""

    def __init__(self, workdir: Path, clock_file: Path, tables: Path):
        """Start it and wait until it answers."""
        self.port = free_port()
        self.log_file = workdir / "server.log"
        env = {**os.environ, "YACHT_DAILY_CLOCK_FILE": str(clock_file),
               "YACHT_DAILY_DATA_DIR": str(workdir / "var"), "YACHT_DAILY_DAY_FORMAT": "2",
               "YACHT_DAILY_STRATEGY_DIR": str(tables), "YACHT_DAILY_RATE_LIMITS": "off",
               "PYTHONUNBUFFERED": "1"}
        for name in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR"):
            env.pop(name, None)
        self.launch([*SERVE, "--bind", f"127.0.0.1:{self.port}", "--workers", "2"], env,
                    "/api/v1/rulesets", cwd=workdir)


@dataclass
class LogCount:
    """One log after a run: its checkpoints, how many close it, whether the last does and
    whether each one's ``prev`` is the body hash of the one before."""

    date: str
    sheet: str
    checkpoints: int
    closes: int
    last_closes: bool
    chained: bool

    @property
    def ok(self) -> bool:
        """Exactly one close, last, on an unbroken chain."""
        return self.closes == 1 and self.last_closes and self.chained


@dataclass
class Run:
    """What one run found."""

    number: int
    seconds: float
    logs: list[LogCount] = field(default_factory=list)
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Every log right and nothing failed."""
        return self.error is None and bool(self.logs) and all(log.ok for log in self.logs)


def body_of(note: str) -> str:
    """A signed note's checkpoint body (the text before its last empty line)."""
    return note[:note.rindex("\n\n") + 1]


def count_log(player: HttpPlayer, date: str, sheet: str) -> LogCount:
    """Read a published log and count its close checkpoints."""
    status, _, published = player.request("GET", f"/api/v1/logs/{date}/{sheet}")
    if status != 200:
        raise RuntimeError(f"GET log {date} {sheet}: {status} {published}")
    bodies = [body_of(item["note"]) for item in published["checkpoints"]]
    closing = ["\nclose " in body for body in bodies]
    previous, chained = bytes(32), True
    for body in bodies:
        prev_line = next(line for line in body.splitlines() if line.startswith("prev "))
        chained = chained and base64.b64decode(prev_line[5:]) == previous
        previous = hashlib.sha256(body.encode()).digest()
    return LogCount(date, sheet, len(bodies), sum(closing), bool(closing) and closing[-1],
                    chained)


def wait_for_reveal(player: HttpPlayer, date: str) -> None:
    """Until the ledger has ``date``'s reveal entry."""
    deadline = time.monotonic() + REVEAL_TIMEOUT
    while player.request("GET", f"/api/v1/ledger/{date}")[0] != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"{date} not revealed within {REVEAL_TIMEOUT:.0f} s")
        time.sleep(0.2)


def one_run(number: int, tables: Path, burners: int, seed: int) -> Run:
    """The reveal recipe once, on a fresh server; the logs it left."""
    began = time.monotonic()
    today = dt.datetime.now(dt.UTC).date()
    workdir = Path(tempfile.mkdtemp(prefix="yd-race-", dir="/tmp"))
    clock_file = workdir / "clock"
    clock_file.write_text(f"{today.isoformat()}T12:00:00Z")
    server, burning = None, []
    run = Run(number, 0.0)
    try:
        server = Server(workdir, clock_file, tables)
        rng = random.Random(seed)
        for sheet in DAILY_SHEETS:
            player = HttpPlayer(server.url)
            play_to_end(player, start(player, sheet, today.isoformat()), rng)
        burning = [subprocess.Popen(BURN) for _ in range(burners)]
        clock_file.write_text(f"{(today + dt.timedelta(days=1)).isoformat()}T13:05:00Z")
        reader = HttpPlayer(server.url)
        wait_for_reveal(reader, today.isoformat())
        time.sleep(SETTLE_SECONDS)
        status, _, listing = reader.request("GET", "/api/v1/logs")
        if status != 200:
            raise RuntimeError(f"GET /logs: {status} {listing}")
        run.logs = [count_log(reader, log["date"], log["sheet"]) for log in listing["logs"]]
    except Exception as error:  # reported in the summary with the server's log kept
        run.error = f"{type(error).__name__}: {error}"
    finally:
        for burner in burning:
            burner.kill()
            burner.wait()
        if server is not None:
            server.stop()
        run.seconds = time.monotonic() - began
        if run.ok:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            run.error = (run.error or "a log went wrong") + f" (kept {workdir})"
    return run


def describe(run: Run) -> str:
    """One line per run."""
    bad = [f"{log.date} {log.sheet}: {log.closes} closes"
           + ("" if log.last_closes else ", last not a close")
           + ("" if log.chained else ", chain broken")
           for log in run.logs if not log.ok]
    status = "ok" if run.ok else "BAD"
    detail = "; ".join(bad + ([run.error] if run.error else []))
    return (f"run {run.number:3d} {status:3s} {run.seconds:5.1f} s, {len(run.logs)} logs"
            + (f": {detail}" if detail else ""))


def main() -> int:
    """Run the recipe ``--runs`` times and print the per-run lines and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2,
                        help="CPU-burning processes during the close (default: one a core)")
    parser.add_argument("--tables", type=Path,
                        default=Path(os.environ.get("YACHT_DAILY_TEST_STRATEGY_DIR")
                                     or Path(tempfile.gettempdir()) / "yd-race-tables"),
                        help="where the strategy tables are built once and kept")
    options = parser.parse_args()
    options.tables.mkdir(parents=True, exist_ok=True)
    for ruleset in RULESETS:
        load_or_build(options.tables, ruleset)
    runs = []
    for number in range(1, options.runs + 1):
        runs.append(one_run(number, options.tables, options.burners, seed=number))
        print(describe(runs[-1]), flush=True)
    logs = [log for run in runs for log in run.logs]
    closes: dict[int, int] = {}
    for log in logs:
        closes[log.closes] = closes.get(log.closes, 0) + 1
    failed = [run for run in runs if not run.ok]
    print(f"\n{len(runs)} runs ({options.burners} CPU burners, 2 workers): "
          f"{len(runs) - len(failed)} ok, {len(failed)} bad")
    print(f"{len(logs)} logs; close checkpoints per log: "
          + ", ".join(f"{count} close{'s' if count != 1 else ''} × {number} logs"
                      for count, number in sorted(closes.items())))
    print(f"logs whose last checkpoint is not their close: "
          f"{sum(1 for log in logs if not log.last_closes)}; broken chains: "
          f"{sum(1 for log in logs if not log.chained)}; runs that failed to complete: "
          f"{sum(1 for run in runs if run.error and not run.logs)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
