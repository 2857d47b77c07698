"""A small C2SP tlog-tiles client written from the spec text alone (c2sp.org/tlog-tiles,
tlog-checkpoint, signed-note; RFC 6962 hashing), standard library only, sharing no code with
``fairness``: it reads the checkpoint, entry bundles and tiles through ``fetch(path) -> bytes``
(``path`` relative to the log's prefix, e.g. ``checkpoint`` or ``tile/0/x001/234.p/5``).

The root and inclusion proofs are computed with RFC 6962's recursive definitions (MTH, PATH),
taking the hash of every complete subtree of 2^h leaves from the tile at level floor(h / 8);
an inclusion is verified by hashing the entry up to the root with those siblings and
comparing with the checkpoint's root, so a tampered tile fails the verification.
"""

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass

HEIGHT = 8
WIDTH = 256


def leaf_hash(entry: bytes) -> bytes:
    """RFC 6962: SHA-256(0x00 || entry)."""
    return hashlib.sha256(b"\x00" + entry).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 6962: SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def index_path(n: int) -> str:
    """``n`` in zero-padded 3-digit elements, all but the last prefixed with ``x``."""
    groups = []
    while True:
        groups.append(f"{n % 1000:03d}")
        n //= 1000
        if n == 0:
            break
    groups.reverse()
    return "/".join(["x" + g for g in groups[:-1]] + [groups[-1]])


def tile_url(level: int | str, n: int, width: int) -> str:
    """``tile/<L>/<N>[.p/<W>]`` (``level`` ``"entries"`` for an entry bundle)."""
    return f"tile/{level}/{index_path(n)}" + ("" if width == WIDTH else f".p/{width}")


@dataclass(frozen=True)
class Checkpoint:
    """The first three lines of a checkpoint note, the note text and its signature lines."""

    origin: str
    size: int
    root: bytes
    text: str
    signatures: tuple[tuple[str, bytes], ...]  # (key name, key ID || signature)


def parse_checkpoint(note: str) -> Checkpoint:
    """Split a signed note at its last blank line and read origin, size and root."""
    cut = note.rfind("\n\n")
    if cut < 0 or not note.endswith("\n"):
        raise ValueError("not a signed note")
    text, sigs = note[:cut + 1], note[cut + 2:-1].split("\n")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or not lines[0]:
        raise ValueError("a checkpoint has an origin, a size and a root")
    if not lines[1].isdigit() or (lines[1] != "0" and lines[1].startswith("0")):
        raise ValueError("bad tree size")
    root = base64.b64decode(lines[2], validate=True)
    if len(root) != 32:
        raise ValueError("bad root")
    signatures = []
    for line in sigs:
        dash, name, b64 = line.split(" ")
        if dash != "\u2014":
            raise ValueError("bad signature line")
        signatures.append((name, base64.b64decode(b64, validate=True)))
    return Checkpoint(lines[0], int(lines[1]), root, text, tuple(signatures))


def ed25519_key_id(name: str, public_key: bytes) -> bytes:
    """signed-note: SHA-256(name || 0x0A || 0x01 || key)[:4]."""
    return hashlib.sha256(name.encode() + b"\n\x01" + public_key).digest()[:4]


def read_entry_bundle(data: bytes) -> list[bytes]:
    """Big-endian uint16 length-prefixed entries."""
    entries, i = [], 0
    while i < len(data):
        if i + 2 > len(data):
            raise ValueError("truncated bundle")
        length = int.from_bytes(data[i:i + 2], "big")
        if i + 2 + length > len(data):
            raise ValueError("truncated bundle")
        entries.append(data[i + 2:i + 2 + length])
        i += 2 + length
    return entries


