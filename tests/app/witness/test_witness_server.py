"""``yacht-daily witness --serve`` as its operator runs it (a subprocess under gunicorn, on a free
port), spoken to over real HTTP as a C2SP log speaks to a witness: a real log (fairness.merkle)
signs standard checkpoints with its Ed25519 key and submits them to ``POST /add-checkpoint``."""

import base64
import concurrent.futures
import datetime as dt
import http.client
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.ledger.signing import verify_signature as verify
from fairness import merkle
from fairness import witness_protocol as wp
from fairness.checkpoint import cosignature_time, read_cosignature
from fairness.note import ED25519, NoteSignature, VerifierKey, format_note, parse_vkey
from tests.processes import ServerProcess, free_port, short_temp_dir

YACHT_DAILY = str(Path(sys.executable).parent / "yacht-daily")
ORIGIN = "log.example/standard"
WITNESS_NAME = "witness.test/w1"
CLOCK = "2026-03-11T12:00:00Z"
CLOCK_SECONDS = int(dt.datetime(2026, 3, 11, 12, tzinfo=dt.UTC).timestamp())


class Log:
    """A C2SP log of numbered leaves, signing its checkpoints as an Ed25519 note."""

    def __init__(self, origin: str = ORIGIN, leaves: int = 40):
        self.origin = origin
        self.private_key = Ed25519PrivateKey.generate()
        raw = self.private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                         serialization.PublicFormat.Raw)
        self.key = VerifierKey(origin, ED25519, raw)
        self.hashes = [merkle.leaf_hash(f"{origin} leaf {i}".encode()) for i in range(leaves)]

    def text(self, size: int, root: bytes | None = None, extensions=()) -> str:
        return wp.StandardCheckpoint(self.origin, size, root or merkle.root(self.hashes[:size]),
                                     tuple(extensions)).body()

    def note(self, size: int, root: bytes | None = None, extensions=(), signer=None) -> str:
        text = self.text(size, root, extensions)
        signature = (signer or self.private_key).sign(text.encode())
        return format_note(text, [NoteSignature(self.origin, self.key.key_id, signature)])

    def body(self, old: int, size: int, proof=None, **note) -> bytes:
        if proof is None:
            proof = merkle.consistency_path(old, self.hashes[:size])
        return wp.format_add_checkpoint(wp.AddCheckpoint(old, proof, self.note(size, **note)))


class WitnessServer(ServerProcess):
    """``yacht-daily witness --serve`` on a free loopback port, its files in ``directory``."""

    def __init__(self, directory: Path, logs: list[Log]):
        self.directory, self.logs = directory, logs
        self.log_file = directory / "witness.log"
        (directory / "clock").write_text(CLOCK)

    @property
    def state_path(self) -> Path:
        return self.directory / "state.json"

    def start(self) -> "WitnessServer":
        self.port = free_port()
        command = [YACHT_DAILY, "witness", "--serve", f"127.0.0.1:{self.port}",
                   "--key", str(self.directory / "witness.pem"), "--state", str(self.state_path),
                   "--name", WITNESS_NAME]
        for log in self.logs:
            command += ["--log", log.key.text()]
        env = {**os.environ, "YACHT_DAILY_CLOCK_FILE": str(self.directory / "clock")}
        self.launch(command, env, "/")
        return self

    def request(self, method: str, path: str, body: bytes | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body)
            answer = connection.getresponse()
            return answer.status, answer.getheader("Content-Type"), answer.read()
        finally:
            connection.close()

    def submit(self, body: bytes):
        return self.request("POST", "/add-checkpoint", body)

    def witness_key(self) -> VerifierKey:
        status, _, text = self.request("GET", "/")
        assert status == 200
        line = text.decode().splitlines()[0]
        assert line.startswith("witness ")
        return parse_vkey(line.split(" ", 1)[1])

    def state(self) -> dict:
        return json.loads(self.state_path.read_text())


@pytest.fixture
def log() -> Log:
    return Log()


@pytest.fixture
def server(log):
    directory = short_temp_dir("ydw-")
    running = WitnessServer(directory, [log]).start()
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


def cosignature_of(server: WitnessServer, answer: bytes, body: str) -> int:
    """The time of the witness's one valid cosignature/v1 of ``body`` in a 200 answer."""
    (line,) = wp.parse_cosignature_lines(answer.decode())
    witness = server.witness_key()
    assert (line.name, line.key_id) == (WITNESS_NAME, witness.key_id)
    assert cosignature_time(witness, body, line, verify) is not None
    return read_cosignature(line.payload)[0]


