"""What every check shares: the ``Check`` itself, the signature hook, display and format helpers."""

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..canonical import canonical_json
from ..dates import parse_date
from ..errors import FairnessError
from ..ledger import RECEIPT_TYPE, RECEIPT_V2_TYPE, unsigned


@dataclass(frozen=True)
class Check:
    """One verified statement: ``ok`` True (holds), False (fails) or None (not checkable)."""

    name: str
    ok: bool | None
    detail: str


SignatureCheck = Callable[[str, bytes, str], bool]

NOT_CHECKED = "NOT checked: no Ed25519 verifier available (install the cryptography package)"
MAX_LISTED = 5  # failures listed by name in an aggregated check's detail

HEX64 = "64 hex digits"
_HEX_DIGITS = frozenset("0123456789abcdef")
RECEIPT_FIELDS = {
    "type": str, "game": str, "epoch": int, "date": "date", "ruleset": str, "player": str,
    "transcript_sha256": HEX64, "total": int, "sig": "sig",
}
RECEIPT_V2_FIELDS = {**RECEIPT_FIELDS, "index": int, "finished_at": "time"}
RECEIPT_FIELDS_BY_TYPE = {RECEIPT_TYPE: RECEIPT_FIELDS, RECEIPT_V2_TYPE: RECEIPT_V2_FIELDS}
TIME_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def short(hex_text) -> str:
    """A hex value shortened for display: its first 12 digits."""
    text = str(hex_text)
    return text[:12] + "…" if len(text) > 12 else text


def compared(left, right) -> str:
    """``a = b`` with short values when equal, ``a ≠ b`` in full when they differ."""
    if left == right:
        return f"{short(left)} = {short(right)}"
    return f"{left} ≠ {right}"


def dice_text(dice) -> str:
    """Dice as ``[3,1,6,6,2]``."""
    return "[" + ",".join(str(d) for d in dice) + "]"


def hold_text(hold) -> str:
    """A hold as ``[T,F,F,T,F]``."""
    return "[" + ",".join("T" if flag is True else "F" if flag is False else repr(flag)
                          for flag in hold) + "]"


def safe_canonical(value) -> bytes | None:
    """Canonical JSON bytes of ``value``, or None when it has none (a float, a bad key)."""
    try:
        return canonical_json(value)
    except (TypeError, ValueError):
        return None


def unchecked_canonical(value) -> str:
    """Canonical JSON text of ``value`` without ``canonical_json``'s walk looking for floats.

    For the whole-day audit's hot path, on values where a float cannot pass unseen: a receipt
    already checked well typed, or a transcript compared with the text the rules give.
    """
    return _CANONICAL_ENCODER.encode(value)


_CANONICAL_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def is_hex(value, digits: int) -> bool:
    """True when ``value`` is exactly ``digits`` lowercase hex digits."""
    return isinstance(value, str) and len(value) == digits and set(value) <= _HEX_DIGITS


def _is_date(value) -> bool:
    """True when ``value`` is a YYYY-MM-DD calendar date."""
    try:
        parse_date(value)
    except FairnessError:
        return False
    return True


def field_problems(obj, fields: Mapping[str, object], kind: str) -> list[str]:
    """What is wrong with ``obj``'s fields against the expected ``fields`` (empty: nothing)."""
    if not isinstance(obj, Mapping):
        return [f"{kind} is not a JSON object"]
    problems = []
    missing = [key for key in fields if key not in obj]
    extra = sorted(str(key) for key in obj if key not in fields)
    if missing:
        problems.append(f"missing {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected {', '.join(extra)}")
    for key, expected in fields.items():
        if key not in obj:
            continue
        value = obj[key]
        if expected == HEX64:
            good = is_hex(value, 64)
        elif expected == "sig":
            good = is_hex(value, 128)
        elif expected == "date":
            good = _is_date(value)
        elif expected == "time":
            good = isinstance(value, str) and bool(TIME_PATTERN.fullmatch(value)) \
                and _is_date(value[:10])
        elif expected is int:
            good = type(value) is int
        else:
            good = isinstance(value, expected)
        if not good:
            wanted = {"sig": "128 hex digits", "date": "a YYYY-MM-DD date",
                      "time": "a YYYY-MM-DDTHH:MM:SSZ time"}.get(
                expected, expected if isinstance(expected, str) else expected.__name__)
            problems.append(f"{key} {value!r} is not {wanted}")
    return problems


def receipt_fields(receipt) -> Mapping[str, object]:
    """The fields a receipt of ``receipt``'s type has (v1's when the type is unknown)."""
    kind = receipt.get("type") if isinstance(receipt, Mapping) else None
    return RECEIPT_FIELDS_BY_TYPE.get(kind, RECEIPT_FIELDS)


def aggregate(name: str, failures: list[str], success: str) -> Check:
    """One check over many items: holds with ``success``, or fails listing the failures."""
    if not failures:
        return Check(name, True, success)
    listed = "; ".join(failures[:MAX_LISTED])
    more = f"; and {len(failures) - MAX_LISTED} more" if len(failures) > MAX_LISTED else ""
    return Check(name, False, listed + more)


def signature_valid(verify_signature: SignatureCheck, public_key: str, obj: Mapping) -> bool:
    """True when ``obj``'s ``sig`` is a valid signature by ``public_key`` of its unsigned bytes."""
    message = safe_canonical(unsigned(obj))
    if message is None or not is_hex(obj.get("sig"), 128) or not is_hex(public_key, 64):
        return False
    try:
        return bool(verify_signature(public_key, message, obj["sig"]))
    except (TypeError, ValueError):
        return False
