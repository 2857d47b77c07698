"""Practice games with bots through the API, beside the daily game, on one gunicorn and one
redis-server (unix socket, AOF fsync always, as ``yacht-daily serve`` runs it).

Players play whole matches against ``--bots`` bots (levels cycled from ``--levels``) and whole
daily games in interleaved chunks on the same server, so that the two kinds share whatever
else the machine is doing and their ratio holds. Prints a Markdown table: games/s and
requests/s of each kind (over the wall time of its own chunks), p50 / p99 latency of each
request kind in ms, errors, the CPU time gunicorn and Redis spent per request (a figure that
holds even when other jobs share the machine, unlike the rates), and Redis memory per stored
game (``MEMORY USAGE`` of a sample of each kind's keys: a match's hash and log, a daily game's
hash and transcript; the players' history records besides).

    .venv/bin/python bench/bench_practice.py --games 1000 --seconds 90

The run stops starting new chunks after ``--seconds`` (the default run takes one to two
minutes, including starting the server); it plays at most 2000 games of each kind.
Loopback only. The strategy tables are built once into ``--tables`` if missing.
"""

import argparse
import datetime as dt
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench_load import gunicorn_cpu_seconds, redis_cpu_seconds, start_gunicorn
from http_load import Measures, next_move, play_game, quantile_ms, run_players

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from app.ledger import secrets as keys  # noqa: E402
from app.ledger.days import earliest_today  # noqa: E402
from app.matches.store import log_key, match_key  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.platform.keys import game_key, transcript_key  # noqa: E402
from app.platform.redis import connect  # noqa: E402
from fairness import DAILY_RULESETS  # noqa: E402
from strategy import load_or_build  # noqa: E402

MAX_GAMES = 2000
MAX_PLAYERS = 64
CHUNK = 20
MEMORY_SAMPLE = 200
MATCH_KINDS = ("match create", "match roll", "match score")
DAILY_KINDS = ("create", "roll", "score")


def daily_like(state: dict) -> dict:
    """The player's seat of a match as the daily game's state, for http_load.next_move."""
    own = state["seats"][state["you"]]
    play = state["play"] or {"allowed": [], "previews": {}}
    return {"dice": own["dice"], "rolls_left": own["rolls_left"], "allowed": play["allowed"],
            "previews": play["previews"], "next_action": state["next_action"]}


def play_match(port: int, ruleset: str, bots: list[str], rng: random.Random,
               measures: Measures) -> None:
    """A new player plays one whole match against ``bots``; the bots play on the server."""
    status, answer, set_cookie = measures.timed(
        "match create", port, "POST", "/api/v1/matches", {"ruleset": ruleset, "bots": bots})
    if status != 201:
        return
    cookie = set_cookie.split(";", 1)[0]
    state = answer["match"]
    while state["status"] == "playing":
        kind, body = next_move(daily_like(state), rng)
        body["roll"] = state["next_action"]
        if state["seats"][state["you"]]["client_seed"] is None:
            body["client_seed"] = f"bench-{rng.randrange(10**9)}"
        status, answer, _ = measures.timed(f"match {kind}", port, "POST",
                                           f"/api/v1/matches/{state['id']}/{kind}", body, cookie)
        if status != 200:
            return
        state = answer["match"]
    with measures.lock:
        measures.games += 1


def memory_per_game(redis_url: str, pattern: str, key_names) -> tuple[float, int]:
    """(mean bytes of MEMORY USAGE over a sample of stored games' keys, games stored): the
    games are found by ``pattern``, a key each has once played; ``key_names(id)`` are its keys."""
    client = connect(redis_url)
    ids = sorted({key[3:].split("}", 1)[0] for key in client.scan_iter(pattern, count=1000)})
    sample = ids[:MEMORY_SAMPLE]
    total = sum(client.memory_usage(name) or 0 for game_id in sample
                for name in key_names(game_id))
    return (total / len(sample) if sample else 0.0), len(ids)


def latency(values: list[float]) -> str:
    """``p50 / p99`` in ms, or a dash."""
    if not values:
        return "-"
    return f"{quantile_ms(values, 0.5):.1f} / {quantile_ms(values, 0.99):.1f}"


