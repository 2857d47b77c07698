"""Gossip: a checkpoint's short fingerprint, readable aloud, and the share-text line that
carries it (FAIRNESS.md, "Gossip: fingerprints in share texts").

The fingerprint of a checkpoint body is its tree size, a space, and the first 20 characters
of the RFC 4648 base32 encoding of the SHA-256 of the body, in groups of four joined by
hyphens: ``3 KQ4M-7XPA-B2CD-RT5E-W3NZ``. The gossip line is ``log <date>/<sheet> <fingerprint>``,
the same in every language, so that any page or program can find it in a pasted text.
"""

import base64
import re
from dataclasses import dataclass

from .checkpoint import body_hash, parse_checkpoint
from .errors import LedgerError

CHARACTERS = 20
GROUP = 4
_FINGERPRINT = r"(0|[1-9][0-9]{0,15}) ((?:[A-Z2-7]{4}-){4}[A-Z2-7]{4})"
_LINE = re.compile(r"(?<![^\s])log ([0-9]{4}-[0-9]{2}-[0-9]{2})/([a-z]+(?:-[a-z]+)*) "
                   + _FINGERPRINT + r"(?![^\s])")


@dataclass(frozen=True)
class GossipLine:
    """What a share text's gossip line says: a checkpoint of (date, sheet)'s log."""

    date: str
    sheet: str
    fingerprint: str

    @property
    def size(self) -> int:
        """The tree size the fingerprint names."""
        return int(self.fingerprint.split(" ")[0])

    def text(self) -> str:
        """The line itself, without a newline."""
        return f"log {self.date}/{self.sheet} {self.fingerprint}"


def fingerprint(body: str) -> str:
    """The fingerprint of a checkpoint body (read strictly: LedgerError if it is not one)."""
    size = parse_checkpoint(body).size
    code = base64.b32encode(body_hash(body)).decode("ascii")[:CHARACTERS]
    groups = [code[i:i + GROUP] for i in range(0, CHARACTERS, GROUP)]
    return f"{size} {'-'.join(groups)}"


def gossip_line(body: str) -> GossipLine:
    """The gossip line of a checkpoint body: the date and sheet of its origin, its
    fingerprint."""
    _, _, _, date, sheet = parse_checkpoint(body).origin.split("/")
    return GossipLine(date, sheet, fingerprint(body))


def find_gossip_line(text: str) -> GossipLine:
    """The first gossip line in a pasted text, or LedgerError when there is none."""
    found = _LINE.search(text) if isinstance(text, str) else None
    if found is None:
        raise LedgerError("the text holds no line 'log <date>/<sheet> <size> "
                          "XXXX-XXXX-XXXX-XXXX-XXXX'")
    date, sheet, size, code = found.groups()
    return GossipLine(date, sheet, f"{size} {code}")


def matches(line: GossipLine, bodies: list[str]) -> bool:
    """True when one of a log's checkpoint bodies (as this reader sees the log) has the line's
    fingerprint."""
    return any(fingerprint(body) == line.fingerprint for body in bodies)
