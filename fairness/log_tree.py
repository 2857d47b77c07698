"""A growing RFC 9162 tree kept by its right edge, and its proofs read from stored complete
subtrees through a reader, with no storage of its own (as Go's ``golang.org/x/mod/sumdb/tlog``).

The right edge of a tree of ``n`` leaves is its O(log n) complete subtrees, left to right: one
of ``2^b`` leaves for each bit ``b`` set in ``n``, highest first (the tree of 6 leaves: the
subtrees of leaves 0–3 and 4–5). From the edge at ``m`` leaves and the leaves added since, the
root at ``n`` and the consistency proof from ``m`` to ``n`` need nothing else: every node of
RFC 9162's consistency proof lies either among the new leaves or is a node of the old edge
(``GrownTree``).

A complete subtree is the hash of an aligned run of ``2^level`` leaves, named by ``(level,
position)``: it covers leaves ``position * 2^level`` to ``(position + 1) * 2^level`` (level 0:
the leaves). Growing a tree yields the complete subtrees it gains (``new_subtrees``) for the
caller to store; proofs ask a ``HashReader`` for the stored ones they need. Every node of an
inclusion or consistency proof in a tree of ``n`` leaves covers either such a complete subtree
or leaves ``start`` to ``n``, which the edge gives, so a proof reads at most one stored hash per
level (``ProofNodes``): O(log n), never the leaves. Every proof equals ``merkle``'s, which
builds it from all the leaves.
"""

from collections.abc import Sequence
from typing import Protocol

from . import merkle

SubtreeIndex = tuple[int, int]  # (level, position) of a complete subtree
LeafRange = tuple[int, int]  # leaves start to end (excluded)


class HashReader(Protocol):
    """Where proofs read the stored complete subtrees."""

    def __call__(self, indexes: list[SubtreeIndex]) -> list[bytes | None]:
        """The hash stored for each (level, position) of ``indexes``, in order; None where one
        is missing."""


class GrownTree:
    """The tree of ``old_size`` leaves known by its edge, grown by ``new_leaves`` (hashes)."""

    def __init__(self, old_size: int, old_edge: Sequence[bytes], new_leaves: Sequence[bytes]):
        """Index the old edge's subtrees by their leaf ranges."""
        self.old_size = old_size
        self.new_leaves = list(new_leaves)
        self.size = old_size + len(self.new_leaves)
        self._old_nodes = edge_nodes(old_size, old_edge)

    def root(self) -> bytes:
        """The root of the grown tree."""
        return self._node(0, self.size)

    def edge(self) -> list[bytes]:
        """The grown tree's right edge."""
        return [self._node(start, end) for start, end in edge_ranges(self.size)]

    def consistency(self) -> list[bytes]:
        """RFC 9162's consistency proof from the old tree to the grown one."""
        return [self._node(start, end)
                for start, end in consistency_ranges(self.old_size, self.size)]

    def _node(self, start: int, end: int) -> bytes:
        """The hash of the subtree over leaves ``start`` to ``end`` (excluded)."""
        if start >= self.old_size:
            return merkle.root(self.new_leaves[start - self.old_size:end - self.old_size])
        known = self._old_nodes.get((start, end))
        if known is not None:
            return known
        if end - start <= 1:
            raise ValueError(f"leaf {start} is neither new nor under the old edge")
        k = merkle.split(end - start)
        return merkle.node_hash(self._node(start, start + k), self._node(start + k, end))


def edge_ranges(size: int) -> list[LeafRange]:
    """The leaf ranges of the right edge of a tree of ``size`` leaves, left to right."""
    ranges, start = [], 0
    for bit in range(size.bit_length() - 1, -1, -1):
        if size >> bit & 1:
            ranges.append((start, start + (1 << bit)))
            start += 1 << bit
    return ranges


def edge_nodes(size: int, edge: Sequence[bytes]) -> dict[LeafRange, bytes]:
    """The edge of a tree of ``size`` leaves keyed by each node's leaf range; a ValueError if
    it does not have one node per range."""
    ranges = edge_ranges(size)
    if len(ranges) != len(edge):
        raise ValueError(f"an edge of {size} leaves has {len(ranges)} nodes, not {len(edge)}")
    return dict(zip(ranges, edge, strict=True))


def new_subtrees(old_size: int, old_edge: Sequence[bytes],
                 new_leaves: Sequence[bytes]) -> list[tuple[int, list[bytes]]]:
    """The complete subtrees a tree of ``old_size`` leaves (known by its edge) gains with
    ``new_leaves``: per level from 0 (the leaves themselves), ``(position of the first,
    their hashes)``. Each is one hash of two from the level below, whose left one is, if old,
    the old edge's node of that level."""
    edge = {end - start: node for (start, end), node in edge_nodes(old_size, old_edge).items()}
    size = old_size + len(new_leaves)
    levels = [(old_size, list(new_leaves))]
    level = 1
    while (first := old_size >> level) < size >> level:
        below_first, below = levels[-1]
        nodes = []
        for position in range(first, size >> level):
            left = 2 * position - below_first
            left_hash = below[left] if left >= 0 else edge[1 << (level - 1)]
            nodes.append(merkle.node_hash(left_hash, below[left + 1]))
        levels.append((first, nodes))
        level += 1
    return levels


