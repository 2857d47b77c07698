"""The witness side of C2SP tlog-witness (c2sp.org/tlog-witness): the ``add-checkpoint`` request
and answer bodies, and the decision a witness makes on one request.

A request body is ``old <size>\\n``, zero to 63 consistency proof lines (canonical base64 of 32
bytes each), an empty line, then a C2SP checkpoint as a signed note: origin, tree size, root
hash, optional extension lines (kept in the signed body, never interpreted), a blank line and
signature lines. A conflict (409) answers ``<size>\\n`` as ``text/x.tlog.size``; a success (200)
answers one or more note signature lines, the witness's cosignatures.

``decide`` follows the spec's checks in its order: a malformed request is 400; an origin the
witness does not trust is 404; a note with no valid signature by a trusted key (or a failed one
by a trusted key, c2sp.org/signed-note) is 403; an old size above the checkpoint's is 400; an
old size other than the last cosigned one (0 when none) is 409 with that size; the same size
with another root is 409; a consistency proof that does not verify (RFC 6962/9162) is 422;
otherwise the witness cosigns. The core holds no crypto library: Ed25519 verification is the
caller's ``verify(public key hex, message, signature hex) -> bool`` (``note.Verify``).
"""

import base64
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import LedgerError
from .merkle import root as merkle_root
from .merkle import verify_consistency
from .note import (
    ED25519,
    MAX_NOTE_BYTES,
    NoteSignature,
    VerifierKey,
    Verify,
    parse_note,
    signature_verifies,
    strict_base64,
)

SIZE_CONTENT_TYPE = "text/x.tlog.size"
MAX_PROOF_LINES = 63
MAX_TREE_SIZE = 2**63 - 1
HASH_BYTES = 32
_BASE64_HASH_CHARS = 44
# The largest body a conforming client sends: the old size line, 63 proof lines, the empty
# line and the largest note this core reads.
MAX_REQUEST_BYTES = (len(f"old {MAX_TREE_SIZE}\n") + MAX_PROOF_LINES * (_BASE64_HASH_CHARS + 1)
                     + 1 + MAX_NOTE_BYTES)
_DECIMAL = re.compile(r"0|[1-9][0-9]*")



class WitnessProtocolError(LedgerError):
    """A request or answer body that is not written as c2sp.org/tlog-witness says."""

    code = "witness-protocol"


@dataclass(frozen=True)
class AddCheckpoint:
    """One add-checkpoint request: the old size, the consistency proof, the signed note."""

    old_size: int
    proof: list[bytes]
    checkpoint: str


@dataclass(frozen=True)
class StandardCheckpoint:
    """A C2SP checkpoint's note text: origin, size, root and opaque extension lines."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def body(self) -> str:
        """The note text, byte for byte (each line newline-terminated)."""
        lines = [self.origin, str(self.size), _b64(self.root), *self.extensions]
        return "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class SignedCheckpoint:
    """A checkpoint note read: its text, the checkpoint it states, its signature lines."""

    text: str
    checkpoint: StandardCheckpoint
    signatures: list[NoteSignature]


COSIGN = "cosign"
MALFORMED = "malformed"
UNKNOWN_ORIGIN = "unknown-origin"
FORBIDDEN = "forbidden"
OLD_SIZE_TOO_LARGE = "old-size-too-large"
STALE_OLD_SIZE = "stale-old-size"
FORK = "fork"
BAD_PROOF = "bad-proof"
_STATUS = {COSIGN: 200, MALFORMED: 400, UNKNOWN_ORIGIN: 404, FORBIDDEN: 403,
           OLD_SIZE_TOO_LARGE: 400, STALE_OLD_SIZE: 409, FORK: 409, BAD_PROOF: 422}
# Outcomes by a trusted origin whose note carries the log's valid signature: worth keeping as
# evidence (a fork is proven by the log's two signed roots; a bad proof may be a client's bug).
EVIDENCE = (FORK, BAD_PROOF)


@dataclass(frozen=True)
class Decision:
    """What the witness answers one request: ``outcome`` (one of the names above), its HTTP
    ``status``, a human ``reason``; the checkpoint once read; the size of the last cosigned
    checkpoint for a stale old size (the 409 body)."""

    outcome: str
    reason: str
    checkpoint: SignedCheckpoint | None = None
    known_size: int | None = None

    @property
    def status(self) -> int:
        """The HTTP status code the spec gives this outcome."""
        return _STATUS[self.outcome]

    @property
    def is_evidence(self) -> bool:
        """True when the request is worth keeping as evidence of the log's behaviour."""
        return self.outcome in EVIDENCE


