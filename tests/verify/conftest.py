"""The verifiers side by side: the core's ``fairness.audit``, the browser's
``app/static/js/fairness.js`` (run in Node, an independent implementation) and the standalone
``app/static/verify.py`` (built from the core by scripts/build_verify.py, run by its command line
as a player runs it, each run a fork of one process that has loaded it (``forked_runs.py``): its
lines must be the core's checks as it prints them); plus revealed days
made on the core (dealt sequentially by a v1 epoch, or per turn by a v2 epoch).
"""

import atexit
import json
import os
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.ledger.signing import verify_signature
from bench.dayfixture import make_day
from fairness import audit
from fairness.dice import PER_TURN
from tests.verify.forked_runs import ForkServer
from tests.verify.published_server import PublishedServer, leaderboard_of, publish_day

ROOT = Path(__file__).resolve().parents[2]
VERIFY_PY = ROOT / "app" / "static" / "verify.py"
NODE_RUNNER = Path(__file__).with_name("run_fairness.mjs")
NODE_MAJOR = 20
PARALLEL_RUNS = 4  # verify.py processes run at once
FORK_SERVER = ForkServer(VERIFY_PY)


def printed(checks) -> list[str]:
    """What verify.py prints for these checks ((name, ok, detail) or ``Check``s): one line per
    check, "✓", "✗" or "-" (not checked), then the summary line."""
    checks = [(c.name, c.ok, c.detail) if isinstance(c, audit.Check) else c for c in checks]
    lines = [f"{'✓' if ok else '✗' if ok is False else '-'} {name}: {detail}"
             for name, ok, detail in checks]
    failed = sum(1 for _, ok, _ in checks if ok is False)
    unchecked = [name for name, ok, _ in checks if ok is None]
    if failed:
        return [*lines, f"FAILED: {failed} of {len(checks)} checks do not hold."]
    if unchecked:
        return [*lines, f"Nothing failed, but NOT fully verified: {', '.join(unchecked)} not "
                        "checked."]
    return [*lines, f"All {len(checks)} checks hold."]


def exit_status(checks) -> int:
    """verify.py's exit status for these checks: 1 one fails, 3 one not made, else 0."""
    oks = [c.ok if isinstance(c, audit.Check) else c[1] for c in checks]
    return 1 if False in oks else 3 if None in oks else 0


def run_verify_py(*args, python=sys.executable, env=None, stderr=subprocess.PIPE):
    """Run the standalone verifier by its command line; returns the finished process. With
    this interpreter and environment, the run is a fork of a process that has loaded verify.py
    (``forked_runs``); otherwise a fresh interpreter."""
    if python == sys.executable and env is None and stderr == subprocess.PIPE:
        return FORK_SERVER.run(args)
    return subprocess.run([python, str(VERIFY_PY), *map(str, args)], stdout=subprocess.PIPE,
                          stderr=stderr, text=True, timeout=300, env=env, check=False)


