"""Helpers of the service log's tests: a real Ed25519 log key and witnesses (``cryptography``),
signed and cosigned notes, and the ``verify`` hook the core takes."""

import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from fairness.checkpoint import cosignature_payload, cosigned_message
from fairness.note import COSIGNATURE_V1, NoteSignature, VerifierKey, format_note, parse_note
from fairness.service_log import LogCheckpoint, log_verifier_key

ORIGIN = "yacht.example/log"


def private_key(seed: int) -> Ed25519PrivateKey:
    """A fixed Ed25519 key from a small number."""
    return Ed25519PrivateKey.from_private_bytes(bytes([seed]) * 32)


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of a key's public half."""
    return key.public_key().public_bytes_raw()


def verify(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    """Ed25519 verification, as the shell hands it to the core."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex)).verify(
            bytes.fromhex(signature_hex), message)
    except InvalidSignature:
        return False
    return True


LOG_PRIVATE = private_key(7)
LOG_KEY = log_verifier_key(ORIGIN, public_bytes(LOG_PRIVATE))
WITNESSES = {name: private_key(seed) for seed, name in
             enumerate(["witness.example/w1", "witness.example/w2", "witness.example/w3"], 20)}
WITNESS_KEYS = [VerifierKey(name, COSIGNATURE_V1, public_bytes(key))
                for name, key in WITNESSES.items()]


def signed(checkpoint: LogCheckpoint | str, key: Ed25519PrivateKey = LOG_PRIVATE,
           name: str = ORIGIN) -> str:
    """The checkpoint (or body) as a note signed by ``key`` under ``name``."""
    body = checkpoint if isinstance(checkpoint, str) else checkpoint.body()
    signer = VerifierKey(name, 1, public_bytes(key))
    return format_note(body, [NoteSignature(name, signer.key_id, key.sign(body.encode()))])


def cosigned(note: str, *names: str, timestamp: int | None = None) -> str:
    """The note with one more cosignature/v1 line per witness named."""
    body, _ = parse_note(note)
    timestamp = int(time.time()) if timestamp is None else timestamp
    lines = []
    for name in names:
        key = WITNESSES[name]
        witness = VerifierKey(name, COSIGNATURE_V1, public_bytes(key))
        signature = key.sign(cosigned_message(body, timestamp))
        lines.append(NoteSignature(name, witness.key_id,
                                   cosignature_payload(timestamp, signature)).line())
    return note + "".join(lines)
