"""What a gunicorn worker does once it has loaded the app and as it exits
(app/observability/gunicorn_hooks.py), in a fresh interpreter as a worker's own."""

import subprocess
import sys

FROZEN_THEN_GIVEN_BACK = """
import gc
from importlib import import_module

from app import API_FEATURES
from app.observability.gunicorn_hooks import SERVER_SETTINGS, freeze_startup_objects

for feature in API_FEATURES:
    import_module(f"app.{feature}.routes")
import_module("app.api.routes")

loaded = len(gc.get_objects())
freeze_startup_objects()
frozen, left = gc.get_freeze_count(), len(gc.get_objects())
SERVER_SETTINGS["worker_exit"](None, None)
print(loaded, frozen, left, gc.get_freeze_count())
"""


def test_a_worker_freezes_what_it_loaded_and_gives_it_back_as_it_exits():
    """Every object the loaded app holds moves to the permanent generation, leaving the
    generations a full collection walks empty; the exit hook puts them back, so that the
    interpreter's shutdown finalizes them while their modules are still there (tests/ops/
    test_serve_command.py checks a served game's log holds no traceback)."""
    result = subprocess.run([sys.executable, "-c", FROZEN_THEN_GIVEN_BACK], capture_output=True,
                            text=True, check=True)
    loaded, frozen, left, after_exit = map(int, result.stdout.split())
    assert loaded > 50_000
    assert frozen >= loaded - 1_000  # the garbage collected first is not frozen
    assert left == 0
    assert after_exit == 0
