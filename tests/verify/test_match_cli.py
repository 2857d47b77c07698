"""The match mode of both command lines — ``verify.py match`` (run as a player runs it) and
``yacht-daily verify match`` — on the vectors' matches: from a saved answer with the ledger or a
key, and from a URL of a server on loopback (the ledger then fetched from the same server);
a tampered die is exit 1 with the failing roll named; the two print the same lines."""

import json
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from app.cli.main import main as cli
from tests.verify.conftest import VERIFY_PY, run_verify_py


@pytest.fixture(scope="module")
def files(vectors, tmp_path_factory):
    """The computer match's answer, a copy with one die changed, and the ledger, as files."""
    folder = tmp_path_factory.mktemp("match-files")
    case = vectors["match"]["matches"][0]
    answer = case["answer"]
    tampered = json.loads(json.dumps(answer))
    transcript = tampered["match"]["seats"][1]["transcript"]
    first_roll = next(entry for entry in transcript if entry["action"] == "roll")
    first_roll["dice"][0] = first_roll["dice"][0] % 6 + 1
    paths = {"answer": answer, "tampered": tampered,
             "ledger": {"entries": vectors["ledger"]["entries"]}}
    for name, value in list(paths.items()):
        paths[name] = folder / f"{name}.json"
        paths[name].write_text(json.dumps(value), encoding="utf-8")
    return paths, case


def both(*arguments) -> list[tuple[int, str]]:
    """(exit status, output) of verify.py and of yacht-daily verify."""
    standalone = run_verify_py(*arguments)
    core = CliRunner().invoke(cli, ["verify", *arguments])
    return [(standalone.returncode, standalone.stdout + standalone.stderr),
            (core.exit_code, core.output)]


def check_lines(output: str) -> list[str]:
    """The output's check lines."""
    return [line for line in output.splitlines() if line[:2] in ("✓ ", "✗ ", "- ")]


def test_a_saved_match_holds_with_the_ledger(files):
    paths, case = files
    runs = both("match", str(paths["answer"]), "--ledger", str(paths["ledger"]),
                "--expect-key", case["public_key"])
    for status, output in runs:
        assert status == 0, output
        assert "✓ match epoch: the match ended on 2026-12-01" in output
        for name, _, detail in case["checks"]:
            assert f"✓ {name}: {detail}" in output
    assert check_lines(runs[0][1]) == check_lines(runs[1][1])


def test_a_saved_match_holds_with_a_key(files):
    paths, case = files
    for status, output in both("match", str(paths["answer"]), "--key", case["public_key"]):
        assert status == 0, output
        assert check_lines(output) == [f"✓ {name}: {detail}" for name, _, detail in
                                       case["checks"]]


def test_a_changed_die_is_exit_1_at_its_roll(files):
    paths, case = files
    for status, output in both("match", str(paths["tampered"]), "--key", case["public_key"]):
        assert status == 1, output
        failing = [line for line in check_lines(output) if line.startswith("✗ ")]
        assert [line.split(":")[0] for line in failing] == ["✗ seat 1 roll 0",
                                                            "✗ seat 1 transcript hash"]


def test_a_wrong_key_and_no_key(files):
    paths, _ = files
    for status, output in both("match", str(paths["answer"]), "--key", "ab" * 32):
        assert status == 1 and "✗ match signature:" in output
    for status, output in both("match", str(paths["answer"]), "--key", "not-a-key"):
        assert status == 2 and "--key" in output


def test_without_cryptography_the_signature_is_not_checked(files):
    """On a bare Python (no site packages, so no ``cryptography``) verify.py still replays every
    seat and says plainly the signature was NOT checked: exit 3."""
    paths, case = files
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None:
        pytest.skip("no system python3")
    has_it = subprocess.run([python, "-I", "-S", "-c", "import cryptography"],
                            capture_output=True, timeout=60, check=False)
    if has_it.returncode == 0:
        pytest.skip("this system's bare python3 has cryptography")
    done = subprocess.run([python, "-I", "-S", str(VERIFY_PY), "match", str(paths["answer"]),
                           "--key", case["public_key"]], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "- match signature: NOT checked" in done.stdout
    assert "✓ seat 1 total:" in done.stdout and "✗" not in done.stdout


class Published(BaseHTTPRequestHandler):
    """Serves fixed JSON documents by path, as the API would, and 404 otherwise."""

    documents: dict = {}

    def do_GET(self):  # noqa: N802 (the http.server hook's name)
        """Answer a GET with its document."""
        body = self.documents.get(self.path)
        status = 200 if body is not None else 404
        data = json.dumps(body if body is not None else {
            "error": {"code": "not-found", "message": f"no {self.path}"}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        """Keep the test output quiet."""


@pytest.fixture
def server(files, vectors):
    """A loopback HTTP server publishing the ledger and the match's answer."""
    _, case = files
    match_id = case["answer"]["match"]["id"]
    handler = type("Handler", (Published,), {"documents": {
        "/api/v1/ledger": {"entries": vectors["ledger"]["entries"]},
        f"/api/v1/matches/{match_id}": case["answer"]}})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", match_id
    httpd.shutdown()
    httpd.server_close()
    thread.join(timeout=10)


def test_a_match_from_its_url(server, files):
    base, match_id = server
    _, case = files
    runs = both("match", f"{base}/api/v1/matches/{match_id}")
    for status, output in runs:
        assert status == 0, output
        assert "✓ match epoch:" in output and "✓ ledger signatures:" in output
        assert f"✓ ranks: {case['checks'][-1][2]}" in output
    assert check_lines(runs[0][1]) == check_lines(runs[1][1])
    for status, output in both("match", f"{base}/api/v1/matches/{'0' * 32}"):
        assert status == 2 and "HTTP 404" in output


def test_the_commitment_shown_and_the_client_seed(files):
    paths, case = files
    result = case["answer"]["match"]["result"]
    for status, output in both("match", str(paths["answer"]), "--key", case["public_key"],
                               "--commitment", result["commitment"], "--client-seed",
                               result["client_seeds"][0]):
        assert status == 0, output
        assert "✓ commitment shown:" in output and "✓ your client seed: client seed " in output
    for status, output in both("match", str(paths["answer"]), "--key", case["public_key"],
                               "--commitment", "0" * 64):
        assert status == 1 and "✗ commitment shown:" in output


def test_a_saved_per_turn_match_holds_with_a_v2_epochs_ledger(vectors, tmp_path):
    """A v2 match (dealt per turn) checked against a ledger whose epoch entry is v2: every
    check holds, the same lines in both command lines."""
    case = next(case for case in vectors["match"]["matches"]
                if case["label"] == "table/per-turn")
    answer, ledger = tmp_path / "answer.json", tmp_path / "ledger.json"
    answer.write_text(json.dumps(case["answer"]), encoding="utf-8")
    ledger.write_text(json.dumps({"entries": vectors["dealing"]["ledger"]["entries"]}),
                      encoding="utf-8")
    runs = both("match", str(answer), "--ledger", str(ledger), "--expect-key",
                case["public_key"])
    for status, output in runs:
        assert status == 0, output
        assert "✓ match format: a yacht-daily/match/v2 result with exactly its fields" in output
        for name, _, detail in case["checks"]:
            assert f"✓ {name}: {detail}" in output
    assert check_lines(runs[0][1]) == check_lines(runs[1][1])
