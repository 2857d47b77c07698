"""Merkle trees exactly as RFC 9162: roots, audit paths, and proofs that fail when tampered.

The core builds trees bottom-up; here they are compared with a direct recursive reading of the
RFC's MTH and PATH definitions, and with Certificate Transparency's published roots.
"""

import hashlib

import pytest
from fairness_testkit import mth, path, reference_split, subproof

from fairness.errors import LedgerError
from fairness.merkle import (
    consistency_path,
    inclusion_path,
    leaf_hash,
    node_hash,
    root,
    split,
    verify_consistency,
    verify_inclusion,
)


def test_the_split_is_the_largest_power_of_two_below_the_size():
    """``split``, which the core and the app's grown tree share, against the kit's own loop."""
    assert [split(n) for n in range(2, 1 << 12)] == [reference_split(n)
                                                      for n in range(2, 1 << 12)]
    assert split(2**40 + 1) == 2**40 and split(2**40) == 2**39


def leaves_of(size: int) -> list[bytes]:
    """``size`` distinct leaf data."""
    return [f"leaf {i}".encode() for i in range(size)]


# Certificate Transparency's reference leaves and the tree heads of their first n (n = 0..8).
CT_LEAVES = [
    bytes.fromhex(h)
    for h in [
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    ]
]
CT_ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
CT_PATH_0_OF_8 = [
    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
]


class TestAgainstTheRfc:
    """Roots and paths equal the RFC's recursive definitions for every size 0..40."""

    @pytest.mark.parametrize("size", range(41))
    def test_root(self, size):
        data = leaves_of(size)
        assert root([leaf_hash(d) for d in data]) == mth(data)

    @pytest.mark.parametrize("size", range(1, 41))
    def test_every_path_and_its_verification(self, size):
        data = leaves_of(size)
        hashes = [leaf_hash(d) for d in data]
        top = mth(data)
        for index in range(size):
            audit = inclusion_path(index, hashes)
            assert audit == path(index, data), index
            assert verify_inclusion(hashes[index], index, size, audit, top)

    @pytest.mark.parametrize("size", range(9))
    def test_certificate_transparency_tree_heads(self, size):
        assert root([leaf_hash(d) for d in CT_LEAVES[:size]]).hex() == CT_ROOTS[size]

    def test_certificate_transparency_audit_path(self):
        hashes = [leaf_hash(d) for d in CT_LEAVES]
        assert [h.hex() for h in inclusion_path(0, hashes)] == CT_PATH_0_OF_8

    def test_domain_separation(self):
        assert leaf_hash(b"x") == hashlib.sha256(b"\x00x").digest()
        assert (
            node_hash(b"a" * 32, b"b" * 32)
            == hashlib.sha256(b"\x01" + b"a" * 32 + b"b" * 32).digest()
        )

    @pytest.mark.parametrize(("index", "size"), [(0, 0), (-1, 3), (3, 3)])
    def test_no_path_outside_the_tree(self, index, size):
        with pytest.raises(LedgerError):
            inclusion_path(index, [leaf_hash(d) for d in leaves_of(size)])


def _tampered_proofs(hashes: list[bytes], index: int):
    """Every single-field tampering of leaf ``index``'s proof, as (what, leaf, i, n, path, root)."""
    size = len(hashes)
    audit = inclusion_path(index, hashes)
    top = root(hashes)
    flip = bytes([audit[0][0] ^ 1]) + audit[0][1:] if audit else None
    yield "other leaf", leaf_hash(b"forged"), index, size, audit, top
    yield "other root", hashes[index], index, size, audit, hashlib.sha256(b"x").digest()
    yield "index + 1", hashes[index], index + 1, size, audit, top
    yield "index - 1", hashes[index], index - 1, size, audit, top
    yield "extra hash", hashes[index], index, size, [*audit, top], top
    if audit:
        yield "flipped bit", hashes[index], index, size, [flip, *audit[1:]], top
        yield "dropped hash", hashes[index], index, size, audit[:-1], top
    if len(audit) > 1:
        yield "reversed", hashes[index], index, size, audit[::-1], top