class VerifyPy:
    """verify.py run by its command line on published objects written to files or served."""

    def __init__(self, workdir: Path):
        """Write the files of each run in a folder of its own under ``workdir``."""
        self.workdir = workdir
        self.runs = 0

    def folder(self) -> Path:
        """A fresh folder for one run's files."""
        self.runs += 1
        folder = self.workdir / f"run-{self.runs}"
        folder.mkdir()
        return folder

    def written(self, **documents) -> dict:
        """Each document written as a JSON file of one fresh folder: name → path."""
        folder = self.folder()
        paths = {}
        for name, value in documents.items():
            paths[name] = folder / f"{name}.json"
            paths[name].write_text(json.dumps(value))
        return paths

    def run_all(self, argument_lists) -> list[tuple[int, list[str]]]:
        """(exit status, stdout lines) of verify.py run with each command line, several
        processes at once; none may write to stderr."""
        with ThreadPoolExecutor(PARALLEL_RUNS) as pool:
            done = list(pool.map(lambda args: run_verify_py(*args), argument_lists))
        assert [process.stderr for process in done if process.stderr] == []
        return [(process.returncode, process.stdout.splitlines()) for process in done]

    def match(self, answer, key=None, entries=None, shown=None, client_seed=None) -> list:
        """The ``match`` mode's command line on an answer saved as a file, checked with
        ``key`` or against the ledger ``entries``, with what the player noted."""
        paths = self.written(answer=answer, **({} if entries is None else {"ledger": entries}))
        arguments = ["match", paths["answer"]]
        for option, value in (("--key", key), ("--ledger", paths.get("ledger")),
                              ("--commitment", shown), ("--client-seed", client_seed)):
            if value is not None:
                arguments += [option, value]
        return arguments

    def files_arguments(self, ledger, receipt, transcript, proof=None) -> list:
        """The ``files`` mode's command line on these objects, written as JSON files."""
        documents = {"ledger": ledger, "receipt": receipt, "transcript": transcript}
        paths = self.written(**documents, **({} if proof is None else {"proof": proof}))
        return ["files", *(part for name, path in paths.items() for part in (f"--{name}", path))]

    def games(self, cases) -> list[tuple[int, list[str]]]:
        """(exit status, stdout lines) of ``verify.py files`` on each (ledger, receipt,
        transcript, proof)."""
        return self.run_all([self.files_arguments(*case) for case in cases])

    def day(self, ledger, date, ruleset, games, *options, page_size=1000):
        """(exit status, stdout lines) of ``verify.py day`` on a server publishing the day's
        ledger and games (and, as leaderboard, the core's recomputed one)."""
        board = audit.audit_day(ledger, date, ruleset, games).leaderboard
        server = PublishedServer()
        try:
            publish_day(server, ledger, date, ruleset, games, leaderboard_of(board), page_size)
            done = run_verify_py("day", server.url, date, ruleset, "--page-size", page_size,
                                 *options)
        finally:
            server.close()
        assert done.stderr == "", done.stderr
        return done.returncode, done.stdout.splitlines()


def day_output(ledger, date, ruleset, games, top=10) -> tuple[int, list[str]]:
    """(exit status, lines) verify.py must print for a day: the core's audit of it, against
    the leaderboard ``VerifyPy.day`` publishes."""
    board = audit.audit_day(ledger, date, ruleset, games).leaderboard
    result = audit.audit_day(ledger, date, ruleset, games, verify_signature, None,
                             leaderboard_of(board))
    lines = ["Leaderboard recomputed from the replayed games:"] + [
        f"  #{row['rank']:<5} {row['total']:>4}  {row['player']}  game {row['game']}"
        for row in result.leaderboard[:top]]
    return exit_status(result.checks), lines + printed(result.checks)


class Verifiers:
    """The core's checks as (name, ok, detail), and fairness.js's on the same objects."""

    def __init__(self, node):
        """Bind the Node runner (None when node is absent)."""
        self.node = node

    def core_game(self, ledger, receipt, transcript, proof=None):
        """``fairness.audit.check_game`` with Ed25519 from ``cryptography``."""
        checks = audit.check_game(ledger, receipt, transcript, proof, verify_signature)
        return [(c.name, c.ok, c.detail) for c in checks]

    def js_games(self, cases):
        """``fairness.js``'s ``verifyGame`` on many (ledger, receipt, transcript, proof)."""
        jobs = [{"fn": "verifyGame", "args": [{"ledger": ledger, "receipt": receipt,
                                                "transcript": transcript, "proof": proof}]}
                for ledger, receipt, transcript, proof in cases]
        return [[(c["name"], c["ok"], c["detail"]) for c in value]
                for value in self.node.values(jobs)]

    def core_day(self, ledger, date, ruleset, games, fast_paths=True):
        """``fairness.audit.audit_day``: (checks, leaderboard); with ``fast_paths`` False, by
        the plain checks alone."""
        result = audit.audit_day(ledger, date, ruleset, games, verify_signature,
                                 fast_paths=fast_paths)
        return [(c.name, c.ok, c.detail) for c in result.checks], result.leaderboard

    def plain_day(self, ledger, date, ruleset, games):
        """``core_day`` by the plain checks alone, no fast path."""
        return self.core_day(ledger, date, ruleset, games, fast_paths=False)


