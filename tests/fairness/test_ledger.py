"""The published objects: epoch and reveal entries, receipts, what is signed, hashed and proven.

A signature covers the canonical JSON of the object without ``sig``; an entry's ``prev`` is the
SHA-256 of the whole previous entry, ``sig`` included; each (date, sheet) has one Merkle tree
of its receipts' unsigned canonical JSON, in game-id order.
"""

import hashlib

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairness import LedgerError, canonical_json, new_epoch
from fairness.ledger import (
    GENESIS_PREV,
    day_root,
    day_tree,
    entry_hash,
    epoch_entry,
    inclusion_proof,
    receipt,
    receipt_leaf_hash,
    reveal_entry,
    signed_bytes,
    transcript_hash,
    unsigned,
)
from fairness.merkle import leaf_hash, verify_inclusion

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
PUBLIC_KEY = KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
EPOCH = new_epoch(bytes(32), "2026-12-01", 7)
TRANSCRIPT = [{"action": "roll", "hold": [False] * 5, "dice": [1, 2, 3, 4, 5]}]


def sign(obj: dict) -> dict:
    """``obj`` with its Ed25519 signature."""
    return {**obj, "sig": KEY.sign(signed_bytes(obj)).hex()}


def a_receipt(game: str, total: int = 100) -> dict:
    """A signed receipt of game ``game``."""
    return sign(
        receipt(
            game=game,
            epoch=1,
            date="2026-12-01",
            ruleset="yacht",
            player="p-1",
            transcript=TRANSCRIPT,
            total=total,
        )
    )


class TestFormats:
    """Each object has exactly its documented fields."""

    def test_epoch_entry(self):
        entry = epoch_entry(
            seq=0,
            prev=GENESIS_PREV,
            number=1,
            epoch=EPOCH,
            public_key=PUBLIC_KEY,
            rulesets=("yacht", "yacht-bonus", "yahtzee"),
            published_at="2026-11-29T12:00:00Z",
        )
        assert entry == {
            "type": "yacht-daily/epoch/v1",
            "seq": 0,
            "prev": "0" * 64,
            "epoch": 1,
            "start": "2026-12-01",
            "length": 7,
            "anchor": EPOCH.anchor.hex(),
            "public_key": PUBLIC_KEY,
            "rulesets": ["yacht", "yacht-bonus", "yahtzee"],
            "published_at": "2026-11-29T12:00:00Z",
        }

    def test_reveal_entry(self):
        entry = reveal_entry(
            seq=1,
            prev="ab" * 32,
            epoch=1,
            date="2026-12-01",
            day=1,
            seed=bytes(32),
            games={"yacht": 0},
            roots={"yacht": bytes(32)},
            revealed_at="2026-12-02T13:01:00Z",
        )
        assert entry == {
            "type": "yacht-daily/reveal/v1",
            "seq": 1,
            "prev": "ab" * 32,
            "epoch": 1,
            "date": "2026-12-01",
            "day": 1,
            "seed": "00" * 32,
            "games": {"yacht": 0},
            "roots": {"yacht": "00" * 32},
            "revealed_at": "2026-12-02T13:01:00Z",
        }

    def test_receipt(self):
        assert unsigned(a_receipt("g1")) == {
            "type": "yacht-daily/receipt/v1",
            "game": "g1",
            "epoch": 1,
            "date": "2026-12-01",
            "ruleset": "yacht",
            "player": "p-1",
            "transcript_sha256": transcript_hash(TRANSCRIPT),
            "total": 100,
        }


class TestSignaturesAndLinks:
    """What the signature covers and what the next entry's prev hashes."""

    def test_signed_bytes_leave_out_the_signature(self):
        signed = a_receipt("g1")
        assert signed_bytes(signed) == canonical_json(unsigned(signed))
        assert b'"sig"' not in signed_bytes(signed)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(PUBLIC_KEY)).verify(
            bytes.fromhex(signed["sig"]), signed_bytes(signed)
        )

    def test_a_changed_field_breaks_the_signature(self):
        forged = {**a_receipt("g1"), "total": 101}
        with pytest.raises(InvalidSignature):
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(PUBLIC_KEY)).verify(
                bytes.fromhex(forged["sig"]), signed_bytes(forged)
            )

    def test_entry_hash_covers_the_signature(self):
        entry = sign(
            reveal_entry(
                seq=1,
                prev=GENESIS_PREV,
                epoch=1,
                date="2026-12-01",
                day=1,
                seed=bytes(32),
                games={},
                roots={},
                revealed_at="2026-12-02T13:01:00Z",
            )
        )
        assert entry_hash(entry) == hashlib.sha256(canonical_json(entry)).hexdigest()
        assert entry_hash(entry) != entry_hash({**entry, "sig": "00" * 64})


class TestDayTrees:
    """One tree per (date, sheet): receipts in game-id order, leaf data their unsigned JSON."""

    def test_leaves_are_sorted_by_game_id(self):
        receipts = [a_receipt(game) for game in ("c", "a", "b")]
        assert [r["game"] for r in day_tree(receipts)] == ["a", "b", "c"]
        assert day_root(receipts) == day_root(receipts[::-1])

    def test_leaf_is_the_unsigned_receipt(self):
        signed = a_receipt("g1")
        assert receipt_leaf_hash(signed) == leaf_hash(canonical_json(unsigned(signed)))
        assert receipt_leaf_hash(signed) == receipt_leaf_hash({**signed, "sig": "ff" * 64})

    def test_empty_day(self):
        assert day_root([]) == hashlib.sha256(b"").digest()

    @pytest.mark.parametrize("count", [1, 2, 5, 9])
    def test_every_receipt_has_a_valid_proof(self, count):
        receipts = [a_receipt(f"g{i:02d}", total=i) for i in range(count)]
        top = day_root(receipts)
        for signed in receipts:
            proof = inclusion_proof(receipts, signed["game"])
            assert proof["size"] == count
            assert verify_inclusion(
                receipt_leaf_hash(signed),
                proof["index"],
                proof["size"],
                [bytes.fromhex(h) for h in proof["path"]],
                top,
            )

    def test_a_changed_receipt_is_not_in_the_tree(self):
        receipts = [a_receipt(f"g{i}", total=i) for i in range(4)]
        proof = inclusion_proof(receipts, "g2")
        forged = {**receipts[2], "total": 999}
        assert not verify_inclusion(
            receipt_leaf_hash(forged),
            proof["index"],
            proof["size"],
            [bytes.fromhex(h) for h in proof["path"]],
            day_root(receipts),
        )

    def test_no_proof_for_a_game_without_receipt(self):
        with pytest.raises(LedgerError):
            inclusion_proof([a_receipt("g1")], "g2")
