"""A (date, sheet)'s log of finished games: its checkpoints, their chain and consistency, the
close checkpoint against the reveal, receipts in it, the final transcripts, cosignatures, and
checkpoints a player saved against what the server serves later.

A published log is ``{"checkpoints": [{"note": <signed note>, "consistency": [hex…]}, …]}`` in
order, ``consistency`` being the RFC 9162 proof from the checkpoint before (empty for the first).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import merkle
from ..chain import Epoch
from ..checkpoint import (
    NO_PREVIOUS,
    Checkpoint,
    body_hash,
    cosignature_time,
    origin,
    parse_checkpoint,
)
from ..errors import FairnessError, LedgerError
from ..ledger import REVEAL_V2_TYPE, final_leaf, finals_root, receipt_leaf_hash
from ..note import ED25519, VerifierKey, key_id, parse_note, signature_verifies
from .checks import NOT_CHECKED, Check, SignatureCheck, aggregate, compared, is_hex, short
from .ledger_view import LedgerView


@dataclass(frozen=True)
class LogPoint:
    """One published checkpoint read: its parsed body, text, signatures and consistency proof."""

    checkpoint: Checkpoint
    body: str
    signatures: list
    consistency: list


def epoch_key_for(view: LedgerView, date: str) -> Mapping | None:
    """The epoch entry that owns ``date``: of those whose days cover it, the latest started
    (FAIRNESS.md, "Epochs"), or None."""
    owner = None
    for number in sorted(view.epochs):
        epoch = view.epochs[number]
        try:
            Epoch(epoch["start"], epoch["length"], epoch["anchor"]).day_index(date)
        except FairnessError:
            continue
        if owner is None or epoch["start"] >= owner["start"]:
            owner = epoch
    return owner


def read_log(log) -> tuple[list[LogPoint], list[str]]:
    """The log's checkpoints read, and what is malformed in it."""
    entries = log.get("checkpoints") if isinstance(log, Mapping) else None
    if not isinstance(entries, list) or not entries or sorted(log) != ["checkpoints"]:
        return [], ["the log is not an object with exactly a non-empty checkpoints list"]
    points, problems = [], []
    for position, item in enumerate(entries):
        try:
            if not isinstance(item, Mapping) or sorted(item) != ["consistency", "note"]:
                raise LedgerError("not an object with exactly note and consistency")
            proof = item["consistency"]
            if not isinstance(proof, list) or not all(is_hex(h, 64) for h in proof):
                raise LedgerError("consistency is not a list of 64-hex-digit hashes")
            body, signatures = parse_note(item["note"])
            points.append(LogPoint(parse_checkpoint(body), body, signatures,
                                   [bytes.fromhex(h) for h in proof]))
        except LedgerError as error:
            problems.append(f"checkpoint {position}: {error}")
    return points, problems


def check_log(entries: list[dict], date: str, ruleset: str, log,
              verify_signature: SignatureCheck | None = None,
              witnesses: Sequence[VerifierKey] = (), quorum: int = 0) -> list[Check]:
    """Every check of one (date, sheet)'s published log (see the module docstring)."""
    view = LedgerView.read(entries)
    epoch = epoch_key_for(view, date)
    if epoch is None:
        return [Check("log format", False, f"no published epoch covers {date}")]
    points, problems = read_log(log)
    name = origin(epoch["public_key"], date, ruleset)
    problems += [f"checkpoint {i}: origin {p.checkpoint.origin!r} ≠ {name!r}"
                 for i, p in enumerate(points) if p.checkpoint.origin != name]
    format_check = aggregate("log format", problems,
                             f"{len(points)} checkpoints of {name}, each a signed note")
    if problems:
        return [format_check]
    return [format_check,
            _signatures_check(points, epoch["public_key"], name, verify_signature),
            _chain_check(points),
            _consistency_check(points),
            _close_check(points, view.reveals.get(date), ruleset),
            *_cosignature_checks(points, witnesses, quorum, verify_signature)]


def _signatures_check(points: list[LogPoint], public_key: str, name: str,
                      verify_signature: SignatureCheck | None) -> Check:
    """Every checkpoint carries a valid Ed25519 signature by the epoch key named ``name``."""
    if verify_signature is None:
        return Check("log signatures", None, NOT_CHECKED)
    wanted = key_id(name, ED25519, bytes.fromhex(public_key))
    failures = []
    for position, point in enumerate(points):
        mine = [s for s in point.signatures if s.name == name and s.key_id == wanted]
        if not mine:
            failures.append(f"checkpoint {position}: no signature by {name} "
                            f"(key ID {wanted.hex()})")
        elif not all(signature_verifies(verify_signature, bytes.fromhex(public_key),
                                        point.body.encode("utf-8"), s.payload) for s in mine):
            failures.append(f"checkpoint {position}: signature by {name} is not a valid "
                            f"Ed25519 signature of its body by {short(public_key)}")
    return aggregate("log signatures", failures,
                     f"{len(points)} checkpoints, each signed by the epoch key {short(public_key)}")