class NodeRunner:
    """Calls exported functions of fairness.js through ``run_fairness.mjs``: one Node process,
    started on the first batch, answers every batch of jobs in turn."""

    def __init__(self, node: str, workdir: Path):
        """Use the ``node`` executable; job files go to ``workdir``."""
        self.node = node
        self.workdir = workdir
        self.batches = 0
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def run(self, jobs: list) -> list:
        """Each job's {"value"} or {"error"}."""
        with self.lock:
            self.batches += 1
            path = self.workdir / f"jobs-{self.batches}.json"
            path.write_text(json.dumps(jobs))
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen(
                    [self.node, str(NODE_RUNNER)], stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, text=True, encoding="utf-8")
                atexit.register(self.stop)
            self.process.stdin.write(f"{path}\n")
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
        assert answer, f"node stopped on {path} (exit status {self.process.wait()})"
        return json.loads(answer)

    def stop(self) -> None:
        """End the Node process (its input closed, it exits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)

    def values(self, jobs: list) -> list:
        """Each job's value; a job that threw fails the test with its message."""
        results = self.run(jobs)
        errors = [(job["fn"], r["error"]) for job, r in zip(jobs, results, strict=True)
                  if "error" in r]
        assert not errors, errors
        return [r["value"] for r in results]

    def call(self, fn: str, *args):
        """One call's value."""
        return self.values([{"fn": fn, "args": list(args)}])[0]


def find_node() -> str | None:
    """A Node >= 20 on PATH, or None."""
    node = shutil.which("node")
    if node is None:
        return None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    major = int(version.stdout.strip().lstrip("v").split(".")[0])
    return node if major >= NODE_MAJOR else None


@pytest.fixture(scope="session")
def node(tmp_path_factory):
    """A runner of fairness.js in Node; skipped locally without Node, a failure under CI."""
    found = find_node()
    if found is None:
        message = f"Node >= {NODE_MAJOR} is needed to run app/static/js/fairness.js"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " (CI=true: the JavaScript verifier must run)")
        pytest.skip(message + "; install it to run the JavaScript side of these tests")
    return NodeRunner(found, tmp_path_factory.mktemp("node-jobs"))


@pytest.fixture(scope="session")
def verify_py(tmp_path_factory):
    """verify.py run by its command line."""
    return VerifyPy(tmp_path_factory.mktemp("verify-py"))


@pytest.fixture(scope="session")
def verifiers(node):
    """The core and fairness.js."""
    return Verifiers(node)


@pytest.fixture(scope="session")
def core():
    """The core alone (for the tests that do not need Node)."""
    return Verifiers(None)


@pytest.fixture(scope="session")
def day():
    """A revealed day (the ledger's day 3) with games on every daily sheet, some abandoned."""
    return make_day({"yacht": 6, "yacht-bonus": 6, "yahtzee": 40}, unfinished=2, rng_seed=7)


@pytest.fixture(scope="session")
def two_epoch_day():
    """A revealed day of the ledger's second epoch (its own key), after a fully revealed one."""
    return make_day({"yacht": 3, "yahtzee": 10}, unfinished=1, rng_seed=3, earlier_epoch_days=4)


@pytest.fixture(scope="session")
def per_turn_day():
    """A revealed day of a v2 epoch (``yacht-daily/epoch/v2``, per-turn dealing) with games on
    every daily sheet played per turn, some abandoned."""
    return make_day({"yacht": 6, "yacht-bonus": 6, "yahtzee": 40}, unfinished=2, rng_seed=11,
                    dealing=PER_TURN)


@pytest.fixture(scope="session")
def vectors():
    """tests/vectors.json, written by scripts/make_vectors.py."""
    return json.loads((ROOT / "tests" / "vectors.json").read_text())
