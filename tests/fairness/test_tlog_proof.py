"""C2SP tlog-proof@v1: a proof of a day checkpoint's inclusion in the service log is written and
read back exactly (with and without extra data), every malformed variant is refused, and it
verifies only with the log's signature, a quorum of distinct named witnesses, no failing named
cosignature, and an inclusion proof of that entry at that index."""

import base64

import pytest

from fairness import merkle
from fairness.errors import LedgerError
from fairness.service_log import LogCheckpoint
from fairness.tlog_proof import TlogProof, format_tlog_proof, parse_tlog_proof, verify_tlog_proof
from tests.fairness.service_log_kit import (
    LOG_KEY,
    ORIGIN,
    WITNESS_KEYS,
    cosigned,
    private_key,
    signed,
    verify,
)

ENTRIES = [f"yacht-daily/log/x/2026-12-02/yahtzee\n{i}\n…\n\n— sig\n".encode()
           for i in range(13)]
LEAVES = [merkle.leaf_hash(entry) for entry in ENTRIES]
W1, W2, W3 = (key.name for key in WITNESS_KEYS)
NOTE = cosigned(signed(LogCheckpoint(ORIGIN, 13, merkle.root(LEAVES))), W1, W2,
                timestamp=1_796_119_265)


def proof_of(index: int, note: str = NOTE, extra: bytes | None = None) -> TlogProof:
    """The proof of entry ``index`` against ``note``."""
    return TlogProof(index, tuple(merkle.inclusion_path(index, LEAVES)), note, extra)


def test_the_text_is_the_spec_layout():
    proof = proof_of(5, extra=b"age-v1.2.1")
    text = format_tlog_proof(proof)
    path = [base64.b64encode(h).decode() for h in proof.path]
    assert text == ("c2sp.org/tlog-proof@v1\nextra YWdlLXYxLjIuMQ==\nindex 5\n"
                    + "".join(p + "\n" for p in path) + "\n" + NOTE)
    assert parse_tlog_proof(text) == proof
    bare = proof_of(0)
    assert format_tlog_proof(bare).startswith("c2sp.org/tlog-proof@v1\nindex 0\n")
    assert parse_tlog_proof(format_tlog_proof(bare)) == bare
    single = TlogProof(0, (), signed(LogCheckpoint(ORIGIN, 1, LEAVES[0])))
    assert parse_tlog_proof(format_tlog_proof(single)) == single


GOOD = format_tlog_proof(proof_of(5, extra=b"x"))
HASH = base64.b64encode(proof_of(5).path[0]).decode()


@pytest.mark.parametrize("text", [
    GOOD.replace("c2sp.org/tlog-proof@v1", "c2sp.org/tlog-proof@v2"),
    GOOD.replace("extra eA==", "extra eB=="), GOOD.replace("extra eA==", "extra "),
    GOOD.replace("extra eA==", "extra eA"), GOOD.replace("extra eA==\n", ""
                                                          ).replace("index 5", "extra eA=="),
    GOOD.replace("index 5", "index 05"), GOOD.replace("index 5", "index -5"),
    GOOD.replace("index 5", "index  5"), GOOD.replace("index 5", "index 5 "),
    GOOD.replace("index 5", "Index 5"), GOOD.replace("index 5", f"index {2**63}"),
    GOOD.replace("index 5\n", ""), GOOD.replace(HASH, HASH[:-1]),
    GOOD.replace(HASH, base64.b64encode(bytes(31)).decode()),
    GOOD.replace(HASH, HASH + " "), GOOD.replace(f"{HASH}\n", f"{HASH}\r\n"),
    GOOD.replace(f"\n\n{ORIGIN}", f"\n{ORIGIN}"),
    GOOD.replace("index 5\n", "index 5\n" + f"{HASH}\n" * 64),
    GOOD[:GOOD.index(ORIGIN)], GOOD[:-1], GOOD + "trailing", "",
])
def test_malformed_proofs_are_refused(text):
    with pytest.raises(LedgerError):
        parse_tlog_proof(text)


def test_63_proof_lines_are_read():
    text = GOOD.replace("index 5\n", "index 5\n" + f"{HASH}\n" * (63 - 4))
    assert len(parse_tlog_proof(text).path) == 63


@pytest.mark.parametrize("index", range(13))
def test_a_proof_verifies(index):
    proof = parse_tlog_proof(format_tlog_proof(proof_of(index)))
    checkpoint = verify_tlog_proof(proof, ENTRIES[index], LOG_KEY, WITNESS_KEYS, 2, verify)
    assert checkpoint.size == 13 and checkpoint.root == merkle.root(LEAVES)


@pytest.mark.parametrize("change, why", [
    (lambda p, e: (p, e + b"!"), "does not lead"),
    (lambda p, e: (TlogProof(6, p.path, p.checkpoint), e), "does not lead"),
    (lambda p, e: (TlogProof(13, p.path, p.checkpoint), e), "does not lead"),
    (lambda p, e: (TlogProof(p.index, p.path[:-1], p.checkpoint), e), "does not lead"),
    (lambda p, e: (TlogProof(p.index, p.path, signed(LogCheckpoint(ORIGIN, 13, merkle.root(
        LEAVES)), private_key(3))), e), "no signature by the log key"),
    (lambda p, e: (TlogProof(p.index, p.path, cosigned(signed(LogCheckpoint(
        ORIGIN, 13, merkle.root(LEAVES))), W1, W1)), e), "1 named witnesses"),
    (lambda p, e: (TlogProof(p.index, p.path, NOTE + cosigned(signed(LogCheckpoint(
        ORIGIN, 12, merkle.root(LEAVES))), W3).split("\n\n")[1].split("\n")[1] + "\n"), e),
     "by witness.example/w3"),
])
def test_a_proof_fails(change, why):
    proof, entry = change(proof_of(5), ENTRIES[5])
    with pytest.raises(LedgerError, match=why):
        verify_tlog_proof(proof, entry, LOG_KEY, WITNESS_KEYS, 2, verify)


def test_the_quorum():
    proof = proof_of(5)
    assert verify_tlog_proof(proof, ENTRIES[5], LOG_KEY, WITNESS_KEYS[:1], 1, verify)
    assert verify_tlog_proof(proof, ENTRIES[5], LOG_KEY, [], 0, verify)
    with pytest.raises(LedgerError, match="fewer than 3"):
        verify_tlog_proof(proof, ENTRIES[5], LOG_KEY, WITNESS_KEYS, 3, verify)
    with pytest.raises(LedgerError, match="quorum"):
        verify_tlog_proof(proof, ENTRIES[5], LOG_KEY, WITNESS_KEYS[:1], 2, verify)
