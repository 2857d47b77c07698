"""A witness's own Ed25519 key: created on first use (a PKCS#8 PEM file only its owner reads),
named, written as a C2SP vkey, and signing tlog-cosignature/v1 lines (FAIRNESS.md, "Witnesses
and cosignatures")."""

import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.ledger.signing import new_private_key_pem
from fairness.checkpoint import cosignature_payload, cosigned_message
from fairness.note import COSIGNATURE_V1, NoteSignature, VerifierKey, check_key_name


@dataclass(frozen=True)
class WitnessKey:
    """A witness's name and private key."""

    name: str
    private_key: Ed25519PrivateKey

    @property
    def verifier_key(self) -> VerifierKey:
        """The public half, as the log's operator and the verifiers name it."""
        raw = self.private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                         serialization.PublicFormat.Raw)
        return VerifierKey(self.name, COSIGNATURE_V1, raw)

    @property
    def vkey(self) -> str:
        """The vkey text ``name+keyid+base64(0x04 || key)``."""
        return self.verifier_key.text()

    def cosign(self, body: str, timestamp: int) -> str:
        """The cosignature line (newline included) of a checkpoint body at POSIX ``timestamp``."""
        return self.cosignature(body, timestamp).line()

    def cosignature(self, body: str, timestamp: int) -> NoteSignature:
        """The cosignature/v1 of a checkpoint body (its note text) at POSIX ``timestamp``."""
        signature = self.private_key.sign(cosigned_message(body, timestamp))
        return NoteSignature(self.name, self.verifier_key.key_id,
                             cosignature_payload(timestamp, signature))


def default_name(private_key: Ed25519PrivateKey) -> str:
    """A name for a witness nobody named: ``yacht-daily-witness/<first 8 hex of its key>``."""
    raw = private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                serialization.PublicFormat.Raw)
    return f"yacht-daily-witness/{raw.hex()[:8]}"


def load_or_create(path: Path) -> tuple[Ed25519PrivateKey, bool]:
    """The private key in ``path``, created there (mode 0600) if the file does not exist;
    and whether it was just created. A file that is not an Ed25519 PEM key is a ValueError."""
    created = False
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(new_private_key_pem())
            handle.flush()
            os.fsync(handle.fileno())
        created = True
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key, created


def witness_key(private_key: Ed25519PrivateKey, name: str) -> WitnessKey:
    """The named witness key; a name with a space or ``+`` is a LedgerError."""
    return WitnessKey(check_key_name(name), private_key)
