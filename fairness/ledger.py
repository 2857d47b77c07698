"""The published objects: ledger entries (epoch, reveal), game receipts and their Merkle leaves.

Every object is a flat JSON object with a ``type``. Its signature ``sig`` (hex Ed25519) covers
the canonical JSON of the object without ``sig``; a ledger entry's ``prev`` is the SHA-256 of
the previous entry's canonical JSON, ``sig`` included. Signing itself happens in the service,
which holds the key: this module only says which bytes are hashed and signed.
"""

from collections.abc import Mapping, Sequence

from . import merkle
from .canonical import canonical_json, digest, sha256_hex
from .chain import Epoch
from .errors import LedgerError

EPOCH_TYPE = "yacht-daily/epoch/v1"
REVEAL_TYPE = "yacht-daily/reveal/v1"
RECEIPT_TYPE = "yacht-daily/receipt/v1"
GENESIS_PREV = "0" * 64


def unsigned(obj: Mapping) -> dict:
    """The object without its signature."""
    return {key: value for key, value in obj.items() if key != "sig"}


def signed_bytes(obj: Mapping) -> bytes:
    """The exact bytes the Ed25519 signature of ``obj`` covers."""
    return canonical_json(unsigned(obj))


def entry_hash(entry: Mapping) -> str:
    """The hex SHA-256 of a whole ledger entry (signature included): the next entry's ``prev``."""
    return digest(dict(entry))


def epoch_entry(*, seq: int, prev: str, number: int, epoch: Epoch, public_key: str,
                rulesets: Sequence[str], published_at: str) -> dict:
    """An unsigned epoch entry: publishes the anchor and the signing key before day 1."""
    return {
        "type": EPOCH_TYPE,
        "seq": seq,
        "prev": prev,
        "epoch": number,
        "start": epoch.start,
        "length": epoch.length,
        "anchor": epoch.anchor.hex(),
        "public_key": public_key,
        "rulesets": list(rulesets),
        "published_at": published_at,
    }


def reveal_entry(*, seq: int, prev: str, epoch: int, date: str, day: int, seed: bytes,
                 games: Mapping[str, int], roots: Mapping[str, bytes], revealed_at: str) -> dict:
    """An unsigned reveal entry: the date's seed and, per sheet, its finished games and root."""
    return {
        "type": REVEAL_TYPE,
        "seq": seq,
        "prev": prev,
        "epoch": epoch,
        "date": date,
        "day": day,
        "seed": seed.hex(),
        "games": dict(games),
        "roots": {ruleset: root.hex() for ruleset, root in roots.items()},
        "revealed_at": revealed_at,
    }


def receipt(*, game: str, epoch: int, date: str, ruleset: str, player: str,
            transcript: Sequence[Mapping], total: int) -> dict:
    """An unsigned receipt for a finished game."""
    return {
        "type": RECEIPT_TYPE,
        "game": game,
        "epoch": epoch,
        "date": date,
        "ruleset": ruleset,
        "player": player,
        "transcript_sha256": transcript_hash(transcript),
        "total": total,
    }


def transcript_hash(transcript: Sequence[Mapping]) -> str:
    """The hex SHA-256 of a transcript's canonical JSON (a list of actions)."""
    return sha256_hex(canonical_json(list(transcript)))


def receipt_leaf_hash(signed_receipt: Mapping) -> bytes:
    """The Merkle leaf hash of a receipt: its unsigned canonical JSON as leaf data."""
    return merkle.leaf_hash(signed_bytes(signed_receipt))


def day_tree(receipts: Sequence[Mapping]) -> list[Mapping]:
    """One (date, sheet)'s receipts in leaf order: sorted by game id."""
    return sorted(receipts, key=lambda r: r["game"])


def day_root(receipts: Sequence[Mapping]) -> bytes:
    """The Merkle root of one (date, sheet)'s receipts."""
    return merkle.root([receipt_leaf_hash(r) for r in day_tree(receipts)])


def inclusion_proof(receipts: Sequence[Mapping], game_id: str) -> dict:
    """The inclusion proof of game ``game_id``'s receipt in its date's tree."""
    ordered = day_tree(receipts)
    index = next((i for i, r in enumerate(ordered) if r["game"] == game_id), None)
    if index is None:
        raise LedgerError(f"game {game_id!r} has no receipt in this day's tree")
    hashes = [receipt_leaf_hash(r) for r in ordered]
    return {
        "index": index,
        "size": len(ordered),
        "path": [h.hex() for h in merkle.inclusion_path(index, hashes)],
    }
