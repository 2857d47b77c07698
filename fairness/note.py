"""C2SP signed notes (c2sp.org/signed-note): a text, a blank line, then signature lines.

A signature line is ``— <key name> <base64(4-byte key ID || signature)>``; a key ID is
``SHA-256(key name || 0x0A || signature type || public key)[:4]``. Verifier keys ("vkeys") are
written ``<name>+<key ID, 8 hex digits>+<base64(signature type || public key)>``. Signing and
Ed25519 verification happen outside the core: this module only says which bytes are which.
"""

import base64
import binascii
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import LedgerError

ED25519 = 0x01  # a log's own signature over the note text
COSIGNATURE_V1 = 0x04  # a witness's timestamped Ed25519 cosignature (c2sp.org/tlog-cosignature)
DASH = "\u2014"
MAX_SIGNATURES = 64
MAX_NOTE_BYTES = 65536
# How the shell hands Ed25519 to the core: (public key hex, message, signature hex) -> bool.
Verify = Callable[[str, bytes, str], bool]


@dataclass(frozen=True)
class NoteSignature:
    """One signature line: its key name, key ID and the bytes after the key ID."""

    name: str
    key_id: bytes
    payload: bytes

    def line(self) -> str:
        """The signature line, newline included."""
        encoded = base64.b64encode(self.key_id + self.payload).decode("ascii")
        return f"{DASH} {self.name} {encoded}\n"


@dataclass(frozen=True)
class VerifierKey:
    """A named public key of one signature type, as a C2SP vkey names it."""

    name: str
    kind: int
    public_key: bytes

    @property
    def key_id(self) -> bytes:
        """The 4-byte key ID of this key."""
        return key_id(self.name, self.kind, self.public_key)

    def text(self) -> str:
        """The vkey text: ``name+keyid+base64(type || key)``."""
        encoded = base64.b64encode(bytes([self.kind]) + self.public_key).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{encoded}"


def key_id(name: str, kind: int, public_key: bytes) -> bytes:
    """``SHA-256(name || 0x0A || kind || public_key)[:4]``."""
    check_key_name(name)
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public_key).digest()[:4]


def check_key_name(name: str) -> str:
    """``name`` if it is a valid key name (non-empty, no space, no ``+``), else LedgerError."""
    if not isinstance(name, str) or not name or any(c.isspace() or c == "+" for c in name):
        raise LedgerError(f"{name!r} is not a key name (non-empty, no spaces, no '+')")
    return name


def parse_vkey(text: str) -> VerifierKey:
    """Read a vkey ``name+keyid+base64(type || key)``, checking its key ID."""
    parts = text.split("+", 2) if isinstance(text, str) else []
    if len(parts) != 3:
        raise LedgerError(f"{text!r} is not a verifier key name+keyid+base64")
    name, hex_id, encoded = parts
    raw = strict_base64(encoded, f"the key of {name!r}")
    if len(raw) != 33:
        raise LedgerError(f"the key of {name!r} is not a type byte and 32 key bytes")
    key = VerifierKey(check_key_name(name), raw[0], raw[1:])
    if key.key_id.hex() != hex_id:
        raise LedgerError(f"the key ID {hex_id} of {name!r} is not {key.key_id.hex()}")
    return key


def strict_base64(text: str, what: str) -> bytes:
    """Standard base64 (RFC 4648 section 4, padded) decoded, or LedgerError."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, AttributeError):
        raise LedgerError(f"{what} is not standard base64") from None
    if base64.b64encode(raw).decode("ascii") != text:
        raise LedgerError(f"{what} is not canonical base64")
    return raw


def format_note(text: str, signatures: Sequence[NoteSignature]) -> str:
    """A signed note: the text (ending in a newline), a blank line, the signature lines."""
    if not text.endswith("\n"):
        raise LedgerError("a note's text ends with a newline")
    return text + "\n" + "".join(signature.line() for signature in signatures)


def parse_note(note: str) -> tuple[str, list[NoteSignature]]:
    """Split a signed note into its text and its signatures, or raise LedgerError."""
    if not isinstance(note, str):
        raise LedgerError("a note is a string")
    if len(note.encode("utf-8", "surrogatepass")) > MAX_NOTE_BYTES:
        raise LedgerError(f"a note is at most {MAX_NOTE_BYTES} bytes")
    if any(ord(c) < 0x20 and c != "\n" for c in note) or any(
            0xD800 <= ord(c) <= 0xDFFF for c in note):
        raise LedgerError("a note holds no control character but newline, and is valid UTF-8")
    split = note.rfind("\n\n")
    if split < 0 or not note.endswith("\n"):
        raise LedgerError("a note is text, a blank line and signature lines, each ending in a "
                          "newline")
    text, lines = note[:split + 1], note[split + 2:-1].split("\n")  # not splitlines: U+2028
    if not lines or len(lines) > MAX_SIGNATURES:
        raise LedgerError(f"a note has 1 to {MAX_SIGNATURES} signature lines")
    return text, [_signature(line) for line in lines]


def _signature(line: str) -> NoteSignature:
    """One signature line read."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH:
        raise LedgerError(f"{line!r} is not a signature line '— <name> <base64>'")
    raw = strict_base64(parts[2], f"the signature of {parts[1]!r}")
    if len(raw) < 5:
        raise LedgerError(f"the signature of {parts[1]!r} is shorter than a key ID and a byte")
    return NoteSignature(check_key_name(parts[1]), raw[:4], raw[4:])


def signature_verifies(verify: Verify, public_key: bytes, message: bytes,
                       signature: bytes) -> bool:
    """True when ``signature`` is a 64-byte Ed25519 signature of ``message`` by the raw
    ``public_key`` that ``verify`` accepts."""
    if len(signature) != 64:
        return False
    try:
        return bool(verify(public_key.hex(), message, signature.hex()))
    except (TypeError, ValueError):
        return False
