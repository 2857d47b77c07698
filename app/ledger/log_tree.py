"""A growing RFC 9162 tree kept by its right edge, so that a checkpoint never rebuilds it.

The right edge of a tree of ``n`` leaves is its O(log n) complete subtrees, left to right: one
of ``2^b`` leaves for each bit ``b`` set in ``n``, highest first (the tree of 6 leaves: the
subtrees of leaves 0–3 and 4–5). From the edge at ``m`` leaves and the leaves added since, the
root at ``n`` and the consistency proof from ``m`` to ``n`` need nothing else: every node of
RFC 9162's consistency proof lies either among the new leaves or is a node of the old edge.
"""

from collections.abc import Sequence

from fairness import merkle


class GrownTree:
    """The tree of ``old_size`` leaves known by its edge, grown by ``new_leaves`` (hashes)."""

    def __init__(self, old_size: int, old_edge: Sequence[bytes], new_leaves: Sequence[bytes]):
        """Index the old edge's subtrees by their leaf ranges."""
        self.old_size = old_size
        self.new_leaves = list(new_leaves)
        self.size = old_size + len(self.new_leaves)
        ranges = edge_ranges(old_size)
        if len(ranges) != len(old_edge):
            raise ValueError(f"an edge of {old_size} leaves has {len(ranges)} nodes, "
                             f"not {len(old_edge)}")
        self._old_nodes = dict(zip(ranges, old_edge, strict=True))

    def root(self) -> bytes:
        """The root of the grown tree."""
        return self._node(0, self.size)

    def edge(self) -> list[bytes]:
        """The grown tree's right edge."""
        return [self._node(start, end) for start, end in edge_ranges(self.size)]

    def consistency(self) -> list[bytes]:
        """RFC 9162's consistency proof from the old tree to the grown one."""
        if self.old_size in (0, self.size):
            return []
        return self._subproof(self.old_size, 0, self.size, True)

    def _subproof(self, m: int, start: int, end: int, whole: bool) -> list[bytes]:
        """SUBPROOF(m, D[start:end], whole) of RFC 9162 section 2.1.4.1."""
        n = end - start
        if m == n:
            return [] if whole else [self._node(start, end)]
        k = 1 << ((n - 1).bit_length() - 1)
        if m <= k:
            return self._subproof(m, start, start + k, whole) + [self._node(start + k, end)]
        return self._subproof(m - k, start + k, end, False) + [self._node(start, start + k)]

    def _node(self, start: int, end: int) -> bytes:
        """The hash of the subtree over leaves ``start`` to ``end`` (excluded)."""
        if start >= self.old_size:
            return merkle.root(self.new_leaves[start - self.old_size:end - self.old_size])
        known = self._old_nodes.get((start, end))
        if known is not None:
            return known
        if end - start <= 1:
            raise ValueError(f"leaf {start} is neither new nor under the old edge")
        k = 1 << ((end - start - 1).bit_length() - 1)
        return merkle.node_hash(self._node(start, start + k), self._node(start + k, end))


def edge_ranges(size: int) -> list[tuple[int, int]]:
    """The leaf ranges of the right edge of a tree of ``size`` leaves, left to right."""
    ranges, start = [], 0
    for bit in range(size.bit_length() - 1, -1, -1):
        if size >> bit & 1:
            ranges.append((start, start + (1 << bit)))
            start += 1 << bit
    return ranges