def test_a_log_is_witnessed_through_resyncs_refusals_and_a_restart(server, log):
    status, _, text = server.request("GET", "/")
    assert status == 200 and f"log {log.key.text()}\n" in text.decode()

    status, content_type, answer = server.submit(log.body(0, 5))
    assert (status, content_type.split(";")[0]) == (200, "text/plain")
    assert cosignature_of(server, answer, log.text(5)) == CLOCK_SECONDS
    assert server.state()["logs"][ORIGIN]["size"] == 5

    extended = log.body(5, 9, extensions=["ext a", "ext b"])
    status, _, answer = server.submit(extended)
    assert status == 200
    cosignature_of(server, answer, log.text(9, extensions=["ext a", "ext b"]))

    # a log that lost track: 409 says the size; it resyncs from there
    status, content_type, answer = server.submit(log.body(5, 12))
    assert (status, content_type, answer) == (409, wp.SIZE_CONTENT_TYPE, b"9\n")
    assert wp.parse_size(answer) == 9
    status, _, answer = server.submit(log.body(wp.parse_size(answer), 12))
    assert status == 200
    cosignature_of(server, answer, log.text(12))

    # a proof that does not verify: 422, nothing changes, the request is kept as evidence
    proof = merkle.consistency_path(12, log.hashes[:16])
    broken = [bytes(32), *proof[1:]]
    bad_body = log.body(12, 16, proof=broken)
    assert server.submit(bad_body)[0] == 422
    assert server.state()["logs"][ORIGIN]["size"] == 12
    assert server.submit(log.body(0, 16))[2] == b"12\n"
    (kept,) = [r for r in server.state()["refused"] if r["kind"] == wp.BAD_PROOF]
    assert kept["offered_note"] == log.note(16)
    assert kept["proof"] == [base64.b64encode(h).decode() for h in broken]

    # unknown origin, no valid signature, old size above the checkpoint's
    assert server.submit(Log("log.example/other").body(0, 3))[0] == 404
    assert server.submit(log.body(0, 3, signer=Ed25519PrivateKey.generate()))[0] == 403
    assert server.submit(wp.format_add_checkpoint(wp.AddCheckpoint(12, [], log.note(10))))[0] \
        == 400
    assert server.submit(b"old 012\n\n" + log.note(12).encode())[0] == 400

    # the same size with another root: 409, not a size answer, kept as evidence of a fork
    fork_root = merkle.root([merkle.leaf_hash(b"forked")] * 12)
    status, content_type, _ = server.submit(log.body(12, 12, proof=[], root=fork_root))
    assert status == 409 and content_type != wp.SIZE_CONTENT_TYPE
    assert [r["kind"] for r in server.state()["refused"]] == [wp.BAD_PROOF, wp.FORK]
    assert server.state()["logs"][ORIGIN]["root"] == merkle.root(log.hashes[:12]).hex()

    # while it serves, no other witness process may use its state file
    pull = subprocess.run([YACHT_DAILY, "witness", "http://127.0.0.1:9/", "--once",
                           "--key", str(server.directory / "witness.pem"),
                           "--state", str(server.state_path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert pull.returncode == 2 and "another witness process" in pull.stderr

    # the state survives a restart
    witness = server.witness_key()
    server.stop()
    server.start()
    assert server.witness_key() == witness
    assert server.submit(log.body(0, 13))[2] == b"12\n"
    status, _, answer = server.submit(log.body(12, 13))
    assert status == 200
    cosignature_of(server, answer, log.text(13))


def test_concurrent_submissions_never_roll_the_size_back(server, log):
    assert server.submit(log.body(0, 4))[0] == 200
    sizes = list(range(5, 29, 3))
    with concurrent.futures.ThreadPoolExecutor(len(sizes)) as pool:
        answers = list(pool.map(lambda size: server.submit(log.body(4, size)), sizes))
    cosigned = [size for size, answer in zip(sizes, answers, strict=True) if answer[0] == 200]
    assert len(cosigned) == 1, answers
    assert {answer[2] for answer in answers if answer[0] != 200} == {f"{cosigned[0]}\n".encode()}
    assert server.state()["logs"][ORIGIN]["size"] == cosigned[0]


def test_the_command_refuses_a_log_key_that_is_not_ed25519(tmp_path):
    cosigner = "witness.example/w2+20fc3ed5+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    done = subprocess.run([YACHT_DAILY, "witness", "--serve", "127.0.0.1:1", "--log", cosigner,
                           "--key", str(tmp_path / "k.pem"), "--state", str(tmp_path / "s.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "type 0x01" in done.stderr
    both = subprocess.run([YACHT_DAILY, "witness", "http://x/", "--serve", "127.0.0.1:1",
                           "--key", str(tmp_path / "k.pem"), "--state", str(tmp_path / "s.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert both.returncode == 2 and "either" in both.stderr
