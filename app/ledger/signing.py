"""Ed25519 signatures over the canonical bytes ``fairness.ledger.signed_bytes`` defines."""

import functools
from collections.abc import Mapping

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from fairness.ledger import signed_bytes

PUBLIC_KEY_CACHE_SIZE = 64  # a few epochs' keys; a posted receipt may name any other


class Signer:
    """Signs published objects with the service's Ed25519 key."""

    def __init__(self, private_key: Ed25519PrivateKey):
        """Keep the private key; expose only the public one."""
        self._private_key = private_key
        raw = private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self.public_key_hex = raw.hex()

    def __repr__(self) -> str:
        """Show the public key only."""
        return f"Signer(public_key={self.public_key_hex!r})"

    @classmethod
    def from_pem(cls, pem: bytes) -> "Signer":
        """Load a PKCS#8 PEM private key."""
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError("the signing key is not an Ed25519 key")
        return cls(key)

    def sign_bytes(self, message: bytes) -> bytes:
        """The raw Ed25519 signature of ``message`` (a checkpoint body, a leaf's data)."""
        return self._private_key.sign(message)

    def sign(self, obj: Mapping) -> dict:
        """``obj`` with its ``sig``: the hex signature of its canonical unsigned bytes."""
        signature = self._private_key.sign(signed_bytes(obj))
        return {**obj, "sig": signature.hex()}


def new_private_key_pem() -> bytes:
    """A fresh Ed25519 private key as unencrypted PKCS#8 PEM."""
    return Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


@functools.lru_cache(maxsize=PUBLIC_KEY_CACHE_SIZE)
def public_key(public_key_hex: str) -> Ed25519PublicKey:
    """The Ed25519 public key written in hex, loaded once per key (an audit checks thousands of
    signatures by the same one); raises ValueError or TypeError when it is not one."""
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))


def verify_signature(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    """True when ``signature_hex`` is a valid Ed25519 signature of ``message`` by that key."""
    try:
        public_key(public_key_hex).verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


def verify_object(public_key_hex: str, obj: Mapping) -> bool:
    """True when the published object ``obj`` carries a valid signature by that key."""
    signature = obj.get("sig")
    if not isinstance(signature, str):
        return False
    try:
        message = signed_bytes(obj)
    except (TypeError, ValueError):
        return False
    return verify_signature(public_key_hex, message, signature)
