"""Merkle tree hashing and inclusion proofs exactly as RFC 9162 (Certificate Transparency 2.0).

Leaf hash ``SHA-256(0x00 || data)``, node hash ``SHA-256(0x01 || left || right)``, the empty
tree's root ``SHA-256("")``; a tree of ``n`` leaves splits at the largest power of two below ``n``.
"""

import hashlib
from collections.abc import Sequence

from .errors import LedgerError


def leaf_hash(data: bytes) -> bytes:
    """The hash of one leaf's data."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node from its children's hashes."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """The root of the tree whose leaves hash to ``leaf_hashes``, in order."""
    if not leaf_hashes:
        return hashlib.sha256(b"").digest()
    level = list(leaf_hashes)
    while len(level) > 1:
        # Pairing left to right and carrying an odd last node up unchanged builds exactly the
        # RFC's tree (left subtree = the largest power of two below n).
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def inclusion_path(index: int, leaf_hashes: Sequence[bytes]) -> list[bytes]:
    """The audit path of leaf ``index`` (RFC 9162 section 2.1.3.1), leaf side first."""
    size = len(leaf_hashes)
    if not 0 <= index < size:
        raise LedgerError(f"leaf {index} is not in a tree of {size} leaves")
    path = []
    level = list(leaf_hashes)
    while len(level) > 1:
        sibling = index ^ 1
        if sibling < len(level):
            path.append(level[sibling])
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level, index = paired, index // 2
    return path


def inclusion_root(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root an inclusion proof of leaf hash ``leaf`` leads to (RFC 9162 section 2.1.3.2).

    None when the proof is ill-shaped for a tree of ``size`` leaves.
    """
    if not 0 <= index < size:
        return None
    fn, sn, result = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            result = node_hash(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return result if sn == 0 else None


def verify_inclusion(
    leaf: bytes, index: int, size: int, path: Sequence[bytes], root_hash: bytes
) -> bool:
    """Check an inclusion proof of the leaf hash ``leaf`` against ``root_hash``."""
    return inclusion_root(leaf, index, size, path) == root_hash


def consistency_path(first_size: int, leaf_hashes: Sequence[bytes]) -> list[bytes]:
    """The consistency proof from the tree of the first ``first_size`` leaves to the whole tree
    (RFC 9162 section 2.1.4.1, PROOF(m, D[n])); empty when ``first_size`` is 0 or n."""
    size = len(leaf_hashes)
    if not 0 <= first_size <= size:
        raise LedgerError(f"a tree of {first_size} leaves is not a prefix of {size} leaves")
    if first_size in (0, size):
        return []
    return _subproof(first_size, list(leaf_hashes), True)


def _subproof(m: int, hashes: list[bytes], whole: bool) -> list[bytes]:
    """RFC 9162's SUBPROOF(m, D[n], b) on leaf hashes."""
    n = len(hashes)
    if m == n:
        return [] if whole else [root(hashes)]
    k = split(n)
    if m <= k:
        return _subproof(m, hashes[:k], whole) + [root(hashes[k:])]
    return _subproof(m - k, hashes[k:], False) + [root(hashes[:k])]


def split(n: int) -> int:
    """Where RFC 9162 splits a tree of ``n`` leaves (n > 1): its left subtree's size, the
    largest power of two smaller than ``n``."""
    return 1 << ((n - 1).bit_length() - 1)


def verify_consistency(first_size: int, second_size: int, first_root: bytes,
                       second_root: bytes, path: Sequence[bytes]) -> bool:
    """Check a consistency proof between two tree heads (RFC 9162 section 2.1.4.2).

    A tree is consistent with itself (equal roots, empty proof) and the empty tree with every
    tree (empty proof, the first root that of the empty tree).
    """
    if not 0 <= first_size <= second_size:
        return False
    if first_size == second_size:
        return not path and first_root == second_root
    if first_size == 0:
        return not path and first_root == root([])
    proof = list(path)
    if first_size & (first_size - 1) == 0:  # an exact power of two: its root is a node
        proof.insert(0, first_root)
    return consistency_roots(first_size, second_size, proof) == (first_root, second_root)


def consistency_roots(first_size: int, second_size: int,
                      proof: Sequence[bytes]) -> tuple[bytes, bytes] | None:
    """The (first, second) roots that SUBPROOF(m, D[n], false) leads to by RFC 9162 section
    2.1.4.2, the first hash standing for the first root; None when it is ill-shaped. For
    ``0 < first_size < second_size``."""
    if not proof:
        return None
    fn, sn = first_size - 1, second_size - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for sibling in proof[1:]:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            fr, sr = node_hash(sibling, fr), node_hash(sibling, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, sibling)
        fn, sn = fn >> 1, sn >> 1
    return (fr, sr) if sn == 0 else None