def _chain_check(points: list[LogPoint]) -> Check:
    """Each checkpoint's prev is the hash of the one before (zeros for the first); sizes and
    times never go back."""
    failures = []
    previous = None
    for position, point in enumerate(points):
        cp = point.checkpoint
        expected = NO_PREVIOUS if previous is None else body_hash(previous.body)
        source = "32 zero bytes" if previous is None else f"SHA-256 of checkpoint {position - 1}"
        if cp.prev != expected:
            failures.append(f"checkpoint {position}: prev {cp.prev.hex()} ≠ {source} "
                            f"{expected.hex()}")
        if previous is not None:
            before = previous.checkpoint
            if cp.size < before.size:
                failures.append(f"checkpoint {position}: size {cp.size} < {before.size} "
                                f"of checkpoint {position - 1}")
            if cp.time < before.time:
                failures.append(f"checkpoint {position}: time {cp.time} before "
                                f"{before.time} of checkpoint {position - 1}")
        previous = point
    return aggregate("log chain", failures,
                     f"{len(points)} checkpoints, each prev = SHA-256 of the one before, sizes "
                     "and times in order")


def _consistency_check(points: list[LogPoint]) -> Check:
    """Each checkpoint is consistent with the one before (RFC 9162 2.1.4.2): one history."""
    failures = []
    for position, point in enumerate(points):
        cp = point.checkpoint
        if position == 0:
            if point.consistency:
                failures.append("checkpoint 0: a consistency proof from nothing")
            continue
        before = points[position - 1].checkpoint
        if not merkle.verify_consistency(before.size, cp.size, before.root, cp.root,
                                         point.consistency):
            same = " (same size, other root: a fork)" if before.size == cp.size and \
                before.root != cp.root else ""
            failures.append(f"checkpoint {position}: size {cp.size} root {cp.root.hex()} is not "
                            f"consistent with size {before.size} root {before.root.hex()}{same}")
    return aggregate("log consistency", failures,
                     f"{len(points)} checkpoints, each an append-only extension of the one "
                     "before (RFC 9162 consistency proofs)")


def _close_check(points: list[LogPoint], reveal: Mapping | None, ruleset: str) -> Check:
    """Only the last checkpoint closes; once revealed, it is the reveal's count, root and hash."""
    early = [f"checkpoint {i}: closes before the last one" for i, p in enumerate(points[:-1])
             if p.checkpoint.close is not None]
    last = points[-1]
    if reveal is None:
        state = "closed" if last.checkpoint.close else "open"
        return aggregate("log close", early, f"not revealed yet; the log is {state}")
    if reveal["type"] != REVEAL_V2_TYPE:
        return Check("log close", False, f"{reveal['date']} was revealed by a {reveal['type']} "
                                         "entry, which commits to no log")
    failures = list(early)
    cp = last.checkpoint
    if cp.close is None:
        failures.append("the last checkpoint does not close the log")
    wanted = {"games": (cp.size, reveal["games"].get(ruleset)),
              "roots": (cp.root.hex(), reveal["roots"].get(ruleset)),
              "logs": (body_hash(last.body).hex(), reveal["logs"].get(ruleset))}
    for key, (mine, published) in wanted.items():
        if mine != published:
            failures.append(f"close checkpoint {key} {mine} ≠ reveal {key}[{ruleset}] "
                            f"{published}")
    return aggregate("log close", failures,
                     f"the close checkpoint (size {cp.size}, root {short(cp.root.hex())}) is the "
                     f"reveal's games, roots and logs[{ruleset}]")


def _cosignature_checks(points: list[LogPoint], witnesses: Sequence[VerifierKey], quorum: int,
                        verify_signature: SignatureCheck | None) -> list[Check]:
    """Every cosignature by a named witness verifies; the last checkpoint has ``quorum``."""
    if not witnesses and not quorum:
        return []
    if verify_signature is None:
        return [Check("cosignatures", None, NOT_CHECKED)]
    failures, valid_on_last = [], set()
    for position, point in enumerate(points):
        for witness in witnesses:
            lines = [s for s in point.signatures
                     if s.name == witness.name and s.key_id == witness.key_id]
            for line in lines:
                if cosignature_time(witness, point.body, line, verify_signature) is not None:
                    if position == len(points) - 1:
                        valid_on_last.add(witness.name)
                else:
                    failures.append(f"checkpoint {position}: cosignature by {witness.name} "
                                    "does not verify")
    if len(valid_on_last) < quorum:
        failures.append(f"the last checkpoint has {len(valid_on_last)} valid cosignatures of "
                        f"the named witnesses ({', '.join(sorted(valid_on_last)) or 'none'}), "
                        f"fewer than the {quorum} required")
    return [aggregate("cosignatures", failures,
                      f"the last checkpoint is cosigned by {len(valid_on_last)} named witnesses "
                      f"({', '.join(sorted(valid_on_last))}); {quorum} required")]


