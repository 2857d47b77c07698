"""A transcript entry's text as the day's pages are cut into, and the entry read from it.

The service writes each entry of a published transcript as canonical JSON (keys sorted, no
whitespace, no escape), so every entry opens with ``ENTRY_OPENING``: a page's transcripts are
cut there, and an entry's piece is its text after that opening (``entry_text`` puts it back).
A day's pages hold a few thousand distinct entries, each read once. One regular expression reads
a piece without parsing and encoding the entry again: what it matches is exactly the piece of
the canonical text of one well-formed roll (five integer dice, five true/false holds) or score
(a box id, integer points and bonus), so ``json.loads`` of its ``entry_text`` gives that entry
and canonical JSON writes it back unchanged. Any other text (other spacing or key order, an
escape, a float, another shape) is not matched: the caller reads it the general way.
"""

import re

# integers as canonical JSON writes them (no -0), of a length every reader reads alike
_INTEGER = r"(0|-?[1-9][0-9]{0,8})"
_FLAG = r"(true|false)"
_BOX = r"([a-z0-9@-]+)"  # the box ids' characters: nothing a JSON string would escape
ENTRY_OPENING = '{"action":"'  # the action is an entry's first key in code-point order
_ENTRY = re.compile(
    r"(?:"
    r'roll","dice":\[' + ",".join([_INTEGER] * 5) + r'\],"hold":\[' + ",".join([_FLAG] * 5)
    + r"\]"
    r'|score","bonus":' + _INTEGER + r',"category":"' + _BOX + r'","points":' + _INTEGER
    + r")")


def entry_text(piece: str) -> str:
    """The text of the entry whose piece is ``piece``."""
    return ENTRY_OPENING + piece + "}"


def is_canonical_entry(piece: str) -> bool:
    """True when ``entry_text(piece)`` is the canonical JSON of a well-formed roll or score (so
    it parses as a JSON object)."""
    return _ENTRY.fullmatch(piece) is not None


def canonical_entry(piece: str) -> tuple | None:
    """What the entry whose canonical JSON is ``entry_text(piece)`` says: ("roll", hold, dice)
    with five bools and five ints, or ("score", box, points, bonus), the box not yet checked to
    be the sheet's; None when ``piece`` is not the piece of such an entry's canonical text."""
    match = _ENTRY.fullmatch(piece)
    if match is None:
        return None
    (die1, die2, die3, die4, die5, hold1, hold2, hold3, hold4, hold5,
     bonus, box, points) = match.groups()
    if box is None:
        return ("roll", (hold1 == "true", hold2 == "true", hold3 == "true", hold4 == "true",
                         hold5 == "true"), (int(die1), int(die2), int(die3), int(die4), int(die5)))
    return ("score", box, int(points), int(bonus))