class TestTamperedProofs:
    """Changing the leaf, index, path or root of a valid proof makes it fail."""

    @pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 8, 13, 16, 17])
    def test_every_tampering_fails(self, size):
        hashes = [leaf_hash(d) for d in leaves_of(size)]
        for index in range(size):
            for what, leaf, i, n, audit, top in _tampered_proofs(hashes, index):
                assert not verify_inclusion(leaf, i, n, audit, top), (size, index, what)

    def test_the_size_is_not_bound_by_the_proof_alone(self):
        """Leaf 0 of 3 has the shape of leaf 0 of 4: a verifier must take the size from the
        reveal entry's games count, never from the proof."""
        hashes = [leaf_hash(d) for d in leaves_of(3)]
        audit = inclusion_path(0, hashes)
        assert verify_inclusion(hashes[0], 0, 4, audit, root(hashes))


class TestConsistencyAgainstTheRfc:
    """Consistency proofs equal the RFC's SUBPROOF for every pair of sizes 0 <= m <= n <= 40,
    verify, and fail when any part of them is changed."""

    @pytest.mark.parametrize("size", range(41))
    def test_every_proof_and_its_verification(self, size):
        data = leaves_of(size)
        hashes = [leaf_hash(d) for d in data]
        for first in range(size + 1):
            proof = consistency_path(first, hashes)
            expected = subproof(first, data, True) if 0 < first < size else []
            assert proof == expected, first
            assert verify_consistency(first, size, mth(data[:first]), mth(data), proof), first

    @pytest.mark.parametrize("size", [2, 3, 5, 7, 8, 13, 16, 17, 40])
    def test_every_tampering_fails(self, size):
        hashes = [leaf_hash(d) for d in leaves_of(size)]
        top = root(hashes)
        for first in range(1, size):
            proof = consistency_path(first, hashes)
            old = root(hashes[:first])
            forged = hashlib.sha256(b"forged").digest()
            cases = [
                ("other first root", first, size, forged, top, proof),
                ("other second root", first, size, old, forged, proof),
                ("first + 1", first + 1, size, old, top, proof),
                ("first - 1", first - 1, size, old, top, proof),
                ("extra hash", first, size, old, top, [*proof, top]),
                ("dropped hash", first, size, old, top, proof[:-1]),
            ]
            if proof:
                flipped = bytes([proof[0][0] ^ 1]) + proof[0][1:]
                cases.append(("flipped bit", first, size, old, top, [flipped, *proof[1:]]))
            for what, m, n, first_root, second_root, path_ in cases:
                assert not verify_consistency(m, n, first_root, second_root, path_), \
                    (size, first, what)

    def test_a_fork_is_inconsistent(self):
        """Two trees of one size with different roots are never consistent, whatever the proof."""
        one = [leaf_hash(d) for d in leaves_of(5)]
        other = [*one[:4], leaf_hash(b"forged")]
        assert not verify_consistency(5, 5, root(one), root(other), [])
        assert not verify_consistency(4, 5, root(one[:4]), root(other),
                                      consistency_path(4, one))

    def test_the_second_size_is_not_bound_by_the_proof_alone(self):
        """Like an inclusion proof, a consistency proof from 1 to 3 has the shape of one from 1
        to 4: the sizes come from the signed checkpoints, never from the proof."""
        hashes = [leaf_hash(d) for d in leaves_of(3)]
        proof = consistency_path(1, hashes)
        assert verify_consistency(1, 4, root(hashes[:1]), root(hashes), proof)

    def test_no_proof_beyond_the_tree(self):
        with pytest.raises(LedgerError):
            consistency_path(4, [leaf_hash(d) for d in leaves_of(3)])
