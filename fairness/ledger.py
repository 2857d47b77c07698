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
from .dice import SEQUENTIAL
from .errors import LedgerError

EPOCH_TYPE = "yacht-daily/epoch/v1"
EPOCH_V2_TYPE = "yacht-daily/epoch/v2"
EPOCH_TYPES = (EPOCH_TYPE, EPOCH_V2_TYPE)
REVEAL_TYPE = "yacht-daily/reveal/v1"
RECEIPT_TYPE = "yacht-daily/receipt/v1"
REVEAL_V2_TYPE = "yacht-daily/reveal/v2"
REVEAL_TYPES = (REVEAL_TYPE, REVEAL_V2_TYPE)
RECEIPT_V2_TYPE = "yacht-daily/receipt/v2"
FINAL_TYPE = "yacht-daily/final/v1"
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
    """An unsigned epoch entry: publishes the anchor, the signing key and the daily sheets
    before day 1; a v2 entry adds the dealing (``per-turn``), a v1 entry deals sequentially."""
    entry = {
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
    if epoch.dealing != SEQUENTIAL:
        entry.update(type=EPOCH_V2_TYPE, dealing=epoch.dealing)
    return entry


def epoch_dealing(entry: Mapping | None) -> str:
    """The dealing of a well-formed epoch entry's days: its ``dealing`` (v2), else sequential
    (also for no entry: a check of its own fails a reveal whose epoch is not published)."""
    return entry["dealing"] if entry and entry.get("type") == EPOCH_V2_TYPE else SEQUENTIAL


def is_epoch_entry(entry) -> bool:
    """True when ``entry`` is an epoch entry of either version."""
    return isinstance(entry, Mapping) and entry.get("type") in EPOCH_TYPES


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


def receipt_v2(*, game: str, epoch: int, date: str, ruleset: str, player: str,
               transcript: Sequence[Mapping], total: int, index: int, finished_at: str) -> dict:
    """An unsigned v2 receipt: a v1 receipt plus the game's leaf index in its (date, sheet)'s
    log and the time it finished."""
    return {**receipt(game=game, epoch=epoch, date=date, ruleset=ruleset, player=player,
                      transcript=transcript, total=total),
            "type": RECEIPT_V2_TYPE, "index": index, "finished_at": finished_at}


def reveal_entry_v2(*, seq: int, prev: str, epoch: int, date: str, day: int, seed: bytes,
                    games: Mapping[str, int], roots: Mapping[str, bytes],
                    logs: Mapping[str, bytes], revealed_at: str) -> dict:
    """An unsigned v2 reveal entry: a v1 reveal whose counts and roots are the close
    checkpoints', plus per sheet the SHA-256 of its close checkpoint's body (``logs``)."""
    return {**reveal_entry(seq=seq, prev=prev, epoch=epoch, date=date, day=day, seed=seed,
                           games=games, roots=roots, revealed_at=revealed_at),
            "type": REVEAL_V2_TYPE, "logs": {ruleset: h.hex() for ruleset, h in logs.items()}}


def log_order(receipts: Sequence[Mapping]) -> list[Mapping]:
    """One (date, sheet)'s v2 receipts in leaf order: by ``index`` (the order they finished)."""
    return sorted(receipts, key=lambda r: r["index"])


def final_leaf(*, game: str, player: str, transcript: Sequence[Mapping], finished: bool
               ) -> bytes:
    """The leaf data committing to one game's final transcript (finished or abandoned)."""
    return canonical_json({"type": FINAL_TYPE, "game": game, "player": player,
                           "finished": finished, "transcript_sha256": transcript_hash(transcript)})


def finals_root(leaves: Mapping[str, bytes]) -> bytes:
    """The root of every game's final-transcript leaf (game id → leaf data), by game id."""
    return merkle.root([merkle.leaf_hash(leaves[game]) for game in sorted(leaves)])


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
