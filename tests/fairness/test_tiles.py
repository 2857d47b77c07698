"""C2SP tlog-tiles: the tiles of a tree are the spec's (70,000 leaves: 273 full level-0 tiles,
a partial of 112, one full level-1 tile, a partial of 17, a partial level-2 tile of 1); paths
are written and read strictly; tiles served from stored subtrees through ``subtree_span`` are
the tiles computed straight from the leaves; entry bundles round-trip; and ``TileReader``'s
proofs equal ``merkle``'s (small trees) and ``log_tree``'s (large ones), while any tampered,
truncated or misplaced tile is named in a TileError."""

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import merkle
from fairness.log_tree import ProofNodes, edge_ranges, new_subtrees
from fairness.tiles import (
    TileAddress,
    TileError,
    TileReader,
    entry_bundle,
    entry_bundles_of,
    parse_tile_path,
    read_entry_bundle,
    subtree_span,
    tile_path,
    tiles_of,
)

BIG = 70_000
SIZES = [0, 1, 2, 3, 255, 256, 257, 511, 512, 513, 65_536 + 3, BIG]
ENTRIES = [f"entry {i}".encode() for i in range(BIG)]
LEAVES = [merkle.leaf_hash(entry) for entry in ENTRIES]


def _levels() -> list[list[bytes]]:
    """The hashes at tree levels 0, 8, 16 of the 70,000-leaf tree, straight from the leaves."""
    levels = [LEAVES]
    while len(levels[-1]) >= 256:
        below = levels[-1]
        levels.append([merkle.root(below[i:i + 256]) for i in range(0, len(below) - 255, 256)])
    return levels


LEVELS = _levels()


@cache
def store(size: int) -> dict[str, bytes]:
    """Every tile and entry bundle of the tree of the first ``size`` leaves, by path."""
    tiles = {}
    for level, hashes in enumerate(LEVELS):
        count = size >> (8 * level)
        for index in range(0, count, 256):
            width = min(256, count - index)
            address = TileAddress(level, index // 256, None if width == 256 else width)
            tiles[tile_path(address)] = b"".join(hashes[index:index + width])
            if level == 0:
                bundle = TileAddress(0, index // 256, address.width, entries=True)
                tiles[tile_path(bundle)] = entry_bundle(ENTRIES[index:index + width])
    return tiles


@cache
def root(size: int) -> bytes:
    """The root of the first ``size`` leaves."""
    return merkle.root(LEAVES[:size])


def reader(size: int, tiles: dict[str, bytes] | None = None) -> TileReader:
    """A reader of the tree of ``size`` leaves over ``tiles`` (its own by default)."""
    return TileReader((tiles or store(size)).__getitem__, size, root(size))


def test_the_spec_example_of_70000_leaves():
    tiles = tiles_of(BIG)
    assert sum(1 for t in tiles if t.level == 0 and t.width is None) == 273
    assert [(t.level, t.index, t.width) for t in tiles if t.level > 0 or t.width] == [
        (0, 273, 112), (1, 0, None), (1, 1, 17), (2, 0, 1)]
    assert [(t.level, t.width) for t in tiles_of(256)] == [(0, None), (1, 1)]
    assert tiles_of(0) == [] and tiles_of(1) == [TileAddress(0, 0, 1)]
    assert {tile_path(t) for t in tiles_of(BIG)} | {
        tile_path(b) for b in entry_bundles_of(BIG)} == set(store(BIG))


@pytest.mark.parametrize("size", SIZES)
def test_tiles_served_from_stored_subtrees_are_the_tiles(size):
    subtrees = {(level, first + i): node
                for level, (first, nodes) in enumerate(new_subtrees(0, [], LEAVES[:size]))
                for i, node in enumerate(nodes)}
    for address in tiles_of(size) + entry_bundles_of(size):
        level, first, count = subtree_span(address)
        if address.entries:
            served = entry_bundle(ENTRIES[first:first + count])
        else:
            served = b"".join(subtrees[level, first + i] for i in range(count))
        assert served == store(size)[tile_path(address)], tile_path(address)


def test_paths_as_the_spec_writes_them():
    assert tile_path(TileAddress(0, 1_234_067, None)) == "tile/0/x001/x234/067"
    assert tile_path(TileAddress(1, 0, 17)) == "tile/1/000.p/17"
    assert tile_path(TileAddress(0, 1234, 12, entries=True)) == "tile/entries/x001/234.p/12"
    assert tile_path(TileAddress(63, 1000, None)) == "tile/63/x001/000"
    assert parse_tile_path("tile/entries/x001/234.p/12") == TileAddress(0, 1234, 12, True)
    assert parse_tile_path("tile/0/x001/x234/067") == TileAddress(0, 1_234_067, None)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 63), st.integers(0, 2**64 - 1), st.none() | st.integers(1, 255),
       st.booleans())
def test_paths_round_trip(level, index, width, entries):
    address = TileAddress(0 if entries else level, index, width, entries)
    assert parse_tile_path(tile_path(address)) == address


@pytest.mark.parametrize("path", [
    "tile/00/000", "tile/64/000", "tile/100/000", "tile/-1/000", "tile/0/00", "tile/0/0000",
    "tile/0/1234", "tile/0/001/234", "tile/0/x001/x234/67", "tile/0/x000/001",
    "tile/0/x001", "tile/0/X001/000", "tile/0/000.p/0", "tile/0/000.p/256", "tile/0/000.p/012",
    "tile/0/000.p/", "tile/0/000.p", "/tile/0/000", "tile/0/000/", "tile/data/000",
    "tile/entries/x000/000", "tile/entries/000.p/256", "tile/1/entries/000", "checkpoint",
    "tile/0/x018/x446/x744/x073/x709/x551/616", "tile/0/000\n", "tile/0/０００", "",
])
def test_malformed_paths_are_refused(path):
    with pytest.raises(TileError):
        parse_tile_path(path)


def test_entry_bundles_round_trip_and_refuse_truncation():
    entries = [b"", b"a", bytes(65_535), "é".encode()]
    bundle = entry_bundle(entries)
    assert bundle[:5] == b"\x00\x00\x00\x01a"
    assert read_entry_bundle(bundle) == entries
    assert read_entry_bundle(bundle, 4) == entries
    for cut in (1, 3, 4, len(bundle) - 1):
        with pytest.raises(TileError, match="truncated"):
            read_entry_bundle(bundle[:cut])
    with pytest.raises(TileError, match="not 3"):
        read_entry_bundle(bundle, 3)
    with pytest.raises(TileError, match="65535"):
        entry_bundle([bytes(65_536)])
    with pytest.raises(TileError):
        entry_bundle([b""] * 257)


@pytest.mark.parametrize("size", [s for s in SIZES if s <= 1024])
def test_small_trees_give_merkles_proofs(size):
    tiles = reader(size)
    assert tiles.consistency(size) == [] and tiles.consistency(0) == []
    for index in range(size):
        assert tiles.inclusion(index) == merkle.inclusion_path(index, LEAVES[:size])
    for old in range(1, size):
        assert tiles.consistency(old) == merkle.consistency_path(old, LEAVES[:size])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_small_tree_gives_merkles_proofs(data):
    size = data.draw(st.integers(1, 1100))
    index, old = data.draw(st.integers(0, size - 1)), data.draw(st.integers(0, size))
    tiles = reader(size)
    assert tiles.inclusion(index) == merkle.inclusion_path(index, LEAVES[:size])
    assert tiles.consistency(old) == merkle.consistency_path(old, LEAVES[:size])
    assert tiles.leaf_hash(index) == LEAVES[index]


@pytest.mark.parametrize("size", [65_536 + 3, BIG])
def test_large_trees_give_the_stored_subtrees_proofs(size):
    subtrees = {(level, first + i): node
                for level, (first, nodes) in enumerate(new_subtrees(0, [], LEAVES[:size]))
                for i, node in enumerate(nodes)}
    edge = [subtrees[(end - start).bit_length() - 1, start >> ((end - start).bit_length() - 1)]
            for start, end in edge_ranges(size)]
    stored = ProofNodes(size, edge, lambda indexes: [subtrees.get(i) for i in indexes])
    tiles, rng = reader(size), random.Random(size)
    indexes = [0, 1, 255, 256, 65_535, 65_536, size - 2, size - 1] + rng.sample(range(size), 40)
    for index in indexes:
        proof = tiles.inclusion(index)
        assert proof == stored.inclusion(index)
        assert merkle.verify_inclusion(LEAVES[index], index, size, proof, root(size))
    olds = [1, 255, 256, 257, 65_536, size - 1, size] + rng.sample(range(size), 40)
    for old in olds:
        assert tiles.consistency(old) == stored.consistency(old)
    for old in (1, 256, 65_536, 65_537, size - 1):
        assert merkle.verify_consistency(old, size, root(old), root(size),
                                         tiles.consistency(old))


def test_entries_are_read_and_checked():
    tiles = reader(BIG)
    assert tiles.entries(0) == ENTRIES[:256]
    assert tiles.entries(273) == ENTRIES[273 * 256:]
    with pytest.raises(ValueError):
        tiles.entries(274)


def _tampered(size: int, path: str, change) -> dict[str, bytes]:
    """The tiles of ``size`` with ``path``'s bytes changed."""
    tiles = dict(store(size))
    tiles[path] = change(tiles[path])
    return tiles


def _flip(data: bytes, at: int = 7) -> bytes:
    """``data`` with one bit flipped."""
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


@pytest.mark.parametrize("path", ["tile/0/273.p/112", "tile/1/001.p/17", "tile/2/000.p/1"])
def test_a_tampered_partial_tile_fails_against_the_root(path):
    with pytest.raises(TileError, match="do not hash up to the checkpoint"):
        reader(BIG, _tampered(BIG, path, _flip))
    with pytest.raises(TileError, match=path.replace(".", r"\.") + " is"):
        reader(BIG, _tampered(BIG, path, lambda data: data + bytes(32)))


@pytest.mark.parametrize("path, index", [("tile/0/005", 5 * 256 + 9), ("tile/0/272", 272 * 256),
                                         ("tile/1/000", 3)])
def test_a_tampered_full_tile_is_named(path, index):
    tiles = reader(BIG, _tampered(BIG, path, _flip))
    with pytest.raises(TileError, match=f"{path} does not hash to its hash in"):
        tiles.inclusion(index)
    with pytest.raises(TileError, match=f"{path} is 8160 bytes"):
        reader(BIG, _tampered(BIG, path, lambda data: data[:-32])).inclusion(index)


def test_a_wrong_root_or_a_tampered_bundle_is_caught():
    with pytest.raises(TileError):
        TileReader(store(BIG).__getitem__, BIG, root(BIG - 1))
    with pytest.raises(LookupError):  # a tile the log does not serve: the fetch's own error
        TileReader(store(BIG - 1).__getitem__, BIG, root(BIG))
    tampered = reader(BIG, _tampered(BIG, "tile/entries/007", lambda data: _flip(data, 5)))
    with pytest.raises(TileError, match="entry 1792 of tile/entries/007"):
        tampered.entries(7)


def test_a_partial_tile_gone_is_read_from_its_full_tile():
    later = store(257) | store(1024)  # the log dropped the partial tiles made full since
    del later["tile/0/001.p/1"], later["tile/entries/001.p/1"]
    tiles = TileReader(later.__getitem__, 257, root(257))
    assert tiles.inclusion(256) == merkle.inclusion_path(256, LEAVES[:257])
    assert tiles.entries(1) == ENTRIES[256:257]
    with pytest.raises(KeyError):
        TileReader(store(257).__getitem__, 600, root(600))
