"""The CPU of each kind of daily-game request in one process: a game's creation, a mid-game
action, the action that finishes it and the review the play page asks for then — what each
costs the worker that serves it, without the machine's load, gunicorn or the sockets. The
actions ask for minimal answers (``Prefer: return=minimal``) as the play page does;
``--whole-answers`` takes the whole game instead; ``--accept-encoding`` sends the actions
with a browser's Accept-Encoding (an answer of 1 KB or more is then compressed).

The app (``create_app``) on a real redis-server (unix socket, fsync always), rate limits
counted against limits too high to refuse any (as bench_overhead's ``--rate-limits``), the
Flask test client as new players playing whole games on today's date over the three sheets in
turn, as bench_overhead's players do (echoing each answer's ``token``); ``time.thread_time``
is read around each request, after the objects of the warmed-up process are frozen as a
worker freezes them. ``--apps 2`` serves the requests alternately from two apps on the
same Redis, so every action lands on the "worker" that did not serve the one before (the
token path), as on two gunicorn workers; ``--hookless`` removes every request hook of the apps
(http_load.strip_hooks: what the requests would cost if the plumbing cost nothing);
``--profile N`` prints cProfile's N costliest functions (cumulative, CPU time) over the
measured games.

    .venv/bin/python bench/bench_game_requests.py --games 30
    .venv/bin/python bench/bench_game_requests.py --games 30 --apps 2
    /work/main/.venv/bin/python bench/bench_game_requests.py --root /work/main   # another tree

The figure is CPU time, but a loaded machine still inflates it (shared caches): compare ratios
in one run, or interleave runs of two checkouts (``--root``).
"""

import argparse
import cProfile
import datetime as dt
import json
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench_table_actions import wait_ready
from http_load import (
    BARE_PATH,
    MINIMAL,
    after_action,
    bare_request,
    decompressed,
    floor_app,
    next_move,
    strip_hooks,
)

ROOT = Path(__file__).resolve().parent.parent


API = "/api/v1"
WARM_UP_GAMES = 3
UNREACHABLE_LIMIT = "1000000/minute"
LIMIT_KEYS = ("CREATE", "MATCHES", "ACTIONS", "GAME_ACTIONS", "VERIFY", "DAY_GAMES",
              "TRANSFER", "COSIGNATURES")


def timed(samples: dict, kind: str, call):
    """Run ``call()``, add its thread CPU seconds to ``samples[kind]`` and return its answer."""
    began = time.thread_time()
    answer = call()
    samples[kind].append(time.thread_time() - began)
    return answer


def decoded_json(answer) -> dict:
    """An answer's JSON, decompressed first when it came compressed (``--accept-encoding``)."""
    return json.loads(decompressed(answer.get_data(), answer.headers.get("Content-Encoding")))


def play_game(apps: list, ruleset: str, date: str, rng: random.Random, samples: dict,
              headers: dict) -> None:
    """One new player plays one whole game, the requests served by ``apps`` in turn, each
    action sent with ``headers``."""
    clients = [app.test_client() for app in apps]
    turn = 0

    def client():
        nonlocal turn
        turn += 1
        chosen = clients[turn % len(clients)]
        if len(clients) > 1 and clients[0].get_cookie("yd_player"):
            cookie = clients[0].get_cookie("yd_player")
            for other in clients[1:]:
                other.set_cookie(cookie.key, cookie.value)
        return chosen

    first = clients[0]
    answer = timed(samples, "create", lambda: first.post(
        f"{API}/games", json={"ruleset": ruleset, "date": date}))
    assert answer.status_code in (200, 201), answer.get_data(as_text=True)
    state = answer.get_json()["game"]
    while state["status"] == "playing":
        kind, body = next_move(state, rng)
        chosen = client()
        path = f"{API}/games/{state['id']}/{kind}"
        payload = {**body, "roll": state["next_action"], "token": state["token"]}
        began = time.thread_time()
        answer = chosen.post(path, json=payload, headers=headers)
        spent = time.thread_time() - began
        assert answer.status_code == 200, answer.get_data(as_text=True)
        state = after_action(state, decoded_json(answer))
        samples["finishing action" if state["status"] == "finished" else "action"].append(spent)
    chosen = client()
    answer = timed(samples, "review", lambda: chosen.get(f"{API}/games/{state['id']}/review"))
    assert answer.status_code == 200, answer.get_data(as_text=True)


def floor_requests(floor, count: int, samples: dict) -> None:
    """``count`` requests to the floor's endpoint (http_load.floor_app), timed as ``floor``."""
    client = floor.test_client()
    for number in range(count):
        began = time.thread_time()
        answer = client.post(BARE_PATH, json=bare_request(number))
        samples["floor"].append(time.thread_time() - began)
        assert answer.status_code == 200, answer.get_data(as_text=True)