def format_add_checkpoint(request: AddCheckpoint) -> bytes:
    """The request body of ``request``, checked as ``parse_add_checkpoint`` reads it."""
    lines = [f"old {request.old_size}\n", *(_b64(hash_) + "\n" for hash_ in request.proof), "\n"]
    body = ("".join(lines) + request.checkpoint).encode("utf-8")
    parse_add_checkpoint(body)
    return body


def parse_add_checkpoint(body: bytes) -> AddCheckpoint:
    """Read a request body strictly, its note read as a checkpoint too; WitnessProtocolError
    says what is wrong."""
    if len(body) > MAX_REQUEST_BYTES:
        raise WitnessProtocolError(f"a request body is at most {MAX_REQUEST_BYTES} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise WitnessProtocolError("a request body is UTF-8") from None
    first, separator, rest = text.partition("\n")
    if not separator or not first.startswith("old "):
        raise WitnessProtocolError("a request body starts with the line 'old <size>'")
    old_size = _decimal(first[len("old "):], "the old size")
    proof = []
    while True:
        line, separator, rest = rest.partition("\n")
        if not separator:
            raise WitnessProtocolError("the proof lines end with an empty line before the "
                                       "checkpoint")
        if line == "":
            break
        if len(proof) == MAX_PROOF_LINES:
            raise WitnessProtocolError(f"a request has at most {MAX_PROOF_LINES} proof lines")
        proof.append(_hash(line, f"proof line {len(proof) + 1}"))
    request = AddCheckpoint(old_size, proof, rest)
    read_signed_checkpoint(rest)
    return request


def read_signed_checkpoint(note: str) -> SignedCheckpoint:
    """Read a checkpoint note: a signed note whose text is a C2SP checkpoint."""
    try:
        text, signatures = parse_note(note)
    except LedgerError as error:
        raise WitnessProtocolError(f"the checkpoint is not a signed note: {error}") from None
    return SignedCheckpoint(text, parse_standard_checkpoint(text), signatures)


def parse_standard_checkpoint(text: str) -> StandardCheckpoint:
    """Read a checkpoint's note text (c2sp.org/tlog-checkpoint): at least three non-empty lines."""
    if not text.endswith("\n"):
        raise WitnessProtocolError("a checkpoint's lines each end in a newline")
    lines = text[:-1].split("\n")  # not splitlines: U+2028 and friends are ordinary characters
    if len(lines) < 3 or any(line == "" for line in lines):
        raise WitnessProtocolError("a checkpoint is at least three lines (origin, size, root "
                                   "hash), none empty")
    checkpoint = StandardCheckpoint(lines[0], _decimal(lines[1], "the tree size"),
                                    _hash(lines[2], "the root hash"), tuple(lines[3:]))
    if checkpoint.body() != text:
        raise WitnessProtocolError("the checkpoint is not written exactly as its fields give it")
    return checkpoint


def format_size(size: int) -> bytes:
    """The 409 body: the size of the last cosigned checkpoint in decimal and a newline."""
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_TREE_SIZE:
        raise WitnessProtocolError(f"{size!r} is not a tree size")
    return f"{size}\n".encode("ascii")


def parse_size(body: bytes) -> int:
    """Read a 409 body ``<size>\\n``."""
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise WitnessProtocolError("a size body is ASCII") from None
    if not text.endswith("\n"):
        raise WitnessProtocolError("a size body ends with a newline")
    return _decimal(text[:-1], "the size")


def format_cosignature_lines(signatures: Sequence[NoteSignature]) -> str:
    """The 200 body: one or more note signature lines, each ending in a newline."""
    if not signatures:
        raise WitnessProtocolError("a witness answers at least one cosignature")
    return "".join(signature.line() for signature in signatures)


def parse_cosignature_lines(text: str) -> list[NoteSignature]:
    """Read a 200 body: exactly the signature lines of a note (the client may append them to
    the checkpoint it sent)."""
    if not isinstance(text, str) or not text or text.startswith("\n") or "\n\n" in text:
        raise WitnessProtocolError("a cosignature answer is one or more signature lines")
    try:
        return parse_note("-\n\n" + text)[1]  # any one-line text: only its signatures are read
    except LedgerError as error:
        raise WitnessProtocolError(f"not a cosignature answer: {error}") from None


def decide(request: AddCheckpoint, trusted_keys: Mapping[str, Sequence[VerifierKey]],
           last: tuple[int, bytes] | None, verify: Verify) -> Decision:
    """The witness's answer to ``request``, given the log keys it trusts by origin and the
    (size, root) it last cosigned for the checkpoint's origin (None when it never did).

    Pure: the caller persists the new (size, root) before answering a COSIGN, and holds one
    lock across reading ``last``, this decision and that write.
    """
    try:
        signed = read_signed_checkpoint(request.checkpoint)
        _check_request(request)
    except WitnessProtocolError as error:
        return Decision(MALFORMED, str(error))
    checkpoint = signed.checkpoint
    keys = [key for key in trusted_keys.get(checkpoint.origin, ()) if key.kind == ED25519]
    if not keys:
        return Decision(UNKNOWN_ORIGIN, f"this witness knows no log {checkpoint.origin!r}",
                        signed)
    forbidden = _signature_problem(signed, keys, verify)
    if forbidden:
        return Decision(FORBIDDEN, forbidden, signed)
    if request.old_size > checkpoint.size:
        return Decision(OLD_SIZE_TOO_LARGE, f"the old size {request.old_size} is larger than "
                                            f"the checkpoint's {checkpoint.size}", signed)
    known_size, known_root = last if last is not None else (0, merkle_root([]))
    if request.old_size != known_size:
        return Decision(STALE_OLD_SIZE, f"the last cosigned checkpoint of {checkpoint.origin} "
                                        f"has size {known_size}", signed, known_size)
    if last is not None and checkpoint.size == known_size and checkpoint.root != known_root:
        return Decision(FORK, f"size {known_size} was cosigned with another root hash", signed)
    # From nothing cosigned, the old tree is the empty one: the proof must be empty (and a
    # checkpoint of size 0 must have the empty tree's root).
    if not verify_consistency(known_size, checkpoint.size, known_root, checkpoint.root,
                              request.proof):
        return Decision(BAD_PROOF, f"the consistency proof from size {known_size} to "
                                   f"{checkpoint.size} does not verify", signed)
    return Decision(COSIGN, f"size {checkpoint.size} is consistent with size {known_size}",
                    signed)


def _check_request(request: AddCheckpoint) -> None:
    """The request's own fields are in range (a request built in code, not parsed)."""
    if not isinstance(request.old_size, int) or not 0 <= request.old_size <= MAX_TREE_SIZE:
        raise WitnessProtocolError(f"the old size {request.old_size!r} is not a tree size")
    if len(request.proof) > MAX_PROOF_LINES or any(
            not isinstance(hash_, bytes) or len(hash_) != HASH_BYTES for hash_ in request.proof):
        raise WitnessProtocolError(f"a proof is at most {MAX_PROOF_LINES} hashes of "
                                   f"{HASH_BYTES} bytes")


def _signature_problem(signed: SignedCheckpoint, keys: Sequence[VerifierKey],
                       verify: Verify) -> str | None:
    """Why the note is not signed by the log (None when it is): no signature line by a trusted
    key verifies, or one by a trusted key fails. Lines by unknown keys are ignored."""
    message = signed.text.encode("utf-8")
    verified = 0
    for signature in signed.signatures:
        for key in keys:
            if signature.name != key.name or signature.key_id != key.key_id:
                continue
            if not signature_verifies(verify, key.public_key, message, signature.payload):
                return f"the signature by {key.name} (key ID {key.key_id.hex()}) does not verify"
            verified += 1
    if not verified:
        return f"no signature by a key this witness trusts for {signed.checkpoint.origin}"
    return None


def _decimal(text: str, what: str) -> int:
    """A decimal without leading zeros, at most 2^63 − 1."""
    if not _DECIMAL.fullmatch(text) or len(text) > 19 or int(text) > MAX_TREE_SIZE:
        raise WitnessProtocolError(f"{what} {text!r} is not a decimal 0..2^63−1 without "
                                   f"leading zeros")
    return int(text)


def _hash(text: str, what: str) -> bytes:
    """A canonical base64 32-byte hash."""
    try:
        raw = strict_base64(text, what)
    except LedgerError as error:
        raise WitnessProtocolError(str(error)) from None
    if len(raw) != HASH_BYTES:
        raise WitnessProtocolError(f"{what} is not {HASH_BYTES} bytes")
    return raw


def _b64(raw: bytes) -> str:
    """Standard padded base64 text."""
    return base64.b64encode(raw).decode("ascii")
