"""Foresight benchmark: time and peak memory of the exact perfect-foresight search per sheet.

    .venv/bin/python bench/bench_foresight.py                 # 5 seeded days, the daily sheets
    .venv/bin/python bench/bench_foresight.py --days 10 --sheet yahtzee --sheet yahtzee-no-joker
    .venv/bin/python bench/bench_foresight.py --dealing sequential   # the days of v1 epochs

For each of ``--days`` seeded streams (seed = SHA-256 of "bench-foresight|<i>", dates from
2026-12-01 on), dealt ``--dealing`` (per turn unless told otherwise, as new days are), it runs
``strategy.foresight.foresight_for_day`` on every sheet in turn (interleaved, so that the
machine's load spreads over all sheets alike), its caches emptied first so that every run pays
what a fresh process pays, and replays each line on the stream dealt the same way. It reports
CPU and wall seconds and the maxima found, then, for one stream per sheet, the peak memory the
search allocates (``tracemalloc``, which numpy reports its arrays to; a separate pass, since
tracing slows the Python parts). The last line is one JSON object with every figure.
"""

import argparse
import datetime as dt
import hashlib
import json
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fairness import replay  # noqa: E402
from fairness.dice import DEALINGS, PER_TURN, DiceStream  # noqa: E402
from fairness.sheets import DAILY_RULESETS  # noqa: E402
from strategy import foresight  # noqa: E402

FIRST_DATE = dt.date(2026, 12, 1)


def day(index: int) -> tuple[bytes, str]:
    """The seed and date of benchmark stream ``index``."""
    seed = hashlib.sha256(f"bench-foresight|{index}".encode()).digest()
    return seed, (FIRST_DATE + dt.timedelta(days=index)).isoformat()


def cold_search(seed: bytes, date: str, sheet: str, dealing: str) -> foresight.ForesightResult:
    """One search with the module's caches emptied, as a fresh process would run it."""
    foresight._normal_scores.cache_clear()
    foresight._five_of_a_kind_allowed.cache_clear()
    return foresight.foresight_for_day(seed, date, sheet, dealing)


def timed_runs(days: int, sheets: list[str], dealing: str) -> dict[str, list[dict]]:
    """CPU and wall seconds and the total of every (day, sheet), the sheets interleaved."""
    runs: dict[str, list[dict]] = {sheet: [] for sheet in sheets}
    for index in range(days):
        seed, date = day(index)
        for sheet in sheets:
            cpu, wall = time.process_time(), time.perf_counter()
            result = cold_search(seed, date, sheet, dealing)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            game = replay(list(result.line), DiceStream(seed, date, sheet, dealing))
            if not game.finished or game.totals().total != result.total:
                raise SystemExit(f"{sheet} {date}: the line does not replay to {result.total}")
            runs[sheet].append({"date": date, "total": result.total, "cpu": cpu, "wall": wall})
            print(f"{date} {sheet:<26} total {result.total:>4}  cpu {cpu:6.2f} s  "
                  f"wall {wall:6.2f} s", flush=True)
    return runs


def peak_memory(sheet: str, dealing: str) -> float:
    """MiB allocated at the peak of one search (day 0) of ``sheet``."""
    seed, date = day(0)
    tracemalloc.start()
    cold_search(seed, date, sheet, dealing)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def summary(runs: list[dict], peak: float) -> dict:
    """One sheet's figures."""
    cpu = [run["cpu"] for run in runs]
    totals = [run["total"] for run in runs]
    return {
        "days": len(runs),
        "cpu_mean_s": round(statistics.mean(cpu), 2),
        "cpu_max_s": round(max(cpu), 2),
        "wall_mean_s": round(statistics.mean(run["wall"] for run in runs), 2),
        "peak_mib": round(peak, 1),
        "totals": totals,
    }


def main() -> None:
    """Parse the options, run the benchmark, print the table and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=5, help="seeded streams per sheet")
    parser.add_argument("--sheet", action="append", dest="sheets",
                        help="a sheet to measure (repeatable; default: the daily sheets)")
    parser.add_argument("--dealing", choices=DEALINGS, default=PER_TURN,
                        help="how the streams deal their rolls (default: per-turn)")
    options = parser.parse_args()
    sheets = options.sheets or list(DAILY_RULESETS)
    print(f"dealing {options.dealing}")
    runs = timed_runs(options.days, sheets, options.dealing)
    figures = {sheet: summary(runs[sheet], peak_memory(sheet, options.dealing))
               for sheet in sheets}
    print()
    print(f"{'sheet':<26} {'days':>4} {'cpu mean':>9} {'cpu max':>8} {'wall mean':>10} "
          f"{'peak MiB':>9}  totals")
    for sheet, row in figures.items():
        print(f"{sheet:<26} {row['days']:>4} {row['cpu_mean_s']:>8.2f}s {row['cpu_max_s']:>7.2f}s "
              f"{row['wall_mean_s']:>9.2f}s {row['peak_mib']:>9.1f}  {row['totals']}")
    max_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"dealing": options.dealing, "sheets": figures,
                      "process_max_rss_mib": round(max_rss, 1)}))


if __name__ == "__main__":
    main()
