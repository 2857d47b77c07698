"""The service log: one long-lived C2SP tiled log whose entries are the day logs' signed
checkpoints, signed by a long-lived Ed25519 log key and cosigned by standard witnesses.

Its checkpoint body is exactly the three lines of C2SP tlog-checkpoint, each ending in a
newline: the origin (the log's URL prefix without its scheme, e.g. ``yacht.example/log``), the
tree size in decimal without leading zeros, the root as canonical base64. Extension lines are
**rejected**: this log never writes them, so a body is fixed by (origin, size, root) and two
bodies of one size differ only by their roots. The log signs the body as a signed note under
key name = the origin (type 0x01, key ID as ``note.key_id``).

Signature checks take ``verify(public key hex, message, signature hex) -> bool``, the shape of
``fairness.audit``'s signature hook: the core holds no crypto library.

Misbehaviour: two notes validly signed by the log key are proof of a fork when they have one
size and two roots, or sizes ``m < n`` and a consistency proof that leads to the larger one's
root (so its hashes are that tree's true subtrees) but whose first-``m``-leaves root is not
the smaller one's. The proof given is RFC 9162's SUBPROOF(m, D[n], false): the consistency
proof, with the hash of leaves ``0 … m`` in front when ``m`` is a power of two (an honest
log's proof omits it there, it being the old root).
"""

import base64
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from . import merkle
from .checkpoint import MAX_SIZE, cosignature_time
from .errors import LedgerError
from .log_tree import consistency_ranges
from .note import (
    COSIGNATURE_V1,
    ED25519,
    VerifierKey,
    Verify,
    check_key_name,
    key_id,
    parse_note,
    signature_verifies,
    strict_base64,
)

FORK_TYPE = "yacht-daily/service-log-fork/v1"
MAX_PROOF_HASHES = 64
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,15}")


@dataclass(frozen=True)
class LogCheckpoint:
    """A checkpoint of the service log."""

    origin: str
    size: int
    root: bytes

    def body(self) -> str:
        """The note text: origin, size, base64 root, each ending in a newline."""
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode('ascii')}\n"


@dataclass(frozen=True)
class WitnessCosignature:
    """A valid cosignature/v1 by a named witness, and the time it states."""

    witness: VerifierKey
    timestamp: int


@dataclass(frozen=True)
class Verdict:
    """Whether two signed checkpoints prove the log misbehaved, and why (or why not)."""

    proven: bool
    reason: str

    def __str__(self) -> str:
        """``PROVEN: …`` or ``NOT PROVEN: …``."""
        return f"{'PROVEN' if self.proven else 'NOT PROVEN'}: {self.reason}"


def parse_log_checkpoint(body: str) -> LogCheckpoint:
    """Read a body strictly: exactly three lines as ``LogCheckpoint.body`` writes them."""
    if not isinstance(body, str) or not body.endswith("\n"):
        raise LedgerError("a checkpoint body is lines, each ending in a newline")
    lines = body[:-1].split("\n")
    if len(lines) != 3:
        raise LedgerError(f"a service log checkpoint has 3 lines (no extension lines), not "
                          f"{len(lines)}")
    origin, size, root = lines
    check_key_name(origin)
    if not _DECIMAL.fullmatch(size) or int(size) > MAX_SIZE:
        raise LedgerError(f"the tree size {size!r} is not a decimal 0..2^53−1 without "
                          "leading zeros")
    raw_root = strict_base64(root, "the root")
    if len(raw_root) != 32:
        raise LedgerError("the root is not 32 bytes")
    return LogCheckpoint(origin, int(size), raw_root)


def log_key_id(origin: str, public_key: bytes) -> bytes:
    """The log key's 4-byte key ID: ``SHA-256(origin || 0x0A || 0x01 || key)[:4]``."""
    return key_id(origin, ED25519, public_key)


def log_verifier_key(origin: str, public_key: bytes) -> VerifierKey:
    """The log key as a verifier key (name = the origin, Ed25519)."""
    if len(public_key) != 32:
        raise LedgerError("an Ed25519 public key is 32 bytes")
    return VerifierKey(check_key_name(origin), ED25519, bytes(public_key))


def log_vkey(origin: str, public_key: bytes) -> str:
    """The log key in C2SP vkey form ``<origin>+<key ID hex>+<base64(0x01 || key)>``."""
    return log_verifier_key(origin, public_key).text()


def open_log_checkpoint(note: str, log_key: VerifierKey, verify: Verify) -> LogCheckpoint:
    """The checkpoint of a signed note that the log key validly signs, or LedgerError: the
    key is Ed25519 and named as the origin, the note has at least one line of that name and
    key ID, and every such line verifies (lines of other keys are ignored)."""
    if log_key.kind != ED25519:
        raise LedgerError(f"the log key {log_key.name} is not an Ed25519 (0x01) key")
    text, signatures = parse_note(note)
    checkpoint = parse_log_checkpoint(text)
    if checkpoint.origin != log_key.name:
        raise LedgerError(f"the checkpoint's origin {checkpoint.origin!r} is not the log "
                          f"key's name {log_key.name!r}")
    mine = [s for s in signatures if s.name == log_key.name and s.key_id == log_key.key_id]
    if not mine:
        raise LedgerError(f"no signature by the log key {log_key.name} "
                          f"({log_key.key_id.hex()})")
    if not all(signature_verifies(verify, log_key.public_key, text.encode("utf-8"), s.payload)
               for s in mine):
        raise LedgerError(f"a signature by the log key {log_key.name} does not verify")
    return checkpoint


