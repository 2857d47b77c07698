"""C2SP tlog-tiles (c2sp.org/tlog-tiles): tile addresses and paths, entry bundles, and a
client's reader that computes proofs from tiles it authenticates against a checkpoint.

A hash tile ``(level L, index n)`` holds the hashes of the complete subtrees at tree level
``8L`` at positions ``256n`` to ``256n + 255`` (in ``log_tree``'s ``(level, position)`` naming);
a full tile holds 256 of them (8,192 bytes), the partial tile of a tree of ``s`` leaves at
level ``L`` holds ``floor(s / 256^L) mod 256`` (never 0: an empty tile does not exist). An
entry bundle ``n`` holds the entries of leaves ``256n`` to ``256n + 255``, each as a big-endian
uint16 length and its bytes. Paths are ``tile/<L>/<N>[.p/<W>]`` and
``tile/entries/<N>[.p/<W>]``; ``<N>`` is zero-padded 3-digit elements, all but the last
prefixed with ``x`` (1234067 → ``x001/x234/067``), written in the fewest elements.

``TileReader`` trusts nothing it fetches: the partial tiles of the tree (one per level) give
its right edge, which must fold to the checkpoint's root; a full tile must hash to its hash in
its parent tile, itself authenticated the same way, up to a partial tile. Every proof node is
then an edge node or a complete subtree read from authenticated tiles (``log_tree.ProofNodes``),
so every proof equals ``merkle``'s.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import merkle
from .errors import LedgerError
from .log_tree import ProofNodes, SubtreeIndex, edge_ranges

TILE_HEIGHT = 8
TILE_WIDTH = 1 << TILE_HEIGHT
HASH_SIZE = 32
MAX_LEVEL = 63
MAX_INDEX = 2**64 - 1  # a tile index fits the uint64 of a tree size
MAX_ENTRY_BYTES = 0xFFFF

_PATH = re.compile(
    r"tile/(?P<level>entries|0|[1-9][0-9]?)/(?P<index>(?:x[0-9]{3}/)*[0-9]{3})"
    r"(?:\.p/(?P<width>[1-9][0-9]{0,2}))?")

Fetch = Callable[[str], bytes]


class TileError(LedgerError):
    """A tile path, tile or entry bundle that is malformed or does not match the checkpoint."""

    code = "tile-error"


@dataclass(frozen=True)
class TileAddress:
    """A hash tile (``entries`` False) or an entry bundle: its level (0 for bundles), its index
    within the level, and its width (None for a full tile of 256)."""

    level: int
    index: int
    width: int | None
    entries: bool = False

    def __post_init__(self):
        """Only addresses a path can name exist."""
        if not (type(self.level) is int and 0 <= self.level <= MAX_LEVEL):
            raise TileError(f"tile level {self.level!r} is not 0..{MAX_LEVEL}")
        if self.entries and self.level != 0:
            raise TileError("an entry bundle is at level 0")
        if not (type(self.index) is int and 0 <= self.index <= MAX_INDEX):
            raise TileError(f"tile index {self.index!r} is not 0..2^64−1")
        if self.width is not None and not (
                type(self.width) is int and 1 <= self.width < TILE_WIDTH):
            raise TileError(f"a partial tile's width {self.width!r} is not 1..255")

    @property
    def count(self) -> int:
        """How many hashes (or entries) the tile holds."""
        return TILE_WIDTH if self.width is None else self.width


def tile_path(address: TileAddress) -> str:
    """The tile's path after the log's prefix, e.g. ``tile/0/x001/x234/067``."""
    level = "entries" if address.entries else str(address.level)
    digits = f"{address.index:03d}"
    digits = "0" * (-len(digits) % 3) + digits
    elements = [digits[i:i + 3] for i in range(0, len(digits), 3)]
    index = "/".join([f"x{element}" for element in elements[:-1]] + elements[-1:])
    width = "" if address.width is None else f".p/{address.width}"
    return f"tile/{level}/{index}{width}"


def parse_tile_path(path: str) -> TileAddress:
    """The address a tile path names, strictly: level 0..63 or ``entries``, the index in the
    fewest 3-digit elements, the width 1..255, no leading zeros; TileError otherwise."""
    found = _PATH.fullmatch(path) if isinstance(path, str) else None
    if found is None:
        raise TileError(f"{path!r} is not a tile path tile/<L>/<N>[.p/<W>]")
    level_text, index_text, width_text = found.group("level", "index", "width")
    entries = level_text == "entries"
    level = 0 if entries else int(level_text)
    if level > MAX_LEVEL:
        raise TileError(f"{path!r}: the level is 0..{MAX_LEVEL}")
    width = None if width_text is None else int(width_text)
    if width is not None and width >= TILE_WIDTH:
        raise TileError(f"{path!r}: a partial tile's width is 1..255")
    index = int(index_text.replace("x", "").replace("/", ""))
    if index > MAX_INDEX:
        raise TileError(f"{path!r}: the index is above 2^64−1")
    address = TileAddress(level, index, width, entries)
    if tile_path(address) != path:
        raise TileError(f"{path!r} is not written in the fewest index elements")
    return address


def partial_width(size: int, level: int) -> int:
    """The width of the partial tile at ``level`` of a tree of ``size`` leaves (0: none)."""
    return (size >> (TILE_HEIGHT * level)) % TILE_WIDTH


def tiles_of(size: int) -> list[TileAddress]:
    """Every hash tile of a tree of ``size`` leaves, by level then index: the full ones and
    the partial one of each level where it is not empty."""
    if type(size) is not int or size < 0:
        raise ValueError(f"a tree size is a non-negative integer, not {size!r}")
    tiles, level = [], 0
    while size >> (TILE_HEIGHT * level):
        full = size >> (TILE_HEIGHT * (level + 1))
        tiles.extend(TileAddress(level, index, None) for index in range(full))
        if width := partial_width(size, level):
            tiles.append(TileAddress(level, full, width))
        level += 1
    return tiles


def entry_bundles_of(size: int) -> list[TileAddress]:
    """Every entry bundle of a log of ``size`` entries: the full ones, then the partial one."""
    return [TileAddress(0, tile.index, tile.width, entries=True)
            for tile in tiles_of(size) if tile.level == 0]


def subtree_span(address: TileAddress) -> tuple[int, int, int]:
    """(tree level ``8L``, first position, count): the tile's ``i``-th hash is the complete
    subtree ``(8L, first + i)``; for an entry bundle, its entries are leaves ``first`` to
    ``first + count``."""
    return TILE_HEIGHT * address.level, address.index * TILE_WIDTH, address.count


def entry_bundle(entries: Sequence[bytes]) -> bytes:
    """Entries as one bundle: each a big-endian uint16 length then its bytes."""
    if len(entries) > TILE_WIDTH:
        raise TileError(f"a bundle holds at most {TILE_WIDTH} entries, not {len(entries)}")
    parts = []
    for position, entry in enumerate(entries):
        if len(entry) > MAX_ENTRY_BYTES:
            raise TileError(f"entry {position} is {len(entry)} bytes, more than a bundle's "
                            f"{MAX_ENTRY_BYTES}")
        parts.append(len(entry).to_bytes(2, "big") + bytes(entry))
    return b"".join(parts)


def read_entry_bundle(data: bytes, count: int | None = None) -> list[bytes]:
    """The entries of a bundle (exactly ``count`` of them when given); TileError when it is
    truncated, holds more than 256, or not ``count``."""
    entries, offset = [], 0
    while offset < len(data):
        if offset + 2 > len(data):
            raise TileError(f"the bundle is truncated in the length of entry {len(entries)}")
        length = int.from_bytes(data[offset:offset + 2], "big")
        if offset + 2 + length > len(data):
            raise TileError(f"the bundle is truncated in entry {len(entries)}")
        entries.append(bytes(data[offset + 2:offset + 2 + length]))
        offset += 2 + length
    if len(entries) > TILE_WIDTH or (count is not None and len(entries) != count):
        wanted = f"{count}" if count is not None else f"at most {TILE_WIDTH}"
        raise TileError(f"the bundle holds {len(entries)} entries, not {wanted}")
    return entries


class TileReader:
    """Proofs in the tree of ``size`` leaves whose root is ``root`` (from a verified
    checkpoint), read from tiles ``fetch(path)`` returns; every tile used is authenticated.

    ``fetch`` raises ``LookupError`` for a resource that does not exist; a partial tile that
    no longer exists is then read as the first hashes of its full tile, as the spec allows.
    """

    def __init__(self, fetch: Fetch, size: int, root: bytes):
        """Fetch the tree's partial tiles and check that its edge folds to ``root``."""
        if type(size) is not int or size < 0:
            raise ValueError(f"a tree size is a non-negative integer, not {size!r}")
        self.fetch = fetch
        self.size = size
        self.root = bytes(root)
        self._tiles: dict[tuple[int, int], list[bytes]] = {}
        partials = [tile for tile in tiles_of(size) if tile.width is not None]
        for tile in partials:
            self._tiles[tile.level, tile.index] = self._fetch_hashes(tile)
        edge = [self._subtree(start, end) for start, end in edge_ranges(size)]
        self._nodes = ProofNodes(size, edge, self._read)
        if self._nodes.root() != self.root:
            names = ", ".join(tile_path(tile) for tile in partials) or "no tile"
            raise TileError(f"the partial tiles ({names}) do not hash up to the checkpoint's "
                            f"root of {size} leaves")

    def inclusion(self, index: int) -> list[bytes]:
        """Leaf ``index``'s inclusion proof (RFC 9162), leaf side first."""
        return self._nodes.inclusion(index)

    def consistency(self, old_size: int) -> list[bytes]:
        """The consistency proof from the tree's first ``old_size`` leaves (RFC 9162)."""
        return self._nodes.consistency(old_size)

    def hashes(self, ranges: Sequence[tuple[int, int]]) -> list[bytes]:
        """The hash of each leaf range: a complete subtree, or leaves ``start`` to the end."""
        return self._nodes.hashes(ranges)

    def leaf_hash(self, index: int) -> bytes:
        """The authenticated hash of leaf ``index``."""
        if not 0 <= index < self.size:
            raise ValueError(f"leaf {index} is not in a tree of {self.size} leaves")
        return self._read([(0, index)])[0]

    def entries(self, bundle: int) -> list[bytes]:
        """The entries of bundle ``bundle`` of this tree (partial if it is the last), each
        checked against its leaf hash in the level-0 tiles."""
        first, count = bundle * TILE_WIDTH, min(TILE_WIDTH, self.size - bundle * TILE_WIDTH)
        if bundle < 0 or count <= 0:
            raise ValueError(f"bundle {bundle} is not in a log of {self.size} entries")
        address = TileAddress(0, bundle, None if count == TILE_WIDTH else count, entries=True)
        entries = read_entry_bundle(self._fetch(address), count)
        hashes = self._tile(0, bundle)
        for position, entry in enumerate(entries):
            if merkle.leaf_hash(entry) != hashes[position]:
                raise TileError(f"entry {first + position} of {tile_path(address)} does not "
                                "hash to its leaf")
        return entries

    def _read(self, indexes: list[SubtreeIndex]) -> list[bytes]:
        """The hashes of complete subtrees ``(level, position)``, from authenticated tiles."""
        return [self._subtree(position << level, (position + 1) << level)
                for level, position in indexes]

    def _subtree(self, start: int, end: int) -> bytes:
        """The hash of the complete subtree over leaves ``start`` to ``end``: the hashes it
        spans in the tile of the highest level whose hashes it is made of."""
        level = (end - start).bit_length() - 1
        tile_level, height = divmod(level, TILE_HEIGHT)
        first = start >> (TILE_HEIGHT * tile_level)
        hashes = self._tile(tile_level, first // TILE_WIDTH)
        offset = first % TILE_WIDTH
        return merkle.root(hashes[offset:offset + (1 << height)])

    def _tile(self, level: int, index: int) -> list[bytes]:
        """The hashes of tile ``(level, index)`` of this tree, authenticated: a partial tile
        by the root (at construction), a full one by its hash in its parent tile."""
        known = self._tiles.get((level, index))
        if known is not None:
            return known
        if index >= self.size >> (TILE_HEIGHT * (level + 1)):
            raise ValueError(f"tile {level}/{index} is not a full tile of {self.size} leaves")
        address = TileAddress(level, index, None)
        hashes = self._fetch_hashes(address)
        parent = self._tile(level + 1, index // TILE_WIDTH)
        if merkle.root(hashes) != parent[index % TILE_WIDTH]:
            raise TileError(f"{tile_path(address)} does not hash to its hash in "
                            f"{tile_path(TileAddress(level + 1, index // TILE_WIDTH, None))}"
                            " and so not up to the checkpoint's root")
        self._tiles[level, index] = hashes
        return hashes

    def _fetch_hashes(self, address: TileAddress) -> list[bytes]:
        """A hash tile's hashes, checked for length."""
        data = self._fetch(address)
        if len(data) != address.count * HASH_SIZE:
            raise TileError(f"{tile_path(address)} is {len(data)} bytes, not "
                            f"{address.count * HASH_SIZE}")
        return [data[i:i + HASH_SIZE] for i in range(0, len(data), HASH_SIZE)]

    def _fetch(self, address: TileAddress) -> bytes:
        """A tile's bytes; a partial one that is gone is read as the prefix of its full one."""
        try:
            return bytes(self.fetch(tile_path(address)))
        except LookupError:
            if address.width is None:
                raise
        full = TileAddress(address.level, address.index, None, address.entries)
        data = bytes(self.fetch(tile_path(full)))
        if not address.entries:
            return data[:address.count * HASH_SIZE]
        return entry_bundle(read_entry_bundle(data, TILE_WIDTH)[:address.count])
