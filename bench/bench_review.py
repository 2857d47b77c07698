"""Benchmark: ``GET /api/v1/games/<id>/review`` beside ``GET /api/v1/games/<id>``, per sheet.

Runs the app in process (Flask test client, no HTTP) on an embedded redis-server and a fresh
data directory, with the strategy tables of ``--tables`` (built there first if missing). Plays
``--games`` finished games per daily sheet with a simple random player, then sends ``--rounds``
rounds of requests, each round asking every game's review and the same game's state in a
shuffled order (interleaved, so that the machine's load hits both alike). Prints p50/p99 wall
and CPU time per request and the review/game ratio of the medians.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_review.py --games 20 --rounds 10

Bounded: at most 200 games per sheet and 100 rounds.
"""

import argparse
import datetime as dt
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "app"))

from playkit import play_to_end, start  # noqa: E402

from app import create_app  # noqa: E402
from app.ledger import keys  # noqa: E402
from app.play.coach import table_source  # noqa: E402
from app.storage.embedded import EmbeddedRedis  # noqa: E402
from fairness import DAILY_RULESETS  # noqa: E402
from strategy import load_or_build  # noqa: E402

MAX_GAMES = 200
MAX_ROUNDS = 100
EPOCH_START = dt.date(2026, 3, 1)
PLAY_DATE = "2026-03-10"
NOW = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)


def quantiles(samples: list[float]) -> tuple[float, float]:
    """(p50, p99) of ``samples`` in milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p99 * 1000


def timed_get(client, path: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one GET, which must answer 200."""
    wall, cpu = time.perf_counter(), time.process_time()
    response = client.get(path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert response.status_code == 200, response.get_data(as_text=True)
    return wall, cpu


def main() -> None:
    """Parse the options, play the games, time the requests, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tables", type=Path, default=ROOT / "var" / "strategy")
    options = parser.parse_args()
    games = max(1, min(options.games, MAX_GAMES))
    rounds = max(1, min(options.rounds, MAX_ROUNDS))
    for ruleset in DAILY_RULESETS:
        load_or_build(options.tables, ruleset)
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-review-"))
    try:
        with EmbeddedRedis(workdir / "redis") as server:
            keys.initialise(workdir / "var", EPOCH_START, 400)
            app = create_app({"TESTING": True, "REDIS_URL": server.url,
                              "DATA_DIR": str(workdir / "var"), "CLOCK": lambda: NOW,
                              "STRATEGY_DIR": str(options.tables)})
            assert table_source(options.tables).wait(600)
            rng = random.Random(1)
            played = []
            for ruleset in DAILY_RULESETS:
                for _ in range(games):
                    client = app.test_client()
                    state = play_to_end(client, start(client, ruleset, PLAY_DATE), rng)
                    played.append((ruleset, client, state["id"]))
            samples = {(ruleset, kind): ([], []) for ruleset in DAILY_RULESETS
                       for kind in ("review", "game")}
            for _ in range(rounds):
                requests = [(ruleset, client, game_id, kind) for ruleset, client, game_id in played
                            for kind in ("review", "game")]
                rng.shuffle(requests)
                for ruleset, client, game_id, kind in requests:
                    path = f"/api/v1/games/{game_id}" + ("/review" if kind == "review" else "")
                    wall, cpu = timed_get(client, path)
                    samples[ruleset, kind][0].append(wall)
                    samples[ruleset, kind][1].append(cpu)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{games} games per sheet, {rounds} rounds")
    print("| sheet | request | wall ms p50 / p99 | CPU ms p50 / p99 |")
    print("|---|---|--:|--:|")
    for ruleset in DAILY_RULESETS:
        for kind in ("review", "game"):
            walls, cpus = samples[ruleset, kind]
            (w50, w99), (c50, c99) = quantiles(walls), quantiles(cpus)
            print(f"| `{ruleset}` | {kind} | {w50:.2f} / {w99:.2f} | {c50:.2f} / {c99:.2f} |")
        ratio = statistics.median(samples[ruleset, "review"][0]) / statistics.median(
            samples[ruleset, "game"][0])
        print(f"| `{ruleset}` | review / game (wall p50) | {ratio:.1f}× | |")


if __name__ == "__main__":
    main()
