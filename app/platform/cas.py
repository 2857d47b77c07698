"""The compare-and-set reply that the games' and the matches' scripts share.

Both stores change a record (a hash) and its log (a list) with one Lua script that writes only
if the log still has the expected length. Their replies use one vocabulary, read here:

- ``false``: the hash does not exist (never did, or Redis lost it), nothing written;
- ``0``: the record is sealed (a daily game its date's reveal has read), nothing written;
- ``1``: applied;
- ``{1, fields}`` or ``{1, fields, log}``: applied, with what the caller asked back (the
  hash's fields as a flat list, and the log);
- ``{-1, seconds}``: refused by the record's own rate limit (counted in the script, under the
  record's hash tag), nothing written: try again in ``seconds``;
- ``{fields, log}``: not applied (the log moved on), the record as it now stands.
"""

from collections.abc import Sequence
from dataclasses import dataclass

APPLIED = "applied"
CONFLICT = "conflict"
MISSING = "missing"
SEALED = "sealed"
LIMITED = "limited"


@dataclass(frozen=True)
class CasReply:
    """What a compare-and-set script answered: its outcome, and the record's fields and log
    when the reply carried them."""

    outcome: str
    fields: Sequence[str] = ()
    log: Sequence[str] = ()
    retry_after: int = 0


def compare_and_set(script, keys: Sequence[str], args: Sequence) -> CasReply:
    """Run the compare-and-set ``script`` (one EVALSHA) and read its reply."""
    reply = script(keys=keys, args=args)
    if reply is None:
        return CasReply(MISSING)
    if reply == 0:
        return CasReply(SEALED)
    if reply == 1:
        return CasReply(APPLIED)
    if reply[0] == 1:
        return CasReply(APPLIED, reply[1], reply[2] if len(reply) > 2 else ())
    if reply[0] == -1:
        return CasReply(LIMITED, retry_after=max(1, int(reply[1])))
    return CasReply(CONFLICT, reply[0], reply[1])
