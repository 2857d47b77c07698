"""The matches' server seeds: drawn from ``os.urandom`` and kept encrypted at rest until their
match ends, when the result publishes them."""

import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from app.ledger.secrets import Secrets

SERVER_SEED_BYTES = 32
SEED_KEY_PURPOSE = "match-seed"
NONCE_BYTES = 12


def new_server_seed() -> bytes:
    """A fresh server seed."""
    return os.urandom(SERVER_SEED_BYTES)


class SeedVault:
    """Keeps server seeds encrypted at rest (AES-GCM under a key derived from the data
    directory's service key, the match id as associated data): Redis never holds a seed in
    the clear before its match ends."""

    def __init__(self, secrets_: Secrets):
        """Derive the key."""
        self._aead = AESGCM(secrets_.derived_key(SEED_KEY_PURPOSE))

    def seal(self, match_id: str, seed: bytes) -> str:
        """The seed encrypted for ``match_id``, as hex (nonce ‖ ciphertext)."""
        nonce = os.urandom(NONCE_BYTES)
        return (nonce + self._aead.encrypt(nonce, seed, match_id.encode())).hex()

    def open(self, match_id: str, sealed: str) -> bytes:
        """The seed back (raises on a foreign or damaged value)."""
        raw = bytes.fromhex(sealed)
        return self._aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], match_id.encode())