def check_receipt_in_log(receipt: Mapping, log, proof) -> list[Check]:
    """A v2 receipt is in the log: its inclusion proof leads to a checkpoint of the log with
    the proof's size, and it finished no later than the first checkpoint that includes it."""
    points, problems = read_log(log)
    if problems:
        return [Check("receipt in log", False, "; ".join(problems))]
    if not (isinstance(proof, Mapping) and sorted(proof) == ["index", "path", "size"]
            and type(proof.get("index")) is int
            and type(proof.get("size")) is int and isinstance(proof.get("path"), list)
            and all(is_hex(h, 64) for h in proof["path"])):
        return [Check("receipt in log", False, "malformed inclusion proof")]
    index = receipt.get("index")
    if proof["index"] != index:
        return [Check("receipt in log", False,
                      f"proof index {proof['index']} ≠ receipt index {index!r}")]
    sized = [p for p in points if p.checkpoint.size == proof["size"]]
    if not sized:
        return [Check("receipt in log", False,
                      f"no checkpoint of the log has the proof's size {proof['size']}")]
    target = sized[0].checkpoint
    leaf = receipt_leaf_hash(receipt)
    path = [bytes.fromhex(h) for h in proof["path"]]
    found = merkle.inclusion_root(leaf, index, target.size, path)
    shown = found.hex() if found else "no root (index/size/path do not fit together)"
    checks = [Check("receipt in log", found == target.root,
                    f"leaf {short(leaf.hex())} at index {index} of {target.size} → root "
                    f"{compared(shown, target.root.hex())} of the checkpoint of size "
                    f"{target.size}")]
    first = next((p.checkpoint for p in points if p.checkpoint.size > index), None)
    finished = receipt.get("finished_at")
    ok = first is not None and isinstance(finished, str) and finished <= first.time
    checks.append(Check("receipt time", ok,
                        f"finished_at {finished} {'≤' if ok else 'after'} the time "
                        f"{first.time if first else '(none)'} of the first checkpoint that "
                        f"includes index {index}"))
    return checks


def check_saved_checkpoints(saved: Sequence[str], log,
                            verify_signature: SignatureCheck | None = None,
                            public_key: str | None = None) -> list[Check]:
    """Checkpoints a player kept earlier are, byte for byte, checkpoints the log serves now.

    A kept checkpoint of a size the log serves with another root is a fork: two signed
    histories, shown to different people.
    """
    points, problems = read_log(log)
    if problems:
        return [Check("saved checkpoints", False, "; ".join(problems))]
    bodies = {p.body for p in points}
    failures = []
    for position, note in enumerate(saved):
        try:
            body, signatures = parse_note(note)
            cp = parse_checkpoint(body)
        except LedgerError as error:
            failures.append(f"saved {position}: {error}")
            continue
        if verify_signature is not None and public_key is not None:
            wanted = key_id(cp.origin, ED25519, bytes.fromhex(public_key))
            if not any(s.key_id == wanted and signature_verifies(
                    verify_signature, bytes.fromhex(public_key), body.encode("utf-8"), s.payload)
                       for s in signatures):
                failures.append(f"saved {position}: not signed by the epoch key "
                                f"{short(public_key)}")
                continue
        if body in bodies:
            continue
        other = [p.checkpoint.root.hex() for p in points if p.checkpoint.size == cp.size
                 and p.checkpoint.root != cp.root]
        if other:
            failures.append(f"saved {position}: size {cp.size} root {cp.root.hex()} ≠ served "
                            f"root {other[0]} of the same size (a fork)")
        else:
            failures.append(f"saved {position}: the log does not serve this checkpoint "
                            f"(size {cp.size}, time {cp.time})")
    return [aggregate("saved checkpoints", failures,
                      f"{len(saved)} saved checkpoints, each served unchanged")]


def check_final_transcripts(log, games: Sequence[Mapping]) -> list[Check]:
    """The close checkpoint commits to every published game's final transcript."""
    points, problems = read_log(log)
    close = points[-1].checkpoint.close if points else None
    if problems or close is None:
        return [Check("final transcripts", False,
                      "; ".join(problems) or "the log has no close checkpoint")]
    leaves, failures = {}, []
    for game in games:
        try:
            leaves[game["id"]] = final_leaf(game=game["id"], player=game["player"],
                                            transcript=game["transcript"],
                                            finished=game["status"] == "finished")
        except (KeyError, TypeError, ValueError) as error:
            failures.append(f"game {game.get('id') if isinstance(game, Mapping) else game!r}: "
                            f"no final transcript leaf ({error})")
    if failures:
        return [aggregate("final transcripts", failures, "")]
    root = finals_root(leaves)
    if len(leaves) != close.games:
        failures.append(f"{len(leaves)} published games ≠ close games {close.games}")
    if root != close.transcripts_root:
        failures.append(f"root of the {len(leaves)} final transcripts {root.hex()} ≠ close "
                        f"root {close.transcripts_root.hex()}")
    return [aggregate("final transcripts", failures,
                      f"{len(leaves)} games' final transcripts (finished or abandoned) are the "
                      "close checkpoint's")]
