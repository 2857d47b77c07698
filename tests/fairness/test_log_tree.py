"""The growing log tree and its proofs from stored complete subtrees equal ``fairness.merkle``'s
(RFC 9162, built from every leaf): the root, edge and consistency proof of a tree grown from its
edge; the complete subtrees each growth adds, however the tree grew; every inclusion and
consistency proof up to 64 leaves and at sizes around powers of two up to 1025; and a proof at
10,000 leaves reads one stored hash a level at most, in one read."""

import random

import pytest

from fairness import merkle
from fairness.log_tree import (
    GrownTree,
    ProofNodes,
    edge_ranges,
    new_subtrees,
    subtree_of,
)

MAX_EXHAUSTIVE = 64
LEAVES = [merkle.leaf_hash(f"leaf {i}".encode()) for i in range(1025)]
GROWTHS = {
    "one at a time": [1] * MAX_EXHAUSTIVE,
    "in bursts": [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 3],
    "all at once": [MAX_EXHAUSTIVE],
    "at random": [random.Random(9162).randint(1, 9) for _ in range(20)],
}
LARGE_SIZES = [size for power in range(7, 11) for size in (2**power - 1, 2**power, 2**power + 1)]


class StoredLevels:
    """Complete subtrees kept in memory as one list per level, as a log's storage keeps them;
    read as a ``HashReader``, counting the reads and the hashes read."""

    def __init__(self):
        """No subtree yet."""
        self.levels: dict[int, list[bytes]] = {}
        self.reads = 0
        self.hashes_read = 0

    def grow(self, old_size: int, old_edge, new_leaves) -> None:
        """Keep what a growth by ``new_leaves`` adds, at the positions it says."""
        for level, (first, nodes) in enumerate(new_subtrees(old_size, old_edge, new_leaves)):
            stored = self.levels.setdefault(level, [])
            assert len(stored) == first
            stored.extend(nodes)

    def __call__(self, indexes):
        """The hashes at ``indexes`` (level, position), None where there is none."""
        self.reads += 1
        self.hashes_read += len(indexes)
        return [self.levels.get(level, [])[position]
                if position < len(self.levels.get(level, [])) else None
                for level, position in indexes]


def grown(leaves, steps) -> tuple[StoredLevels, dict[int, list[bytes]]]:
    """The subtrees stored by growths of ``steps`` leaves at a time, and each growth's edge."""
    stored, edges, size, edge = StoredLevels(), {0: []}, 0, []
    for step in steps:
        new = leaves[size:size + step]
        stored.grow(size, edge, new)
        tree = GrownTree(size, edge, new)
        size, edge = tree.size, tree.edge()
        edges[size] = edge
    return stored, edges


def edge_of(size: int) -> list[bytes]:
    """The right edge of the tree of the first ``size`` leaves, from merkle's roots."""
    return [merkle.root(LEAVES[start:end]) for start, end in edge_ranges(size)]


def test_the_edge_is_one_complete_subtree_per_bit_highest_first():
    assert edge_ranges(0) == []
    assert edge_ranges(6) == [(0, 4), (4, 6)]
    assert edge_ranges(13) == [(0, 8), (8, 12), (12, 13)]
    assert [subtree_of(*r) for r in edge_ranges(13)] == [(3, 0), (2, 2), (0, 12)]
    assert subtree_of(4, 6) == (1, 2) and subtree_of(2, 6) is None and subtree_of(3, 3) is None


def test_a_tree_grown_from_its_edge_has_merkles_root_edge_and_consistency_proof():
    for old_size in range(MAX_EXHAUSTIVE + 1):
        for size in range(old_size, MAX_EXHAUSTIVE + 1):
            tree = GrownTree(old_size, edge_of(old_size), LEAVES[old_size:size])
            assert tree.size == size
            assert tree.root() == merkle.root(LEAVES[:size]), (old_size, size)
            assert tree.edge() == edge_of(size), (old_size, size)
            assert tree.consistency() == merkle.consistency_path(old_size, LEAVES[:size]), \
                (old_size, size)