def cosignatures(note: str, witness_keys: Sequence[VerifierKey],
                 verify: Verify) -> list[WitnessCosignature]:
    """The valid cosignature/v1 lines of the note by the named witnesses (name and key ID
    both match; other lines, and lines that do not verify, are left out)."""
    return cosignature_verdicts(note, witness_keys, verify)[0]


def misbehaviour(old_note: str, new_note: str, proof: Sequence[bytes],
                 log_key: VerifierKey, verify: Verify) -> Verdict:
    """Whether two signed notes (in either order: the smaller is taken as the old one) and
    SUBPROOF(m, D[n], false) in the larger tree prove that the log forked."""
    try:
        old = open_log_checkpoint(old_note, log_key, verify)
        new = open_log_checkpoint(new_note, log_key, verify)
    except LedgerError as error:
        return Verdict(False, f"a note is not a checkpoint validly signed by the log: {error}")
    if old.size > new.size:
        old, new = new, old
    m, n = old.size, new.size
    if m == n:
        if old.root != new.root:
            return Verdict(True, f"two signed checkpoints of size {n} have different roots")
        return Verdict(False, f"both checkpoints are the same tree of {n} leaves")
    if m == 0:
        if old.root != merkle.root([]):
            return Verdict(True, "a signed checkpoint of size 0 has a root other than the "
                                 "empty tree's")
        return Verdict(False, "the empty tree is a prefix of every tree")
    prefix_root, full_root = subproof_roots(m, n, proof)
    if full_root is None or full_root != new.root:
        return Verdict(False, f"the proof does not lead to the root of the tree of {n} leaves, "
                              "so it says nothing about that tree")
    if prefix_root == old.root:
        return Verdict(False, f"the tree of {m} leaves is a prefix of the tree of {n}")
    return Verdict(True, f"the signed tree of {n} leaves begins with a tree of {m} leaves "
                         f"whose root is not the signed root of size {m}")


def fork_proof_ranges(old_size: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges of SUBPROOF(m, D[n], false), the proof a fork file carries: the
    consistency proof's, with leaves ``0 … m`` in front when ``m`` is a power of two (for
    ``log_tree.ProofNodes.hashes`` or ``TileReader.hashes``)."""
    ranges = consistency_ranges(old_size, size)
    if 0 < old_size < size and old_size & (old_size - 1) == 0:
        ranges.insert(0, (0, old_size))
    return ranges


def subproof_roots(m: int, n: int,
                   proof: Sequence[bytes]) -> tuple[bytes | None, bytes | None]:
    """(root of the first ``m`` leaves, root of all ``n``) that SUBPROOF(m, D[n], false)
    leads to (RFC 9162 section 2.1.4.2 with the first hash in place of the old root);
    (None, None) when the proof is ill-shaped for 0 < m < n."""
    if not 0 < m < n or len(proof) > MAX_PROOF_HASHES:
        return None, None
    return merkle.consistency_roots(m, n, proof) or (None, None)


def format_fork(old_note: str, new_note: str, proof: Sequence[bytes]) -> str:
    """The fork file: JSON ``{"type", "old", "new", "proof"}`` (proof hashes as base64),
    keys sorted, no whitespace, ending in a newline."""
    document = {"type": FORK_TYPE, "old": old_note, "new": new_note,
                "proof": [base64.b64encode(h).decode("ascii") for h in proof]}
    return json.dumps(document, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False) + "\n"


def parse_fork(text: str) -> tuple[str, str, list[bytes]]:
    """(old note, new note, proof) of a fork file, or LedgerError."""
    try:
        document = json.loads(text)
    except (TypeError, ValueError):
        raise LedgerError("the fork file is not JSON") from None
    if not (isinstance(document, dict) and sorted(document) == ["new", "old", "proof", "type"]
            and document["type"] == FORK_TYPE and isinstance(document["old"], str)
            and isinstance(document["new"], str) and isinstance(document["proof"], list)
            and len(document["proof"]) <= MAX_PROOF_HASHES
            and all(isinstance(h, str) for h in document["proof"])):
        raise LedgerError(f"the fork file is not {{type: {FORK_TYPE}, old, new, proof}}")
    proof = [strict_base64(h, "a proof hash") for h in document["proof"]]
    if any(len(h) != 32 for h in proof):
        raise LedgerError("a proof hash is not 32 bytes")
    return document["old"], document["new"], proof


def cosignature_verdicts(note: str, witness_keys: Sequence[VerifierKey],
                         verify: Verify) -> tuple[list[WitnessCosignature], list[str]]:
    """(valid cosignatures, names of named witnesses with a line that fails) of a note."""
    for witness in witness_keys:
        if witness.kind != COSIGNATURE_V1:
            raise LedgerError(f"the witness key {witness.name} is not a cosignature/v1 "
                              "(0x04) key")
    text, signatures = parse_note(note)
    valid, failed = [], []
    for signature in signatures:
        for witness in dict.fromkeys(witness_keys):
            if signature.name != witness.name or signature.key_id != witness.key_id:
                continue
            timestamp = cosignature_time(witness, text, signature, verify)
            if timestamp is None:
                failed.append(witness.name)
            else:
                valid.append(WitnessCosignature(witness, timestamp))
    return valid, failed
