"""Checkpoints of a (date, sheet)'s log of finished games: C2SP tlog-checkpoint bodies in
C2SP signed notes, and C2SP tlog-cosignature messages for witnesses.

A checkpoint body is these newline-terminated lines, in this order::

    yacht-daily/log/<first 16 hex digits of the epoch key>/<date>/<sheet>
    <tree size, decimal>
    <root hash, base64>
    time <YYYY-MM-DDTHH:MM:SSZ>
    prev <base64 SHA-256 of the previous checkpoint's body; 32 zero bytes for the first>
    close <games of the day> <base64 root of their final transcripts>   (the last one only)

The log signs it as a signed note under the key name = the origin line (Ed25519, type 0x01).
"""

import base64
import hashlib
import re
import struct
from dataclasses import dataclass

from .dates import parse_date
from .errors import FairnessError, LedgerError
from .note import (
    COSIGNATURE_V1,
    NoteSignature,
    VerifierKey,
    Verify,
    signature_verifies,
    strict_base64,
)

ORIGIN_PREFIX = "yacht-daily/log"
NO_PREVIOUS = bytes(32)
COSIGNATURE_HEADER = "cosignature/v1"
MAX_SIZE = 2**53 - 1
_DECIMAL = re.compile(r"0|[1-9][0-9]{0,15}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_SHEET = re.compile(r"[a-z]+(-[a-z]+)*")


@dataclass(frozen=True)
class Close:
    """What only the close checkpoint says: every game of the day and their final transcripts."""

    games: int
    transcripts_root: bytes


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint of a (date, sheet)'s log."""

    origin: str
    size: int
    root: bytes
    time: str
    prev: bytes
    close: Close | None = None

    def body(self) -> str:
        """The checkpoint's note text, byte for byte."""
        lines = [self.origin, str(self.size), _b64(self.root), f"time {self.time}",
                 f"prev {_b64(self.prev)}"]
        if self.close is not None:
            lines.append(f"close {self.close.games} {_b64(self.close.transcripts_root)}")
        return "".join(line + "\n" for line in lines)


def origin(public_key_hex: str, date: str, ruleset: str) -> str:
    """The origin line (and log key name) of one (date, sheet)'s log under an epoch's key."""
    return f"{ORIGIN_PREFIX}/{public_key_hex[:16]}/{date}/{ruleset}"


def body_hash(body: str) -> bytes:
    """SHA-256 of a checkpoint body's UTF-8 bytes: the next checkpoint's ``prev``."""
    return hashlib.sha256(body.encode("utf-8")).digest()


def parse_checkpoint(body: str) -> Checkpoint:
    """Read a checkpoint body, strictly (every line exactly as the format says)."""
    if not isinstance(body, str) or not body.endswith("\n"):
        raise LedgerError("a checkpoint body is lines, each ending in a newline")
    lines = body[:-1].split("\n")
    if len(lines) not in (5, 6):
        raise LedgerError(f"a checkpoint has 5 lines (6 when it closes), not {len(lines)}")
    name, size, root, time, prev = lines[:5]
    _check_origin(name)
    checkpoint = Checkpoint(
        origin=name,
        size=_decimal(size, "the tree size"),
        root=_hash(root, "the root"),
        time=_time(_after(time, "time"), "the time"),
        prev=_hash(_after(prev, "prev"), "prev"),
        close=_close(lines[5]) if len(lines) == 6 else None,
    )
    if checkpoint.body() != body:
        raise LedgerError("the checkpoint is not written exactly as its fields give it")
    return checkpoint


def cosigned_message(body: str, timestamp: int) -> bytes:
    """The bytes a witness's Ed25519 cosignature covers (c2sp.org/tlog-cosignature)."""
    return f"{COSIGNATURE_HEADER}\ntime {timestamp}\n{body}".encode()


def cosignature_payload(timestamp: int, signature: bytes) -> bytes:
    """A cosignature line's bytes after the key ID: the u64 big-endian time, the signature."""
    return struct.pack(">Q", timestamp) + signature


def read_cosignature(payload: bytes) -> tuple[int, bytes]:
    """(timestamp, 64-byte signature) of a cosignature line's payload, or LedgerError."""
    if len(payload) != 72:
        raise LedgerError(f"a cosignature is an 8-byte time and a 64-byte signature, not "
                          f"{len(payload)} bytes")
    timestamp = struct.unpack(">Q", payload[:8])[0]
    if timestamp >= 2**63:
        raise LedgerError("a cosignature's time is below 2^63")
    return timestamp, payload[8:]


def cosignature_time(witness: VerifierKey, body: str, signature: NoteSignature,
                     verify: Verify) -> int | None:
    """The time ``signature`` states when it is ``witness``'s valid cosignature/v1 of the
    checkpoint ``body`` (same name and key ID, a timestamped Ed25519 signature of the cosigned
    message); None otherwise."""
    if (witness.kind != COSIGNATURE_V1 or signature.name != witness.name
            or signature.key_id != witness.key_id):
        return None
    try:
        timestamp, raw = read_cosignature(signature.payload)
    except LedgerError:
        return None
    valid = signature_verifies(verify, witness.public_key, cosigned_message(body, timestamp), raw)
    return timestamp if valid else None


def _b64(raw: bytes) -> str:
    """Standard padded base64 text."""
    return base64.b64encode(raw).decode("ascii")


def _check_origin(name: str) -> None:
    """The origin line names this protocol's log of a (date, sheet) under a key."""
    parts = name.split("/")
    ok = (len(parts) == 5 and "/".join(parts[:2]) == ORIGIN_PREFIX
          and re.fullmatch(r"[0-9a-f]{16}", parts[2]) is not None
          and _SHEET.fullmatch(parts[4]) is not None)
    if ok:
        try:
            parse_date(parts[3])
        except FairnessError:
            ok = False
    if not ok:
        raise LedgerError(f"origin {name!r} is not {ORIGIN_PREFIX}/<16 hex>/<date>/<sheet>")


def _decimal(text: str, what: str) -> int:
    """A decimal without leading zeros, at most 2^53 − 1."""
    if not _DECIMAL.fullmatch(text) or int(text) > MAX_SIZE:
        raise LedgerError(f"{what} {text!r} is not a decimal 0..2^53−1 without leading zeros")
    return int(text)


def _hash(text: str, what: str) -> bytes:
    """A base64 SHA-256 hash."""
    raw = strict_base64(text, what)
    if len(raw) != 32:
        raise LedgerError(f"{what} is not 32 bytes")
    return raw


def _after(line: str, keyword: str) -> str:
    """The rest of a line ``<keyword> <value>``."""
    if not line.startswith(keyword + " "):
        raise LedgerError(f"line {line!r} is not '{keyword} …'")
    return line[len(keyword) + 1:]


def _time(text: str, what: str) -> str:
    """A UTC time ``YYYY-MM-DDTHH:MM:SSZ`` of a real date."""
    if not _TIME.fullmatch(text):
        raise LedgerError(f"{what} {text!r} is not YYYY-MM-DDTHH:MM:SSZ")
    try:
        parse_date(text[:10])
    except FairnessError:
        raise LedgerError(f"{what} {text!r} is not a real date") from None
    hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    if hour > 23 or minute > 59 or second > 59:
        raise LedgerError(f"{what} {text!r} is not a real time of day")
    return text


def _close(line: str) -> Close:
    """The close line ``close <games> <base64 root>``."""
    parts = _after(line, "close").split(" ")
    if len(parts) != 2:
        raise LedgerError(f"line {line!r} is not 'close <games> <base64 root>'")
    return Close(_decimal(parts[0], "the close's game count"),
                 _hash(parts[1], "the final transcripts' root"))