def test_an_edge_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError):
        GrownTree(6, edge_of(7), [])
    with pytest.raises(ValueError):
        ProofNodes(6, edge_of(4), StoredLevels())


@pytest.mark.parametrize("steps", GROWTHS.values(), ids=GROWTHS.keys())
def test_the_stored_subtrees_are_those_of_the_whole_tree_however_it_grew(steps):
    leaves = LEAVES[:sum(steps)]
    stored, edges = grown(leaves, steps)
    for level, nodes in stored.levels.items():
        width = 1 << level
        assert nodes == [merkle.root(leaves[i * width:(i + 1) * width])
                         for i in range(len(leaves) // width)]
    assert all(edge == edge_of(size) for size, edge in edges.items())


@pytest.mark.parametrize("steps", GROWTHS.values(), ids=GROWTHS.keys())
def test_every_inclusion_and_consistency_proof_up_to_64_is_merkles(steps):
    stored, _ = grown(LEAVES, steps)
    for size in range(min(sum(steps), MAX_EXHAUSTIVE) + 1):
        nodes = ProofNodes(size, edge_of(size), stored)
        assert nodes.root() == merkle.root(LEAVES[:size])
        for index in range(size):
            path = nodes.inclusion(index)
            assert path == merkle.inclusion_path(index, LEAVES[:size]), (index, size)
            assert merkle.verify_inclusion(LEAVES[index], index, size, path, nodes.root())
        for old_size in range(size + 1):
            proof = nodes.consistency(old_size)
            assert proof == merkle.consistency_path(old_size, LEAVES[:size]), (old_size, size)
            assert merkle.verify_consistency(old_size, size, merkle.root(LEAVES[:old_size]),
                                             nodes.root(), proof)


@pytest.mark.parametrize("size", LARGE_SIZES)
def test_proofs_around_powers_of_two_are_merkles(size):
    stored, edges = grown(LEAVES, [size // 3, 1, size - size // 3 - 1])
    nodes = ProofNodes(size, edges[size], stored)
    assert nodes.root() == merkle.root(LEAVES[:size])
    picks = sorted({0, 1, size // 2, size - 2, size - 1, *random.Random(size).sample(
        range(size), 8)})
    for index in picks:
        assert nodes.inclusion(index) == merkle.inclusion_path(index, LEAVES[:size]), index
    for old_size in {0, 1, size // 3, size // 3 + 1, size // 2, size - 1, size}:
        assert nodes.consistency(old_size) == merkle.consistency_path(old_size, LEAVES[:size]), \
            old_size


def test_a_proof_at_10000_leaves_reads_at_most_one_hash_a_level_in_one_read():
    leaves = [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(10_000)]
    stored, edges = grown(leaves, [1234, 5000, 1, 3765])
    nodes = ProofNodes(10_000, edges[10_000], stored)
    levels = (10_000 - 1).bit_length()
    for index in (0, 1, 4095, 8191, 9998, 9999):
        stored.reads = stored.hashes_read = 0
        path = nodes.inclusion(index)
        assert merkle.inclusion_root(leaves[index], index, 10_000, path) == merkle.root(leaves)
        assert stored.reads <= 1 and stored.hashes_read <= levels
    stored.reads = stored.hashes_read = 0
    assert nodes.consistency(6235) == merkle.consistency_path(6235, leaves)
    assert stored.reads <= 1 and stored.hashes_read <= levels


def test_a_missing_subtree_is_said_not_guessed():
    stored, _ = grown(LEAVES, [40])
    del stored.levels[2][1:]  # leaves 4-8 onwards, as a log cut before these were stored
    nodes = ProofNodes(40, edge_of(40), stored)
    assert nodes.inclusion(0) is None
    assert nodes.inclusion(4) == merkle.inclusion_path(4, LEAVES[:40])  # needs leaves 0-4 only
    assert nodes.consistency(4) is None  # needs leaves 4-8
