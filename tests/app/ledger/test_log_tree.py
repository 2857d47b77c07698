"""The growing log tree: the complete subtrees each cut stores and the proofs read from them
equal fairness.merkle's (RFC 9162) for every (index, size) and (old size, size) pair up to 40
leaves, however the log grew; and a proof at 10,000 leaves reads one hash a level at most, in
memory and from the real Redis."""

import pytest

from app.daylog.log_tree import GrownTree, ProofNodes, new_subtrees
from app.daylog.store import LogStore, subtrees_key
from fairness import merkle

LEAVES = [merkle.leaf_hash(f"leaf {i}".encode()) for i in range(40)]
GROWTHS = {"one at a time": [1] * 40, "in bursts": [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 1],
           "all at once": [40]}


class Subtrees:
    """The stored complete subtrees of one log, as lists per level, and the reads made."""

    def __init__(self):
        """No subtree yet."""
        self.levels: dict[int, list[bytes]] = {}
        self.reads = 0

    def grow(self, old_size: int, old_edge, new_leaves) -> None:
        """Store what a cut of ``new_leaves`` adds, at the positions it says."""
        for level, (first, nodes) in enumerate(new_subtrees(old_size, old_edge, new_leaves)):
            stored = self.levels.setdefault(level, [])
            assert len(stored) == first
            stored.extend(nodes)

    def read(self, wanted):
        """The hashes at ``wanted`` (level, position), None where there is none."""
        self.reads += len(wanted)
        return [self.levels.get(level, [])[position]
                if position < len(self.levels.get(level, [])) else None
                for level, position in wanted]


def grown(leaves, steps) -> tuple[Subtrees, dict[int, list[bytes]]]:
    """The subtrees stored by cuts of ``steps`` leaves at a time, and each cut's edge."""
    subtrees, edges, size, edge = Subtrees(), {0: []}, 0, []
    for step in steps:
        new = leaves[size:size + step]
        subtrees.grow(size, edge, new)
        tree = GrownTree(size, edge, new)
        size, edge = tree.size, tree.edge()
        edges[size] = edge
    return subtrees, edges


def edge_of(size: int) -> list[bytes]:
    """The right edge of the tree of the first ``size`` leaves."""
    return GrownTree(0, [], LEAVES[:size]).edge()


@pytest.mark.parametrize("steps", GROWTHS.values(), ids=GROWTHS.keys())
def test_the_stored_subtrees_are_those_of_the_whole_tree_however_it_grew(steps):
    subtrees, edges = grown(LEAVES, steps)
    for level, nodes in subtrees.levels.items():
        width = 1 << level
        assert nodes == [merkle.root(LEAVES[i * width:(i + 1) * width])
                         for i in range(len(LEAVES) // width)]
    assert all(edge == edge_of(size) for size, edge in edges.items())


@pytest.mark.parametrize("steps", GROWTHS.values(), ids=GROWTHS.keys())
def test_every_inclusion_and_consistency_proof_up_to_40_is_rfc_9162s(steps):
    subtrees, _ = grown(LEAVES, steps)
    for size in range(1, 41):
        nodes = ProofNodes(size, edge_of(size), subtrees.read)
        for index in range(size):
            assert nodes.inclusion(index) == merkle.inclusion_path(index, LEAVES[:size]), \
                (index, size)
        for old_size in range(size + 1):
            assert nodes.consistency(old_size) == merkle.consistency_path(
                old_size, LEAVES[:size]), (old_size, size)


def test_a_proof_at_10000_leaves_reads_at_most_one_hash_a_level():
    leaves = [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(10_000)]
    subtrees, edges = grown(leaves, [1234, 5000, 1, 3765])
    nodes = ProofNodes(10_000, edges[10_000], subtrees.read)
    levels = (10_000 - 1).bit_length()
    for index in (0, 1, 4095, 8191, 9998, 9999):
        subtrees.reads = 0
        path = nodes.inclusion(index)
        assert merkle.inclusion_root(leaves[index], index, 10_000, path) == merkle.root(leaves)
        assert subtrees.reads <= levels
    subtrees.reads = 0
    assert nodes.consistency(6235) == merkle.consistency_path(6235, leaves)
    assert subtrees.reads <= levels


def test_a_missing_subtree_is_said_not_guessed():
    subtrees, _ = grown(LEAVES, [40])
    del subtrees.levels[2][1:]  # leaves 4-8 onwards, as a log cut before these were stored
    nodes = ProofNodes(40, edge_of(40), subtrees.read)
    assert nodes.inclusion(0) is None
    assert nodes.inclusion(4) == merkle.inclusion_path(4, LEAVES)  # needs leaves 0-4 only


def lindex_calls(client) -> int:
    """How many LINDEX commands the Redis server has run."""
    return client.info("commandstats").get("cmdstat_lindex", {}).get("calls", 0)


def test_redis_keeps_the_subtrees_and_a_proof_reads_one_hash_a_level(redis_client):
    logs = LogStore(redis_client)
    leaves = [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(10_000)]
    size, edge = 0, []
    for step in (1234, 5000, 1, 3765):
        new = leaves[size:size + step]
        logs.store_subtrees("2026-12-01", "yacht", new_subtrees(size, edge, new))
        logs.store_subtrees("2026-12-01", "yacht", new_subtrees(size, edge, new))  # a racer
        tree = GrownTree(size, edge, new)
        size, edge = tree.size, tree.edge()
    assert logs.leaf_hashes("2026-12-01", "yacht", 10_000) == leaves
    nodes = ProofNodes(size, edge, lambda wanted: logs.subtrees("2026-12-01", "yacht", wanted))
    for index in (0, 5233, 9999):
        before = lindex_calls(redis_client)
        assert nodes.inclusion(index) == merkle.inclusion_path(index, leaves)
        assert lindex_calls(redis_client) - before <= (10_000 - 1).bit_length()
    assert nodes.root() == merkle.root(leaves)


def test_a_log_without_stored_levels_gets_none_rather_than_a_gap(redis_client):
    logs = LogStore(redis_client)
    redis_client.rpush(subtrees_key("2026-12-01", "yacht", 0), *[h.hex() for h in LEAVES[:8]])
    edge = edge_of(8)
    logs.store_subtrees("2026-12-01", "yacht", new_subtrees(8, edge, LEAVES[8:12]))
    assert logs.leaf_hashes("2026-12-01", "yacht", 12) == LEAVES[:12]
    assert redis_client.llen(subtrees_key("2026-12-01", "yacht", 1)) == 0  # 4-5 would be a gap
    nodes = ProofNodes(12, edge_of(12), lambda wanted: logs.subtrees("2026-12-01", "yacht",
                                                                       wanted))
    assert nodes.inclusion(0) is None
