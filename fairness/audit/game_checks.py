"""One finished game against the ledger: its replay, total, transcript hash, receipt and proof."""

from collections.abc import Mapping, Sequence

from .. import merkle
from ..canonical import sha256_hex
from ..dice import DiceStream
from ..ledger import RECEIPT_TYPE, RECEIPT_V2_TYPE, REVEAL_V2_TYPE, receipt_leaf_hash
from ..sheets import RULESETS
from .checks import (
    NOT_CHECKED,
    Check,
    SignatureCheck,
    aggregate,
    compared,
    field_problems,
    is_hex,
    receipt_fields,
    safe_canonical,
    short,
    signature_valid,
)
from .ledger_checks import ledger_checks, reveal_check, seed_check
from .ledger_view import LedgerView
from .replay import Replayed, replay_checks


def check_game(entries: list[dict], receipt: dict, transcript: list, proof: dict | None = None,
               verify_signature: SignatureCheck | None = None) -> list[Check]:
    """Check one finished game against the ledger: every roll, box, the total, its receipt."""
    view = LedgerView.read(entries)
    checks = ledger_checks(view, verify_signature)
    problems = field_problems(receipt, receipt_fields(receipt), "the receipt")
    if not problems and receipt["type"] not in (RECEIPT_TYPE, RECEIPT_V2_TYPE):
        problems.append(f"type {receipt['type']!r} ≠ {RECEIPT_TYPE} or {RECEIPT_V2_TYPE}")
    if not problems and receipt["ruleset"] not in RULESETS:
        problems.append(f"ruleset {receipt['ruleset']!r} is no known sheet")
    checks.append(aggregate("receipt format", problems,
                            "a receipt with exactly its fields, well typed"))
    if problems:
        return checks
    checks.append(reveal_check(view, receipt["date"], receipt["ruleset"], receipt["epoch"]))
    if not checks[-1].ok:
        return checks
    reveal = view.reveals[receipt["date"]]
    checks.append(seed_check(view, reveal))
    if receipt["type"] == RECEIPT_V2_TYPE or reveal["type"] == REVEAL_V2_TYPE:
        checks.append(receipt_version_check(receipt, reveal))
    stream = DiceStream(reveal["seed"], receipt["date"], receipt["ruleset"],
                        view.dealing_of(reveal["epoch"]))
    replayed = replay_checks(transcript, stream, explain=True)
    checks.extend(replayed.checks)
    checks.append(_total_check(replayed, receipt))
    checks.append(_transcript_hash_check(transcript, receipt))
    checks.append(_receipt_signature_check(view, receipt, verify_signature))
    checks.extend(_proof_checks(receipt, reveal, proof))
    return checks


def receipt_version_check(receipt: Mapping, reveal: Mapping) -> Check:
    """A day revealed by a v2 reveal has v2 receipts (with a leaf index), a v1 day v1 ones."""
    wanted = RECEIPT_V2_TYPE if reveal["type"] == REVEAL_V2_TYPE else RECEIPT_TYPE
    ok = receipt["type"] == wanted
    return Check("receipt version", ok, f"receipt type {receipt['type']} "
                                        f"{'=' if ok else '≠'} {wanted} of a {reveal['type']} day")


def _total_check(replayed: Replayed, receipt: Mapping) -> Check:
    """The recomputed total equals the receipt's."""
    totals = replayed.totals
    breakdown = (f"upper {totals.upper} + bonus {totals.upper_bonus} + lower {totals.lower} "
                 f"+ extra {totals.extra_bonus}")
    ok = totals.total == receipt["total"]
    relation = "=" if ok else "≠"
    return Check("total", ok, f"recomputed {totals.total} ({breakdown}) {relation} receipt "
                              f"total {receipt['total']}")


def _transcript_hash_check(transcript, receipt: Mapping) -> Check:
    """The transcript's SHA-256 equals the receipt's ``transcript_sha256``."""
    encoded = safe_canonical(list(transcript)) if isinstance(transcript, list | tuple) else None
    if encoded is None:
        return Check("transcript hash", False, "the transcript has no canonical JSON "
                                               "(not a list, or holds a float)")
    actual = sha256_hex(encoded)
    ok = actual == receipt["transcript_sha256"]
    return Check("transcript hash", ok,
                 f"SHA-256 of the transcript {compared(actual, receipt['transcript_sha256'])} "
                 "receipt transcript_sha256")


def _receipt_signature_check(view: LedgerView, receipt: Mapping,
                             verify_signature: SignatureCheck | None) -> Check:
    """The receipt is signed by its epoch's published key."""
    if verify_signature is None:
        return Check("receipt signature", None, NOT_CHECKED)
    epoch = view.epoch_of(receipt["epoch"])
    if epoch is None:
        return Check("receipt signature", False,
                     f"no epoch {receipt['epoch']} key is published in the ledger")
    key = epoch["public_key"]
    if signature_valid(verify_signature, key, receipt):
        return Check("receipt signature", True,
                     f"sig {short(receipt['sig'])} is a valid Ed25519 signature by epoch "
                     f"{receipt['epoch']}'s key {short(key)}")
    return Check("receipt signature", False,
                 f"sig {short(receipt['sig'])} is not a valid Ed25519 signature by epoch "
                 f"{receipt['epoch']}'s key {short(key)} of the receipt's fields")


def _proof_checks(receipt: Mapping, reveal: Mapping, proof: Mapping | None) -> list[Check]:
    """The proof's tree size is the day's game count, and it leads the receipt to the root."""
    if proof is None:
        return [Check("inclusion proof", None, "NOT checked: no inclusion proof given")]
    ruleset = receipt["ruleset"]
    problems = field_problems(proof, {"index": int, "size": int, "path": list}, "the proof")
    if not problems and not all(is_hex(item, 64) for item in proof["path"]):
        problems.append("path items are not all 64 hex digits")
    if not problems and "index" in receipt and proof["index"] != receipt["index"]:
        problems.append(f"index {proof['index']} ≠ receipt index {receipt['index']}")
    if problems:
        return [Check("inclusion proof", False, "malformed proof: " + "; ".join(problems))]
    games = reveal["games"][ruleset]
    size_check = Check("proof size", proof["size"] == games,
                       f"tree size {proof['size']} {'=' if proof['size'] == games else '≠'} "
                       f"reveal games[{ruleset}] {games}")
    leaf = receipt_leaf_hash(receipt)
    path = [bytes.fromhex(item) for item in proof["path"]]
    # The tree size comes from the reveal entry, not from the proof (FAIRNESS.md).
    root = computed_root(leaf, proof["index"], games, path) if type(games) is int else None
    published = reveal["roots"][ruleset]
    shown = root.hex() if root else "no root (index/size/path do not fit together)"
    return [size_check, Check(
        "inclusion proof", root is not None and shown == published,
        f"leaf {short(leaf.hex())} at index {proof['index']} of {games} with "
        f"{len(path)} path hashes → root {compared(shown, published)} reveal roots[{ruleset}]")]


def computed_root(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root an RFC 9162 inclusion proof leads to, or None if the proof is ill-shaped."""
    return merkle.inclusion_root(leaf, index, size, path)
