"""``yacht-daily serve`` as a person or a unit file runs it, for the operations tests: its own
embedded redis-server in the data directory, a loopback port, rate limits off (every test player
comes from 127.0.0.1), its time read from a clock file."""

import contextlib
import os
import sys
from pathlib import Path

from processes import NO_LOAD_SHEDDING, ServerProcess, free_port

SERVE = [sys.executable, "-c", "from app.cli.main import main; main()", "serve"]


class ServeProcess(ServerProcess):
    """``yacht-daily serve --bind 127.0.0.1:<free port>`` on ``data_dir``, ready once
    ``ready_path`` answers 200."""

    def __init__(self, workdir: Path, data_dir: Path, clock_file: Path, *options: str,
                 ready_path: str = "/readyz", command: list[str] = SERVE):
        """Start ``command`` (``yacht-daily serve``) with the extra command-line ``options`` and
        wait until it is ready."""
        self.workdir = workdir
        self.data_dir = data_dir
        self.port = free_port()
        self.log_file = workdir / f"serve-{self.port}.log"
        env = {**os.environ, "YACHT_DAILY_CLOCK_FILE": str(clock_file),
               "YACHT_DAILY_RATE_LIMITS": "off", "PYTHONUNBUFFERED": "1",
               "YACHT_DAILY_QUEUE_BUDGET_MS": NO_LOAD_SHEDDING}
        for name in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR"):
            env.pop(name, None)
        self.launch([*command, "--data-dir", str(data_dir), "--bind", f"127.0.0.1:{self.port}",
                     *options], env, ready_path, cwd=workdir)

    def redis_pid(self) -> int | None:
        """The pid of the redis-server serving this data directory's socket, if one runs (it
        names its socket in its process title)."""
        socket_path = str(self.data_dir.resolve() / "redis.sock").encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes().split(b"\0")
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if any(socket_path in part for part in command) and state != "Z":
                    return int(entry.name)
        return None
