"""Strategy engine benchmark: build time and memory per sheet, load time, decision latency.

    .venv/bin/python bench/bench_strategy.py                       # the three daily sheets
    .venv/bin/python bench/bench_strategy.py --sheets yahtzee --decisions 5000

For each sheet it solves the table (CPU seconds of this process and wall seconds; with
``--memory`` also the peak memory the build allocated, by tracemalloc, which numpy reports to
and which slows the build down), saves it, loads it back (best of
five), then times ``strategy.evaluate`` — every keep and every box of one position — on the
positions of perfect games played on seeded streams: p50 / p99 of wall time and of this
thread's CPU time, cold (the table's cache of recent turns emptied before each decision).
Run with one BLAS thread (OPENBLAS_NUM_THREADS=1) for the one-core figure.
"""

import argparse
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from fairness import DAILY_RULESETS, DiceStream
from strategy import Position, build_table, evaluate, load_table, play_game, save_table
from strategy.tables import table_path


def decision_positions(table, games: int) -> list[Position]:
    """Every position with dice showing in ``games`` perfect games on seeded streams."""
    positions = []
    for seed in range(games):
        stream = DiceStream(f"{seed:064x}", "2026-03-10", table.ruleset_id)
        game = play_game(table, stream)
        boxes, extra, dice, rolls_left = {}, 0, None, 3
        for entry in game.transcript:
            if entry["action"] == "roll":
                dice, rolls_left = tuple(entry["dice"]), rolls_left - 1
                positions.append(Position(table.ruleset_id, dict(boxes), dice, rolls_left, extra))
            else:
                boxes[entry["category"]] = entry["points"]
                extra += entry["bonus"]
                dice, rolls_left = None, 3
    return positions


def percentile(samples: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``samples`` (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_sheet(sheet: str, directory: Path, decisions: int, memory: bool) -> dict:
    """Build, save, load and evaluate one sheet; return its figures."""
    if memory:
        tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    table = build_table(sheet)
    build_cpu, build_wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = tracemalloc.get_traced_memory()[1] if memory else None
    tracemalloc.stop()
    path = table_path(directory, table.rules)
    save_table(table, path)
    loads = []
    for _ in range(5):
        start = time.perf_counter()
        load_table(path, sheet)
        loads.append(time.perf_counter() - start)
    positions = decision_positions(table, max(1, decisions // (3 * table.rules.boxes)))
    walls, cpus = [], []
    for position in (positions * (decisions // len(positions) + 1))[:decisions]:
        table.recent_turns.clear()  # cold: every decision recomputes its turn's values
        cpu, wall = time.thread_time(), time.perf_counter()
        evaluate(table, position)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    return {
        "sheet": sheet, "optimum": f"{table.optimum:.4f}", "build_cpu_s": round(build_cpu, 1),
        "build_wall_s": round(build_wall, 1),
        "build_peak_mb": round(peak / 2**20, 1) if memory else "-",
        "file_mb": round(path.stat().st_size / 2**20, 1), "load_ms": round(1e3 * min(loads), 1),
        "decisions": len(walls),
        "decide_wall_ms_p50_p99": (round(1e3 * statistics.median(walls), 2),
                                   round(1e3 * percentile(walls, 0.99), 2)),
        "decide_cpu_ms_p50_p99": (round(1e3 * statistics.median(cpus), 2),
                                  round(1e3 * percentile(cpus, 0.99), 2)),
    }


def main() -> None:
    """Run the benchmark on the chosen sheets and print one line per sheet."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", nargs="+", default=list(DAILY_RULESETS))
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--memory", action="store_true", help="trace the build's peak memory")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    with tempfile.TemporaryDirectory() as directory:
        for sheet in args.sheets:
            print(bench_sheet(sheet, Path(directory), args.decisions, args.memory), flush=True)


if __name__ == "__main__":
    main()
