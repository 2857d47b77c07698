"""Gunicorn run from Python: the same settings whichever WSGI app it serves, and, for ``serve``,
a master that also keeps the embedded Redis alive."""

import sys
import warnings
from collections.abc import Callable

from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter
from gunicorn.errors import HaltServer

from app.observability.gunicorn_hooks import SERVER_SETTINGS
from app.platform.embedded import RedisGaveUp, RedisSupervisor

# EX_UNAVAILABLE (sysexits.h): the service cannot work; systemd / Docker restart it.
REDIS_GAVE_UP_EXIT = 69
WORKER_CLASSES = ("gevent", "sync", "gthread")
LOG_FORMATS = ("json", "text")
TEXT_ACCESS_FORMAT = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'


class SupervisingArbiter(Arbiter):
    """Gunicorn's master, which also restarts the embedded Redis whenever it has died (checked
    on every turn of the master's loop: at once on SIGCHLD, else at least once a second), and
    halts the whole server with ``REDIS_GAVE_UP_EXIT`` when that keeps failing."""

    def __init__(self, app, make_supervisor: Callable[[object], RedisSupervisor]):
        """A master for ``app``, with the supervisor ``make_supervisor`` builds on its logger."""
        super().__init__(app)
        self.supervisor = make_supervisor(self.log)

    def manage_workers(self) -> None:
        """Check the embedded Redis, then maintain the workers as gunicorn does."""
        try:
            self.supervisor.check()
        except RedisGaveUp as error:
            raise HaltServer(str(error), REDIS_GAVE_UP_EXIT) from None
        super().manage_workers()


class GunicornServer(BaseApplication):
    """Serve the app an ``app_factory`` builds, once per worker after the fork."""

    def __init__(self, app_factory: Callable, options: dict,
                 redis_supervisor: Callable[[object], RedisSupervisor] | None = None):
        """Keep the factory, the gunicorn settings (``bind``, ``workers``, ``threads`` …) and,
        when the server owns a Redis, how to supervise it (given gunicorn's logger)."""
        self.app_factory = app_factory
        self.options = options
        self.redis_supervisor = redis_supervisor
        super().__init__()

    def load_config(self) -> None:
        """Apply the settings."""
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        """Build the WSGI app in the worker, so Redis connections open after the fork."""
        return self.app_factory()

    def run(self) -> None:
        """Run gunicorn's master (the supervising one when there is a Redis to watch)."""
        if self.redis_supervisor is None:
            super().run()
            return
        try:
            SupervisingArbiter(self, self.redis_supervisor).run()
        except RuntimeError as error:
            print(f"\nError: {error}\n", file=sys.stderr, flush=True)
            sys.exit(1)


def running_message(server) -> str:
    """The line that tells where the site is, once gunicorn listens."""
    url = str(server.LISTENERS[0]) if server.LISTENERS else server.cfg.bind[0]
    return f"Yacht Daily is running at {url} (Ctrl-C to stop)"


def print_running_message(server) -> None:
    """Tell a person at a terminal where the site is, in a plain line."""
    print(running_message(server), file=sys.stderr, flush=True)


def log_running_message(server) -> None:
    """Say where the site is as an ordinary (JSON) log line."""
    server.log.info(running_message(server))


def quiet_late_patching(server, worker) -> None:
    """In a new gevent worker, before it monkey-patches: drop gevent's warning that ``ssl`` was
    imported first. Gunicorn itself imports ``ssl`` before its gevent worker patches; gevent
    then patches the module's own names, which is what redis-py uses."""
    from gevent.monkey import MonkeyPatchWarning

    warnings.filterwarnings("ignore", category=MonkeyPatchWarning)


def server_options(bind: str, workers: int, threads: int, worker_class: str | None = None,
                   log_format: str = "json") -> dict:
    """The gunicorn settings ``serve`` uses (and the benchmark's bare endpoint too).

    ``worker_class`` defaults to ``gthread`` with more than one thread, else ``sync``; ``serve``
    passes ``gevent`` (docs/performance.md). ``log_format`` ``text`` writes gunicorn's plain
    lines instead of JSON.
    """
    options = {
        **SERVER_SETTINGS,
        "bind": bind,
        "workers": workers,
        "threads": threads,
        "worker_class": worker_class or ("gthread" if threads > 1 else "sync"),
        "preload_app": False,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "yacht-daily",
        "control_socket_disable": True,
        "when_ready": log_running_message,
    }
    if options["worker_class"] == "gevent":
        options["post_fork"] = quiet_late_patching
    if log_format == "text":
        options.update(logger_class="gunicorn.glogging.Logger",
                       access_log_format=TEXT_ACCESS_FORMAT, when_ready=print_running_message)
    return options
