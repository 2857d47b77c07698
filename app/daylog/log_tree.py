"""The day's log tree as Redis keeps it: a checkpoint's root and proofs read from the complete
subtrees its cuts stored (``LogStore.subtrees``), or from the leaves for a log cut before they
were stored. The tree's arithmetic and proofs are ``fairness.log_tree``'s."""

from app.daylog.store import LogStore, StoredCheckpoint
from fairness import merkle
from fairness.log_tree import GrownTree, ProofNodes, SubtreeIndex


def edge_of(checkpoint: StoredCheckpoint) -> list[bytes]:
    """The right edge of the tree of ``checkpoint``, as its cut stored it."""
    return [bytes.fromhex(h) for h in checkpoint.edge]


class StoredTree:
    """The tree of one checkpoint of a (date, sheet)'s log: its edge, and its log's stored
    complete subtrees and leaves."""

    def __init__(self, logs: LogStore, date: str, ruleset: str, checkpoint: StoredCheckpoint):
        """Bind to the log's store and the checkpoint's edge."""
        self.logs = logs
        self.date = date
        self.ruleset = ruleset
        self.size = checkpoint.size
        self.nodes = ProofNodes(checkpoint.size, edge_of(checkpoint), self.read_hashes)

    def read_hashes(self, indexes: list[SubtreeIndex]) -> list[bytes | None]:
        """The stored complete subtrees at ``indexes`` (level, position); one round trip."""
        return self.logs.subtrees(self.date, self.ruleset, indexes)

    def root(self) -> bytes:
        """The tree's root (from its edge alone)."""
        return self.nodes.root()

    def inclusion(self, index: int) -> list[bytes]:
        """Leaf ``index``'s inclusion proof."""
        path = self.nodes.inclusion(index)
        if path is None:  # a log cut before its subtrees were stored: from its leaves
            path = merkle.inclusion_path(index, self.logs.leaf_hashes(self.date, self.ruleset,
                                                                      self.size))
        return path

    def consistency(self, old: StoredCheckpoint) -> list[bytes]:
        """The consistency proof from the tree of the earlier checkpoint ``old``."""
        proof = self.nodes.consistency(old.size)
        if proof is None:  # a log cut before its subtrees were stored: from the new leaves
            proof = GrownTree(old.size, edge_of(old), self.logs.leaf_hashes(
                self.date, self.ruleset, self.size, old.size)).consistency()
        return proof
