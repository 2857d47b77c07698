"""Production-shaped processes for the operations tests: gunicorn started with
deploy/gunicorn.conf.py exactly as the Dockerfile and the systemd unit start it, a redis-server
that a test may kill -9 and start again on the same files, and players that retry.

Everything listens on loopback or on unix sockets in short temporary directories, and every
process a test starts is stopped by its fixture.
"""

import contextlib
import os
import shutil
import sys
from pathlib import Path

import pytest
from processes import NO_LOAD_SHEDDING, ServerProcess, free_port, free_port_run, short_temp_dir

from app.platform.clock import format_timestamp
from app.platform.embedded import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"


class KillableRedis(EmbeddedRedis):
    """The embedded Redis itself (unix socket, AOF with fsync always), which a test may also
    kill with SIGKILL and then start again on the same files."""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final fsync; what was acknowledged must already be on disk."""
        self._process.kill()
        self._process.wait()


class DeployedServer(ServerProcess):
    """``gunicorn -c deploy/gunicorn.conf.py`` on a loopback port, on a given Redis and data
    directory, its time read from a clock file."""

    def __init__(self, workdir: Path, data_dir: Path, redis_url: str, workers: int = 2,
                 clock_file: Path | None = None, extra_env: dict | None = None,
                 worker_ports: bool = False):
        """Start the server and wait until /healthz answers (on every worker's own port, one
        port per worker, with ``worker_ports``: ``ports``)."""
        self.workdir = workdir
        self.port = free_port_run(workers) if worker_ports else free_port()
        self.ports = list(range(self.port, self.port + workers)) if worker_ports else [self.port]
        self.log_file = workdir / f"gunicorn-{self.port}.log"
        env = {**os.environ, "REDIS_URL": redis_url, "YACHT_DAILY_DATA_DIR": str(data_dir),
               "YACHT_DAILY_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": str(workers),
               "YACHT_DAILY_RATE_LIMITS": "off", "PYTHONUNBUFFERED": "1",
               "YACHT_DAILY_QUEUE_BUDGET_MS": NO_LOAD_SHEDDING,
               "YACHT_DAILY_WORKER_PORTS": str(self.port) if worker_ports else "",
               **(extra_env or {})}
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        if clock_file is not None:
            env["YACHT_DAILY_CLOCK_FILE"] = str(clock_file)
        self.launch([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF)], env,
                    "/healthz", cwd=workdir)
        for port in self.ports[1:]:
            self.wait_until_answering(port, "/healthz")

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


@pytest.fixture
def ops_dir():
    """A short scratch directory (unix socket paths are limited), removed afterwards."""
    directory = short_temp_dir("yd-ops-")
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
def deploy_server(ops_dir, data_dir, clock_file, strategy_tables_dir):
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


@pytest.fixture
def serve_data_dir(ops_dir, data_dir) -> Path:
    """The test secrets in a short directory (the embedded Redis's unix socket goes there)."""
    return Path(shutil.copytree(data_dir, ops_dir / "var"))
