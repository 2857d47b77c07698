"""verify.py run by its command line, each run a fork of one process that has already loaded it.

A player runs ``python verify.py MODE …``: Python starts, imports the archive's packages, runs
its ``__main__`` with those arguments, prints, and exits with a status. Most of a short run is
the first two steps, and the suite runs verify.py hundreds of times, so each test process keeps
one *fork server*: a Python that has imported verify.py's modules from the archive (nothing of
the tree's: it runs in a fresh interpreter, apart from the test's ``fairness``) and, for each
run, forks a child that executes the archive's ``__main__`` with the run's arguments and working
directory, its standard output and error going to files, and its exit status what
``sys.exit`` (or an uncaught exception) makes it, as in a fresh interpreter. The child shares
nothing with the other runs: each is a copy of the same freshly loaded process.

What a fresh interpreter adds (Python's own start, ``-I`` and ``-S``, another environment) is
tested by running the file itself: ``tests/verify/test_standalone.py`` and the runs given an
``env`` or another ``python``.
"""

import atexit
import json
import locale
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

SERVER_CODE = r"""
import json, os, runpy, signal, socket, struct, sys, tempfile, traceback

archive, address = sys.argv[1], sys.argv[2]
sys.path[0] = archive  # as for `python verify.py`: the archive first, not the folder
import verifier.cli  # the archive's packages, loaded once for every run

def receive(conn):
    size, = struct.unpack("!I", conn.recv(4, socket.MSG_WAITALL))
    return json.loads(conn.recv(size, socket.MSG_WAITALL))

def run(request):
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    os.chdir(request["cwd"])
    sys.argv = [archive, *request["args"]]
    try:
        runpy.run_path(archive, run_name="__main__")
        status = 0
    except SystemExit as done:
        status = done.code
        if status is None:
            status = 0
        elif not isinstance(status, int):
            print(status, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    out.seek(0)
    err.seek(0)
    return {"status": status, "stdout": out.read().hex(), "stderr": err.read().hex()}

signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # each run's child is reaped by the kernel
listener = socket.socket(socket.AF_UNIX)
listener.bind(address)
listener.listen(64)
print("ready", flush=True)
while True:
    conn, _ = listener.accept()
    if os.fork() == 0:
        listener.close()
        answer = json.dumps(run(receive(conn))).encode()
        conn.sendall(struct.pack("!I", len(answer)) + answer)
        conn.close()
        os._exit(0)
    conn.close()
"""


class ForkServer:
    """One test process's fork server of ``archive`` (started on the first run)."""

    def __init__(self, archive: Path):
        """Serve runs of ``archive`` (on a socket in a folder of its own, once started)."""
        self.archive = archive
        self.folder: str | None = None
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()

    @property
    def address(self) -> str:
        """The server's socket."""
        return os.path.join(self.folder, "verify-py.sock")

    def start(self) -> None:
        """Start the server unless it runs; wait until it has loaded the archive."""
        with self.lock:
            if self.process is not None and self.process.poll() is None:
                return
            self.stop()
            self.folder = tempfile.mkdtemp(prefix="yd-verify-py-")
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER_CODE, str(self.archive), self.address],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
            ready = self.process.stdout.readline()
            if ready != "ready\n":
                self.stop()
                raise RuntimeError(f"the fork server of {self.archive} did not start")
            atexit.register(self.stop)

    def stop(self) -> None:
        """Stop the server and remove its socket."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def run(self, args, cwd=None, timeout: float = 300) -> subprocess.CompletedProcess:
        """``python archive *args``: its status, standard output and error as text."""
        self.start()
        request = json.dumps({"args": [str(arg) for arg in args],
                              "cwd": str(cwd or os.getcwd())}).encode()
        with socket.socket(socket.AF_UNIX) as conn:
            conn.settimeout(timeout)
            conn.connect(self.address)
            conn.sendall(struct.pack("!I", len(request)) + request)
            size, = struct.unpack("!I", _receive(conn, 4))
            answer = json.loads(_receive(conn, size))
        return subprocess.CompletedProcess(
            [sys.executable, str(self.archive), *map(str, args)], answer["status"],
            _text(answer["stdout"]), _text(answer["stderr"]))


def _receive(conn: socket.socket, size: int) -> bytes:
    """Exactly ``size`` bytes from ``conn``."""
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        assert chunk, "the fork server's run ended without an answer"
        data += chunk
    return data


def _text(hex_bytes: str) -> str:
    """Output bytes as ``subprocess.run(text=True)`` decodes them (universal newlines)."""
    text = bytes.fromhex(hex_bytes).decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")
