"""The service log's checkpoint (exactly three lines, read strictly), its key (ID and vkey), the
log's signature and the witnesses' cosignatures (real Ed25519), and the misbehaviour verdict:
PROVEN for a fork (one size, two roots; or a signed prefix the larger tree does not begin with),
NOT PROVEN for an honest pair, a bad signature, or a proof that does not reach the larger root."""

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import merkle
from fairness.errors import LedgerError
from fairness.note import ED25519, key_id, parse_vkey
from fairness.service_log import (
    LogCheckpoint,
    cosignatures,
    fork_proof_ranges,
    format_fork,
    log_key_id,
    log_vkey,
    misbehaviour,
    open_log_checkpoint,
    parse_fork,
    parse_log_checkpoint,
)
from tests.fairness.service_log_kit import (
    LOG_KEY,
    LOG_PRIVATE,
    ORIGIN,
    WITNESS_KEYS,
    cosigned,
    private_key,
    public_bytes,
    signed,
    verify,
)

LEAVES = [merkle.leaf_hash(f"day checkpoint {i}".encode()) for i in range(300)]
OTHER = [merkle.leaf_hash(f"another history {i}".encode()) for i in range(300)]
ROOT = base64.b64encode(bytes(range(32))).decode()


def checkpoint(size: int, leaves=LEAVES) -> LogCheckpoint:
    """The service log's checkpoint of the first ``size`` leaves."""
    return LogCheckpoint(ORIGIN, size, merkle.root(leaves[:size]))


def fork_proof(old: int, size: int, leaves=LEAVES) -> list[bytes]:
    """SUBPROOF(old, D[size], false) from the leaves."""
    proof = merkle.consistency_path(old, leaves[:size])
    if old & (old - 1) == 0:
        proof.insert(0, merkle.root(leaves[:old]))
    return proof


def test_the_body_is_three_lines():
    assert LogCheckpoint(ORIGIN, 3, bytes(range(32))).body() == f"{ORIGIN}\n3\n{ROOT}\n"
    assert parse_log_checkpoint(f"{ORIGIN}\n3\n{ROOT}\n") == LogCheckpoint(
        ORIGIN, 3, bytes(range(32)))


@settings(max_examples=50)
@given(st.integers(0, 2**53 - 1), st.binary(min_size=32, max_size=32))
def test_bodies_round_trip(size, root):
    cp = LogCheckpoint(ORIGIN, size, root)
    assert parse_log_checkpoint(cp.body()) == cp


@pytest.mark.parametrize("body", [
    f"{ORIGIN}\n3\n{ROOT}\ntime 2026-12-01T10:01:00Z\n",  # an extension line
    f"{ORIGIN}\n3\n{ROOT}\n\n", f"{ORIGIN}\n3\n{ROOT}", f"{ORIGIN}\n3\n", f"\n3\n{ROOT}\n",
    f"{ORIGIN}\n03\n{ROOT}\n", f"{ORIGIN}\n-3\n{ROOT}\n", f"{ORIGIN}\n+3\n{ROOT}\n",
    f"{ORIGIN}\n 3\n{ROOT}\n", f"{ORIGIN}\n{2**53}\n{ROOT}\n", f"{ORIGIN}\n3\n{ROOT[:-1]}\n",
    f"{ORIGIN}\n3\n{ROOT[:-2]}B=\n", f"{ORIGIN}\n3\n{base64.b64encode(bytes(31)).decode()}\n",
    f"yacht example/log\n3\n{ROOT}\n", f"yacht.example+log\n3\n{ROOT}\n",
    f"{ORIGIN}\r\n3\n{ROOT}\n",
])
def test_malformed_bodies_are_refused(body):
    with pytest.raises(LedgerError):
        parse_log_checkpoint(body)


def test_the_log_key():
    public = public_bytes(LOG_PRIVATE)
    assert log_key_id(ORIGIN, public) == key_id(ORIGIN, ED25519, public) == LOG_KEY.key_id
    vkey = log_vkey(ORIGIN, public)
    encoded = base64.b64encode(bytes([1]) + public).decode()
    assert vkey == f"{ORIGIN}+{LOG_KEY.key_id.hex()}+{encoded}"
    assert parse_vkey(vkey) == LOG_KEY


def test_the_log_signature_opens_a_checkpoint():
    cp = checkpoint(5)
    note = signed(cp)
    assert open_log_checkpoint(note, LOG_KEY, verify) == cp
    assert open_log_checkpoint(cosigned(note, "witness.example/w1"), LOG_KEY, verify) == cp
    stranger = signed(cp, private_key(99), "stranger.example/log")
    assert open_log_checkpoint(note + stranger.split("\n\n")[1], LOG_KEY, verify) == cp


