"""Production-shaped processes for the operations tests: gunicorn started with
deploy/gunicorn.conf.py exactly as the Dockerfile and the systemd unit start it, a redis-server
that a test may kill -9 and start again on the same files, and players that retry.

Everything listens on loopback or on unix sockets in short temporary directories, and every
process a test starts is stopped by its fixture.
"""

import contextlib
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import redis

from app.clock import format_timestamp
from app.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class KillableRedis:
    """The embedded Redis's exact command line (unix socket, AOF with fsync always), run by the
    test so that it can be killed with SIGKILL and started again on the same files."""

    def __init__(self, directory: Path):
        """Prepare a server keeping its socket and AOF in ``directory``."""
        self.embedded = EmbeddedRedis(directory)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The redis-py URL of its socket."""
        return self.embedded.url

    def start(self) -> "KillableRedis":
        """Start the server (replaying its AOF) and wait until it answers."""
        self.embedded.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.embedded.socket_path.unlink(missing_ok=True)
        self.process = subprocess.Popen(self.embedded.command_line(), stdin=subprocess.DEVNULL,
                                        start_new_session=True)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            with contextlib.suppress(redis.ConnectionError, redis.BusyLoadingError):
                if client.ping():
                    return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final fsync; what was acknowledged must already be on disk."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Stop it if it runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class DeployedServer:
    """``gunicorn -c deploy/gunicorn.conf.py`` on a loopback port, on a given Redis and data
    directory, its time read from a clock file."""

    def __init__(self, workdir: Path, data_dir: Path, redis_url: str, workers: int = 2,
                 clock_file: Path | None = None, extra_env: dict | None = None):
        """Start the server and wait until /healthz answers."""
        self.workdir = workdir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_file = workdir / f"gunicorn-{self.port}.log"
        env = {**os.environ, "REDIS_URL": redis_url, "YACHT_DAILY_DATA_DIR": str(data_dir),
               "YACHT_DAILY_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": str(workers),
               "YACHT_DAILY_RATE_LIMITS": "off", "PYTHONUNBUFFERED": "1",
               **(extra_env or {})}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        if clock_file is not None:
            env["YACHT_DAILY_CLOCK_FILE"] = str(clock_file)
        with self.log_file.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)], cwd=workdir,
                env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.wait_healthy()

    def log(self) -> str:
        """Everything gunicorn and its workers wrote."""
        return self.log_file.read_text(errors="replace")

    def worker_pids(self) -> list[int]:
        """The pids of the master's live worker processes."""
        workers = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[1]) == self.process.pid and fields[0] != "Z":
                        workers.append(int(entry.name))
        return workers

    def wait_healthy(self) -> None:
        """Wait until /healthz answers 200, or fail with the log."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log()}")
            with contextlib.suppress(OSError, http.client.HTTPException):
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not answer in time:\n{self.log()}")

    def stop(self) -> int:
        """SIGTERM (graceful), then SIGKILL if it hangs; its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


@pytest.fixture
def ops_dir():
    """A short scratch directory (unix socket paths are limited), removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="yd-ops-", dir="/tmp"))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def clock_file(ops_dir, clock) -> Path:
    """The servers' clock file, at the test clock's time (noon on the play date)."""
    path = ops_dir / "clock"
    path.write_text(format_timestamp(clock()))
    return path


@pytest.fixture
def killable_redis(ops_dir):
    """A running Redis the test may kill and restart."""
    server = KillableRedis(ops_dir / "redis").start()
    yield server
    server.stop()


@pytest.fixture
def deploy_server(ops_dir, data_dir, clock_file):
    """Start deployed servers sharing one data directory's secrets and one clock:
    ``deploy_server(redis_url, workers=2, extra_env=None)``."""
    servers = []

    def start(redis_url: str, **options) -> DeployedServer:
        """One more gunicorn on the shared data directory and clock."""
        server = DeployedServer(ops_dir, data_dir, redis_url, clock_file=clock_file, **options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
