"""Benchmark: ``GET /api/v1/games/<id>/review`` beside ``GET /api/v1/games/<id>``, per sheet.

Runs the app in process (Flask test client, no HTTP) on an embedded redis-server and a fresh
data directory, with the strategy tables of ``--tables`` (built there first if missing). Plays
``--games`` finished games per daily sheet with a simple random player, then sends ``--rounds``
rounds of requests, each round asking every game's review and the same game's state in a
shuffled order (interleaved, so that the machine's load hits both alike). Prints p50/p99 wall
and CPU time per request and the review/game ratio of the medians.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_review.py --games 20 --rounds 10

``--engine`` times ``strategy.review`` itself instead (``checked=True``, as the finishing
request calls it) and the review's text as that request writes it and keeps it: the
same seeded games per sheet (bots of every level and random play, made here once) reviewed by
this tree and by ``--baseline DIR`` (another tree, say ``/work/main``), each in a process of
its own with its code first on ``PYTHONPATH``, in ``--rounds`` interleaved rounds (the order
swapped every round); prints the median over rounds of the CPU per review and per text.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_review.py --engine --games 24 \
        --rounds 5 --baseline /work/main

Bounded: at most 200 games per sheet and 100 rounds.
"""

import argparse
import datetime as dt
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "app"))

from playkit import app_on, play_to_end, start  # noqa: E402

from app.coach.tables import table_source  # noqa: E402
from app.ledger import secrets as keys  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from fairness import DAILY_RULESETS  # noqa: E402
from strategy import load_or_build  # noqa: E402
from strategy.bots import LEVELS, play_bot_game, seeded_game  # noqa: E402
from tests.strategy.seeded_play import random_game  # noqa: E402

MAX_GAMES = 200
MAX_ROUNDS = 100
EPOCH_START = dt.date(2026, 3, 1)
PLAY_DATE = "2026-03-10"
NOW = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)
ENGINE_SEED = 14
# Run in a process of each tree: CPU ms per review of each sheet's games and per review text as
# the finishing request writes it (the coach's ``review_text``; ``Review.to_json_text`` in a tree
# without it), after one untimed pass.
ENGINE_TIMER = """
import json, sys, time
from strategy import Review, load_or_build, review
try:
    from app.coach.service import review_text
except ImportError:
    review_text = Review.to_json_text
games, tables = json.load(open(sys.argv[1])), sys.argv[2]
result = {}
for ruleset, transcripts in games.items():
    table = load_or_build(tables, ruleset)
    for transcript in transcripts:  # a long-lived worker: caches warm
        review_text(review(table, transcript, checked=True))
    cpu = time.process_time()
    reviews = [review(table, transcript, checked=True) for transcript in transcripts]
    middle = time.process_time()
    for done in reviews:
        review_text(done)
    end = time.process_time()
    result[ruleset] = [(middle - cpu) * 1000 / len(transcripts),
                       (end - middle) * 1000 / len(transcripts)]
print(json.dumps(result))
"""


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


def engine_games(tables: Path, games: int) -> dict[str, list[list[dict]]]:
    """``games`` finished transcripts per daily sheet: half bots (every level in turn), half
    random play."""
    out = {}
    for ruleset in DAILY_RULESETS:
        table = load_or_build(tables, ruleset)
        levels = list(LEVELS)
        bots = [list(play_bot_game(table, levels[index % len(levels)],
                                   *seeded_game(ENGINE_SEED, index, ruleset)).transcript)
                for index in range(games // 2)]
        out[ruleset] = bots + [list(random_game(ENGINE_SEED, index, ruleset).transcript)
                               for index in range(games - len(bots))]
    return out


def bench_engine(options, games: int, rounds: int) -> None:
    """Time ``strategy.review`` of this tree against ``--baseline``'s, interleaved rounds."""
    trees = {"this tree": ROOT, "baseline": options.baseline.resolve()}
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-review-engine-"))
    try:
        games_file = workdir / "games.json"
        games_file.write_text(json.dumps(engine_games(options.tables, games)))
        samples = {name: {(ruleset, part): [] for ruleset in DAILY_RULESETS
                          for part in ("review", "text")} for name in trees}
        for round_number in range(rounds):
            order = list(trees) if round_number % 2 == 0 else list(trees)[::-1]
            for name in order:
                env = {**os.environ, "PYTHONPATH": str(trees[name]),
                       "OPENBLAS_NUM_THREADS": "1"}
                done = subprocess.run([sys.executable, "-c", ENGINE_TIMER, str(games_file),
                                       str(options.tables.resolve())], env=env, cwd=workdir,
                                      capture_output=True, text=True, check=True, timeout=600)
                for ruleset, (review_ms, text_ms) in json.loads(
                        done.stdout.splitlines()[-1]).items():
                    samples[name][ruleset, "review"].append(review_ms)
                    samples[name][ruleset, "text"].append(text_ms)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"strategy.review(checked=True) and its text, {games} finished games per sheet, "
          f"{rounds} rounds, CPU ms per review (median of the rounds)")
    print("| sheet | baseline review + text | this tree review + text | baseline / this tree |")
    print("|---|--:|--:|--:|")
    for ruleset in DAILY_RULESETS:
        before, after = ([statistics.median(samples[name][ruleset, part])
                          for part in ("review", "text")] for name in ("baseline", "this tree"))
        print(f"| `{ruleset}` | {before[0]:.2f} + {before[1]:.2f} | {after[0]:.2f} + "
              f"{after[1]:.2f} | {sum(before) / sum(after):.1f}× |")


def main() -> None:
    """Parse the options, play the games, time the requests (or the engine), print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--tables", type=Path, default=ROOT / "var" / "strategy")
    parser.add_argument("--engine", action="store_true",
                        help="time strategy.review itself, against --baseline")
    parser.add_argument("--baseline", type=Path, help="the other tree of --engine")
    options = parser.parse_args()
    games = max(1, min(options.games, MAX_GAMES))
    rounds = max(1, min(options.rounds, MAX_ROUNDS))
    for ruleset in DAILY_RULESETS:
        load_or_build(options.tables, ruleset)
    if options.engine:
        if options.baseline is None:
            parser.error("--engine needs --baseline")
        bench_engine(options, games, rounds)
        return
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-review-"))
    try:
        with EmbeddedRedis(workdir / "redis") as server:
            keys.initialise(workdir / "var", EPOCH_START, 400)
            app = app_on(server.url, workdir / "var", lambda: NOW,
                         STRATEGY_DIR=str(options.tables))
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
