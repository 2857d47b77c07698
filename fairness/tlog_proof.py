"""C2SP tlog-proof@v1 (c2sp.org/tlog-proof): an offline proof that an entry is in the service
log, as seen by witnesses.

The text is, each line ending in a newline::

    c2sp.org/tlog-proof@v1
    extra <base64 of opaque, unauthenticated data>      (only when there is extra data)
    index <the entry's index, decimal, no leading zeros>
    <base64 hash>                                        (0 to 63 lines: the inclusion proof,
    …                                                     the leaf's sibling first)
    <empty line>
    <the checkpoint's signed note, verbatim>

Base64 is canonical standard base64 (RFC 4648 section 4, padded). A proof holds when the log
key signs the checkpoint, ``quorum`` distinct named witnesses validly cosign it (and no named
witness's line fails), and the inclusion proof leads from the entry's leaf hash at ``index``
to the checkpoint's root.
"""

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass

from . import merkle
from .errors import LedgerError
from .note import VerifierKey, Verify, parse_note, strict_base64
from .service_log import LogCheckpoint, cosignature_verdicts, open_log_checkpoint

HEADER = "c2sp.org/tlog-proof@v1"
MAX_PROOF_LINES = 63
_INDEX = re.compile(r"index (0|[1-9][0-9]{0,18})")


@dataclass(frozen=True)
class TlogProof:
    """An entry's index, its inclusion proof, the signed checkpoint note, and extra data."""

    index: int
    path: tuple[bytes, ...]
    checkpoint: str
    extra: bytes | None = None


def format_tlog_proof(proof: TlogProof) -> str:
    """The proof's text, as the module says."""
    if proof.extra is not None and not proof.extra:
        raise LedgerError("extra data, when present, is not empty")
    if len(proof.path) > MAX_PROOF_LINES or any(len(h) != 32 for h in proof.path):
        raise LedgerError(f"an inclusion proof is at most {MAX_PROOF_LINES} hashes of 32 bytes")
    if type(proof.index) is not int or not 0 <= proof.index < 2**63:
        raise LedgerError(f"the index {proof.index!r} is not 0..2^63−1")
    parse_note(proof.checkpoint)
    lines = [HEADER]
    if proof.extra is not None:
        lines.append(f"extra {_b64(proof.extra)}")
    lines.append(f"index {proof.index}")
    lines.extend(_b64(h) for h in proof.path)
    return "".join(line + "\n" for line in lines) + "\n" + proof.checkpoint


def parse_tlog_proof(text: str) -> TlogProof:
    """Read a proof strictly; LedgerError on any departure from the format."""
    if not isinstance(text, str):
        raise LedgerError("a tlog proof is text")
    header, sep, rest = text.partition("\n")
    if header != HEADER or not sep:
        raise LedgerError(f"a tlog proof begins with the line {HEADER}")
    line, rest = _line(rest)
    extra = None
    if line.startswith("extra "):
        extra = strict_base64(line[len("extra "):], "the extra data")
        if not extra:
            raise LedgerError("the extra line holds no data")
        line, rest = _line(rest)
    found = _INDEX.fullmatch(line)
    if found is None or int(found.group(1)) >= 2**63:
        raise LedgerError(f"line {line!r} is not 'index <decimal without leading zeros>'")
    path = []
    while True:
        line, rest = _line(rest)
        if not line:
            break
        if len(path) == MAX_PROOF_LINES:
            raise LedgerError(f"an inclusion proof has at most {MAX_PROOF_LINES} hashes")
        raw = strict_base64(line, f"proof hash {len(path)}")
        if len(raw) != 32:
            raise LedgerError(f"proof hash {len(path)} is not 32 bytes")
        path.append(raw)
    parse_note(rest)
    return TlogProof(int(found.group(1)), tuple(path), rest, extra)


def verify_tlog_proof(proof: TlogProof, entry: bytes, log_key: VerifierKey,
                      witness_keys: Sequence[VerifierKey], quorum: int,
                      verify: Verify) -> LogCheckpoint:
    """The checkpoint a proof of ``entry`` holds against, or LedgerError saying what fails."""
    if not 0 <= quorum <= len({key.name for key in witness_keys}):
        raise LedgerError(f"a quorum of {quorum} is not 0..the number of named witnesses")
    checkpoint = open_log_checkpoint(proof.checkpoint, log_key, verify)
    valid, failed = cosignature_verdicts(proof.checkpoint, witness_keys, verify)
    if failed:
        raise LedgerError(f"a cosignature by {', '.join(sorted(set(failed)))} does not verify")
    names = {cosignature.witness.name for cosignature in valid}
    if len(names) < quorum:
        raise LedgerError(f"the checkpoint has valid cosignatures by {len(names)} named "
                          f"witnesses ({', '.join(sorted(names)) or 'none'}), fewer than "
                          f"{quorum}")
    if not merkle.verify_inclusion(merkle.leaf_hash(entry), proof.index, checkpoint.size,
                                   proof.path, checkpoint.root):
        raise LedgerError(f"the inclusion proof of the entry at index {proof.index} does not "
                          f"lead to the root of the checkpoint of size {checkpoint.size}")
    return checkpoint


def _line(rest: str) -> tuple[str, str]:
    """The next newline-terminated line and what follows it; LedgerError if there is none."""
    line, sep, after = rest.partition("\n")
    if not sep:
        raise LedgerError("the tlog proof ends before its checkpoint")
    return line, after


def _b64(raw: bytes) -> str:
    """Standard padded base64 text."""
    return base64.b64encode(raw).decode("ascii")
