"""The three verifiers side by side: the core's ``fairness.audit``, the standalone
``app/static/verify.py`` (loaded from its file, as a player runs it) and the browser's
``app/static/js/fairness.js`` (run in Node), plus revealed days made on the core (dealt
sequentially by a v1 epoch, or per turn by a v2 epoch).
"""

import importlib.util
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from app.ledger.signing import verify_signature
from bench.dayfixture import make_day
from fairness import audit
from fairness.dice import PER_TURN

ROOT = Path(__file__).resolve().parents[2]
VERIFY_PY = ROOT / "app" / "static" / "verify.py"
NODE_RUNNER = Path(__file__).with_name("run_fairness.mjs")
NODE_MAJOR = 20


def load_standalone():
    """``app/static/verify.py`` imported from its path, as a module of its own."""
    spec = importlib.util.spec_from_file_location("standalone_verify", VERIFY_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Verifiers:
    """Run the same verification with each implementation; checks as (name, ok, detail)."""

    def __init__(self, standalone, node):
        """Bind the standalone module and the Node runner (None when node is absent)."""
        self.standalone = standalone
        self.node = node

    def core_game(self, ledger, receipt, transcript, proof=None):
        """``fairness.audit.check_game`` with Ed25519 from ``cryptography``."""
        checks = audit.check_game(ledger, receipt, transcript, proof, verify_signature)
        return [(c.name, c.ok, c.detail) for c in checks]

    def standalone_game(self, ledger, receipt, transcript, proof=None):
        """``verify.py``'s ``check_game``."""
        report = self.standalone.Report()
        self.standalone.check_game(report, ledger, receipt, transcript, proof,
                                   self.standalone.ed25519_verifier())
        return report.checks

    def js_games(self, cases):
        """``fairness.js``'s ``verifyGame`` on many (ledger, receipt, transcript, proof)."""
        jobs = [{"fn": "verifyGame", "args": [{"ledger": ledger, "receipt": receipt,
                                                "transcript": transcript, "proof": proof}]}
                for ledger, receipt, transcript, proof in cases]
        return [[(c["name"], c["ok"], c["detail"]) for c in value]
                for value in self.node.values(jobs)]

    def core_day(self, ledger, date, ruleset, games):
        """``fairness.audit.audit_day``: (checks, leaderboard)."""
        result = audit.audit_day(ledger, date, ruleset, games, verify_signature)
        return [(c.name, c.ok, c.detail) for c in result.checks], result.leaderboard

    def standalone_day(self, ledger, date, ruleset, games):
        """``verify.py``'s ``check_day``: (checks, leaderboard)."""
        report = self.standalone.Report()
        board = self.standalone.check_day(report, ledger, date, ruleset, games,
                                          self.standalone.ed25519_verifier())
        return report.checks, board


class NodeRunner:
    """Calls exported functions of fairness.js through ``run_fairness.mjs``."""

    def __init__(self, node: str, workdir: Path):
        """Use the ``node`` executable; job files go to ``workdir``."""
        self.node = node
        self.workdir = workdir
        self.batches = 0

    def run(self, jobs: list) -> list:
        """Each job's {"value"} or {"error"}."""
        self.batches += 1
        path = self.workdir / f"jobs-{self.batches}.json"
        path.write_text(json.dumps(jobs))
        done = subprocess.run([self.node, str(NODE_RUNNER), str(path)], capture_output=True,
                              text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

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
def standalone():
    """``verify.py`` as a module."""
    return load_standalone()


@pytest.fixture(scope="session")
def verifiers(standalone, node):
    """All three implementations."""
    return Verifiers(standalone, node)


@pytest.fixture(scope="session")
def two_verifiers(standalone):
    """The core and verify.py (for the tests that do not need Node)."""
    return Verifiers(standalone, None)


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
