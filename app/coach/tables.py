"""The strategy tables of one process: one ``strategy.TableCache`` per process and directory,
warmed by a background thread (the tables already saved first, or read by a server's master
before the fork: ``preload_tables``).

Only one process builds a missing table: the thread takes an exclusive file lock of that
table's own (``.<table file>.lock`` beside the tables) around it, so the other workers wait on
the lock and then load the file the builder saved, while a sheet whose table is another file
never waits behind that build. Nothing waits for the tables: what needs one raises
``ValueTablesNotReady`` until it is loaded. In a gevent worker the loading, building and lock
waiting run in gevent's native thread pool, never on the event loop.
"""

import contextlib
import fcntl
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import strategy
from fairness.sheets import DAILY_RULESETS_WITH_YATZY
from strategy import ValueTablesNotReady

LOAD_WAIT_SECONDS = 5.0

log = logging.getLogger(__name__)
T = TypeVar("T")


def lock_file(directory: Path, ruleset: str) -> Path:
    """The build lock of ``ruleset``'s table file in ``directory``: one per file, so sheets
    that share a table (triple Yahtzee reads Yahtzee's) share its lock."""
    table = strategy.table_file(directory, ruleset)
    return table.with_name(f".{table.name}.lock")


@contextlib.contextmanager
def _file_lock(directory: Path, ruleset: str):
    """Hold the exclusive build lock of ``ruleset``'s table in ``directory`` (blocks until it
    is free)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(lock_file(directory, ruleset), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def off_the_loop(function: Callable[..., T], *args) -> T:
    """``function(*args)`` in gevent's pool of native threads when this process runs on gevent
    (a gunicorn gevent worker): reading a table file, checking its digest, building it and
    waiting on the build lock are seconds of CPU or blocking calls that would otherwise stall
    every request and event stream of the worker. Called directly anywhere else."""
    if not monkey_patched():
        return function(*args)
    import gevent

    return gevent.get_hub().threadpool.apply(function, args)


def monkey_patched() -> bool:
    """True when gevent has patched ``threading`` in this process."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("threading")


class TableSource:
    """The daily sheets' tables of one directory in this process, warmed in the background
    (every sheet that is a daily challenge in some epoch: Yatzy's, the largest, last)."""

    def __init__(self, directory: Path, rulesets: Sequence[str] = DAILY_RULESETS_WITH_YATZY):
        """Serve ``rulesets``' tables from ``directory`` (nothing is read yet)."""
        self.directory = Path(directory)
        self.rulesets = tuple(rulesets)
        self.cache = strategy.TableCache(self.directory)
        self._ready: set[str] = set()
        self._tables: dict[str, strategy.Table] = {}
        self._loaded = {ruleset: threading.Event() for ruleset in self.rulesets}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        for ruleset in self.rulesets:
            preloaded = _preloaded.get((self.directory.resolve(), ruleset))
            if preloaded is not None:
                self._keep(ruleset, preloaded)

    def start(self) -> None:
        """Start warming the tables (once per process; later calls do nothing)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._warm, daemon=True,
                                                name="strategy-tables")
                self._thread.start()

    def _keep(self, ruleset: str, table: strategy.Table) -> None:
        """``ruleset``'s table is loaded: serve it."""
        self._tables[ruleset] = table
        self._ready.add(ruleset)
        self._loaded[ruleset].set()

    def get(self, ruleset: str) -> strategy.Table:
        """The loaded table of ``ruleset``, or ValueTablesNotReady (warming starts if need be).

        While a saved file is only being read (a restart: well under a second), this waits
        up to LOAD_WAIT_SECONDS for it rather than answer "being computed"; a build is never
        waited for.
        """
        if ruleset not in self._ready:
            self.start()
            path = strategy.table_file(self.directory, ruleset)
            if path.exists():
                self._loaded[ruleset].wait(LOAD_WAIT_SECONDS)
        if ruleset not in self._ready:
            raise ValueTablesNotReady(f"the {ruleset} strategy table is being computed")
        return self._tables[ruleset]  # the warming thread's copy: not even the cache's lock

    def ready(self, ruleset: str) -> bool:
        """True once ``ruleset``'s table is loaded in this process."""
        return ruleset in self._ready

    def wait(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds for every table; True when all are loaded."""
        self.start()
        self._thread.join(timeout)
        return self._ready.issuperset(self.rulesets)

    def _warm(self) -> None:
        """Load or build each table in turn, one process at a time per table file, the saved
        ones first so that none waits behind a build, off the event loop of a gevent worker
        (``off_the_loop``)."""
        missing = [ruleset for ruleset in self.rulesets if ruleset not in self._ready]
        saved_first = sorted(missing, key=lambda ruleset: not strategy.table_file(
            self.directory, ruleset).exists())
        for ruleset in saved_first:
            try:
                self._keep(ruleset, off_the_loop(self._load_or_build, ruleset))
            except Exception:  # the tables stay "being computed"; the log says why
                log.exception("could not build or load the %s strategy table", ruleset)
                return
            log.info("strategy table %s ready", ruleset,
                     extra={"event": "strategy-table", "ruleset": ruleset})

    def _load_or_build(self, ruleset: str) -> strategy.Table:
        """``ruleset``'s table, loaded into the cache (built first if no process has), under
        the build lock of its table file."""
        with _file_lock(self.directory, ruleset):
            return self.cache.wait(ruleset)


_sources: dict[tuple[Path, tuple[str, ...]], TableSource] = {}
_sources_lock = threading.Lock()
_preloaded: dict[tuple[Path, str], strategy.Table] = {}


def preload_tables(directory: Path,
                   rulesets: Sequence[str] = DAILY_RULESETS_WITH_YATZY) -> None:
    """Read the saved tables of ``rulesets`` in ``directory`` now, for the TableSources made
    later in this process or in its forks (a server's master, before it forks its workers: they
    start with the tables loaded, and share their memory). Builds nothing, starts no thread and
    makes no lock or event a gevent worker would inherit; a missing or refused file is left to
    the sources' warming threads."""
    directory = Path(directory).resolve()
    for ruleset in rulesets:
        with contextlib.suppress(strategy.TableFileError):
            _preloaded[directory, ruleset] = strategy.load_table(
                strategy.table_file(directory, ruleset), ruleset)


def table_source(directory: Path,
                 rulesets: Sequence[str] = DAILY_RULESETS_WITH_YATZY) -> TableSource:
    """The process's TableSource of ``rulesets`` in ``directory`` (apps of one process share
    it)."""
    key = (Path(directory).resolve(), tuple(rulesets))
    with _sources_lock:
        if key not in _sources:
            _sources[key] = TableSource(key[0], key[1])
        return _sources[key]