def report(samples: dict) -> None:
    """Print per kind of request its count, mean and median CPU, per game request overall, and
    the floor's."""
    kinds = ("create", "action", "finishing action", "review")
    total = sum(sum(samples[kind]) for kind in kinds)
    requests = sum(len(samples[kind]) for kind in kinds)
    for kind in kinds:
        values = samples[kind]
        print(f"  {kind:16} {len(values):5} requests  mean {1000 * statistics.fmean(values):6.3f}"
              f"  median {1000 * statistics.median(values):6.3f} ms CPU"
              f"  ({100 * sum(values) / total:4.1f} % of all)")
    floor = 1000 * statistics.fmean(samples["floor"])
    print(f"  every request    {requests:5} requests  mean {1000 * total / requests:6.3f} ms CPU")
    print(f"  floor            {len(samples['floor']):5} requests  mean {floor:6.3f}  median "
          f"{1000 * statistics.median(samples['floor']):6.3f} ms CPU (the bare endpoint and one "
          f"EVALSHA)")
    print(f"  every request ÷ floor {1000 * total / requests / floor:.2f}, "
          f"an action ÷ floor {1000 * statistics.fmean(samples['action']) / floor:.2f}")


def freeze_as_a_worker_does() -> None:
    """What the measured tree's gunicorn worker does once it has loaded the app, if it does:
    freeze what it made (``gunicorn_hooks.freeze_startup_objects``), so that the garbage
    collector's full collections cost here what they cost there."""
    from app.observability import gunicorn_hooks

    freeze = getattr(gunicorn_hooks, "freeze_startup_objects", None)  # trees before c120ba0
    if freeze is not None:
        freeze()


def run(args, workdir: Path) -> None:
    """Play the games on the app of checkout ``args.root`` and print the CPU per request kind."""
    sys.path[:0] = [str(args.root)]
    from app import create_app
    from app.ledger import secrets as keys
    from app.platform.embedded import EmbeddedRedis
    from fairness import DAILY_RULESETS

    data_dir = workdir / "var"
    today = dt.datetime.now(dt.UTC).date()
    keys.initialise(data_dir, today - dt.timedelta(days=1), 30)
    config = {"DATA_DIR": str(data_dir), "RATE_LIMITS": "on",
              **{f"RATE_LIMIT_{key}": UNREACHABLE_LIMIT for key in LIMIT_KEYS}}
    if args.tables:
        config["STRATEGY_DIR"] = str(args.tables.resolve())
    with EmbeddedRedis(workdir / "redis") as server:
        apps = [create_app({**config, "REDIS_URL": server.url}) for _ in range(args.apps)]
        for app in apps:
            wait_ready(app)
            if args.hookless:
                strip_hooks(app)
        rng = random.Random(args.seed)
        date = today.isoformat()
        headers = {**({} if args.whole_answers else MINIMAL),
                   **({"Accept-Encoding": args.accept_encoding} if args.accept_encoding else {})}
        warm = defaultdict(list)
        for index in range(WARM_UP_GAMES):
            play_game(apps, DAILY_RULESETS[index % len(DAILY_RULESETS)], date, rng, warm,
                      headers)
        os.environ["REDIS_URL"] = server.url
        floor = floor_app()
        floor_requests(floor, 50, warm)
        freeze_as_a_worker_does()
        samples = defaultdict(list)
        profiler = cProfile.Profile(time.thread_time) if args.profile else None
        for index in range(args.games):
            if profiler:
                profiler.enable()
            play_game(apps, DAILY_RULESETS[index % len(DAILY_RULESETS)], date, rng, samples,
                      headers)
            if profiler:
                profiler.disable()
            floor_requests(floor, 37, samples)
    print(f"{args.root.name}: {args.games} games on {args.apps} app(s), limits counted, "
          f"{'whole' if args.whole_answers else 'minimal'} action answers"
          f"{', request hooks removed' if args.hookless else ''}")
    report(samples)
    if profiler:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.profile)


def main() -> None:
    """Parse the arguments and run in a scratch directory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games measured (1 to 500)")
    parser.add_argument("--apps", type=int, default=1, choices=(1, 2),
                        help="apps serving the requests in turn (2: the token path)")
    parser.add_argument("--seed", type=int, default=1, help="the players' random seed")
    parser.add_argument("--tables", type=Path, default=ROOT / "var" / "strategy",
                        help="prebuilt strategy tables (default var/strategy)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print cProfile's N costliest functions")
    parser.add_argument("--sort", default="cumulative", choices=("cumulative", "tottime"),
                        help="the profile's order")
    parser.add_argument("--whole-answers", action="store_true",
                        help="actions answered with the whole game (no Prefer: return=minimal)")
    parser.add_argument("--accept-encoding", metavar="VALUE",
                        help="the actions' Accept-Encoding (a browser's: 'gzip, deflate, br, "
                             "zstd'; by default none, as HTTP libraries send)")
    parser.add_argument("--hookless", action="store_true",
                        help="remove the apps' request hooks (a lower bound of the plumbing)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose app is measured (default: this one)")
    args = parser.parse_args()
    if not 1 <= args.games <= 500:
        parser.error("--games is 1 to 500")
    args.root = args.root.resolve()
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-game-requests-"))
    try:
        run(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
