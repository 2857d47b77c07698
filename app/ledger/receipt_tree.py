"""A (date, sheet)'s Merkle tree of receipts (FAIRNESS.md), built and stored in chunks, so that
neither the reveal nor a proof ever holds more than one chunk of receipts in memory.

The leaves are the finished games' receipts in game id order, cut into chunks of
``CHUNK_LEAVES`` (a power of two) consecutive leaves. The RFC 9162 tree pairs nodes left to
right, level by level, carrying an odd last node up unchanged (``fairness.merkle``); so the
nodes ``log2(CHUNK_LEAVES)`` levels above the leaves are exactly the chunks' own roots (the last
chunk may be short). The day's root is therefore the root over the chunk roots, and a leaf's
inclusion path is its path inside its chunk followed by its chunk's path among the chunk roots.
"""

import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from fairness import merkle
from fairness.ledger import receipt_leaf_hash

CHUNK_LEAVES = 1024


@dataclass(frozen=True)
class TreeIndex:
    """What a proof needs besides one chunk: the leaf count, each chunk's root and first game."""

    size: int
    chunk_roots: tuple[bytes, ...]
    first_games: tuple[str, ...]

    def root(self) -> bytes:
        """The Merkle root of the whole tree."""
        return merkle.root(self.chunk_roots)

    def chunk_of(self, game_id: str) -> int | None:
        """The chunk that holds ``game_id``'s leaf if the tree has it, else None."""
        chunk = bisect.bisect_right(self.first_games, game_id) - 1
        return chunk if chunk >= 0 else None

    def to_json(self) -> dict:
        """The index as stored."""
        return {"size": self.size, "chunk_leaves": CHUNK_LEAVES,
                "chunk_roots": [node.hex() for node in self.chunk_roots],
                "first_games": list(self.first_games)}

    @classmethod
    def from_json(cls, stored: Mapping) -> "TreeIndex":
        """The index from its stored form (ValueError if it was cut in other chunks)."""
        if stored.get("chunk_leaves") != CHUNK_LEAVES:
            raise ValueError(f"a receipt tree stored in chunks of {stored.get('chunk_leaves')}")
        return cls(stored["size"], tuple(bytes.fromhex(node) for node in stored["chunk_roots"]),
                   tuple(stored["first_games"]))


class TreeBuilder:
    """Takes a day's receipts in leaf order and hands each chunk to ``store_chunk`` when full,
    with the tree so far (from which a builder can resume after the chunk's last game)."""

    def __init__(self, store_chunk: Callable[[int, list[str], TreeIndex], None],
                 done: TreeIndex | None = None, last_game: str | None = None):
        """Start a tree, empty or holding the full chunks ``done`` up to ``last_game``;
        ``store_chunk(number, stored receipts, tree so far)`` keeps one chunk."""
        self._store_chunk = store_chunk
        self._chunk: list[str] = []
        self._hashes: list[bytes] = []
        self._roots: list[bytes] = list(done.chunk_roots) if done else []
        self._firsts: list[str] = list(done.first_games) if done else []
        self._size = done.size if done else 0
        self._last_game = last_game

    @property
    def last_game(self) -> str | None:
        """The game id of the last leaf added."""
        return self._last_game

    def add(self, receipt: Mapping, stored: str) -> None:
        """Append the next leaf: a receipt and the text it is stored as; ValueError unless its
        game id follows the previous one."""
        game_id = receipt["game"]
        if self._last_game is not None and game_id <= self._last_game:
            raise ValueError(f"receipt of game {game_id} out of leaf order "
                             f"(after {self._last_game})")
        if not self._chunk:
            self._firsts.append(game_id)
        self._last_game = game_id
        self._chunk.append(stored)
        self._hashes.append(receipt_leaf_hash(receipt))
        self._size += 1
        if len(self._chunk) == CHUNK_LEAVES:
            self._flush()

    def finish(self) -> TreeIndex:
        """Store the last, short chunk and return the tree's index."""
        if self._chunk:
            self._flush()
        return self._index()

    def _index(self) -> TreeIndex:
        """The tree of the chunks flushed so far."""
        return TreeIndex(self._size, tuple(self._roots), tuple(self._firsts))

    def _flush(self) -> None:
        """Store the chunk being filled and remember its root and first game."""
        self._roots.append(merkle.root(self._hashes))
        self._store_chunk(len(self._roots) - 1, self._chunk, self._index())
        self._chunk, self._hashes = [], []


def inclusion_proof(index: TreeIndex, chunk: int, receipts: Sequence[Mapping],
                    game_id: str) -> dict | None:
    """The inclusion proof (FAIRNESS.md) of ``game_id``'s leaf, from its chunk's receipts, or
    None when the chunk does not hold it."""
    position = next((i for i, r in enumerate(receipts) if r["game"] == game_id), None)
    if position is None:
        return None
    inside = merkle.inclusion_path(position, [receipt_leaf_hash(r) for r in receipts])
    above = merkle.inclusion_path(chunk, index.chunk_roots)
    return {
        "index": chunk * CHUNK_LEAVES + position,
        "size": index.size,
        "path": [node.hex() for node in (*inside, *above)],
    }
