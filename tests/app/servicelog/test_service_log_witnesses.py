"""The service log submits its checkpoints to a real standard witness over real HTTP
(``yacht-daily witness --serve`` as a subprocess, C2SP tlog-witness): the cosignature it answers
verifies and is served on /log/checkpoint; a witness ahead of what the service remembers (409
with its size) is resynced and cosigns; one whose state recorded another history refuses (422)
and nothing is kept, a warning naming it and the status; an unreachable one stops nobody."""

import json
import logging
import os
import shutil
import sys
import urllib.request
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.platform.keys import SERVICE_LOG_COSIGNATURES, SERVICE_LOG_WITNESSED
from fairness.checkpoint import cosignature_time
from fairness.note import COSIGNATURE_V1, VerifierKey, parse_note, parse_vkey
from fairness.service_log import open_log_checkpoint
from tests.app.servicelog.servicelog_kit import (
    service_log,
    verify_hex,
    with_service_log,
)
from tests.processes import ServerProcess, free_port, short_temp_dir

YACHT_DAILY = str(Path(sys.executable).parent / "yacht-daily")
WITNESS_NAME = "witness.test/w1"


class WitnessServer(ServerProcess):
    """``yacht-daily witness --serve`` on a free loopback port, following one log."""

    def __init__(self, directory: Path, log_vkey: str):
        self.directory, self.log_vkey = directory, log_vkey
        self.log_file = directory / "witness.log"

    @property
    def state_path(self) -> Path:
        return self.directory / "state.json"

    def start(self) -> "WitnessServer":
        self.port = free_port()
        self.launch([YACHT_DAILY, "witness", "--serve", f"127.0.0.1:{self.port}",
                     "--key", str(self.directory / "witness.pem"),
                     "--state", str(self.state_path), "--name", WITNESS_NAME,
                     "--log", self.log_vkey], dict(os.environ), "/")
        return self

    def vkey(self) -> str:
        with urllib.request.urlopen(f"{self.url}/", timeout=30) as answer:
            line = answer.read().decode().splitlines()[0]
        assert line.startswith("witness ")
        return line.split(" ", 1)[1]


@pytest.fixture
def app(logged_app):
    return with_service_log(logged_app)


@pytest.fixture
def witness_server(app):
    directory = short_temp_dir("ydsl-")
    running = WitnessServer(directory, service_log(app).key.vkey).start()
    app.config["LOG_WITNESSES"] = f"{running.vkey()} {running.url}/"
    yield running
    running.stop()
    shutil.rmtree(directory, ignore_errors=True)


def grow(log, count: int, tag: str) -> int:
    """Append ``count`` synthetic entries and run a pass (cut, submit); the size cut."""
    log.append_entries("synthetic|x", [f"{tag} {i}\n\n— x AAAA\n" for i in range(count)])
    size = log.run_once()
    assert size is not None
    return size


def served_cosignature(app, size: int, witness_vkey: str) -> None:
    """/log/checkpoint serves the checkpoint of ``size`` with the witness's valid
    cosignature line."""
    log = service_log(app)
    note = app.test_client().get("/log/checkpoint").get_data(as_text=True)
    checkpoint = open_log_checkpoint(note, parse_vkey(log.key.vkey), verify_hex)
    assert checkpoint.size == size
    body, signatures = parse_note(note)
    witness = parse_vkey(witness_vkey)
    mine = [s for s in signatures if s.name == WITNESS_NAME]
    assert len(mine) == 1 and cosignature_time(witness, body, mine[0], verify_hex) is not None
    assert witness_vkey in app.test_client().get("/api/v1/log").get_json()["witnesses"]


def test_the_witness_cosigns_and_the_checkpoint_serves_it(app, witness_server):
    log = service_log(app)
    witness_vkey = witness_server.vkey()
    size = grow(log, 5, "a")
    served_cosignature(app, size, witness_vkey)
    state = json.loads(witness_server.state_path.read_text())
    assert state["logs"][log.origin]["size"] == size
    size = grow(log, 300, "b")  # old 5, a consistency proof from it
    served_cosignature(app, size, witness_vkey)
    assert log.store.witnessed(WITNESS_NAME) == size


