"""The servers tests run as subprocesses: short scratch directories, free loopback ports, and a
base for an HTTP server process that logs to a file, is ready once a path answers 200, and stops
on SIGTERM (SIGKILL if it hangs).
"""

import contextlib
import http.client
import socket
import subprocess
import tempfile
import time
from pathlib import Path

START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0
# Load shedding refuses a request that waited past a budget on the machine's own clock: on a
# shared test machine that would refuse requests for nothing, so the servers tests start shed
# nothing unless a test of shedding sets its own budget.
NO_LOAD_SHEDDING = "0"


def short_temp_dir(prefix: str) -> Path:
    """A new temporary directory with a short path (unix sockets allow ~100 characters)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def free_port_run(count: int) -> int:
    """The first of ``count`` consecutive loopback ports nothing listens on now."""
    while True:
        first = free_port()
        if first + count - 1 > 65535:
            continue
        probes = []
        try:
            for port in range(first, first + count):
                probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                probes.append(probe)
                probe.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()


class ServerProcess:
    """An HTTP server subprocess on ``port`` (loopback), its output in ``log_file``.

    A subclass sets ``port`` and ``log_file``, then calls ``launch``.
    """

    port: int
    log_file: Path
    process: subprocess.Popen

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def launch(self, command: list[str], env: dict, ready_path: str,
               cwd: Path | None = None) -> None:
        """Start ``command`` and wait until GET ``ready_path`` answers 200, or fail with the
        server's log."""
        with self.log_file.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, cwd=cwd, stdout=log,
                                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.wait_until_answering(self.port, ready_path)

    def wait_until_answering(self, port: int, ready_path: str) -> None:
        """Wait until GET ``ready_path`` on ``port`` answers 200, or stop the server and fail
        with its log."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            with contextlib.closing(connection), contextlib.suppress(OSError,
                                                                     http.client.HTTPException):
                connection.request("GET", ready_path)
                if connection.getresponse().status == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer {ready_path} in time:\n{self.log()}")

    def log(self) -> str:
        """Everything the server (and its workers) wrote so far."""
        return self.log_file.read_text(errors="replace")

    def stop(self) -> int:
        """SIGTERM (graceful, as an operator would), then SIGKILL if it hangs; its exit status."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode
