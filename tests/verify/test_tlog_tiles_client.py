"""The independent tlog-tiles client (written from the C2SP text, not from ``fairness``) reads
the tiles and bundles the core's ``fairness.tiles`` addresses: the root it computes is the
checkpoint's, every entry's inclusion verifies (and another entry, index or tampered tile does
not), and the checkpoint's Ed25519 signature is checked with real keys."""

import random

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from fairness import merkle
from fairness.log_tree import new_subtrees
from fairness.note import NoteSignature, format_note
from fairness.service_log import LogCheckpoint, log_key_id
from fairness.tiles import entry_bundle, entry_bundles_of, subtree_span, tile_path, tiles_of
from tests.verify.tlog_tiles_client import TilesClient, index_path, tile_url

ORIGIN = "yacht.example/log"
KEY = Ed25519PrivateKey.from_private_bytes(bytes([42]) * 32)
PUBLIC = KEY.public_key().public_bytes_raw()
ENTRIES = [f"yacht-daily/log/0/2026-12-0{i % 9}/yacht\n{i}\n…\n\n— x\n".encode()
           for i in range(66_000)]


def serve(size: int) -> dict[str, bytes]:
    """What the app serves for the log's first ``size`` entries: tiles from stored subtrees
    (``subtree_span``), bundles, and the signed checkpoint."""
    leaves = [merkle.leaf_hash(entry) for entry in ENTRIES[:size]]
    stored = {(level, first + i): node
              for level, (first, nodes) in enumerate(new_subtrees(0, [], leaves))
              for i, node in enumerate(nodes)}
    files = {}
    for address in tiles_of(size):
        level, first, count = subtree_span(address)
        files[tile_path(address)] = b"".join(stored[level, first + i] for i in range(count))
    for address in entry_bundles_of(size):
        _, first, count = subtree_span(address)
        files[tile_path(address)] = entry_bundle(ENTRIES[first:first + count])
    body = LogCheckpoint(ORIGIN, size, merkle.root(leaves)).body()
    signature = NoteSignature(ORIGIN, log_key_id(ORIGIN, PUBLIC), KEY.sign(body.encode()))
    files["checkpoint"] = format_note(body, [signature]).encode()
    return files


def ed25519(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Real Ed25519 verification."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        return False
    return True


def test_paths_as_the_spec_writes_them():
    assert index_path(1_234_067) == "x001/x234/067" and index_path(0) == "000"
    assert tile_url(1, 0, 17) == "tile/1/000.p/17"
    assert tile_url("entries", 1234, 12) == "tile/entries/x001/234.p/12"


@pytest.mark.parametrize("size", [1, 2, 3, 255, 256, 257, 1000, 65_536 + 3])
def test_the_client_verifies_what_the_core_serves(size):
    files = serve(size)
    client = TilesClient(files.__getitem__)
    cp = client.checkpoint(PUBLIC, ed25519)
    assert (cp.origin, cp.size) == (ORIGIN, size)
    assert client.root(size) == cp.root
    rng = random.Random(size)
    for index in {0, size - 1, *rng.sample(range(size), min(size, 20))}:
        assert client.verify_inclusion(index, ENTRIES[index], cp.size, cp.root)
        assert client.inclusion_proof(index, size) == merkle.inclusion_path(
            index, [merkle.leaf_hash(e) for e in ENTRIES[:size]]) if size < 3000 else True
        assert not client.verify_inclusion(index, ENTRIES[index] + b"!", cp.size, cp.root)
    if size > 1:
        assert not client.verify_inclusion(1, ENTRIES[0], cp.size, cp.root)
    last = (size - 1) // 256
    assert client.entries(last, size) == ENTRIES[last * 256:size]


def test_a_tampered_tile_or_bundle_fails():
    files = serve(65_536 + 3)
    for path in ("tile/0/007", "tile/2/000.p/1"):  # leaf 1792, leaves 0-65535
        files[path] = files[path][:10] + bytes([files[path][10] ^ 1]) + files[path][11:]
    client = TilesClient(files.__getitem__)
    cp = client.checkpoint(PUBLIC, ed25519)
    assert not client.verify_inclusion(7 * 256 + 3, ENTRIES[7 * 256 + 3], cp.size, cp.root)
    # leaf 1792's own proof never reads its (tampered) hash: the entry gives it
    assert client.verify_inclusion(7 * 256, ENTRIES[7 * 256], cp.size, cp.root)
    assert client.root(cp.size) != cp.root
    files["tile/entries/000"] = files["tile/entries/000"][:-1] + b"?"
    with pytest.raises(ValueError):
        TilesClient(files.__getitem__).entries(0, cp.size)


def test_a_checkpoint_by_another_key_fails():
    files = serve(3)
    other = Ed25519PrivateKey.from_private_bytes(bytes([43]) * 32).public_key().public_bytes_raw()
    with pytest.raises(ValueError, match="not signed by the log key"):
        TilesClient(files.__getitem__).checkpoint(other, ed25519)
