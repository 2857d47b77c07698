"""The ``proof`` mode: a game's proof to keep, a C2SP tlog-proof@v1 file (``.tlog-proof``) whose
entry is the service log's entry of the day checkpoint that covers the game.

The proof's ``extra`` line is base64 of the canonical JSON of the game-proof object, which makes
the file self-contained (FAIRNESS.md, "The service log", A proof to keep)::

    {"type": "yacht-daily/game-proof/v1",
     "entry": "<the day checkpoint's signed note: body, blank line, the epoch key's line>",
     "epoch": {<the epoch entry of the ledger that owns the date, signed>},
     "receipt": {<the game's signed v2 receipt>},
     "proof": {"index": <leaf index>, "size": <the day checkpoint's size>, "path": [hex…]},
     "transcript": [<the game's actions>]}

Checked, each as one line: the file's format; the service log's signature (``--log-key``), its
witnesses' cosignatures (``--witness``, ``--quorum``) and the entry's inclusion at ``index``;
the epoch entry's own signature and its key (printed, to compare with the ledger or
``--expect-key``); the day checkpoint's origin and epoch signature; the receipt's format,
signature, transcript hash and inclusion in the day checkpoint; with ``--seed``, the seed's
place in the epoch's chain and the replay of every roll and box and the total. What cannot be
checked without an option says so (never a silent pass).
"""

import json
from collections.abc import Mapping, Sequence

from fairness import merkle
from fairness.audit import Check, replay_checks, short
from fairness.audit.checks import (
    NOT_CHECKED,
    RECEIPT_V2_FIELDS,
    SignatureCheck,
    compared,
    field_problems,
    is_hex,
    safe_canonical,
    signature_valid,
)
from fairness.audit.ledger_view import ENTRY_FIELDS, entry_value_problems
from fairness.canonical import canonical_json, sha256_hex
from fairness.chain import Epoch, verify_seed
from fairness.checkpoint import origin as day_log_origin
from fairness.checkpoint import parse_checkpoint
from fairness.dice import DiceStream
from fairness.errors import FairnessError
from fairness.ledger import (
    EPOCH_TYPES,
    RECEIPT_V2_TYPE,
    epoch_dealing,
    receipt_leaf_hash,
)
from fairness.note import ED25519, VerifierKey, key_id, parse_note
from fairness.service_log import cosignature_verdicts, open_log_checkpoint, parse_log_checkpoint
from fairness.sheets import RULESETS
from fairness.tlog_proof import TlogProof, parse_tlog_proof

GAME_PROOF_TYPE = "yacht-daily/game-proof/v1"
GAME_PROOF_KEYS = ("entry", "epoch", "proof", "receipt", "transcript", "type")


def game_proof_extra(entry: str, epoch: Mapping, receipt: Mapping, proof: Mapping,
                     transcript: Sequence) -> bytes:
    """The extra data of a game's proof: the canonical JSON of the game-proof object."""
    return canonical_json({"type": GAME_PROOF_TYPE, "entry": entry, "epoch": dict(epoch),
                           "receipt": dict(receipt), "proof": dict(proof),
                           "transcript": list(transcript)})