def main() -> None:
    """Parse the options, run the interleaved chunks and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="practice games (at most)")
    parser.add_argument("--seconds", type=float, default=90.0,
                        help="start no new chunk after this many seconds of play")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bots", type=int, default=1, help="bots per match, 1 to 5")
    parser.add_argument("--levels", default="easy,medium,hard,perfect")
    parser.add_argument("--tables", type=Path, default=ROOT / "var" / "bench-strategy")
    args = parser.parse_args()
    if not (1 <= args.games <= MAX_GAMES and 1 <= args.players <= MAX_PLAYERS
            and 1 <= args.bots <= 5):
        parser.error(f"--games 1..{MAX_GAMES}, --players 1..{MAX_PLAYERS}, --bots 1..5")
    levels = args.levels.split(",")
    for ruleset in DAILY_RULESETS:
        load_or_build(args.tables, ruleset)

    workdir = Path(tempfile.mkdtemp(prefix="yd-practice-", dir="/tmp"))
    try:
        data_dir = workdir / "var"
        keys.initialise(data_dir, earliest_today(dt.datetime.now(dt.UTC)), 30)
        with EmbeddedRedis(workdir / "redis") as redis_server:
            env = {"REDIS_URL": redis_server.url, "YACHT_DAILY_DATA_DIR": str(data_dir),
                   "YACHT_DAILY_STRATEGY_DIR": str(args.tables)}
            server = start_gunicorn(workdir, args.workers, "sync", 1, env)
            try:
                measured = run(args, server, redis_server.url, levels)
            finally:
                server.stop()
            match_memory = memory_per_game(redis_server.url, "{m:*}:log",
                                           lambda i: (match_key(i), log_key(i)))
            daily_memory = memory_per_game(redis_server.url, "{g:*}:t",
                                           lambda i: (game_key(i), transcript_key(i)))
        report(args, measured, match_memory, daily_memory)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run(args, server, redis_url: str, levels: list[str]) -> dict:
    """Chunks of CHUNK practice games then CHUNK daily games, in turn, until ``--games`` practice
    games or ``--seconds``; each kind's measures, wall time and CPU seconds (gunicorn, Redis)."""
    port = server.port
    date = dt.datetime.now(dt.UTC).date().isoformat()
    warm = Measures()
    run_players(2, [0, 1], lambda n: play_match(port, "yacht", levels[:1], random.Random(-n),
                                                  warm))
    kinds = {"practice": [Measures(), 0.0, 0.0, 0.0], "daily": [Measures(), 0.0, 0.0, 0.0]}

    def chunk(kind: str, jobs: list[int], work) -> None:
        """One chunk of ``kind``, its wall and CPU time added to the kind's."""
        app_cpu, redis_cpu = gunicorn_cpu_seconds(server.process.pid), redis_cpu_seconds(redis_url)
        kinds[kind][1] += run_players(args.players, jobs, work)
        kinds[kind][2] += gunicorn_cpu_seconds(server.process.pid) - app_cpu
        kinds[kind][3] += redis_cpu_seconds(redis_url) - redis_cpu

    practice, daily = kinds["practice"][0], kinds["daily"][0]
    started, done = time.monotonic(), 0
    while done < args.games and time.monotonic() - started < args.seconds:
        jobs = list(range(done, done + min(CHUNK, args.games - done)))
        chunk("practice", jobs, lambda n: play_match(
            port, DAILY_RULESETS[n % 3],
            [levels[(n + b) % len(levels)] for b in range(args.bots)], random.Random(n),
            practice))
        chunk("daily", jobs, lambda n: play_game(port, date, DAILY_RULESETS[n % 3],
                                                 random.Random(n), daily))
        done += len(jobs)
    return kinds


def report(args, measured: dict, match_memory: tuple, daily_memory: tuple) -> None:
    """The Markdown table."""
    print(f"{args.players} players, {args.workers} sync gunicorn workers, {args.bots} bot(s) per "
          f"match (levels {args.levels}), chunks of {CHUNK} games interleaved; latencies in ms "
          "as p50 / p99")
    print()
    print("| kind | games | games/s | req/s | create | roll | score | errors "
          "| CPU ms/req gunicorn + redis | Redis bytes/game |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for label, key, kinds, memory in (
            ("practice vs bots", "practice", MATCH_KINDS, match_memory),
            ("daily game", "daily", DAILY_KINDS, daily_memory)):
        measures, wall, app_cpu, redis_cpu = measured[key]
        cells = " | ".join(latency(measures.latencies[kind]) for kind in kinds)
        errors = sum(measures.errors.values())
        requests = max(1, measures.requests)
        print(f"| {label} | {measures.games} | {measures.games / wall:.1f} | "
              f"{measures.requests / wall:.0f} | {cells} | {errors} | "
              f"{1000 * app_cpu / requests:.2f} + {1000 * redis_cpu / requests:.2f} | "
              f"{memory[0]:.0f} |")


if __name__ == "__main__":
    main()
