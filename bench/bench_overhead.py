"""Per-request overhead of an action, against two references in the same run: the service
(whole games, new players) beside a bare Flask JSON endpoint and the **floor** (the bare
endpoint plus one EVALSHA, a compare-and-set-shaped write, on the same embedded Redis), all
three under deploy/gunicorn.conf.py with the same worker count.

The three servers run side by side and take turns in short slices (``--slice`` seconds each,
``--rounds`` rounds, the order rotated every round), so the machine's noise hits them alike.
Each slice reads the gunicorn CPU time (master and workers, from /proc; its kernel share too) and
the Redis CPU time before and after, and the count of commands Redis ran. Prints, per worker
count, CPU ms per request, requests/s (actions/s for the service), Redis commands per request
(those sent and those scripts called: the floor's one round trip counts 3) and the service's
ratios to both references.

    .venv/bin/python bench/bench_overhead.py --workers 1,2 --players 8 --slice 3 --rounds 4

Each player asks for its game's review once it is finished, as the play page does (``GET
…/review``: its CPU counts, the request counts among the requests, not among the actions), so
that a review computed at the finish or on that request is counted wherever it runs; "CPU ms
per action" divides all the CPU by the actions alone.

``--baseline DIR`` runs the service of another tree (say ``/work/main``: its code first on the
servers' ``PYTHONPATH``, run by that tree's ``.venv`` when it has one, so with its own
dependencies) as a fourth target in the same interleaved slices, so that a change is measured
against the code it changes in the same run.

``--hookless`` adds the service with every request hook removed (http_load.hookless_app: no
request id, metrics, headers, ledger check or limit refunds; the routes and all they call the
same) as one more target: what the service would cost if its plumbing cost nothing, the lower
bound of any cut to it.

The players ask for minimal action answers (``Prefer: return=minimal``) as the play page does,
or the whole game with ``--whole-answers``; ``--accept-encoding`` sends their actions with a
browser's Accept-Encoding (say ``'gzip, deflate, br, zstd'``), so that an answer of 1 KB or more
is compressed, as a browser's is.

``--sticky`` serves the service (and the baseline) with one port per worker
(``YACHT_DAILY_WORKER_PORTS``) and routes each player as the nginx example does: a request
without the player cookie (a new player's first, creating its game) to a port at random, every
later one to the port the cookie's payload hashes to (CRC-32 modulo the ports: stable and
uniform like nginx's consistent hash, not its exact ring), so a player's game stays in one
worker's cache. A baseline tree then needs worker ports too (app/cli/worker_ports.py). The floor
and the bare endpoint keep their one shared port.

``--rate-limits`` counts the service's requests against (unreachable) limits in Redis, as
production runs them. The strategy tables come from ``--tables`` (built there first if missing),
so that no worker builds them during the run, and the slices start once every server is idle
(its workers have loaded them). Loopback only; at most 32 players, 10 s slices,
20 rounds.
"""