def read_game_proof(text: str) -> tuple[TlogProof, dict]:
    """(the tlog proof, its game-proof object) of a file, or ValueError saying what is wrong."""
    proof = parse_tlog_proof(text)
    if proof.extra is None:
        raise ValueError("the tlog proof has no extra line: it does not carry a game")
    try:
        extra = json.loads(proof.extra.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError("the extra data is not UTF-8 JSON") from None
    if not (isinstance(extra, dict) and tuple(sorted(extra)) == GAME_PROOF_KEYS
            and extra["type"] == GAME_PROOF_TYPE):
        raise ValueError(f"the extra data is not a {GAME_PROOF_TYPE} object with exactly "
                         f"{', '.join(GAME_PROOF_KEYS)}")
    if safe_canonical(extra) != proof.extra:
        raise ValueError("the extra data is not written as canonical JSON")
    if not isinstance(extra["entry"], str):
        raise ValueError("entry is not a signed note")
    return proof, extra


def check_game_proof(text: str, log_key: VerifierKey | None,
                     witnesses: Sequence[VerifierKey], quorum: int, seed: str | None,
                     verify: SignatureCheck | None) -> list[Check]:
    """Every check of a game's proof file, in order (see the module's docstring)."""
    try:
        proof, extra = read_game_proof(text)
    except ValueError as error:
        return [Check("proof format", False, str(error))]
    checks = [Check("proof format", True, f"a tlog-proof@v1 of entry {proof.index} carrying "
                                          f"a {GAME_PROOF_TYPE}")]
    checks += service_log_checks(proof, extra["entry"], log_key, witnesses, quorum, verify)
    epoch_checks, epoch = _epoch_checks(extra["epoch"], verify)
    checks += epoch_checks
    if epoch is None:
        return checks
    day_checks, day = _day_checkpoint_checks(extra["entry"], epoch, extra["receipt"], verify)
    checks += day_checks
    if day is None:
        return checks
    receipt_checks, receipt = _receipt_checks(extra["receipt"], epoch, verify)
    checks += receipt_checks
    if receipt is None:
        return checks
    checks.append(_receipt_inclusion_check(receipt, extra["proof"], day))
    checks.append(_transcript_hash_check(extra["transcript"], receipt))
    checks += _replay_checks(seed, epoch, receipt, extra["transcript"])
    return checks


def service_log_checks(proof: TlogProof, entry: str, log_key: VerifierKey | None,
                       witnesses: Sequence[VerifierKey], quorum: int,
                       verify: SignatureCheck | None) -> list[Check]:
    """The service log's signature, the witnesses' cosignatures, the entry's inclusion."""
    checks = []
    try:
        body, _ = parse_note(proof.checkpoint)
        checkpoint = parse_log_checkpoint(body)
    except FairnessError as error:
        return [Check("service log checkpoint", False, f"not a service log checkpoint: {error}")]
    if log_key is None:
        checks.append(Check("service log signature", None, "NOT checked: give the log's key "
                                                           "with --log-key VKEY"))
    elif verify is None:
        checks.append(Check("service log signature", None, NOT_CHECKED))
    else:
        try:
            open_log_checkpoint(proof.checkpoint, log_key, verify)
            checks.append(Check("service log signature", True,
                                f"the checkpoint of size {checkpoint.size} is signed by "
                                f"{log_key.text()}"))
        except FairnessError as error:
            checks.append(Check("service log signature", False, str(error)))
    checks.append(_cosignature_check(proof.checkpoint, witnesses, quorum, verify))
    leaf = merkle.leaf_hash(entry.encode("utf-8"))
    ok = merkle.verify_inclusion(leaf, proof.index, checkpoint.size, proof.path, checkpoint.root)
    checks.append(Check("entry in the service log", ok,
                        f"entry {short(leaf.hex())} at index {proof.index} of "
                        f"{checkpoint.size} with {len(proof.path)} path hashes "
                        f"{'leads' if ok else 'does not lead'} to the checkpoint's root "
                        f"{short(checkpoint.root.hex())}"))
    return checks


def _cosignature_check(note: str, witnesses: Sequence[VerifierKey], quorum: int,
                       verify: SignatureCheck | None) -> Check:
    """A quorum of the named witnesses validly cosign the checkpoint, none fails."""
    if not witnesses:
        return Check("cosignatures", None, "NOT checked: no --witness key given")
    if verify is None:
        return Check("cosignatures", None, NOT_CHECKED)
    valid, failed = cosignature_verdicts(note, witnesses, verify)
    names = sorted({cosignature.witness.name for cosignature in valid})
    if failed:
        return Check("cosignatures", False, f"a cosignature by {', '.join(sorted(set(failed)))}"
                                            " does not verify")
    ok = len(names) >= quorum
    return Check("cosignatures", ok, f"valid cosignatures by {len(names)} named witnesses "
                                     f"({', '.join(names) or 'none'}) "
                                     f"{'≥' if ok else '<'} quorum {quorum}")


def _epoch_checks(epoch, verify: SignatureCheck | None) -> tuple[list[Check], Mapping | None]:
    """The epoch entry's format and own signature; its key printed to compare."""
    kind = epoch.get("type") if isinstance(epoch, Mapping) else None
    if kind not in EPOCH_TYPES:
        return [Check("epoch entry", False, f"{kind!r} is not an epoch entry type")], None
    problems = field_problems(epoch, ENTRY_FIELDS[kind], "the epoch entry")
    problems = problems or entry_value_problems(epoch)
    if problems:
        return [Check("epoch entry", False, "; ".join(problems))], None
    checks = [Check("epoch entry", True,
                    f"epoch {epoch['epoch']} from {epoch['start']} for {epoch['length']} days, "
                    f"key {epoch['public_key']}: compare it with the ledger's epoch entry "
                    "(or give --expect-key)")]
    if verify is None:
        checks.append(Check("epoch signature", None, NOT_CHECKED))
    else:
        ok = signature_valid(verify, epoch["public_key"], epoch)
        checks.append(Check("epoch signature", ok, f"sig {short(epoch['sig'])} "
                                                   f"{'is' if ok else 'is not'} a valid "
                                                   "signature by the key it publishes"))
    return checks, epoch


def _day_checkpoint_checks(entry: str, epoch: Mapping, receipt,
                           verify: SignatureCheck | None) -> tuple[list[Check], object]:
    """The entry is a day checkpoint of the receipt's (date, sheet) signed by the epoch key."""
    try:
        body, signatures = parse_note(entry)
        day = parse_checkpoint(body)
    except FairnessError as error:
        return [Check("day checkpoint", False, f"the entry is not a day checkpoint: "
                                               f"{error}")], None
    date = receipt.get("date") if isinstance(receipt, Mapping) else None
    sheet = receipt.get("ruleset") if isinstance(receipt, Mapping) else None
    wanted = day_log_origin(epoch["public_key"], str(date), str(sheet))
    ok = day.origin == wanted
    checks = [Check("day checkpoint", ok, f"origin {day.origin} "
                                          f"{'=' if ok else '≠'} {wanted}, size {day.size}, "
                                          f"time {day.time}")]
    if not ok:
        return checks, None
    public_key = bytes.fromhex(epoch["public_key"])
    wanted_id = key_id(day.origin, ED25519, public_key)
    mine = [s for s in signatures if s.name == day.origin and s.key_id == wanted_id]
    if verify is None:
        checks.append(Check("day checkpoint signature", None, NOT_CHECKED))
    elif not mine:
        checks.append(Check("day checkpoint signature", False,
                            f"no line of the epoch key {short(epoch['public_key'])}"))
    else:
        good = all(len(s.payload) == 64 and verify(epoch["public_key"], body.encode("utf-8"),
                                                   s.payload.hex()) for s in mine)
        checks.append(Check("day checkpoint signature", good,
                            f"the epoch key {short(epoch['public_key'])} "
                            f"{'signs' if good else 'does not sign'} the day checkpoint"))
    return checks, day


def _receipt_checks(receipt, epoch: Mapping,
                    verify: SignatureCheck | None) -> tuple[list[Check], Mapping | None]:
    """The receipt's format, its epoch and its signature by the epoch key."""
    problems = field_problems(receipt, RECEIPT_V2_FIELDS, "the receipt")
    if not problems and receipt["type"] != RECEIPT_V2_TYPE:
        problems.append(f"type {receipt['type']!r} ≠ {RECEIPT_V2_TYPE}")
    if not problems and receipt["ruleset"] not in RULESETS:
        problems.append(f"ruleset {receipt['ruleset']!r} is no known sheet")
    if not problems and receipt["epoch"] != epoch["epoch"]:
        problems.append(f"epoch {receipt['epoch']} ≠ the epoch entry's {epoch['epoch']}")
    if not problems and receipt["ruleset"] not in epoch["rulesets"]:
        problems.append(f"ruleset {receipt['ruleset']} is not one of the epoch's sheets")
    if problems:
        return [Check("receipt format", False, "; ".join(problems))], None
    checks = [Check("receipt format", True, "a v2 receipt with exactly its fields, well typed")]
    if verify is None:
        checks.append(Check("receipt signature", None, NOT_CHECKED))
    else:
        ok = signature_valid(verify, epoch["public_key"], receipt)
        checks.append(Check("receipt signature", ok,
                            f"sig {short(receipt['sig'])} {'is' if ok else 'is not'} a valid "
                            f"signature by epoch {epoch['epoch']}'s key "
                            f"{short(epoch['public_key'])} of the receipt's fields"))
    return checks, receipt


def _receipt_inclusion_check(receipt: Mapping, proof, day) -> Check:
    """The receipt's leaf is at its index in the day checkpoint's tree."""
    problems = field_problems(proof, {"index": int, "size": int, "path": list}, "the proof")
    if not problems and not all(is_hex(item, 64) for item in proof["path"]):
        problems.append("path items are not all 64 hex digits")
    if not problems and proof["index"] != receipt["index"]:
        problems.append(f"index {proof['index']} ≠ receipt index {receipt['index']}")
    if not problems and proof["size"] != day.size:
        problems.append(f"size {proof['size']} ≠ the day checkpoint's size {day.size}")
    if problems:
        return Check("receipt in the day checkpoint", False, "; ".join(problems))
    leaf = receipt_leaf_hash(receipt)
    path = [bytes.fromhex(item) for item in proof["path"]]
    ok = merkle.verify_inclusion(leaf, proof["index"], day.size, path, day.root)
    return Check("receipt in the day checkpoint", ok,
                 f"leaf {short(leaf.hex())} at index {proof['index']} of {day.size} "
                 f"{'leads' if ok else 'does not lead'} to the day checkpoint's root "
                 f"{short(day.root.hex())}")


def _transcript_hash_check(transcript, receipt: Mapping) -> Check:
    """The transcript's SHA-256 is the receipt's ``transcript_sha256``."""
    encoded = safe_canonical(transcript) if isinstance(transcript, list) else None
    if encoded is None:
        return Check("transcript hash", False, "the transcript has no canonical JSON")
    actual = sha256_hex(encoded)
    return Check("transcript hash", actual == receipt["transcript_sha256"],
                 f"SHA-256 of the transcript {compared(actual, receipt['transcript_sha256'])} "
                 "receipt transcript_sha256")


def _replay_checks(seed: str | None, epoch: Mapping, receipt: Mapping,
                   transcript) -> list[Check]:
    """With the date's seed: its place in the epoch's chain, every roll and box, the total."""
    if seed is None:
        return [Check("dice", None, "NOT checked: give the date's seed with --seed HEX "
                                    "(published in its reveal entry)")]
    if not is_hex(seed, 64):
        return [Check("seed", False, f"--seed {seed!r} is not 64 lowercase hex digits")]
    chain = Epoch(epoch["start"], epoch["length"], epoch["anchor"], epoch_dealing(epoch))
    try:
        day = chain.day_index(receipt["date"])
    except FairnessError as error:
        return [Check("seed", False, str(error))]
    ok = verify_seed(bytes.fromhex(seed), day, bytes.fromhex(epoch["anchor"]))
    checks = [Check("seed", ok, f"seed {short(seed)} hashed down {day} times "
                                f"{'gives' if ok else 'does not give'} the epoch's anchor "
                                f"{short(epoch['anchor'])}")]
    if not ok:
        return checks
    stream = DiceStream(seed, receipt["date"], receipt["ruleset"], epoch_dealing(epoch))
    replayed = replay_checks(transcript, stream, explain=True)
    checks += replayed.checks
    total = replayed.totals.total
    checks.append(Check("total", total == receipt["total"],
                        f"recomputed {total} {'=' if total == receipt['total'] else '≠'} "
                        f"receipt total {receipt['total']}"))
    return checks


def entry_of(note: str) -> str:
    """A day checkpoint's note as the service log enters it: the body and the first signature
    line (the epoch key's), without the witnesses' lines that follow."""
    body, _ = parse_note(note)
    first = note[len(body) + 1:].split("\n", 1)[0]
    return f"{body}\n{first}\n"
