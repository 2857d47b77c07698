"""Bot benchmark: every level's mean on every sheet, the perfect bot against the optimum, speed.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/bench_bots.py            # 100,000 games
    .venv/bin/python bench/bench_bots.py --games 5000 --sheets yacht-bonus --levels hard
    .venv/bin/python bench/bench_bots.py --sheets yatzy generala --levels perfect
    .venv/bin/python bench/bench_bots.py --sheets yahtzee-triple --levels perfect greedy \
        --games 20000

``greedy`` (``strategy.bots.GREEDY``) is the simple greedy player, not a level players meet.

For each sheet, games 0 .. N-1 of run ``--seed`` (``strategy.bots.seeded_game``: the same dice
for every level) are played by each level with the batch simulator (``strategy.botsim``),
timed in wall and process CPU seconds. Then, as checks that fail loudly:
- the first ``--replay`` simulated games are played again through fairness.Game
  (``botsim.replay`` raises unless fairness scores them the same), timed;
- the first ``--agree`` games are played turn by turn by ``strategy.bots.Bot`` through
  fairness.Game, and each transcript must equal the replayed simulated game's;
- the perfect bot's mean must be within 0.5 of the table's optimum, or within 4 standard errors
  of its mean when fewer games make that wider (on an exactly solved sheet; triple Yahtzee's
  table is an approximation, its V̂ of the empty sheet is reported beside).
One JSON line per sheet and level, then a Markdown table for docs/strategy.md.
"""

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from fairness import DAILY_RULESETS, RULESETS
from strategy import load_or_build
from strategy.bots import GREEDY, LEVELS, play_bot_game, seeded_game
from strategy.botsim import replay, seeded_games, simulate

PERFECT_TOLERANCE = 0.5  # 100,000 games: 2.6 to 4.5 standard errors on the solved sheets
PERFECT_ERRORS = 4  # fewer games: this many standard errors of the mean
BENCH_LEVELS = {**LEVELS, GREEDY.name: GREEDY}


def timed(function, *args):
    """(result, wall seconds, process CPU seconds) of ``function(*args)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function(*args)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def check_against_game(table, level, simulated, seed: int, replays: int, agree: int) -> float:
    """Replay ``replays`` simulated games through fairness.Game (games/s returned) and check
    that the turn-by-turn Bot plays the first ``agree`` of them identically."""
    replayed, wall, _ = timed(lambda: [replay(table, simulated, index, seeded_game(
        seed, index, table.ruleset_id)[0]) for index in range(replays)])
    for index in range(agree):
        stream, rng = seeded_game(seed, index, table.ruleset_id)
        if play_bot_game(table, level, stream, rng).transcript != replayed[index].transcript:
            raise AssertionError(f"{table.ruleset_id} {level.name} game {index}: the Bot and "
                                 f"the simulator disagree")
    return replays / wall if replays else float("nan")


def bench(sheet: str, level_names: list[str], args, tables: Path) -> list[dict]:
    """Every level on one sheet: its figures, checked."""
    table = load_or_build(tables, sheet)
    games, seeding_wall, _ = timed(seeded_games, args.seed, args.games, sheet, table.rules.boxes)
    rows = []
    for name in level_names:
        level = BENCH_LEVELS[name]
        simulated, wall, cpu = timed(simulate, table, level, games)
        replay_rate = check_against_game(table, level, simulated, args.seed,
                                         min(args.replay, args.games),
                                         min(args.agree, args.replay, args.games))
        scores = simulated.scores
        row = {
            "sheet": sheet, "level": name, "games": args.games, "mean": round(scores.mean(), 2),
            "stdev": round(scores.std(ddof=1), 2),
            "upper_bonus_rate": round(float(simulated.upper_bonus.mean()), 4),
            "five_of_a_kind_50_rate": round(float(simulated.fifty.mean()), 4),
            "sim_games_per_s_wall": round(args.games / wall), "sim_games_per_s_cpu":
            round(args.games / cpu), "replay_games_per_s": round(replay_rate),
            "seeding_s": round(seeding_wall, 1), "optimum": round(table.optimum, 4),
            "exact": table.exact, "standard_error": round(scores.std(ddof=1)
                                                          / args.games ** 0.5, 3),
        }
        tolerance = max(PERFECT_TOLERANCE, PERFECT_ERRORS * row["standard_error"])
        if name == "perfect" and table.exact and abs(scores.mean() - table.optimum) > tolerance:
            row["failed"] = f"perfect mean more than {tolerance:.2f} from the optimum"
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as the Markdown table of docs/strategy.md."""
    lines = ["| sheet | level | mean | stdev | upper bonus | 50 in the five box | games/s "
             "(simulator, CPU) |", "| --- | --- | --: | --: | --: | --: | --: |"]
    for row in rows:
        lines.append(f"| `{row['sheet']}` | {row['level']} | {row['mean']:.2f} | "
                     f"{row['stdev']:.2f} | {100 * row['upper_bonus_rate']:.1f} % | "
                     f"{100 * row['five_of_a_kind_50_rate']:.1f} % | "
                     f"{row['sim_games_per_s_cpu']:,} |")
    return "\n".join(lines)


def main() -> None:
    """Run every chosen level on every chosen sheet; exit 1 when a check failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", nargs="+", default=list(DAILY_RULESETS),
                        choices=sorted(RULESETS))
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(BENCH_LEVELS))
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", type=int, default=1000,
                        help="simulated games replayed through fairness.Game per level")
    parser.add_argument("--agree", type=int, default=250,
                        help="of those, games also played turn by turn by strategy.bots.Bot")
    parser.add_argument("--tables", type=Path, default=None,
                        help="table cache directory (default: a temporary one)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        tables = args.tables or Path(directory)
        rows = [row for sheet in args.sheets for row in bench(sheet, args.levels, args, tables)]
    print(markdown(rows))
    if any("failed" in row for row in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
