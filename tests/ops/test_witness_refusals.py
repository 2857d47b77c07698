"""``yacht-daily witness`` against a log that misbehaves: served by a small log server (the
endpoints of docs/api.md, real Ed25519 signatures) that a test turns into a dishonest operator.
A witness cosigns what extends what it accepted, and refuses — exit 1, both signed notes kept
in its state file — a fork, a rollback or an inconsistent extension."""

import stat

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from logserver import LogServer, forged_same_size, sign_note
from witnessing import WitnessRun

from app.ledger.signing import verify_signature
from fairness.checkpoint import cosigned_message, read_cosignature
from fairness.note import parse_note, parse_vkey


@pytest.fixture
def witness(tmp_path):
    """A witness's key and state files (not created yet)."""
    return WitnessRun(tmp_path / "witness" / "key.pem", tmp_path / "witness" / "state.json")


@pytest.fixture
def log(witness, tmp_path):
    """A log server that allows the witness, with one checkpoint of 2 games."""
    server = LogServer([witness.create_key()])
    server.cut(2, "2026-03-10T10:01:00Z")
    yield server
    server.stop()


def valid_cosignature(line: str, body: str, vkey: str) -> bool:
    """True when a posted cosignature line verifies under the witness's vkey."""
    key = parse_vkey(vkey)
    _, [signature] = parse_note("x\n\n" + line)
    timestamp, raw = read_cosignature(signature.payload)
    return (signature.key_id == key.key_id
            and verify_signature(key.public_key.hex(), cosigned_message(body, timestamp),
                                 raw.hex()))


def test_the_first_run_creates_a_private_key_and_prints_its_vkey(witness, tmp_path):
    """The key file is the owner's only; the printed vkey names the witness; a second run
    with another --name is refused rather than becoming another witness on the same state."""
    server = LogServer([])
    try:
        done = witness.once(server.url)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Created a new witness key" in done.stdout
        vkey = witness.vkey(server.url)
        assert parse_vkey(vkey).name == "witness.test/w1"
        assert stat.S_IMODE(witness.key.stat().st_mode) == 0o600
        other = WitnessRun(witness.key, witness.state, name="witness.test/w2").once(server.url)
        assert other.returncode == 2 and "named witness.test/w1" in other.stderr
    finally:
        server.stop()


def test_it_cosigns_each_extension_and_only_once(log, witness):
    """Pass 1 cosigns size 2; pass 2 has nothing new; after 3 more games, pass 3 checks the
    consistency proof 2 → 5 and cosigns; every posted cosignature verifies."""
    vkey = witness.vkey(log.url)
    state = witness.read_state()
    [accepted] = state["logs"].values()
    assert accepted["size"] == 2 and accepted["cosigned"] is True
    again = witness.once(log.url)
    assert again.returncode == 0 and "up to date" in again.stdout
    log.cut(3, "2026-03-10T10:02:00Z")
    third = witness.once(log.url)
    assert third.returncode == 0, third.stdout + third.stderr
    assert "cosigned" in third.stdout and "size 5" in third.stdout
    assert len(log.cosignatures) == 2
    bodies = [body for body, _ in log.checkpoints]
    assert all(valid_cosignature(line, body, vkey) for line, body in zip(log.cosignatures,
                                                                         bodies, strict=True))


def test_a_fork_is_refused_and_its_evidence_kept(log, witness):
    """The same size with another root, signed by the log's key: exit 1, a clear report, both
    notes in the state file; the log is not cosigned again even once it looks honest."""
    witness.once(log.url)
    honest = log.latest_note()
    log.override = forged_same_size(honest, log.key)
    done = witness.once(log.url)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "REFUSED" in done.stderr and "fork" in done.stderr
    [evidence] = witness.read_state()["refused"]
    assert evidence["kind"] == "fork"
    assert evidence["offered_note"] == log.override
    assert parse_note(evidence["accepted_note"])[0] == parse_note(honest)[0]
    assert len(log.cosignatures) == 1
    log.override = None
    log.cut(1, "2026-03-10T10:05:00Z")
    later = witness.once(log.url)
    assert later.returncode == 1 and "refused before" in later.stdout
    assert len(log.cosignatures) == 1


def test_a_rollback_is_refused(log, witness):
    """An older, smaller checkpoint after a larger one was accepted."""
    first = log.latest_note()
    log.cut(2, "2026-03-10T10:02:00Z")
    witness.once(log.url)
    log.override = first
    done = witness.once(log.url)
    assert done.returncode == 1 and "rollback" in done.stdout
    assert witness.read_state()["refused"][0]["kind"] == "rollback"


def test_an_extension_without_a_valid_consistency_proof_is_refused(log, witness):
    """A larger checkpoint whose proof does not lead from the accepted root: the log
    rewrote history under a larger tree."""
    witness.once(log.url)
    log.cut(3, "2026-03-10T10:02:00Z")
    log.proof_override = ["00" * 32, "11" * 32]
    done = witness.once(log.url)
    assert done.returncode == 1 and "inconsistent" in done.stdout
    [evidence] = witness.read_state()["refused"]
    assert evidence["proof"] == log.proof_override and evidence["offered_note"]


def test_a_checkpoint_not_signed_by_the_epoch_key_is_refused_each_time(log, witness):
    """Signed by another key: refused (exit 1) but not held against the log, which anyone on
    the way could have forged; the next honest checkpoint is cosigned."""
    witness.once(log.url)
    body, _ = parse_note(log.latest_note())
    log.override = sign_note(Ed25519PrivateKey.generate(), body)
    done = witness.once(log.url)
    assert done.returncode == 1 and "bad-signature" in done.stdout
    log.override = None
    log.cut(1, "2026-03-10T10:03:00Z")
    assert witness.once(log.url).returncode == 0


def test_a_witness_the_operator_did_not_configure_is_told_so(witness):
    """403 unknown-witness: exit 2, the checkpoint still verified and recorded."""
    server = LogServer([])
    try:
        server.cut(1, "2026-03-10T10:01:00Z")
        done = witness.once(server.url)
        assert done.returncode == 2 and "unknown-witness" in done.stdout
        [accepted] = witness.read_state()["logs"].values()
        assert accepted["size"] == 1 and accepted["cosigned"] is False
    finally:
        server.stop()
