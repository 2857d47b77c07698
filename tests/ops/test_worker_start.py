"""What a gunicorn worker does once it has loaded the app (app/observability/gunicorn_hooks.py),
in a fresh interpreter as a worker's own."""

import subprocess
import sys

FROZEN_AND_LEFT = """
import gc
import app.api.routes
from app.observability.gunicorn_hooks import freeze_startup_objects

loaded = len(gc.get_objects())
freeze_startup_objects()
print(loaded, gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_a_worker_freezes_what_it_loaded_so_full_collections_skip_it():
    """Every object the loaded app holds moves to the permanent generation: the collector's
    generations, which a full collection walks, are left empty."""
    result = subprocess.run([sys.executable, "-c", FROZEN_AND_LEFT], capture_output=True,
                            text=True, check=True)
    loaded, frozen, left = map(int, result.stdout.split())
    assert loaded > 50_000
    assert frozen >= loaded - 1_000  # the garbage collected first is not frozen
    assert left == 0