class TilesClient:
    """Reads a tiled log through ``fetch``; every method takes the checkpoint's tree size."""

    def __init__(self, fetch: Callable[[str], bytes]):
        """Keep the fetch function; tiles are cached per (level, index, width)."""
        self.fetch = fetch
        self._tiles: dict[tuple[int, int, int], list[bytes]] = {}

    def checkpoint(self, public_key: bytes | None = None,
                   verify: Callable[[bytes, bytes, bytes], bool] | None = None) -> Checkpoint:
        """The current checkpoint; with ``public_key`` and ``verify(key, message, sig)``, it
        must carry a valid Ed25519 signature under the origin's name and key ID."""
        cp = parse_checkpoint(self.fetch("checkpoint").decode("utf-8"))
        if public_key is not None:
            wanted = ed25519_key_id(cp.origin, public_key)
            ok = [verify(public_key, cp.text.encode(), raw[4:]) for name, raw in cp.signatures
                  if name == cp.origin and raw[:4] == wanted]
            if not ok or not all(ok):
                raise ValueError("the checkpoint is not signed by the log key")
        return cp

    def tile(self, level: int, n: int, size: int) -> list[bytes]:
        """The hashes of tile ``n`` at ``level`` of the tree of ``size`` leaves."""
        count = size // WIDTH ** level  # hashes at this level
        width = min(WIDTH, count - n * WIDTH)
        if width <= 0:
            raise ValueError(f"no tile {level}/{n} in a tree of {size}")
        key = (level, n, width)
        if key not in self._tiles:
            data = self.fetch(tile_url(level, n, width))
            if len(data) != 32 * width:
                raise ValueError(f"{tile_url(level, n, width)} has the wrong length")
            self._tiles[key] = [data[i:i + 32] for i in range(0, len(data), 32)]
        return self._tiles[key]

    def entries(self, n: int, size: int) -> list[bytes]:
        """Entry bundle ``n`` of the tree of ``size`` leaves, each entry checked against the
        level-0 tile (which the caller authenticates through ``root`` or an inclusion)."""
        width = min(WIDTH, size - n * WIDTH)
        if width <= 0:
            raise ValueError(f"no bundle {n} in a tree of {size}")
        entries = read_entry_bundle(self.fetch(tile_url("entries", n, width)))
        if len(entries) != width:
            raise ValueError("the bundle has the wrong number of entries")
        hashes = self.tile(0, n, size)
        if [leaf_hash(e) for e in entries] != hashes:
            raise ValueError("the bundle does not match its level-0 tile")
        return entries

    def subtree(self, start: int, end: int, size: int) -> bytes:
        """MTH(D[start:end]) of a complete subtree (end − start = 2^h, start aligned)."""
        h = (end - start).bit_length() - 1
        level = h // HEIGHT
        unit = WIDTH ** level  # leaves per hash at this tile level
        first, count = start // unit, (end - start) // unit
        hashes = self.tile(level, first // WIDTH, size)
        nodes = hashes[first % WIDTH:first % WIDTH + count]
        while len(nodes) > 1:
            nodes = [node_hash(nodes[i], nodes[i + 1]) for i in range(0, len(nodes), 2)]
        return nodes[0]

    def mth(self, start: int, end: int, size: int) -> bytes:
        """RFC 6962 MTH(D[start:end]), any range within the tree of ``size``."""
        n = end - start
        if n == 0:
            return hashlib.sha256(b"").digest()
        if n & (n - 1) == 0 and start % n == 0:
            return self.subtree(start, end, size)
        k = 1 << ((n - 1).bit_length() - 1)
        return node_hash(self.mth(start, start + k, size), self.mth(start + k, end, size))

    def root(self, size: int) -> bytes:
        """The root of the tree of ``size`` leaves, from tiles."""
        return self.mth(0, size, size)

    def inclusion_proof(self, index: int, size: int) -> list[bytes]:
        """RFC 6962 PATH(index, D[0:size]), leaf side first."""
        if not 0 <= index < size:
            raise ValueError("index out of range")
        path, start, end = [], 0, size
        while end - start > 1:
            k = 1 << ((end - start - 1).bit_length() - 1)
            if index < start + k:
                path.append(self.mth(start + k, end, size))
                end = start + k
            else:
                path.append(self.mth(start, start + k, size))
                start += k
        return path[::-1]

    def verify_inclusion(self, index: int, entry: bytes, checkpoint_size: int,
                         checkpoint_root: bytes) -> bool:
        """True when ``entry`` is at ``index`` in the tree the checkpoint signs: the entry's
        hash, with siblings from the tiles, hashes up to the checkpoint's root."""
        path = self.inclusion_proof(index, checkpoint_size)
        return root_from_path(leaf_hash(entry), index, checkpoint_size, path) == checkpoint_root


def root_from_path(leaf: bytes, index: int, size: int, path: list[bytes]) -> bytes:
    """The root an audit path leads to, by RFC 6962's recursive split (not the bit walk)."""
    path = list(path)

    def up(start: int, end: int) -> bytes:
        if end - start == 1:
            return leaf
        k = 1 << ((end - start - 1).bit_length() - 1)
        if index < start + k:
            below = up(start, start + k)
            return node_hash(below, path_pop())
        below = up(start + k, end)
        return node_hash(path_pop(), below)

    def path_pop() -> bytes:
        if not path:
            raise ValueError("the path is too short")
        return path.pop(0)

    result = up(0, size)
    if path:
        raise ValueError("the path is too long")
    return result