def inclusion_ranges(index: int, size: int) -> list[LeafRange]:
    """The leaf ranges of the nodes of leaf ``index``'s inclusion proof in a tree of ``size``
    leaves (RFC 9162 section 2.1.3.1's PATH), leaf side first."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    ranges, start, end = [], 0, size
    while end - start > 1:
        k = merkle.split(end - start)
        if index < start + k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            start += k
    return ranges[::-1]


def consistency_ranges(old_size: int, size: int) -> list[LeafRange]:
    """The leaf ranges of the nodes of the consistency proof from ``old_size`` leaves to
    ``size`` (RFC 9162 section 2.1.4.1's SUBPROOF), in the proof's order."""
    if not 0 <= old_size <= size:
        raise ValueError(f"no consistency proof from {old_size} leaves to {size}")
    if old_size in (0, size):
        return []
    ranges, m, start, end, whole = [], old_size, 0, size, True
    while m != end - start:
        k = merkle.split(end - start)
        if m <= k:
            ranges.append((start + k, end))
            end = start + k
        else:
            ranges.append((start, start + k))
            m, start, whole = m - k, start + k, False
    if not whole:
        ranges.append((start, end))
    return ranges[::-1]


def subtree_of(start: int, end: int) -> SubtreeIndex | None:
    """(level, position) of the complete subtree over leaves ``start`` to ``end``, or None if
    they are not one (not a power of two of leaves, or not aligned on it)."""
    width = end - start
    if width < 1 or width & (width - 1) or start % width:
        return None
    level = width.bit_length() - 1
    return level, start >> level


class ProofNodes:
    """The nodes of proofs in the tree of ``size`` leaves whose right edge is ``edge``: the
    edge's own, and the complete subtrees ``read_hashes`` gives (one call per proof)."""

    def __init__(self, size: int, edge: Sequence[bytes], read_hashes: HashReader):
        """Bind to the tree's size, its edge and the reader of complete subtrees."""
        self.size = size
        self.read_hashes = read_hashes
        self._edge = edge_nodes(size, edge)

    def root(self) -> bytes:
        """The tree's root: its edge folded."""
        return self._fold(0) if self.size else merkle.root([])

    def inclusion(self, index: int) -> list[bytes] | None:
        """Leaf ``index``'s inclusion proof, or None if a stored subtree it needs is missing."""
        return self.hashes(inclusion_ranges(index, self.size))

    def consistency(self, old_size: int) -> list[bytes] | None:
        """The consistency proof from ``old_size`` leaves, or None if a subtree is missing."""
        return self.hashes(consistency_ranges(old_size, self.size))

    def hashes(self, ranges: Sequence[LeafRange]) -> list[bytes] | None:
        """The hash of each range: an edge node, a stored complete subtree, or the edge's
        nodes folded (leaves ``start`` to the tree's end); None if a stored one is missing."""
        wanted = [subtree_of(start, end) for start, end in ranges
                  if (start, end) not in self._edge and subtree_of(start, end) is not None]
        found = dict(zip(wanted, self.read_hashes(wanted), strict=True)) if wanted else {}
        if any(node is None for node in found.values()):
            return None
        return [self._hash(start, end, found) for start, end in ranges]

    def _hash(self, start: int, end: int, found: dict[SubtreeIndex, bytes]) -> bytes:
        """The hash of leaves ``start`` to ``end`` from the edge or the subtrees ``found``."""
        if (start, end) in self._edge:
            return self._edge[start, end]
        subtree = subtree_of(start, end)
        if subtree is not None:
            return found[subtree]
        if end != self.size:
            raise ValueError(f"leaves {start}-{end} are neither a complete subtree nor the "
                             f"end of the tree of {self.size}")
        return self._fold(start)

    def _fold(self, start: int) -> bytes:
        """The hash of leaves ``start`` to the end: the edge's nodes from ``start``, folded
        from the right as RFC 9162 splits a tree."""
        if not any(first == start for first, _ in self._edge):
            raise ValueError(f"leaf {start} does not begin a node of the edge of {self.size}")
        nodes = [node for (first, _), node in self._edge.items() if first >= start]
        folded = nodes[-1]
        for node in reversed(nodes[:-1]):
            folded = merkle.node_hash(node, folded)
        return folded
