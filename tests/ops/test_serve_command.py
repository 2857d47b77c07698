"""``make serve`` as a newcomer meets it: only the runtime dependencies installed, a plain
"running at" line on a terminal, ``PORT``/``HOST`` honoured, one clear message when the port is
taken, and a first run that says in plain words what it created."""

import contextlib
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from processes import START_TIMEOUT, free_port
from serving import SERVE, ServeProcess
from test_faults import get, post

from app.ledger import secrets as keys

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent
TEST_ONLY_MODULES = ("pytest", "hypothesis", "playwright", "schemathesis", "ruff")


def make_dry_run(target: str) -> str:
    """The commands ``make <target>`` would run on a venv that has nothing installed yet."""
    result = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), target, "VENV=/tmp/no-venv"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_serve_installs_only_the_runtime_and_make_test_the_test_extra():
    """`make serve` installs the package alone; `make test` adds the test extra."""
    serve = make_dry_run("serve")
    assert "pip install --quiet -e .\n" in serve and "[test]" not in serve
    assert "/tmp/no-venv/bin/yacht-daily serve --bind 127.0.0.1:8000" in serve
    assert "pip install --quiet -e '.[test]'" in make_dry_run("test")


def test_serve_runs_without_any_test_dependency(ops_dir, serve_data_dir, clock_file, play_date):
    """With every test-only package made unimportable, serve starts and plays."""
    blocked = ", ".join(repr(name) for name in TEST_ONLY_MODULES)
    prelude = f"import sys; sys.modules.update(dict.fromkeys(({blocked},)))"
    command = [sys.executable, "-c", f"{prelude}; from app.cli.main import main; main()", "serve"]
    server = ServeProcess(ops_dir, serve_data_dir, clock_file, command=command)
    try:
        status, _, answer = post(server.port, "/api/v1/games",
                                 {"ruleset": "yacht", "date": play_date})
        assert status == 201 and answer["game"]["status"] == "playing"
    finally:
        server.stop()
    assert "Traceback" not in server.log()


def read_until(fd: int, pattern: re.Pattern, deadline: float) -> str:
    """Read a terminal's output until ``pattern`` appears (or the deadline passes)."""
    output = ""
    while time.monotonic() < deadline and not pattern.search(output):
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            with contextlib.suppress(OSError):
                output += os.read(fd, 65536).decode(errors="replace")
    return output


def test_make_serve_on_another_port_says_where_it_runs_in_plain_words(tmp_path, ops_dir,
                                                                       clock_file):
    """`make serve PORT=… HOST=…` on a terminal, first run: it explains the data directory it
    created and the epoch, prints one plain "running at" line, and answers on that port."""
    port = free_port()
    data_dir = ops_dir / "newcomer-var"
    env = {**os.environ, "YACHT_DAILY_DATA_DIR": str(data_dir),
           "YACHT_DAILY_CLOCK_FILE": str(clock_file)}
    env.pop("REDIS_URL", None)
    controller, terminal = pty.openpty()
    make = subprocess.Popen(
        ["make", "-C", str(ROOT), "-o", f"{VENV}/.installed-runtime", "serve", f"VENV={VENV}",
         f"PORT={port}", "HOST=127.0.0.1"],
        env=env, stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal,
        start_new_session=True)
    os.close(terminal)
    try:
        running = re.compile(rf"Yacht Daily is running at http://127\.0\.0\.1:{port} "
                             r"\(Ctrl-C to stop\)\r?\n")
        output = read_until(controller, running, time.monotonic() + START_TIMEOUT)
        assert running.search(output), output
        assert get(port, "/healthz")[0] == 200
    finally:
        os.killpg(make.pid, signal.SIGINT)
        make.wait(30)
        os.close(controller)
    assert not re.search(r'^\{"ts"', output, re.MULTILINE), "JSON lines on a terminal"
    assert f"this server's secrets are in {data_dir / 'epoch-secret'}" in output
    assert "every day's dice are drawn from it" in output
    epoch = keys.load(data_dir).epoch
    assert (f"one epoch, a run of {epoch.length} daily challenges from {epoch.start} to "
            f"{epoch.end} ({epoch.start} because that date is still today somewhere on Earth)"
            ) in output.replace("\r\n", " ").replace("\n", " ")


def test_a_busy_port_gives_one_clear_message_and_a_way_out(serve_data_dir):
    """With the port taken: one message naming the port and how to pick another, exit 1, no
    retries, and no Redis left behind."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        env = {**os.environ}
        env.pop("REDIS_URL", None)
        result = subprocess.run([*SERVE, "--data-dir", str(serve_data_dir), "--bind",
                                 f"127.0.0.1:{port}"], env=env, capture_output=True, text=True,
                                timeout=60)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: port {port} on 127.0.0.1 is already in use (is Yacht Daily already running?). "
        f"Pick another port: make serve PORT=8080, or yacht-daily serve --bind 127.0.0.1:8080"]
    assert result.stdout == ""
    assert not (serve_data_dir / "redis.sock").exists()


def test_readme_gives_exactly_the_two_set_up_commands_and_what_a_newcomer_needs():
    """The README's copy-paste lines are `make serve` and `make test`, and it names the
    prerequisites, the docs and the test clock."""
    readme = (ROOT / "README.md").read_text()
    code_lines = re.findall(r"^(?: {4}|\t)(\S.*)$", readme, re.MULTILINE)
    assert code_lines == ["make serve", "make test"]
    assert "```" not in readme
    assert "Python 3.11" in readme and "/usr/bin/chromium" in readme
    assert "skipped" in readme and "YACHT_DAILY_CLOCK_FILE" in readme
    for link in re.findall(r"\]\(([^)]+)\)", readme):
        assert (ROOT / link).exists(), link
    assert "docs/operations.md" in readme and "docs/api.md" in readme
