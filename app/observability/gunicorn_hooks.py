"""Gunicorn hooks and settings shared by deploy/gunicorn.conf.py and ``yacht-daily serve``.

Metrics of all workers are merged through files in ``PROMETHEUS_MULTIPROC_DIR``. The master
sets it (a private temporary directory unless the operator gave one) before forking any
worker, and never imports prometheus_client before that: the library picks its storage when
first imported.
"""

import gc
import glob
import os
import shutil
import tempfile
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.ledger.reveal_runner import RevealRunner

METRICS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
OWNED_MARK = "YACHT_DAILY_OWNS_METRICS_DIR"


def on_starting(server) -> None:
    """Give the workers an empty metrics directory (old workers' files would be counted), then,
    with it set, load what every worker needs once for them all (``app.preload``: it imports
    prometheus_client)."""
    metrics_dir = os.environ.get(METRICS_DIR_VARIABLE)
    if not metrics_dir:
        metrics_dir = tempfile.mkdtemp(prefix="yacht-daily-metrics-")
        os.environ[METRICS_DIR_VARIABLE] = metrics_dir
        os.environ[OWNED_MARK] = metrics_dir
    os.makedirs(metrics_dir, mode=0o700, exist_ok=True)
    for stale in glob.glob(os.path.join(metrics_dir, "*.db")):
        os.remove(stale)
    from app import preload

    preload()


def post_worker_init(worker) -> None:
    """Start the worker's reveal thread (app/ledger/reveal_runner.py): the worker that finds a date
    due and takes the Redis lease reveals it; requests never do. And its turn clock thread
    (app/tables/turn_clock.py): whichever worker claims a table's due turn plays it. Then put
    admission control in front of its app (app/observability/admission.py): past the queue
    budget a request is refused with 503 instead of queued."""
    from app.observability import admission
    from app.tables import start_turn_clock

    start_reveal_runner(worker.wsgi)
    start_turn_clock(worker.wsgi)
    admission.install_in(worker)
    freeze_startup_objects()


def freeze_startup_objects() -> None:
    """Move what the worker made before its first request (modules, the app and its services:
    over 100,000 objects, which live as long as it does) to the garbage collector's permanent
    generation, so that its full collections walk only what requests made since: each walked
    them all, some 50 ms of a request's time (docs/performance.md)."""
    gc.collect()
    gc.freeze()


def worker_exit(server, worker) -> None:
    """Give what ``freeze_startup_objects`` froze back to the collector as the worker exits, so
    that the interpreter's shutdown finalizes it while the modules it needs are still there (a
    frozen logging handler's finalizer otherwise ran after them: a traceback at every exit)."""
    gc.unfreeze()


def child_exit(server, worker) -> None:
    """Drop a dead worker's live gauges from the merged metrics."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    """Remove the metrics directory ``on_starting`` made."""
    owned = os.environ.get(OWNED_MARK)
    if owned and owned == os.environ.get(METRICS_DIR_VARIABLE):
        shutil.rmtree(owned, ignore_errors=True)


SERVER_SETTINGS = {
    "accesslog": "-",
    "errorlog": "-",
    "logger_class": "app.observability.logs.GunicornJsonLogger",
    "on_starting": on_starting,
    "post_worker_init": post_worker_init,
    "worker_exit": worker_exit,
    "child_exit": child_exit,
    "on_exit": on_exit,
}


def reveal_runner(app) -> "RevealRunner | None":
    """The reveal runner of a Yacht Daily app (a bare WSGI app has none), counting its reveals
    and failures in the metrics, unless the app's ``REVEAL_IN_WORKERS`` is off (then only
    ``yacht-daily reveal`` reveals)."""
    from app.ledger.reveal_runner import RevealRunner
    from app.observability.metrics import REVEAL_FAILURES, REVEALS
    from app.services import EXTENSION

    extensions = getattr(app, "extensions", {})
    if EXTENSION not in extensions or not app.config.get("REVEAL_IN_WORKERS", True):
        return None
    return RevealRunner(extensions[EXTENSION], on_revealed=REVEALS.inc,
                        on_failure=lambda error_type: REVEAL_FAILURES.labels(error_type).inc())


def start_reveal_runner(app) -> "RevealRunner | None":
    """Start the app's reveal runner in its thread (``reveal_runner``)."""
    runner = reveal_runner(app)
    if runner is not None:
        runner.start()
    return runner
