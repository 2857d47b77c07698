"""The CPU of a table's actions in one process: what an action costs the worker that serves it,
without the machine's load, the event loop or the other worker in the figure.

The app (``create_app``) on a real redis-server (unix socket, fsync always), the Flask test
client as the two humans of each table (Yacht, 2 humans and the easy and medium bots, the 45 s
clock): each human rolls once and fills the box that scores most, as bench_tables.py's do, and
``time.thread_time`` is read around each POST (the action, the bots' turns it hands over, its
events, its answer). Then the table's events are read twice from the start through the SSE
response's generator (two streams' deliveries, without the sockets). Starts are timed too.

    .venv/bin/python bench/bench_table_actions.py --tables 6
    /work/main/.venv/bin/python bench/bench_table_actions.py --root /work/main   # another tree

Interleave runs of two checkouts (``--root``, run with that checkout's venv) to compare code:
the figure is CPU time, but a loaded machine still inflates it (shared caches), so compare
ratios in one run.
"""

import argparse
import datetime as dt
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

API = "/api/v1"
SEATS = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]
READY_TIMEOUT = 120.0
STREAMS = 2


def wait_ready(app) -> None:
    """Wait until the app's strategy tables are loaded (``/readyz`` answers 200)."""
    deadline = time.monotonic() + READY_TIMEOUT
    while app.test_client().get("/readyz").status_code != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the app was not ready within {READY_TIMEOUT:.0f} s")
        time.sleep(0.3)


def play_table(app, index: int) -> tuple[str, float, float, int]:
    """Seat, start and play one table whole; (its id, CPU seconds of its start, of its
    actions, the number of actions posted)."""
    ann, bob = app.test_client(), app.test_client()
    created = ann.post(f"{API}/tables", json={
        "ruleset": "yacht", "seats": SEATS, "clock": 45, "name": "Ann",
        "client_seed": f"ann-{index}"}).get_json()["table"]
    table_id = created["id"]
    bob.post(f"{API}/tables/{table_id}/join", json={"name": "Bob", "client_seed": f"bob-{index}"})
    began = time.thread_time()
    match = ann.post(f"{API}/tables/{table_id}/start", json={}).get_json()["table"]["match"]
    start_cpu = time.thread_time() - began
    clients, action_cpu, posts = {0: ann, 1: bob}, 0.0, 0
    while match["status"] == "playing":
        client, number = clients[match["turn"]], match["next_action"]
        began = time.thread_time()
        rolled = client.post(f"{API}/tables/{table_id}/roll",
                             json={"hold": None, "roll": number}).get_json()["table"]["match"]
        previews = rolled["play"]["previews"]
        box = max(previews, key=lambda name: previews[name])
        match = client.post(f"{API}/tables/{table_id}/score",
                            json={"category": box, "roll": number + 1}).get_json()["table"]["match"]
        action_cpu += time.thread_time() - began
        posts += 2
    return table_id, start_cpu, action_cpu, posts


def deliveries_cpu(app, table_id: str) -> tuple[float, int]:
    """CPU seconds of reading a table's events STREAMS times through the SSE generator, and
    the messages written."""
    from app.services import services
    from app.tables.sse import table_events

    with app.test_request_context():
        channel = services().tables.channel
        began, messages = time.thread_time(), 0
        for _ in range(STREAMS):
            for _message in table_events(channel, table_id, "0-0", dict, max_seconds=5,
                                         block_ms=1):
                messages += 1
        return time.thread_time() - began, messages


def run(tables: int, root: Path, workdir: Path) -> None:
    """Play ``tables`` tables one after another on the app of checkout ``root`` and print the
    CPU per action and per start."""
    sys.path[:0] = [str(root)]
    from app import create_app
    from app.ledger import secrets as keys
    from app.platform.embedded import EmbeddedRedis

    data_dir = workdir / "var"
    keys.initialise(data_dir, dt.datetime.now(dt.UTC).date(), 30)
    with EmbeddedRedis(workdir / "redis") as server:
        app = create_app({"REDIS_URL": server.url, "DATA_DIR": str(data_dir),
                          "RATE_LIMITS": "off"})
        wait_ready(app)
        starts = actions = sse = 0.0
        posts = messages = 0
        for index in range(tables):
            table_id, start_cpu, action_cpu, posted = play_table(app, index)
            starts, actions, posts = starts + start_cpu, actions + action_cpu, posts + posted
            delivered, written = deliveries_cpu(app, table_id)
            sse, messages = sse + delivered, messages + written
    print(f"{root.name}: {tables} tables, {posts} actions: {1000 * actions / posts:.2f} ms CPU "
          f"an action (its bots' turns, events and answer); the deliveries to {STREAMS} "
          f"streams {1000 * sse / posts:.2f} ms an action ({messages} messages); a start "
          f"{1000 * starts / tables:.2f} ms")


def main() -> None:
    """Parse the arguments and run in a scratch directory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=6, help="tables played (1 to 50)")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout whose app is measured (default: this one)")
    args = parser.parse_args()
    if not 1 <= args.tables <= 50:
        parser.error("--tables is 1 to 50")
    os.environ.setdefault("YACHT_DAILY_RATE_LIMITS", "off")
    workdir = Path(tempfile.mkdtemp(prefix="yd-bench-table-actions-"))
    try:
        run(args.tables, args.root.resolve(), workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
