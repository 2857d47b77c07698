"""The log tree on the real Redis (``app.daylog.log_tree``): the complete subtrees each cut
stores are kept once however cuts race, a proof at 10,000 leaves reads one hash a level at most,
and a log cut before its levels were stored proves from its leaves rather than from a gap. The
tree's own arithmetic and proofs are tested against RFC 9162's in tests/fairness/test_log_tree.py.
"""

from app.daylog.log_tree import StoredTree
from app.daylog.store import LogStore, StoredCheckpoint, subtrees_key
from fairness import merkle
from fairness.log_tree import GrownTree, edge_ranges, new_subtrees

DATE, SHEET = "2026-12-01", "yacht"
LEAVES = [merkle.leaf_hash(f"leaf {i}".encode()) for i in range(40)]


def checkpoint(size: int, edge) -> StoredCheckpoint:
    """A checkpoint of ``size`` leaves with right edge ``edge``, as a cut stores it."""
    return StoredCheckpoint(position=0, body="", note="", size=size, time="",
                            consistency=(), edge=tuple(h.hex() for h in edge), closes=False)


def edge_of(size: int) -> list[bytes]:
    """The right edge of the tree of the first ``size`` of LEAVES."""
    return [merkle.root(LEAVES[start:end]) for start, end in edge_ranges(size)]


def lindex_calls(client) -> int:
    """How many LINDEX commands the Redis server has run."""
    return client.info("commandstats").get("cmdstat_lindex", {}).get("calls", 0)


def test_redis_keeps_the_subtrees_and_a_proof_reads_one_hash_a_level(redis_client):
    logs = LogStore(redis_client)
    leaves = [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(10_000)]
    size, edge, edges = 0, [], {}
    for step in (1234, 5000, 1, 3765):
        new = leaves[size:size + step]
        logs.store_subtrees(DATE, SHEET, new_subtrees(size, edge, new))
        logs.store_subtrees(DATE, SHEET, new_subtrees(size, edge, new))  # a racer
        tree = GrownTree(size, edge, new)
        size, edge = tree.size, tree.edge()
        edges[size] = edge
    assert logs.leaf_hashes(DATE, SHEET, 10_000) == leaves
    tree = StoredTree(logs, DATE, SHEET, checkpoint(size, edge))
    for index in (0, 5233, 9999):
        before = lindex_calls(redis_client)
        assert tree.inclusion(index) == merkle.inclusion_path(index, leaves)
        assert lindex_calls(redis_client) - before <= (10_000 - 1).bit_length()
    before = lindex_calls(redis_client)
    assert tree.consistency(checkpoint(6234, edges[6234])) == merkle.consistency_path(6234, leaves)
    assert lindex_calls(redis_client) - before <= (10_000 - 1).bit_length()
    assert tree.root() == merkle.root(leaves)


def test_a_log_without_stored_levels_proves_from_its_leaves_rather_than_a_gap(redis_client):
    logs = LogStore(redis_client)
    redis_client.rpush(subtrees_key(DATE, SHEET, 0), *[h.hex() for h in LEAVES[:8]])
    logs.store_subtrees(DATE, SHEET, new_subtrees(8, edge_of(8), LEAVES[8:12]))
    assert logs.leaf_hashes(DATE, SHEET, 12) == LEAVES[:12]
    assert redis_client.llen(subtrees_key(DATE, SHEET, 1)) == 0  # 4-5 would be a gap
    tree = StoredTree(logs, DATE, SHEET, checkpoint(12, edge_of(12)))
    assert tree.nodes.inclusion(0) is None
    assert tree.nodes.consistency(3) is None
    assert tree.inclusion(0) == merkle.inclusion_path(0, LEAVES[:12])
    assert tree.consistency(checkpoint(3, edge_of(3))) == merkle.consistency_path(3, LEAVES[:12])
    assert tree.root() == merkle.root(LEAVES[:12])