@pytest.mark.parametrize("note, why", [
    (signed(checkpoint(5), private_key(8)), "no signature by the log key"),
    (signed(checkpoint(5)).replace("\n5\n", "\n6\n"), "does not verify"),
    (signed(LogCheckpoint("other.example/log", 5, bytes(32)), LOG_PRIVATE, ORIGIN),
     "is not the log key's name"),
    (signed(checkpoint(5)) + signed(checkpoint(5)).split("\n\n")[1].replace("A", "B", 1),
     "does not verify|not canonical"),
    (signed(f"{ORIGIN}\n5\n{ROOT}\nextra\n"), "no extension lines"),
])
def test_a_note_the_log_did_not_sign_is_refused(note, why):
    with pytest.raises(LedgerError, match=why):
        open_log_checkpoint(note, LOG_KEY, verify)


def test_cosignatures_of_named_witnesses():
    note = cosigned(signed(checkpoint(5)), "witness.example/w1", "witness.example/w3",
                    timestamp=1_796_119_265)
    found = cosignatures(note, WITNESS_KEYS, verify)
    assert [(c.witness.name, c.timestamp) for c in found] == [
        ("witness.example/w1", 1_796_119_265), ("witness.example/w3", 1_796_119_265)]
    assert cosignatures(note, WITNESS_KEYS[1:2], verify) == []
    forged = cosigned(signed(checkpoint(6)), "witness.example/w2").split("\n\n")[1]
    assert cosignatures(signed(checkpoint(5)) + forged, WITNESS_KEYS, verify) == []
    with pytest.raises(LedgerError, match="0x04"):
        cosignatures(note, [LOG_KEY], verify)


@pytest.mark.parametrize("old, new", [(1, 2), (3, 7), (4, 9), (8, 16), (100, 300), (256, 257),
                                      (257, 300), (0, 5), (7, 7)])
def test_an_honest_pair_proves_nothing(old, new):
    for a, b in ((old, new), (new, old)):
        verdict = misbehaviour(signed(checkpoint(a)), signed(checkpoint(b)),
                               fork_proof(min(a, b), max(a, b)), LOG_KEY, verify)
        assert not verdict.proven and str(verdict).startswith("NOT PROVEN: ")


@pytest.mark.parametrize("old, new", [(1, 2), (3, 7), (4, 9), (8, 16), (100, 300), (256, 257)])
def test_a_signed_prefix_the_larger_tree_does_not_begin_with_is_a_fork(old, new):
    forked = signed(checkpoint(old, OTHER))
    verdict = misbehaviour(forked, signed(checkpoint(new)), fork_proof(old, new), LOG_KEY,
                           verify)
    assert verdict.proven and str(verdict).startswith("PROVEN: ")
    assert misbehaviour(signed(checkpoint(new)), forked, fork_proof(old, new), LOG_KEY,
                        verify).proven
    wrong = fork_proof(old, new, OTHER[:old] + LEAVES[old:])  # the forked prefix's own hashes
    assert not misbehaviour(forked, signed(checkpoint(new)), wrong, LOG_KEY, verify).proven
    tampered = [bytes(32)] + fork_proof(old, new)[1:]
    assert not misbehaviour(forked, signed(checkpoint(new)), tampered, LOG_KEY,
                            verify).proven


def test_one_size_two_roots_is_a_fork():
    verdict = misbehaviour(signed(checkpoint(9)), signed(checkpoint(9, OTHER)), [], LOG_KEY,
                           verify)
    assert verdict.proven and "size 9" in verdict.reason
    empty_lie = signed(LogCheckpoint(ORIGIN, 0, bytes(32)))
    assert misbehaviour(empty_lie, signed(checkpoint(3)), [], LOG_KEY, verify).proven


def test_without_the_log_signature_nothing_is_proven():
    stranger = private_key(99)
    verdict = misbehaviour(signed(checkpoint(9), stranger), signed(checkpoint(9, OTHER)), [],
                           LOG_KEY, verify)
    assert not verdict.proven and "signed by the log" in verdict.reason


def test_fork_ranges_and_file_round_trip():
    assert fork_proof_ranges(4, 9) == [(0, 4), (4, 8), (8, 9)]
    assert fork_proof_ranges(3, 7) == [(2, 3), (3, 4), (0, 2), (4, 7)]
    old, new, proof = signed(checkpoint(8, OTHER)), signed(checkpoint(16)), fork_proof(8, 16)
    text = format_fork(old, new, proof)
    assert text.endswith("\n") and parse_fork(text) == (old, new, proof)
    assert misbehaviour(*parse_fork(text), LOG_KEY, verify).proven
    first = base64.b64encode(proof[0]).decode()
    for broken in (text.replace('"type"', '"kind"'), text[:-3], text.replace(first, first[1:]),
                   text.replace(first, base64.b64encode(bytes(31)).decode())):
        with pytest.raises(LedgerError):
            parse_fork(broken)
