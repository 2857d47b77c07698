"""Codes people read aloud and type: transfer codes, group invite codes, table join codes.

Every code is drawn uniformly from Crockford's base-32 alphabet (digits and capitals without I,
L, O, U: 5 bits a character, nothing to misread); a typed code is read in any case, with spaces
or dashes anywhere, and O, I, L taken for the digits they look like. A store that finds a drawn
code taken draws again, at most ``ATTEMPTS`` times.
"""

import re
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
ATTEMPTS = 5
_SEPARATORS = re.compile(r"[\s-]+")
_LOOKALIKES = str.maketrans("OIL", "011")


def new_code(length: int) -> str:
    """A fresh random code of ``length`` characters, in its canonical form (no separator)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def shown_code(code: str) -> str:
    """A canonical 10-character code as people read it: ``ABCDE-FGHJK``."""
    return f"{code[:5]}-{code[5:]}"


def is_typed_text(value, length: int) -> bool:
    """Whether ``value`` could be a typed code of ``length`` characters: text, at most four
    times as long (room for separators)."""
    return isinstance(value, str) and len(value) <= 4 * length


def canonical_code(text: str, length: int) -> str | None:
    """The canonical form of a typed code of ``length`` characters, None if it cannot be one."""
    code = _SEPARATORS.sub("", text).upper().translate(_LOOKALIKES)
    return code if len(code) == length and all(c in ALPHABET for c in code) else None
