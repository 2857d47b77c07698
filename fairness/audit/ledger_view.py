"""A ledger read once: which entries are well formed, its epochs by number, reveals by date."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..chain import MAX_EPOCH_DAYS
from ..dice import PER_TURN
from ..ledger import (
    EPOCH_TYPE,
    EPOCH_TYPES,
    EPOCH_V2_TYPE,
    REVEAL_TYPE,
    REVEAL_TYPES,
    REVEAL_V2_TYPE,
    epoch_dealing,
)
from ..sheets import RULESETS
from .checks import HEX64, field_problems, is_hex

ENTRY_FIELDS = {
    EPOCH_TYPE: {
        "type": str, "seq": int, "prev": HEX64, "epoch": int, "start": "date", "length": int,
        "anchor": HEX64, "public_key": HEX64, "rulesets": list, "published_at": str,
        "sig": "sig",
    },
    REVEAL_TYPE: {
        "type": str, "seq": int, "prev": HEX64, "epoch": int, "date": "date", "day": int,
        "seed": HEX64, "games": dict, "roots": dict, "revealed_at": str, "sig": "sig",
    },
}
# A v2 epoch: a v1 epoch plus the dealing of its days (per-turn).
ENTRY_FIELDS[EPOCH_V2_TYPE] = {**ENTRY_FIELDS[EPOCH_TYPE], "dealing": str}
# A v2 reveal: a v1 reveal plus, per sheet, the SHA-256 of its close checkpoint's body.
ENTRY_FIELDS[REVEAL_V2_TYPE] = {**ENTRY_FIELDS[REVEAL_TYPE], "logs": dict}


@dataclass
class LedgerView:
    """A ledger read once: its epochs by number and its reveals by date, as published."""

    entries: list
    epochs: dict = field(default_factory=dict)
    reveals: dict = field(default_factory=dict)

    @classmethod
    def read(cls, entries: Sequence) -> "LedgerView":
        """Index the well-formed epoch and reveal entries (first one wins on duplicates)."""
        view = cls(list(entries))
        for entry in view.entries:
            if not well_formed(entry):
                continue
            if entry["type"] in EPOCH_TYPES:
                view.epochs.setdefault(entry["epoch"], entry)
            else:
                view.reveals.setdefault(entry["date"], entry)
        return view

    def epoch_of(self, number) -> Mapping | None:
        """The epoch entry with this number, or None."""
        return self.epochs.get(number) if type(number) is int else None

    def dealing_of(self, number) -> str:
        """The dealing of epoch ``number``'s days: sequential unless it is a published v2
        epoch."""
        return epoch_dealing(self.epoch_of(number))

    def position(self, entry: Mapping) -> int:
        """The position of ``entry`` (the very object) in the ledger."""
        return next(i for i, candidate in enumerate(self.entries) if candidate is entry)

    def well_formed_reveals(self) -> list:
        """(position, entry) of every well-formed reveal entry, in ledger order."""
        return [(position, entry) for position, entry in enumerate(self.entries)
                if well_formed(entry) and entry["type"] in REVEAL_TYPES]


def well_formed(entry) -> bool:
    """True when ``entry`` is an epoch or reveal entry with exactly its fields and sane values."""
    kind = entry.get("type") if isinstance(entry, Mapping) else None
    fields = ENTRY_FIELDS.get(kind)
    return (fields is not None and not field_problems(entry, fields, "")
            and not entry_value_problems(entry))


def entry_value_problems(entry: Mapping) -> list[str]:
    """Value-level problems of a well-typed entry (ranges, sheet lists)."""
    problems = []
    if entry["type"] in EPOCH_TYPES:
        if not 1 <= entry["length"] <= MAX_EPOCH_DAYS:
            problems.append(f"length {entry['length']} is not 1..{MAX_EPOCH_DAYS}")
        if any(ruleset not in RULESETS for ruleset in entry["rulesets"]):
            problems.append(f"rulesets {entry['rulesets']!r} names an unknown sheet")
        if entry["type"] == EPOCH_V2_TYPE and entry["dealing"] != PER_TURN:
            problems.append(f"dealing {entry['dealing']!r} is not {PER_TURN!r}")
    else:
        for key, check, wanted in (("games", lambda v: type(v) is int and v >= 0, "a count"),
                                   ("roots", lambda v: is_hex(v, 64), HEX64),
                                   ("logs", lambda v: is_hex(v, 64), HEX64)):
            if key not in entry:
                continue
            bad = {k: v for k, v in entry[key].items() if not check(v)}
            if bad:
                problems.append(f"{key} {bad!r} is not {wanted}")
    return problems
