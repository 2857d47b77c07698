"""Strategy engine benchmark: build time and memory per sheet, load time, decision latency.

    .venv/bin/python bench/bench_strategy.py                       # the three daily sheets
    .venv/bin/python bench/bench_strategy.py --sheets yahtzee --decisions 5000
    .venv/bin/python bench/bench_strategy.py --sheets yahtzee-triple generala

For each sheet it solves the table (CPU seconds of this process and wall seconds; with
``--memory`` also the peak memory the build allocated, by tracemalloc, which numpy reports to
and which slows the build down), saves it, loads it back (best of
five), then times ``strategy.evaluate`` — every keep and every box of one position — on the
positions of perfect games played on seeded streams dealt ``--dealing`` (per turn unless told
otherwise): p50 / p99 of wall time and of this thread's CPU time, cold (the table's cache of
recent turns emptied before each decision). A sheet of several columns (triple Yahtzee) has no
table of its own: its approximation is built over its column sheet's table, which is what is
saved and loaded (``table_file``), so its line says ``"approximation over"`` that sheet.
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
from fairness.dice import DEALINGS, PER_TURN, ROLLS_PER_TURN
from strategy import (
    ColumnsTable,
    Position,
    build_table,
    evaluate,
    load_table,
    play_game,
    save_table,
    table_file,
)


def decision_positions(table, games: int, dealing: str) -> list[Position]:
    """Every position with dice showing in ``games`` perfect games on seeded streams dealt
    ``dealing``."""
    positions = []
    for seed in range(games):
        stream = DiceStream(f"{seed:064x}", "2026-03-10", table.ruleset_id, dealing)
        game = play_game(table, stream)
        boxes, extra, dice, rolls_left = {}, 0, None, ROLLS_PER_TURN
        for entry in game.transcript:
            if entry["action"] == "roll":
                dice, rolls_left = tuple(entry["dice"]), rolls_left - 1
                positions.append(Position(table.ruleset_id, dict(boxes), dice, rolls_left, extra))
            else:
                boxes[entry["category"]] = entry["points"]
                extra += entry["bonus"]
                dice, rolls_left = None, ROLLS_PER_TURN
    return positions


def saved_part(table):
    """The solved table a sheet's file holds: the sheet's own, or for a sheet of several
    columns its column sheet's (the approximation keeps nothing else)."""
    return table.column_table if isinstance(table, ColumnsTable) else table


def load_sheet_table(path: Path, table):
    """Read ``table``'s saved part back from ``path`` and rebuild the sheet's table on it."""
    loaded = load_table(path, saved_part(table).ruleset_id)
    return ColumnsTable(table.rules, loaded) if isinstance(table, ColumnsTable) else loaded


def percentile(samples: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``samples`` (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_sheet(sheet: str, directory: Path, decisions: int, memory: bool, dealing: str) -> dict:
    """Build, save, load and evaluate one sheet; return its figures."""
    if memory:
        tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    table = build_table(sheet)
    build_cpu, build_wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = tracemalloc.get_traced_memory()[1] if memory else None
    tracemalloc.stop()
    path = table_file(directory, sheet)
    save_table(saved_part(table), path)
    loads = []
    for _ in range(5):
        start = time.perf_counter()
        load_sheet_table(path, table)
        loads.append(time.perf_counter() - start)
    games = max(1, decisions // (ROLLS_PER_TURN * table.rules.boxes))
    positions = decision_positions(table, games, dealing)
    walls, cpus = [], []
    for position in (positions * (decisions // len(positions) + 1))[:decisions]:
        table.recent_turns.clear()  # cold: every decision recomputes its turn's values
        cpu, wall = time.thread_time(), time.perf_counter()
        evaluate(table, position)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    figures = {"sheet": sheet}
    if not table.exact:
        figures["approximation over"] = saved_part(table).ruleset_id
    return figures | {
        "optimum": f"{table.optimum:.4f}", "build_cpu_s": round(build_cpu, 1),
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
    parser.add_argument("--dealing", choices=DEALINGS, default=PER_TURN,
                        help="how the seeded games' streams deal their rolls (default: per-turn)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}; "
          f"dealing {args.dealing}")
    with tempfile.TemporaryDirectory() as directory:
        for sheet in args.sheets:
            print(bench_sheet(sheet, Path(directory), args.decisions, args.memory, args.dealing),
                  flush=True)


if __name__ == "__main__":
    main()
