"""Signatures: a receipt verifies under its key and under no other, a malformed key or signature
is a plain False, and each public key is loaded once however many signatures it checks."""

import pytest

from app.ledger.signing import (
    Signer,
    new_private_key_pem,
    public_key,
    verify_object,
    verify_signature,
)
from fairness.ledger import signed_bytes


@pytest.fixture(scope="module")
def signer() -> Signer:
    """A fresh signing key."""
    return Signer.from_pem(new_private_key_pem())


def test_a_signed_object_verifies_under_its_key_only(signer):
    receipt = signer.sign({"game": "0" * 32, "total": 245})
    assert verify_object(signer.public_key_hex, receipt)
    assert not verify_object(signer.public_key_hex, {**receipt, "total": 246})
    other = Signer.from_pem(new_private_key_pem())
    assert not verify_object(other.public_key_hex, receipt)


@pytest.mark.parametrize("key", ["", "zz" * 32, "ab" * 31, "ab" * 33, None, ["ab"] * 32])
def test_a_malformed_public_key_verifies_nothing(signer, key):
    receipt = signer.sign({"game": "0" * 32, "total": 245})
    assert verify_signature(key, signed_bytes(receipt), receipt["sig"]) is False


@pytest.mark.parametrize("signature", ["", "zz" * 64, "ab" * 63, None])
def test_a_malformed_signature_verifies_nothing(signer, signature):
    message = signed_bytes({"game": "0" * 32, "total": 245})
    assert verify_signature(signer.public_key_hex, message, signature) is False


def test_a_public_key_is_loaded_once_per_key(signer):
    key = signer.public_key_hex
    assert public_key(key) is public_key(key)
    other = Signer.from_pem(new_private_key_pem()).public_key_hex
    assert public_key(other) is not public_key(key)
    assert public_key(other).public_bytes_raw() == bytes.fromhex(other)