def test_a_witness_ahead_of_the_services_memory_is_resynced(app, witness_server,
                                                             redis_client, caplog):
    log = service_log(app)
    witness_vkey = witness_server.vkey()
    first = grow(log, 7, "a")
    served_cosignature(app, first, witness_vkey)
    redis_client.delete(SERVICE_LOG_WITNESSED)  # the service forgot what the witness has
    with caplog.at_level(logging.WARNING):
        second = grow(log, 9, "b")  # old 0 → 409 "7" → old 7 → 200
    served_cosignature(app, second, witness_vkey)
    assert log.store.witnessed(WITNESS_NAME) == second
    assert not [r for r in caplog.records if "did not cosign" in r.getMessage()]


def test_a_witness_that_recorded_another_history_refuses_and_nothing_is_kept(
        app, witness_server, caplog):
    log = service_log(app)
    witness_vkey = witness_server.vkey()
    first = grow(log, 6, "a")
    served_cosignature(app, first, witness_vkey)
    witness_server.stop()
    state = json.loads(witness_server.state_path.read_text())
    state["logs"][log.origin]["root"] = "ab" * 32  # its record of size 6: another tree
    witness_server.state_path.write_text(json.dumps(state))
    witness_server.start()
    app.config["LOG_WITNESSES"] = f"{witness_vkey} {witness_server.url}"
    with caplog.at_level(logging.WARNING):
        second = grow(log, 4, "b")
    refusals = [r for r in caplog.records if getattr(r, "event", "") == "log-witness-refused"]
    assert [(r.witness, r.status) for r in refusals] == [(WITNESS_NAME, 422)]
    assert WITNESS_NAME in refusals[0].getMessage() and "422" in refusals[0].getMessage()
    note = app.test_client().get("/log/checkpoint").get_data(as_text=True)
    assert parse_note(note)[1][0].name == log.origin and len(parse_note(note)[1]) == 1
    assert log.store.cosignatures(second, [WITNESS_NAME]) == [None]
    assert log.store.witnessed(WITNESS_NAME) == first


def test_an_unreachable_witness_stops_no_other(app, witness_server, caplog):
    log = service_log(app)
    witness_vkey = witness_server.vkey()
    other = VerifierKey("witness.test/dead", COSIGNATURE_V1,
                        Ed25519PrivateKey.generate().public_key().public_bytes_raw()).text()
    app.config["LOG_WITNESSES"] = (f"{other} http://127.0.0.1:{free_port()}, "
                                   f"{witness_vkey} {witness_server.url}")
    with caplog.at_level(logging.WARNING):
        size = grow(log, 3, "a")
    served_cosignature(app, size, witness_vkey)
    refusals = [r for r in caplog.records if getattr(r, "event", "") == "log-witness-refused"]
    assert [(r.witness, r.status) for r in refusals] == [("witness.test/dead", 0)]


def test_a_witness_claiming_a_fork_at_the_same_size_keeps_nothing(app, witness_server, caplog,
                                                                  redis_client):
    log = service_log(app)
    witness_vkey = witness_server.vkey()
    size = grow(log, 5, "a")
    served_cosignature(app, size, witness_vkey)
    witness_server.stop()
    state = json.loads(witness_server.state_path.read_text())
    state["logs"][log.origin]["root"] = "cd" * 32  # its record of this very size: another root
    witness_server.state_path.write_text(json.dumps(state))
    witness_server.start()
    app.config["LOG_WITNESSES"] = f"{witness_vkey} {witness_server.url}"
    redis_client.delete(SERVICE_LOG_COSIGNATURES)  # so that the pass submits it again
    with caplog.at_level(logging.WARNING):
        assert log.run_once() is None  # nothing new: only the witness is asked again
    refusals = [r for r in caplog.records if getattr(r, "event", "") == "log-witness-refused"]
    assert [(r.witness, r.status) for r in refusals] == [(WITNESS_NAME, 409)]
    assert log.store.cosignatures(size, [WITNESS_NAME]) == [None]
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        log.run_once()  # backing off: not asked again at once
    assert not [r for r in caplog.records if getattr(r, "event", "") == "log-witness-refused"]
