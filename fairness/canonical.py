"""Canonical JSON: the one byte encoding that is hashed and signed everywhere.

Objects sort their keys by code point, no whitespace, UTF-8, integers only (no floats),
exactly what ``JSON.stringify`` gives on key-sorted input in JavaScript.
"""

import hashlib
import json


def canonical_json(value) -> bytes:
    """Encode ``value`` (dicts, lists, str, int, bool, None) as canonical JSON bytes."""
    _reject_floats(value)
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    """Return the lowercase hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def digest(value) -> str:
    """Return the hex SHA-256 of ``value``'s canonical JSON."""
    return sha256_hex(canonical_json(value))


def _reject_floats(value) -> None:
    """Raise TypeError if a float hides anywhere in ``value`` (floats have no canonical form).
    Strings, ints, booleans and None are leaves: the walk does not descend into them (most of
    a transcript's values)."""
    if isinstance(value, float):
        raise TypeError("canonical JSON holds no floats")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError("canonical JSON object keys must be strings")
            if type(item) not in _LEAVES:
                _reject_floats(item)
    elif isinstance(value, list | tuple):
        for item in value:
            if type(item) not in _LEAVES:
                _reject_floats(item)


_LEAVES = frozenset({str, int, bool, type(None)})