import argparse
import datetime as dt
import os
import random
import shutil
import sys
import tempfile
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench_load import (
    RULESETS,
    UNREACHABLE_LIMIT,
    gunicorn_cpu_seconds,
    gunicorn_cpu_split,
    redis_cpu_seconds,
    start_gunicorn,
)
from http_load import (
    BARE_KIND,
    BARE_PATH,
    FLOOR_KIND,
    MINIMAL,
    Measures,
    after_action,
    bare_request,
    next_move,
    run_players,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from app.ledger import secrets as keys  # noqa: E402
from app.ledger.days import earliest_today  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from fairness import DAILY_RULESETS  # noqa: E402
from strategy import load_or_build  # noqa: E402

MAX_PLAYERS = 32
MAX_SLICE = 10.0
MAX_ROUNDS = 20
SERVICE = "service"
BASELINE = "baseline"
HOOKLESS = "hookless"
SERVICES = (SERVICE, BASELINE, HOOKLESS)
TARGETS = (SERVICE, FLOOR_KIND, BARE_KIND)


@dataclass
class Tally:
    """What one target accumulated over its slices."""

    requests: int = 0
    actions: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    system_cpu: float = 0.0
    redis_cpu: float = 0.0
    redis_commands: int = 0
    errors: Counter = field(default_factory=Counter)

    def add(self, measures: Measures, seconds: float, cpu: tuple[float, float],
            redis_cpu: float, redis_commands: int) -> None:
        """Add one slice (``cpu``: gunicorn's user and system seconds)."""
        self.redis_commands += redis_commands
        self.requests += measures.requests
        self.actions += measures.actions
        self.seconds += seconds
        self.cpu += sum(cpu)
        self.system_cpu += cpu[1]
        self.redis_cpu += redis_cpu
        self.errors.update(measures.errors)

    def cpu_ms(self) -> float:
        """Gunicorn CPU ms per request."""
        return 1000 * self.cpu / max(1, self.requests)

    def system_share(self) -> float:
        """The kernel's share of the gunicorn CPU."""
        return self.system_cpu / self.cpu if self.cpu else 0.0

    def cpu_ms_per_action(self) -> float:
        """Gunicorn CPU ms per action: every request's CPU over the actions alone."""
        return 1000 * self.cpu / max(1, self.actions)


def player_port(ports: list[int], cookie: str) -> int:
    """The port of a player's requests, as the nginx example picks it: by a hash of the player
    cookie's payload (its value up to the timestamp and signature), one port of ``ports``."""
    value = cookie.split("=", 1)[1]
    return ports[zlib.crc32(value.rsplit(".", 2)[0].encode()) % len(ports)]


def play_until(ports: list[int], date: str, rng: random.Random, measures: Measures,
               deadline: float, headers: dict) -> None:
    """New players play whole games (as bench_load's do: minimal action answers, as the play
    page asks) until ``deadline``, each asking for its review at the end as the page does;
    each creates its game on any of ``ports``, then sends the rest to its own
    (``player_port``)."""
    while time.monotonic() < deadline:
        status, answer, set_cookie = measures.timed(
            "create", rng.choice(ports), "POST", "/api/v1/games",
            {"ruleset": rng.choice(RULESETS), "date": date})
        if status not in (200, 201):
            return
        cookie = set_cookie.split(";", 1)[0]
        port = player_port(ports, cookie)
        state = answer["game"]
        while state["status"] == "playing" and time.monotonic() < deadline:
            kind, body = next_move(state, rng)
            status, answer, _ = measures.timed(
                kind, port, "POST", f"/api/v1/games/{state['id']}/{kind}",
                {**body, "roll": state["next_action"], "token": state["token"]}, cookie,
                headers)
            if status != 200:
                return
            state = after_action(state, answer)
        if state["status"] == "finished":
            measures.timed("review", port, "GET", f"/api/v1/games/{state['id']}/review",
                           None, cookie)
            with measures.lock:
                measures.games += 1


def post_until(kind: str, port: int, number: int, measures: Measures, deadline: float) -> None:
    """POST roll-sized bodies to a reference endpoint until ``deadline``."""
    while time.monotonic() < deadline:
        measures.timed(kind, port, "POST", BARE_PATH, bare_request(number))
        number += 1


def redis_commands(redis_url: str) -> int:
    """How many commands the Redis server has run: those its clients sent, and those their
    scripts called (the floor's one EVALSHA counts 3: itself, LLEN and RPUSH)."""
    from app.platform.redis import connect

    return connect(redis_url).info("stats")["total_commands_processed"]


def counting_overhead(redis_url: str) -> int:
    """The commands one reading of the count costs (its connection's handshake and INFO)."""
    first = redis_commands(redis_url)
    return redis_commands(redis_url) - first


def action_headers(args) -> dict:
    """What the players send with an action: ``Prefer: return=minimal`` as the play page does
    (unless ``--whole-answers``), and ``--accept-encoding``'s value if given."""
    headers = {} if args.whole_answers else dict(MINIMAL)
    if args.accept_encoding:
        headers["Accept-Encoding"] = args.accept_encoding
    return headers


def run_slice(target: str, server, players: int, seconds: float, redis_url: str,
              date: str, seed: int, overhead: int,
              headers: dict) -> tuple[Measures, float, tuple[float, float], float, int]:
    """Load one server for ``seconds``, the actions sent with ``headers``: (measures, wall,
    gunicorn CPU (user, system), Redis CPU, Redis commands less the ``overhead`` of reading
    their count)."""
    measures = Measures()
    deadline = time.monotonic() + seconds
    if target in SERVICES:
        def work(n):
            """One player thread."""
            play_until(server.ports, date, random.Random(seed * 1000 + n), measures, deadline,
                       headers)
    else:
        def work(n):
            """One client thread."""
            post_until(target, server.port, n * 100000, measures, deadline)
    cpu, redis_cpu = gunicorn_cpu_split(server.process.pid), redis_cpu_seconds(redis_url)
    commands = redis_commands(redis_url)
    wall = run_players(players, list(range(players)), work)
    commands = redis_commands(redis_url) - commands - overhead
    cpu = tuple(after - before for after, before in zip(gunicorn_cpu_split(server.process.pid),
                                                        cpu, strict=True))
    redis_cpu = redis_cpu_seconds(redis_url) - redis_cpu
    return measures, wall, cpu, redis_cpu, commands


def wait_until_idle(master: int, timeout: float = 120.0) -> None:
    """Wait until a server, unloaded, spends under 5 % of a core (its workers have loaded the
    strategy tables, seconds of CPU each, which no slice should count)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = gunicorn_cpu_seconds(master)
        time.sleep(0.5)
        if gunicorn_cpu_seconds(master) - before < 0.025:
            return


def add_tree_options(parser: argparse.ArgumentParser) -> None:
    """The options naming the strategy tables' directory and a baseline tree."""
    parser.add_argument("--tables", type=Path, default=ROOT / "var" / "strategy",
                        help="the strategy tables' directory (built there if missing)")
    parser.add_argument("--baseline", type=Path,
                        help="another tree whose service runs beside this one (its code first "
                             "on the servers' PYTHONPATH)")


def prepare_trees(args) -> None:
    """Make ``args``' tables and baseline paths absolute (the servers run in a work directory
    of their own) and build the daily sheets' tables that are missing."""
    args.tables = args.tables.resolve()
    if args.baseline:
        args.baseline = args.baseline.resolve()
    for ruleset in DAILY_RULESETS:
        load_or_build(args.tables, ruleset)


def baseline_python(tree: Path) -> str:
    """The interpreter of ``tree``'s own virtual environment, else this one."""
    own = tree / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def bench_workers(args, workdir: Path, data_dir: Path, redis_url: str,
                  workers: int) -> dict[str, Tally]:
    """Start the servers on ``workers`` workers and run the interleaved slices."""
    env = {"REDIS_URL": redis_url, "YACHT_DAILY_DATA_DIR": str(data_dir),
           "YACHT_DAILY_STRATEGY_DIR": str(args.tables),
           # counted in the compare-and-set, per game (bench_load sets the others)
           "YACHT_DAILY_RATE_LIMIT_GAME_ACTIONS": UNREACHABLE_LIMIT}
    servers = {}
    targets = (SERVICE, *((BASELINE,) if args.baseline else ()),
               *((HOOKLESS,) if args.hookless else ()), *TARGETS[1:])
    try:
        servers[SERVICE] = start_gunicorn(workdir, workers, "sync", 1, env,
                                          rate_limits=args.rate_limits,
                                          worker_ports=args.sticky)
        if args.hookless:
            servers[HOOKLESS] = start_gunicorn(workdir, workers, "sync", 1, env,
                                               rate_limits=args.rate_limits,
                                               variant="hookless_app")
        if args.baseline:
            servers[BASELINE] = start_gunicorn(
                workdir, workers, "sync", 1, {**env, "PYTHONPATH": str(args.baseline)},
                rate_limits=args.rate_limits, python=baseline_python(args.baseline),
                worker_ports=args.sticky)
        servers[FLOOR_KIND] = start_gunicorn(workdir, workers, "sync", 1, env, bare=True,
                                             reference="floor_app")
        servers[BARE_KIND] = start_gunicorn(workdir, workers, "sync", 1, {}, bare=True)
        for server in servers.values():  # the workers' strategy tables loaded, threads idle
            wait_until_idle(server.process.pid)
        date = dt.datetime.now(dt.UTC).date().isoformat()
        overhead = counting_overhead(redis_url)
        headers = action_headers(args)
        for target in targets:  # warm every worker: imports, caches, connections
            run_slice(target, servers[target], args.players, 1.0, redis_url, date, -1, overhead,
                      headers)
        tallies = {target: Tally() for target in targets}
        for round_number in range(args.rounds):
            shift = round_number % len(targets)
            for target in targets[shift:] + targets[:shift]:
                tallies[target].add(*run_slice(target, servers[target], args.players,
                                               args.slice, redis_url, date, round_number,
                                               overhead, headers))
        return tallies
    finally:
        for server in servers.values():
            server.stop()


def print_table(args, results: dict[int, dict[str, Tally]]) -> None:
    """One Markdown table: each target's figures, then each service's ratios."""
    baseline = (f", baseline {args.baseline} run by {baseline_python(args.baseline)}"
                if args.baseline else "")
    print(f"{args.players} players, {args.rounds} rounds of {args.slice:g} s slices per "
          f"target, sync workers, rate limits {'counted' if args.rate_limits else 'off'}, "
          f"{'each player on one worker port' if args.sticky else 'one shared port'}, "
          f"{'whole' if args.whole_answers else 'minimal'} action answers, Accept-Encoding "
          f"{args.accept_encoding or 'none'}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end{baseline}")
    print()
    print("| workers | target | requests | req/s | actions/s | CPU ms/req gunicorn + redis "
          "| kernel share | CPU ms/action | Redis commands/req, in scripts too | errors |")
    print("|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for workers, tallies in results.items():
        for target, tally in tallies.items():
            is_service = target in SERVICES
            actions = f"{tally.actions / tally.seconds:.0f}" if is_service else "-"
            per_action = f"{tally.cpu_ms_per_action():.2f}" if is_service else "-"
            print(f"| {workers} | {target} | {tally.requests} | "
                  f"{tally.requests / tally.seconds:.0f} | {actions} | {tally.cpu_ms():.2f} + "
                  f"{1000 * tally.redis_cpu / max(1, tally.requests):.2f} | "
                  f"{100 * tally.system_share():.0f} % | {per_action} | "
                  f"{tally.redis_commands / max(1, tally.requests):.2f} | "
                  f"{sum(tally.errors.values())} |")
    print()
    print("| workers | service | CPU/req ÷ floor | CPU/action ÷ floor CPU/req | CPU/req ÷ bare "
          "| actions/s ÷ floor req/s |")
    print("|--:|---|--:|--:|--:|--:|")
    for workers, tallies in results.items():
        floor, bare = tallies[FLOOR_KIND], tallies[BARE_KIND]
        for name in SERVICES:
            if name not in tallies:
                continue
            service = tallies[name]
            print(f"| {workers} | {name} | {service.cpu_ms() / floor.cpu_ms():.2f} | "
                  f"{service.cpu_ms_per_action() / floor.cpu_ms():.2f} | "
                  f"{service.cpu_ms() / bare.cpu_ms():.2f} | "
                  f"{(service.actions / service.seconds) / (floor.requests / floor.seconds):.2f}"
                  f" |")


def main() -> None:
    """Parse the options and run every worker count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--slice", type=float, default=3.0, help="seconds per slice")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--rate-limits", action="store_true",
                        help="count the service's requests against (unreachable) limits")
    parser.add_argument("--hookless", action="store_true",
                        help="also serve the service with its request hooks removed")
    parser.add_argument("--accept-encoding", metavar="VALUE",
                        help="the actions' Accept-Encoding (a browser's: 'gzip, deflate, br, "
                             "zstd'; by default none, as HTTP libraries send)")
    parser.add_argument("--whole-answers", action="store_true",
                        help="actions answered with the whole game (no Prefer: return=minimal)")
    parser.add_argument("--sticky", action="store_true",
                        help="one port per worker for the service (and the baseline), each "
                             "player routed to one by a hash of its cookie, as nginx does")
    add_tree_options(parser)
    args = parser.parse_args()
    if args.sticky and args.baseline and not (
            args.baseline / "app" / "cli" / "worker_ports.py").exists():
        parser.error(f"--sticky: the baseline {args.baseline} has no worker ports "
                     f"(app/cli/worker_ports.py)")
    if not (1 <= args.players <= MAX_PLAYERS and 0 < args.slice <= MAX_SLICE
            and 1 <= args.rounds <= MAX_ROUNDS):
        parser.error(f"--players 1..{MAX_PLAYERS}, --slice up to {MAX_SLICE:g}, "
                     f"--rounds 1..{MAX_ROUNDS}")
    prepare_trees(args)
    workdir = Path(tempfile.mkdtemp(prefix="yd-overhead-", dir="/tmp"))
    try:
        data_dir = workdir / "var"
        keys.initialise(data_dir, earliest_today(dt.datetime.now(dt.UTC)), 30)
        with EmbeddedRedis(workdir / "redis") as redis_server:
            results = {workers: bench_workers(args, workdir, data_dir, redis_server.url, workers)
                       for workers in (int(count) for count in args.workers.split(","))}
        print_table(args, results)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
