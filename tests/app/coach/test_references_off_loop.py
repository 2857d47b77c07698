"""A revealed day's references (each sheet's perfect game and foresight maximum, about a
second of CPU a sheet) are computed off a gevent worker's event loop: in a gevent-patched
process the loop keeps turning meanwhile, as every request and event stream of the worker
needs; anywhere else they are the same references."""

import json
import subprocess
import sys

from app.services import EXTENSION
from strategy import play_game

GEVENT_WORKER = """
import json, sys
from gevent import monkey
monkey.patch_all()
import gevent
from app import create_app
from app.services import EXTENSION

redis_url, data_dir, tables_dir, date = sys.argv[1:]
app = create_app({"TESTING": True, "REDIS_URL": redis_url, "DATA_DIR": data_dir,
                  "STRATEGY_DIR": tables_dir})
services = app.extensions[EXTENSION]
assert services.coach.tables.wait(300)
turns = 0

def turn():
    global turns
    while True:
        gevent.sleep(0.001)
        turns += 1

gevent.spawn(turn)
gevent.sleep(0.01)
commands_before = services.game_store.client.info("stats")["total_commands_processed"]
turns_before = turns
references = services.coach.compute_references(date)
print(json.dumps({"sheets": sorted(references), "turns": turns - turns_before,
                  "commands": services.game_store.client.info("stats")["total_commands_processed"]
                              - commands_before - 1}))
"""


def test_a_gevent_worker_turns_its_loop_while_the_references_are_computed(
        redis_client, redis_url, data_dir, strategy_tables_dir, play_date):
    """On the loop, the ticking greenlet could run at most once per Redis reply the
    computation waits for (no time passes on the loop otherwise); off it, it ticks throughout
    the seconds of CPU."""
    done = subprocess.run([sys.executable, "-c", GEVENT_WORKER, redis_url, str(data_dir),
                           str(strategy_tables_dir), play_date],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    assert len(seen["sheets"]) >= 3
    assert seen["turns"] > 10 * (seen["commands"] + 1)


def test_without_gevent_they_are_each_sheets_perfect_game_and_its_upper_bound(app, play_date):
    coach = app.extensions[EXTENSION].coach
    assert coach.tables.wait(300)
    references = coach.compute_references(play_date)
    assert sorted(references) == sorted(coach.secrets.rulesets_for(play_date))
    for ruleset, reference in references.items():
        table = coach.tables.get(ruleset)
        perfect = play_game(table, coach.secrets.stream(play_date, ruleset))
        assert reference["optimum"] == table.optimum
        assert reference["perfect"] == {"total": perfect.totals().total,
                                        "transcript": list(perfect.transcript)}
        assert reference["foresight"]["total"] >= perfect.totals().total
        assert reference["scouting"] == 0
