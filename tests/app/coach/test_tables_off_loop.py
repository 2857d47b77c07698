"""The strategy tables a table's bots need are read off a gevent worker's event loop: in a
gevent-patched process the work runs in gevent's native thread pool (every request and event
stream of the worker keeps being served meanwhile); anywhere else it is a plain call."""

import subprocess
import sys
import threading

from app.coach.tables import off_the_loop

GEVENT_WORKER = """
import sys
from gevent import monkey
monkey.patch_all()
from gevent.monkey import get_original
from app.coach.tables import TableSource, off_the_loop
native_thread = get_original("threading", "get_ident")
print(off_the_loop(native_thread) != native_thread())
source = TableSource(sys.argv[1], ["yacht"])
print(source.wait(120), source.get("yacht").ruleset_id)
"""


def test_a_gevent_process_loads_tables_in_another_native_thread(strategy_tables_dir):
    done = subprocess.run([sys.executable, "-c", GEVENT_WORKER, str(strategy_tables_dir)],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "yacht"]


def test_without_gevent_the_work_is_a_plain_call():
    assert off_the_loop(threading.get_ident) == threading.get_ident()
