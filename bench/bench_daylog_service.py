"""The day's log in the service: what keeping it costs per finished game, v2 against v1.

    .venv/bin/python bench/bench_daylog_service.py                 # 300 games per format
    .venv/bin/python bench/bench_daylog_service.py --games 1000 --per-minute 200

On an embedded redis-server (a Unix socket), two game services on one Redis and one data
directory — one starting its dates in v1, one in v2 (the day's log) — bring ``--games`` games
each to their last box, then finish them **interleaved** (v1, v2, v1, …) through
``GameService.act``, counting for each finishing action the Redis round trips (one per packet
the client sends: a pipeline is one) and the CPU seconds of this process and of redis-server.
The v2 games finish ``--per-minute`` per minute of the test clock; after each minute the
checkpoint job (``LogService.cut_due``, as the reveal runner's thread runs it) cuts the
minute's checkpoint, timed and counted the same way, and so is the close. Printed per finished
game.
"""

import argparse
import datetime as dt
import random
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis.connection  # noqa: E402

from app import create_app  # noqa: E402
from app.daily.service import Roll, Score  # noqa: E402
from app.ledger import secrets as keys  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.services import EXTENSION  # noqa: E402
from fairness import get_ruleset  # noqa: E402
from fairness.game import NO_HOLD  # noqa: E402

DATES = {"1": "2026-03-10", "2": "2026-03-11"}  # the v1 service starts one, the v2 the other
SHEET = "yacht"


class Clock:
    """A settable clock for the services."""

    def __init__(self, moment: dt.datetime):
        """Start at ``moment``."""
        self.now = moment

    def __call__(self) -> dt.datetime:
        """The time now."""
        return self.now


class RoundTrips:
    """Counts the packets every redis-py connection sends (a command or a whole pipeline)."""

    def __init__(self):
        """Wrap the connection's send."""
        self.count = 0
        original = redis.connection.AbstractConnection.send_packed_command

        def counted(connection, command, check_health=True):
            """Count, then send."""
            self.count += 1
            return original(connection, command, check_health)

        redis.connection.AbstractConnection.send_packed_command = counted


def cpu() -> float:
    """CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def server_cpu(client) -> float:
    """CPU seconds redis-server has used so far."""
    info = client.info("cpu")
    return info["used_cpu_user"] + info["used_cpu_sys"]


def one_box_left(services, player: str, date: str, rng: random.Random) -> tuple[str, int]:
    """Start ``player``'s game on ``date`` and play it up to its last box, the dice rolled:
    (game id, the finishing action's number)."""
    _, played = services.games.start(player, SHEET, date, None)
    boxes = len(get_ruleset(SHEET).categories)
    while True:
        game, number = played.game, played.game.next_action
        if game.dice is not None and len(game.boxes) == boxes - 1:
            return played.record.id, number
        if game.dice is None or (game.rolls_left > 0 and rng.random() < 0.5):
            action = Roll(NO_HOLD)
        else:
            action = Score(game.placement().allowed[0])
        played = services.games.act(played.record.id, player, number, action)


def main(argv=None) -> int:
    """Prepare, finish interleaved, cut checkpoints, print the per-game costs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--per-minute", type=int, default=100)
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-log-"))
    data_dir = workdir / "var"
    keys.initialise(data_dir, dt.date(2026, 3, 1), 400)
    clock = Clock(dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC))
    with EmbeddedRedis(workdir / "redis") as server:
        apps = {fmt: create_app({"TESTING": True, "REDIS_URL": server.url,
                                 "DATA_DIR": str(data_dir), "CLOCK": clock,
                                 "DAY_FORMAT": fmt, "STRATEGY_BACKGROUND": False})
                for fmt in ("1", "2")}
        services = {fmt: app.extensions[EXTENSION] for fmt, app in apps.items()}
        for service in services.values():
            service.games.finish_listeners.clear()  # the coach's review is not the log's cost
        rng = random.Random(1)
        pending = {"1": [], "2": []}
        for fmt, date in DATES.items():
            for number in range(args.games):
                player = f"bench-{fmt}-{number}"
                pending[fmt].append((player, *one_box_left(services[fmt], player, date, rng)))
        trips = RoundTrips()
        client = services["2"].game_store.client
        totals = {key: [0, 0.0, 0.0] for key in ("1", "2", "cut", "close")}
        cuts = 0

        def measured(key: str, work) -> None:
            """Run ``work``, adding its round trips and CPU (ours, redis-server's) to ``key``."""
            before = (trips.count, cpu(), server_cpu(client))
            work()
            after = (trips.count, cpu(), server_cpu(client))
            trips.count -= 1  # the INFO read of server_cpu
            totals[key][0] += after[0] - before[0] - 1
            totals[key][1] += after[1] - before[1]
            totals[key][2] += after[2] - before[2]

        for position in range(args.games):
            for fmt in ("1", "2"):
                player, game_id, number = pending[fmt][position]
                box = services[fmt].games.get(game_id).game.placement().allowed[0]
                measured(fmt, lambda f=fmt, g=game_id, p=player, n=number, b=box:
                         services[f].games.act(g, p, n, Score(b)))
            if (position + 1) % args.per_minute == 0 or position + 1 == args.games:
                clock.now += dt.timedelta(minutes=1)
                measured("cut", lambda: services["2"].logs.cut_due())
                cuts += 1
        clock.now = dt.datetime(2026, 3, 12, 13, 0, 30, tzinfo=dt.UTC)
        measured("close", lambda: services["2"].logs.close(DATES["2"]))
    print(f"{args.games} games finished per format, interleaved; {cuts} checkpoints of "
          f"~{args.per_minute} games, then the close")
    print("per finished game            round trips   client CPU µs   redis CPU µs")
    for key, label in (("1", "finishing action, v1"), ("2", "finishing action, v2"),
                       ("cut", "checkpoints, v2"), ("close", "the close, v2")):
        count, ours, theirs = totals[key]
        print(f"{label:<28} {count / args.games:>11.2f}   {ours / args.games * 1e6:>13.0f}   "
              f"{theirs / args.games * 1e6:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
