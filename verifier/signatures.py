"""Ed25519 signatures, checked by the ``cryptography`` package when it is installed.

The verifier runs on a bare Python too: then there is no verifier, and every signature check
says it was NOT checked (the exit status 3), never that it holds.
"""


def ed25519_verifier():
    """A function (key hex, message, signature hex) -> bool, or None without ``cryptography``."""
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return None
    keys = {}

    def verify(key_hex, message, sig_hex):
        """True when ``sig_hex`` is a valid signature of ``message`` by ``key_hex``."""
        try:
            if key_hex not in keys:
                keys[key_hex] = Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex))
            keys[key_hex].verify(bytes.fromhex(sig_hex), message)
            return True
        except Exception:  # an invalid signature or a malformed key: not valid either way
            return False
    return verify
