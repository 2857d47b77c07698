"""Verification: what a ledger, a game and a whole day prove, check by check.

Every function returns ``Check``s whose ``detail`` says what was compared with what, so that a
tampered field is identifiable from the failing line alone. ``ok`` is None for a check that
could not be made (no Ed25519 library, no proof given): never a silent pass.

Signatures are checked through a ``SignatureCheck`` the caller supplies (the core stays
standard-library only); without one every signature check is reported as not checked.
"""

import datetime as dt
import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from . import merkle, rules
from .canonical import canonical_json
from .chain import CHAIN_MESSAGE, MAX_EPOCH_DAYS
from .dates import parse_date
from .dice import DiceStream
from .errors import FairnessError
from .game import ROLLS_PER_TURN
from .ledger import (
    EPOCH_TYPE,
    GENESIS_PREV,
    RECEIPT_TYPE,
    REVEAL_TYPE,
    signed_bytes,
    unsigned,
)
from .scoring import is_five_of_a_kind
from .sheets import RULESETS, UPPER, UPPER_BONUS_THRESHOLD, get_ruleset


@dataclass(frozen=True)
class Check:
    """One verified statement: ``ok`` True (holds), False (fails) or None (not checkable)."""

    name: str
    ok: bool | None
    detail: str


SignatureCheck = Callable[[str, bytes, str], bool]

NOT_CHECKED = "NOT checked: no Ed25519 verifier available (install the cryptography package)"
MAX_LISTED = 5  # failures listed by name in an aggregated check's detail

_HEX64 = "64 hex digits"
_HEX_DIGITS = frozenset("0123456789abcdef")
_EPOCH_FIELDS = {
    "type": str, "seq": int, "prev": _HEX64, "epoch": int, "start": "date", "length": int,
    "anchor": _HEX64, "public_key": _HEX64, "rulesets": list, "published_at": str, "sig": "sig",
}
_REVEAL_FIELDS = {
    "type": str, "seq": int, "prev": _HEX64, "epoch": int, "date": "date", "day": int,
    "seed": _HEX64, "games": dict, "roots": dict, "revealed_at": str, "sig": "sig",
}
_RECEIPT_FIELDS = {
    "type": str, "game": str, "epoch": int, "date": "date", "ruleset": str, "player": str,
    "transcript_sha256": _HEX64, "total": int, "sig": "sig",
}
_ROLL_KEYS = frozenset({"action", "hold", "dice"})
_SCORE_KEYS = frozenset({"action", "category", "points", "bonus"})


# ---------------------------------------------------------------- small shared helpers


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


def _is_hex(value, digits: int) -> bool:
    """True when ``value`` is exactly ``digits`` lowercase hex digits."""
    return isinstance(value, str) and len(value) == digits and set(value) <= _HEX_DIGITS


def _is_date(value) -> bool:
    """True when ``value`` is a YYYY-MM-DD calendar date."""
    try:
        parse_date(value)
    except FairnessError:
        return False
    return True


def _field_problems(obj, fields: Mapping[str, object], kind: str) -> list[str]:
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
        if expected == _HEX64:
            good = _is_hex(value, 64)
        elif expected == "sig":
            good = _is_hex(value, 128)
        elif expected == "date":
            good = _is_date(value)
        elif expected is int:
            good = type(value) is int
        else:
            good = isinstance(value, expected)
        if not good:
            wanted = {"sig": "128 hex digits", "date": "a YYYY-MM-DD date"}.get(
                expected, expected if isinstance(expected, str) else expected.__name__)
            problems.append(f"{key} {value!r} is not {wanted}")
    return problems


def _aggregate(name: str, failures: list[str], success: str) -> Check:
    """One check over many items: holds with ``success``, or fails listing the failures."""
    if not failures:
        return Check(name, True, success)
    listed = "; ".join(failures[:MAX_LISTED])
    more = f"; and {len(failures) - MAX_LISTED} more" if len(failures) > MAX_LISTED else ""
    return Check(name, False, listed + more)


def _signature_valid(verify_signature: SignatureCheck, public_key: str, obj: Mapping) -> bool:
    """True when ``obj``'s ``sig`` is a valid signature by ``public_key`` of its unsigned bytes."""
    message = safe_canonical(unsigned(obj))
    if message is None or not _is_hex(obj.get("sig"), 128) or not _is_hex(public_key, 64):
        return False
    try:
        return bool(verify_signature(public_key, message, obj["sig"]))
    except (TypeError, ValueError):
        return False


def _step_down(seed: bytes) -> bytes:
    """One step down the seed chain."""
    return hmac.new(seed, CHAIN_MESSAGE, hashlib.sha256).digest()


# ---------------------------------------------------------------- the ledger


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
            if not isinstance(entry, Mapping):
                continue
            if not _well_formed(entry):
                continue
            if entry["type"] == EPOCH_TYPE:
                view.epochs.setdefault(entry["epoch"], entry)
            else:
                view.reveals.setdefault(entry["date"], entry)
        return view

    def epoch_of(self, number) -> Mapping | None:
        """The epoch entry with this number, or None."""
        return self.epochs.get(number) if type(number) is int else None


def check_ledger(entries: list[dict], verify_signature: SignatureCheck | None = None
                 ) -> list[Check]:
    """Check the whole ledger: format, numbering, hash links, signatures, dates, seed chains."""
    view = LedgerView.read(entries)
    return [
        _check_ledger_format(view),
        _check_sequence(view),
        _check_links(view),
        _check_ledger_signatures(view, verify_signature),
        _check_reveal_dates(view),
        _check_seed_chains(view),
        _check_seed_successions(view),
    ]


def _check_ledger_format(view: LedgerView) -> Check:
    """Every entry is an epoch or a reveal entry with exactly its fields, well typed."""
    failures = []
    for position, entry in enumerate(view.entries):
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        fields = {EPOCH_TYPE: _EPOCH_FIELDS, REVEAL_TYPE: _REVEAL_FIELDS}.get(kind)
        if fields is None:
            failures.append(f"entry {position}: unknown type {kind!r}")
            continue
        problems = _field_problems(entry, fields, f"entry {position}")
        if not problems:
            problems = _entry_value_problems(entry)
        failures.extend(f"entry {position}: {problem}" for problem in problems)
    count = len(view.entries)
    return _aggregate("ledger format", failures,
                      f"{count} entries, each an epoch or reveal entry with exactly its fields")


def _well_formed(entry) -> bool:
    """True when ``entry`` is an epoch or reveal entry with exactly its fields and sane values."""
    kind = entry.get("type") if isinstance(entry, Mapping) else None
    fields = {EPOCH_TYPE: _EPOCH_FIELDS, REVEAL_TYPE: _REVEAL_FIELDS}.get(kind)
    return (fields is not None and not _field_problems(entry, fields, "")
            and not _entry_value_problems(entry))


def _entry_value_problems(entry: Mapping) -> list[str]:
    """Value-level problems of a well-typed entry (ranges, sheet lists)."""
    problems = []
    if entry["type"] == EPOCH_TYPE:
        if not 1 <= entry["length"] <= MAX_EPOCH_DAYS:
            problems.append(f"length {entry['length']} is not 1..{MAX_EPOCH_DAYS}")
        if any(ruleset not in RULESETS for ruleset in entry["rulesets"]):
            problems.append(f"rulesets {entry['rulesets']!r} names an unknown sheet")
    else:
        for key, check, wanted in (("games", lambda v: type(v) is int and v >= 0, "a count"),
                                   ("roots", lambda v: _is_hex(v, 64), _HEX64)):
            bad = {k: v for k, v in entry[key].items() if not check(v)}
            if bad:
                problems.append(f"{key} {bad!r} is not {wanted}")
    return problems


def _check_sequence(view: LedgerView) -> Check:
    """Entry ``i`` carries ``seq`` ``i``."""
    failures = []
    for position, entry in enumerate(view.entries):
        seq = entry.get("seq") if isinstance(entry, Mapping) else None
        if type(seq) is not int or seq != position:
            failures.append(f"entry {position}: seq {seq!r} ≠ position {position}")
    return _aggregate("ledger sequence", failures,
                      f"seq 0..{len(view.entries) - 1} in order, no gap")


def _check_links(view: LedgerView) -> Check:
    """Entry 0's ``prev`` is the genesis, entry ``i``'s the SHA-256 of entry ``i-1``."""
    failures = []
    expected = GENESIS_PREV
    for position, entry in enumerate(view.entries):
        prev = entry.get("prev") if isinstance(entry, Mapping) else None
        source = "the genesis" if position == 0 else f"SHA-256 of entry {position - 1}"
        if expected is None:
            failures.append(f"entry {position}: entry {position - 1} has no canonical JSON")
        elif prev != expected:
            failures.append(f"entry {position}: prev {prev} ≠ {source} {expected}")
        encoded = safe_canonical(dict(entry)) if isinstance(entry, Mapping) else None
        expected = None if encoded is None else hashlib.sha256(encoded).hexdigest()
    return _aggregate("ledger links", failures,
                      f"{len(view.entries)} entries, each prev = SHA-256 of the entry before it, "
                      "from the genesis 000…0")


def _check_ledger_signatures(view: LedgerView, verify_signature: SignatureCheck | None) -> Check:
    """Each entry is signed by its epoch's key (an epoch entry by the key it publishes)."""
    if verify_signature is None:
        return Check("ledger signatures", None, NOT_CHECKED)
    failures = []
    for position, entry in enumerate(view.entries):
        if not isinstance(entry, Mapping):
            failures.append(f"entry {position}: not an object")
            continue
        if entry.get("type") == EPOCH_TYPE:
            key = entry.get("public_key")
        else:
            epoch = view.epoch_of(entry.get("epoch"))
            key = epoch["public_key"] if epoch else None
        if key is None:
            failures.append(f"entry {position}: no published key for epoch {entry.get('epoch')!r}")
        elif not _signature_valid(verify_signature, key, entry):
            failures.append(f"entry {position}: sig {short(entry.get('sig'))} is not a valid "
                            f"Ed25519 signature by {short(key)} of its {entry.get('type')} fields")
    return _aggregate("ledger signatures", failures,
                      f"{len(view.entries)} entries, each a valid Ed25519 signature by its "
                      "epoch's published key")


def _check_reveal_dates(view: LedgerView) -> Check:
    """Each reveal names a published epoch, a day inside it, its date, and that epoch's sheets."""
    failures = []
    seen = {}
    reveals = _well_formed_reveals(view)
    for position, entry in reveals:
        epoch = view.epoch_of(entry["epoch"])
        if epoch is None or _position(view, epoch) > position:
            failures.append(f"entry {position}: epoch {entry['epoch']} "
                            "is not published before it")
            continue
        problem = _reveal_date_problem(entry, epoch)
        if problem:
            failures.append(f"entry {position}: {problem}")
        key = (entry["epoch"], entry["day"])
        if key in seen:
            failures.append(f"entry {position}: epoch {key[0]} day {key[1]} already revealed "
                            f"by entry {seen[key]}")
        seen.setdefault(key, position)
    return _aggregate("reveal dates", failures,
                      f"{len(reveals)} reveals, each dated epoch start + day − 1 within its epoch, "
                      "one per day")


def _reveal_date_problem(entry: Mapping, epoch: Mapping) -> str | None:
    """Why a reveal's day, date or sheets don't fit its epoch, or None."""
    day = entry.get("day")
    if type(day) is not int or not 1 <= day <= epoch["length"]:
        return f"day {day!r} is not 1..{epoch['length']} of epoch {epoch['epoch']}"
    expected = (parse_date(epoch["start"]) + dt.timedelta(days=day - 1)).isoformat()
    if entry.get("date") != expected:
        return (f"date {entry.get('date')!r} ≠ epoch {epoch['epoch']} start {epoch['start']} "
                f"+ day {day} − 1 = {expected}")
    sheets = sorted(epoch["rulesets"])
    for key in ("games", "roots"):
        value = entry.get(key)
        if not isinstance(value, Mapping) or sorted(value) != sheets:
            listed = sorted(value) if isinstance(value, Mapping) else value
            return f"{key} covers {listed!r}, not the epoch's sheets {sheets!r}"
    return None


def _check_seed_chains(view: LedgerView) -> Check:
    """Each reveal's seed hashes down ``day`` steps to its epoch's anchor."""
    failures = []
    proven: dict = {}  # (epoch, day) -> seed already shown to reach the anchor
    by_day = _first_reveal_per_day(view)
    for _, (position, entry) in sorted(by_day.items()):
        problem = _seed_chain_problem(view, entry, proven)
        if problem:
            failures.append(f"entry {position}: {problem}")
    return _aggregate("seed chains", failures, f"{len(by_day)} reveals, each seed hashes down "
                                               "`day` steps to its epoch's anchor")


def _well_formed_reveals(view: LedgerView) -> list:
    """(position, entry) of every well-formed reveal entry, in ledger order."""
    return [(position, entry) for position, entry in enumerate(view.entries)
            if _well_formed(entry) and entry["type"] == REVEAL_TYPE]


def _position(view: LedgerView, entry: Mapping) -> int:
    """The position of ``entry`` (the very object) in the ledger."""
    return next(i for i, candidate in enumerate(view.entries) if candidate is entry)


def _first_reveal_per_day(view: LedgerView) -> dict:
    """(epoch, day) → (position, entry) of the first well-formed reveal of that day."""
    by_day: dict = {}
    for position, entry in _well_formed_reveals(view):
        by_day.setdefault((entry["epoch"], entry["day"]), (position, entry))
    return by_day


def _seed_chain_problem(view: LedgerView, entry: Mapping, proven: dict) -> str | None:
    """Why ``entry``'s seed does not reach its anchor, or None (recording it as proven).

    Hashing down stops early at a seed already proven to reach the anchor: the same
    statement, computed once per day instead of once per pair of days.
    """
    epoch = view.epoch_of(entry["epoch"])
    day = entry["day"]
    if epoch is None or not 1 <= day <= epoch["length"]:
        return f"day {day} has no published epoch {entry['epoch']} to chain to"
    seed = bytes.fromhex(entry["seed"])
    anchor = bytes.fromhex(epoch["anchor"])
    start, current = seed, seed
    for steps in range(day, 0, -1):
        known = proven.get((entry["epoch"], steps))
        if known is not None:
            reached = known == current
            break
        current = _step_down(current)
    else:
        reached = current == anchor
    if not reached:
        return (f"seed {entry['seed']} hashed down {day} steps does not give epoch "
                f"{entry['epoch']}'s anchor {epoch['anchor']}")
    proven[(entry["epoch"], day)] = start
    return None


def _check_seed_successions(view: LedgerView) -> Check:
    """Each reveal's seed steps down once to the previous day's seed (day 1: to the anchor)."""
    failures = []
    by_day = _first_reveal_per_day(view)
    for (number, day), (position, entry) in sorted(by_day.items()):
        epoch = view.epoch_of(number)
        if day == 1:
            previous, source = (epoch or {}).get("anchor"), f"epoch {number}'s anchor"
        elif (number, day - 1) in by_day:
            previous_position, previous_entry = by_day[(number, day - 1)]
            previous, source = previous_entry["seed"], f"day {day - 1}'s seed (entry " \
                                                       f"{previous_position})"
        else:
            failures.append(f"entry {position}: day {day - 1} of epoch {number} is not revealed")
            continue
        stepped = _step_down(bytes.fromhex(entry["seed"])).hex()
        if stepped != previous:
            failures.append(f"entry {position}: seed {short(entry['seed'])} steps down to "
                            f"{stepped} ≠ {source} {previous}")
    return _aggregate("seed successions", failures,
                      f"{len(by_day)} reveals, each seed one step above the previous day's")


# ---------------------------------------------------------------- one game


def check_game(entries: list[dict], receipt: dict, transcript: list, proof: dict | None = None,
               verify_signature: SignatureCheck | None = None) -> list[Check]:
    """Check one finished game against the ledger: every roll, box, the total, its receipt."""
    view = LedgerView.read(entries)
    checks = check_ledger(entries, verify_signature)
    problems = _field_problems(receipt, _RECEIPT_FIELDS, "the receipt")
    if not problems and receipt["type"] != RECEIPT_TYPE:
        problems.append(f"type {receipt['type']!r} ≠ {RECEIPT_TYPE}")
    if not problems and receipt["ruleset"] not in RULESETS:
        problems.append(f"ruleset {receipt['ruleset']!r} is no known sheet")
    checks.append(_aggregate("receipt format", problems,
                             "a receipt with exactly its fields, well typed"))
    if problems:
        return checks
    reveal = view.reveals.get(receipt["date"])
    checks.append(_reveal_check(view, receipt, reveal))
    if not checks[-1].ok:
        return checks
    checks.append(_seed_check(view, reveal))
    stream = DiceStream(reveal["seed"], receipt["date"], receipt["ruleset"])
    replayed = replay_checks(transcript, stream, explain=True)
    checks.extend(replayed.checks)
    checks.append(_total_check(replayed, receipt))
    checks.append(_transcript_hash_check(transcript, receipt))
    checks.append(_receipt_signature_check(view, receipt, verify_signature))
    checks.extend(_proof_checks(receipt, reveal, proof))
    return checks


def _reveal_check(view: LedgerView, receipt: Mapping, reveal: Mapping | None) -> Check:
    """The receipt's date is revealed in the ledger, in the receipt's epoch, for its sheet."""
    date = receipt["date"]
    if reveal is None:
        return Check("reveal", False, f"{date} has no well-formed reveal entry in the ledger "
                                      f"({len(view.entries)} entries)")
    position = _position(view, reveal)
    if reveal["epoch"] != receipt["epoch"]:
        return Check("reveal", False, f"receipt epoch {receipt['epoch']} ≠ epoch "
                                      f"{reveal['epoch']} of the reveal of {date} "
                                      f"(entry {position})")
    problem = _reveal_problem(view, reveal, position, receipt["ruleset"])
    if problem:
        return Check("reveal", False, problem)
    return Check("reveal", True, f"{date} revealed by entry {position} "
                                 f"(epoch {reveal['epoch']}, day {reveal['day']})")


def _reveal_problem(view: LedgerView, reveal: Mapping, position: int, ruleset: str
                    ) -> str | None:
    """Why a date's reveal entry cannot be used for ``ruleset``'s games, or None."""
    date = reveal["date"]
    if ruleset not in reveal["roots"] or ruleset not in reveal["games"]:
        return f"the reveal of {date} (entry {position}) has no {ruleset} root"
    if view.epoch_of(reveal["epoch"]) is None:
        return (f"the reveal of {date} (entry {position}) names epoch {reveal['epoch']}, "
                "which has no well-formed epoch entry")
    return None


def _seed_check(view: LedgerView, reveal: Mapping) -> Check:
    """The revealed seed of the game's date hashes down to its epoch's anchor."""
    problem = _seed_chain_problem(view, reveal, {})
    if problem:
        return Check("seed", False, problem)
    epoch = view.epoch_of(reveal["epoch"])
    return Check("seed", True, f"seed {short(reveal['seed'])} hashed down {reveal['day']} steps "
                               f"= epoch {reveal['epoch']}'s anchor {short(epoch['anchor'])}")


def _total_check(replayed: "Replayed", receipt: Mapping) -> Check:
    """The recomputed total equals the receipt's."""
    totals = replayed.totals
    breakdown = (f"upper {totals.upper} + bonus {totals.upper_bonus} + lower {totals.lower} "
                 f"+ extra {totals.extra_bonus}")
    ok = totals.total == receipt["total"]
    relation = "=" if ok else "≠"
    return Check("total", ok, f"recomputed {totals.total} ({breakdown}) {relation} receipt "
                              f"total {receipt['total']}")


def _transcript_hash_check(transcript, receipt: Mapping) -> Check:
    """The transcript's SHA-256 equals the receipt's ``transcript_sha256``."""
    encoded = safe_canonical(list(transcript)) if isinstance(transcript, list | tuple) else None
    if encoded is None:
        return Check("transcript hash", False, "the transcript has no canonical JSON "
                                               "(not a list, or holds a float)")
    actual = hashlib.sha256(encoded).hexdigest()
    ok = actual == receipt["transcript_sha256"]
    return Check("transcript hash", ok,
                 f"SHA-256 of the transcript {compared(actual, receipt['transcript_sha256'])} "
                 "receipt transcript_sha256")


def _receipt_signature_check(view: LedgerView, receipt: Mapping,
                             verify_signature: SignatureCheck | None) -> Check:
    """The receipt is signed by its epoch's published key."""
    if verify_signature is None:
        return Check("receipt signature", None, NOT_CHECKED)
    epoch = view.epoch_of(receipt["epoch"])
    if epoch is None:
        return Check("receipt signature", False,
                     f"no epoch {receipt['epoch']} key is published in the ledger")
    key = epoch["public_key"]
    if _signature_valid(verify_signature, key, receipt):
        return Check("receipt signature", True,
                     f"sig {short(receipt['sig'])} is a valid Ed25519 signature by epoch "
                     f"{receipt['epoch']}'s key {short(key)}")
    return Check("receipt signature", False,
                 f"sig {short(receipt['sig'])} is not a valid Ed25519 signature by epoch "
                 f"{receipt['epoch']}'s key {short(key)} of the receipt's fields")


def _proof_checks(receipt: Mapping, reveal: Mapping, proof: Mapping | None) -> list[Check]:
    """The proof's tree size is the day's game count, and it leads the receipt to the root."""
    if proof is None:
        return [Check("inclusion proof", None, "NOT checked: no inclusion proof given")]
    ruleset = receipt["ruleset"]
    problems = _field_problems(proof, {"index": int, "size": int, "path": list}, "the proof")
    if not problems and not all(_is_hex(item, 64) for item in proof["path"]):
        problems.append("path items are not all 64 hex digits")
    if problems:
        return [Check("inclusion proof", False, "malformed proof: " + "; ".join(problems))]
    games = reveal["games"][ruleset]
    size_check = Check("proof size", proof["size"] == games,
                       f"tree size {proof['size']} {'=' if proof['size'] == games else '≠'} "
                       f"reveal games[{ruleset}] {games}")
    leaf = merkle.leaf_hash(signed_bytes(receipt))
    path = [bytes.fromhex(item) for item in proof["path"]]
    # The tree size comes from the reveal entry, not from the proof (FAIRNESS.md).
    root = computed_root(leaf, proof["index"], games, path) if type(games) is int else None
    published = reveal["roots"][ruleset]
    shown = root.hex() if root else "no root (index/size/path do not fit together)"
    return [size_check, Check(
        "inclusion proof", root is not None and shown == published,
        f"leaf {short(leaf.hex())} at index {proof['index']} of {games} with "
        f"{len(path)} path hashes → root {compared(shown, published)} reveal roots[{ruleset}]")]


def computed_root(leaf: bytes, index: int, size: int, path: Sequence[bytes]) -> bytes | None:
    """The root an RFC 9162 inclusion proof leads to, or None if the proof is ill-shaped."""
    if not 0 <= index < size:
        return None
    fn, sn, result = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            result = merkle.node_hash(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = merkle.node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return result if sn == 0 else None


# ---------------------------------------------------------------- replay, check by check


@dataclass
class Replayed:
    """A replay's outcome: the checks (failures only unless explained), the sheet and totals."""

    checks: list
    boxes: dict
    extra_bonus: int
    ruleset: str

    @property
    def totals(self) -> rules.Totals:
        """The recomputed breakdown."""
        return rules.totals(self.ruleset, self.boxes, self.extra_bonus)

    @property
    def ok(self) -> bool:
        """True when no check failed."""
        return all(check.ok for check in self.checks)


class SharedStream:
    """A day's dice stream computed once for all the day's games: every roll a game can take."""

    def __init__(self, stream: DiceStream):
        """Draw all the rolls of a full game (3 per box) from ``stream``."""
        self.date = stream.date
        self.ruleset = stream.ruleset
        count = ROLLS_PER_TURN * len(get_ruleset(stream.ruleset).categories)
        self.rolls = [stream.roll(number) for number in range(count)]

    def roll(self, number: int) -> tuple:
        """The five dice drawn by roll ``number``."""
        return self.rolls[number]


def replay_checks(transcript, stream: "DiceStream | SharedStream", explain: bool = False,
                  scorer: "CachedRules | None" = None) -> Replayed:
    """Replay ``transcript`` on ``stream``: a check per roll and per box, and one for completion.

    It accepts exactly the transcripts ``fairness.game.replay`` accepts, but goes on after a
    mismatch (with what the rules give) so that every wrong entry is named. With ``explain``
    False only failing checks are kept (the whole-day audit's fast path).
    """
    ruleset = get_ruleset(stream.ruleset)
    scorer = scorer or CachedRules(ruleset.id)
    state = _ReplayState(ruleset, explain)
    if not isinstance(transcript, list | tuple):
        state.fail("transcript", "the transcript is not a list of actions")
        return state.result()
    for index, entry in enumerate(transcript):
        action = entry.get("action") if isinstance(entry, Mapping) else None
        if action == "roll":
            state.roll(index, entry, stream)
        elif action == "score":
            state.score(index, entry, scorer)
        else:
            state.fail(f"action {index}", f"unknown action {action!r} (a roll or a score)")
    complete = len(state.boxes) == len(ruleset.categories)
    state.record("game complete", complete,
                 f"{len(state.boxes)} of {len(ruleset.categories)} boxes filled")
    return state.result()


class CachedRules:
    """The core's scoring of one sheet, cached per (box, dice): the same dice recur all day."""

    def __init__(self, ruleset_id: str):
        """Bind the cache to a sheet."""
        self.ruleset = get_ruleset(ruleset_id)
        self._points: dict = {}
        self._upper = frozenset(c.id for c in self.ruleset.categories if c.section == UPPER)

    def points(self, category: str, dice: tuple, boxes: Mapping) -> int:
        """``rules.score``: cached unless the Joker rule makes the sheet matter."""
        if self.joker(dice, boxes):
            return rules.score(self.ruleset.id, category, dice, boxes)
        key = (category, dice)
        if key not in self._points:
            self._points[key] = rules.score(self.ruleset.id, category, dice)
        return self._points[key]

    def allowed(self, category: str, dice: tuple, boxes: Mapping) -> rules.Placement | None:
        """None when ``category`` is free and allowed, else the placement that forbids it."""
        if self.joker(dice, boxes):
            placement = rules.placement(self.ruleset.id, dice, boxes)
            return None if category in placement.allowed else placement
        return None

    def bonus(self, dice: tuple, boxes: Mapping) -> int:
        """``rules.extra_bonus`` (zero unless five of a kind)."""
        if not is_five_of_a_kind(dice):
            return 0
        return rules.extra_bonus(self.ruleset.id, dice, boxes)

    def joker(self, dice: tuple, boxes: Mapping) -> bool:
        """True when the forced Joker rule applies to these dice on this sheet."""
        return rules.joker_applies(self.ruleset, dice, boxes)

    def totals(self, boxes: Mapping, extra_bonus_points: int) -> rules.Totals:
        """``rules.totals`` for a sheet whose boxes are known valid, without re-validating."""
        upper = sum(points for box, points in boxes.items() if box in self._upper)
        bonus = self.ruleset.upper_bonus if upper >= UPPER_BONUS_THRESHOLD else 0
        return rules.Totals(upper, bonus, sum(boxes.values()) - upper, extra_bonus_points)


class _ReplayState:
    """The sheet being rebuilt while a transcript is checked."""

    def __init__(self, ruleset, explain: bool):
        """An empty sheet of ``ruleset``."""
        self.ruleset = ruleset
        self.explain = explain
        self.checks: list[Check] = []
        self.boxes: dict[str, int] = {}
        self.dice: tuple | None = None
        self.rolls_in_turn = 0
        self.rolls_taken = 0
        self.extra_bonus = 0

    def record(self, name: str, ok: bool, detail: str) -> None:
        """Keep a check (a passing one only when explaining)."""
        if self.explain or not ok:
            self.checks.append(Check(name, ok, detail))

    def fail(self, name: str, detail: str) -> None:
        """Keep a failing check."""
        self.checks.append(Check(name, False, detail))

    def result(self) -> Replayed:
        """The outcome so far."""
        return Replayed(self.checks, self.boxes, self.extra_bonus, self.ruleset.id)

    @property
    def finished(self) -> bool:
        """True once every box is filled."""
        return len(self.boxes) == len(self.ruleset.categories)

    def roll(self, index: int, entry: Mapping, stream: DiceStream) -> None:
        """Check a roll entry; when legal, continue with the dice the stream gives."""
        name = f"roll {self.rolls_taken}"
        hold = entry.get("hold")
        problem = self._roll_problem(entry, hold)
        if problem:
            self.fail(name, f"action {index}: {problem}")
            return
        drawn = stream.roll(self.rolls_taken)
        current = self.dice or (0,) * 5
        dice = tuple(current[p] if hold[p] else drawn[p] for p in range(5))
        recorded = entry["dice"]
        exact = (isinstance(recorded, list | tuple) and len(recorded) == 5
                 and all(type(d) is int for d in recorded) and tuple(recorded) == dice)
        first = 5 * self.rolls_taken
        text = (f"stream dice {first}–{first + 4} give {dice_text(drawn)} with hold "
                f"{hold_text(hold)} → {dice_text(dice)}")
        if exact:
            self.record(name, True, text)
        else:
            self.fail(name, f"{text} but the transcript records {recorded!r}")
        self.dice = dice
        self.rolls_in_turn += 1
        self.rolls_taken += 1

    def _roll_problem(self, entry: Mapping, hold) -> str | None:
        """Why this roll is not a legal, well-formed roll entry now, or None."""
        if set(entry) != _ROLL_KEYS:
            return f"a roll entry has exactly the keys action, dice, hold; got {sorted(entry)}"
        if not isinstance(hold, list | tuple) or len(hold) != 5 or any(
            type(flag) is not bool for flag in hold
        ):
            return f"hold {hold!r} is not five true/false values"
        if self.finished:
            return "the game is over: every box is filled"
        if self.rolls_in_turn >= ROLLS_PER_TURN:
            return f"no rolls left: a turn has {ROLLS_PER_TURN} rolls"
        if self.dice is None and any(hold):
            return f"hold {hold_text(hold)} on a turn's first roll (nothing can be held yet)"
        return None

    def score(self, index: int, entry: Mapping, scorer: CachedRules) -> None:
        """Check a score entry; when legal, fill the box with what the rules give."""
        category = entry.get("category")
        name = f"box {category if isinstance(category, str) else _compact(category)}"
        problem = self._score_problem(entry, category, scorer)
        if problem:
            self.fail(name, f"action {index}: {problem}")
            return
        points = scorer.points(category, self.dice, self.boxes)
        bonus = scorer.bonus(self.dice, self.boxes)
        recorded = (entry["points"], entry["bonus"])
        exact = (type(recorded[0]) is int and type(recorded[1]) is int
                 and recorded == (points, bonus))
        joker = " (Joker rule)" if scorer.joker(self.dice, self.boxes) else ""
        text = (f"turn {len(self.boxes) + 1}: {dice_text(self.dice)} score {points} in "
                f"{category}{joker}, bonus {bonus}")
        if exact:
            self.record(name, True, f"{text} = recorded {points}, bonus {bonus}")
        else:
            self.fail(name, f"{text} but the transcript records points {recorded[0]!r}, "
                            f"bonus {recorded[1]!r}")
        self.boxes[category] = points
        self.extra_bonus += bonus
        self.dice = None
        self.rolls_in_turn = 0

    def _score_problem(self, entry: Mapping, category, scorer: CachedRules) -> str | None:
        """Why this score is not a legal, well-formed score entry now, or None."""
        if set(entry) != _SCORE_KEYS:
            return (f"a score entry has exactly the keys action, bonus, category, points; "
                    f"got {sorted(entry)}")
        if self.finished:
            return "the game is over: every box is filled"
        if self.dice is None:
            return "a box is scored before the turn's first roll"
        if not isinstance(category, str) or self.ruleset.category(category) is None:
            return f"{category!r} is not a box of {self.ruleset.id}"
        if category in self.boxes:
            return f"the {category} box is already filled"
        forbidding = scorer.allowed(category, self.dice, self.boxes)
        if forbidding is not None:
            return f"{forbidding.reason('en')} ({dice_text(self.dice)} may not go in {category})"
        return None


class FastReplay:
    """The whole-day audit's fast path: replays a transcript and compares it in one go.

    It rebuilds the canonical JSON the rules and the stream give and compares it with the
    transcript's own canonical JSON (which the transcript hash needs anyway): equal text means
    every entry is exactly what ``fairness.game.replay`` would accept, types included, without
    a check object per action. Anything else returns None, and the caller runs
    ``replay_checks`` to name the wrong entry.
    """

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring."""
        self.stream = stream
        self.scorer = scorer
        self.ruleset = scorer.ruleset
        self.box_ids = frozenset(self.ruleset.category_ids)
        self._entries: dict = {}  # (kind, ...) -> canonical text of an entry

    def run(self, transcript) -> "FastReplayed | None":
        """The replay's outcome when every entry is exactly what the rules give, else None."""
        try:
            text = json.dumps(transcript, sort_keys=True, separators=(",", ":"),
                              ensure_ascii=False)
            return self._replay(transcript, text)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return None

    def _replay(self, transcript: list, text: str) -> "FastReplayed | None":
        """Replay, rebuilding the expected canonical text entry by entry.

        Only five of a kind can bring the Joker rule or an extra bonus into play, so other
        dice go straight to the cached points of their box.
        """
        parts = []
        boxes: dict[str, int] = {}
        extra, dice, in_turn, taken = 0, None, 0, 0
        size, rolls, texts, scorer = (len(self.box_ids), self.stream.rolls, self._entries,
                                      self.scorer)
        for entry in transcript:
            if entry["action"] == "roll":
                h0, h1, h2, h3, h4 = entry["hold"]
                if len(boxes) == size or in_turn >= ROLLS_PER_TURN or (
                        dice is None and (h0 or h1 or h2 or h3 or h4)):
                    return None
                drawn = rolls[taken]
                if dice is not None:
                    drawn = (dice[0] if h0 else drawn[0], dice[1] if h1 else drawn[1],
                             dice[2] if h2 else drawn[2], dice[3] if h3 else drawn[3],
                             dice[4] if h4 else drawn[4])
                dice = drawn
                key = (h0, h1, h2, h3, h4, dice)
                parts.append(texts.get(key) or self._text(key))
                in_turn, taken = in_turn + 1, taken + 1
            else:
                category = entry["category"]
                if (dice is None or len(boxes) == size or category not in self.box_ids
                        or category in boxes):
                    return None
                if dice[0] == dice[1] == dice[2] == dice[3] == dice[4]:
                    if scorer.allowed(category, dice, boxes) is not None:
                        return None
                    bonus = scorer.bonus(dice, boxes)
                else:
                    bonus = 0
                points = scorer.points(category, dice, boxes)
                key = (category, points, bonus)
                parts.append(texts.get(key) or self._text(key))
                boxes[category] = points
                extra, dice, in_turn = extra + bonus, None, 0
        if "[" + ",".join(parts) + "]" != text:
            return None
        return FastReplayed(boxes, extra, scorer.totals(boxes, extra), text.encode("utf-8"))

    def _text(self, key: tuple) -> str:
        """The canonical JSON of the entry ``key`` describes, kept: entries recur all day.

        A roll's key is its five holds (as recorded: a 1 for a true is caught by the text
        comparison, whose expected text always says true) and its dice; a score's is its box,
        points and bonus.
        """
        if len(key) == 6:
            entry = {"action": "roll", "hold": [bool(h) for h in key[:5]], "dice": list(key[5])}
        else:
            entry = {"action": "score", "category": key[0], "points": key[1], "bonus": key[2]}
        text = self._entries[key] = canonical_json(entry).decode("utf-8")
        return text


@dataclass
class FastReplayed:
    """A fast replay that matched: the sheet, its totals, the transcript's canonical bytes."""

    boxes: dict
    extra_bonus: int
    totals: rules.Totals
    encoded: bytes


def _compact(value) -> str:
    """A value as compact JSON for a check's name or message (repr if it has none)."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(value)


def _encode(value) -> bytes:
    """Canonical JSON of a value already known to hold no float (checked by its format)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


# ---------------------------------------------------------------- a whole day


@dataclass(frozen=True)
class DayAudit:
    """A whole-day audit: its checks and the leaderboard recomputed from the replayed games."""

    checks: list
    leaderboard: list

    @property
    def ok(self) -> bool:
        """True when every check holds."""
        return all(check.ok is True for check in self.checks)


Progress = Callable[[int, int], None]


def audit_day(entries: list[dict], date: str, ruleset: str, games: list[dict],
              verify_signature: SignatureCheck | None = None,
              progress: Progress | None = None,
              published_leaderboard: Mapping | None = None) -> DayAudit:
    """Audit every game of one (date, sheet) on ONE shared dice stream.

    ``games`` is the ``games`` list of ``GET /days/<date>/<ruleset>/games``. Every game is
    replayed; every finished game's receipt must match it and be signed; the receipts' Merkle
    root and count must be the reveal entry's; the leaderboard is recomputed from the replays
    and, when given, compared with the published one (``GET /leaderboard/<date>/<ruleset>``).
    """
    view = LedgerView.read(entries)
    checks = check_ledger(entries, verify_signature)
    reveal = view.reveals.get(date)
    if reveal is None:
        checks.append(Check("reveal", False, f"{date} has no well-formed reveal entry in the "
                                             f"ledger ({len(view.entries)} entries)"))
        return DayAudit(checks, [])
    position = _position(view, reveal)
    problem = _reveal_problem(view, reveal, position, ruleset)
    if problem:
        checks.append(Check("reveal", False, problem))
        return DayAudit(checks, [])
    checks.append(Check("reveal", True, f"{date} revealed by entry {position} "
                                        f"(epoch {reveal['epoch']}, day {reveal['day']})"))
    checks.append(_seed_check(view, reveal))
    epoch = view.epoch_of(reveal["epoch"])
    auditor = _DayAuditor(reveal, ruleset, epoch, verify_signature)
    for done, game in enumerate(games, 1):
        auditor.audit(game)
        if progress is not None and (done % 1000 == 0 or done == len(games)):
            progress(done, len(games))
    checks.extend(auditor.checks())
    leaderboard = auditor.leaderboard()
    if published_leaderboard is not None:
        checks.append(check_leaderboard(published_leaderboard, leaderboard))
    return DayAudit(checks, leaderboard)


def check_leaderboard(published: Mapping, leaderboard: Sequence[Mapping]) -> Check:
    """The published leaderboard (players, top, distribution) against the replays' ranking.

    Equal totals share a rank (1 + the number of better totals); who comes first among them is
    the server's choice, so the top is compared as ranks, totals and (player, total) pairs.
    """
    totals = sorted((row["total"] for row in leaderboard), reverse=True)
    failures = []
    if published.get("players") != len(totals):
        failures.append(f"players {published.get('players')!r} ≠ {len(totals)} finished games")
    unclaimed = Counter((row["player"], row["total"]) for row in leaderboard)
    top = published.get("top") or []
    for place, row in enumerate(top, 1):
        total = row.get("total") if isinstance(row, dict) else None
        if place > len(totals) or total != totals[place - 1]:
            best = totals[place - 1] if place <= len(totals) else "nothing"
            failures.append(f"#{place}: total {total!r} ≠ the replays' #{place} {best}")
            continue
        rank = 1 + sum(1 for other in totals if other > total)
        if row.get("rank") != rank:  # a row with a matching total is an object
            failures.append(f"#{place}: rank {row.get('rank')!r} ≠ {rank} for a total of {total}")
        if unclaimed[(row.get("player"), total)] <= 0:
            failures.append(f"#{place}: {row.get('player')!r} has no replayed game totalling "
                            f"{total}")
        unclaimed[(row.get("player"), total)] -= 1
    bands = published.get("distribution") or []
    for band in bands:
        low, high = (band.get("from"), band.get("to")) if isinstance(band, dict) else (0, -1)
        if type(low) is not int or type(high) is not int or low > high:
            failures.append(f"score band {band!r} is not a from..to range")
            continue
        count = sum(1 for total in totals if low <= total <= high)
        if band.get("count") != count:
            failures.append(f"{low}–{high}: {band.get('count')!r} ≠ {count} replayed totals")
    return _aggregate("leaderboard", failures,
                      f"published players {len(totals)}, top {len(top)} and {len(bands)} score "
                      "bands = the ranking of the replayed games")


class _DayAuditor:
    """Accumulates one (date, sheet)'s game audits."""

    def __init__(self, reveal: Mapping, ruleset: str, epoch: Mapping | None,
                 verify_signature: SignatureCheck | None):
        """Prepare the shared stream and the cached rules."""
        self.reveal = reveal
        self.ruleset = ruleset
        self.epoch = epoch
        self.verify_signature = verify_signature
        self.stream = SharedStream(DiceStream(reveal["seed"], reveal["date"], ruleset))
        self.rules = CachedRules(ruleset)
        self.fast = FastReplay(self.stream, self.rules)
        self.failures: dict[str, list[str]] = {name: [] for name in _DAY_CHECKS}
        self.leaves: list[tuple[str, bytes]] = []
        self.results: list[dict] = []
        self.seen: set = set()
        self.games = 0
        self.signatures = 0

    def audit(self, game) -> None:
        """Audit one published game."""
        self.games += 1
        if not isinstance(game, Mapping) or not isinstance(game.get("id"), str):
            self.failures["games replayed"].append(f"game #{self.games}: no id")
            return
        game_id = game["id"]
        if game_id in self.seen:
            self.failures["games replayed"].append(f"game {game_id}: listed twice")
            return
        self.seen.add(game_id)
        transcript = game.get("transcript")
        replayed = self.fast.run(transcript)
        if replayed is None:  # something differs: the detailed replay names it
            replayed = replay_checks(transcript, self.stream, scorer=self.rules)
            failed = [c for c in replayed.checks if c.name != "game complete"]
            if failed:
                self.failures["games replayed"].append(
                    f"game {game_id}: {failed[0].name}: {failed[0].detail}")
        finished = game.get("status") == "finished"
        complete = len(replayed.boxes) == len(self.rules.ruleset.categories)
        if finished != complete:
            self.failures["games complete"].append(
                f"game {game_id}: status {game.get('status')!r} but "
                f"{len(replayed.boxes)} of {len(self.rules.ruleset.categories)} boxes filled")
        receipt = game.get("receipt")
        if receipt is None:
            if finished:
                self.failures["receipts"].append(f"game {game_id}: finished without a receipt")
            return
        self._audit_receipt(game, receipt, transcript, replayed)

    def _audit_receipt(self, game: Mapping, receipt, transcript, replayed) -> None:
        """Check a published game's receipt against the game, its replay, and its signature."""
        game_id = game["id"]
        problems = _field_problems(receipt, _RECEIPT_FIELDS, "receipt")
        expected = {"type": RECEIPT_TYPE, "game": game_id, "epoch": self.reveal["epoch"],
                    "date": self.reveal["date"], "ruleset": self.ruleset,
                    "player": game.get("player")}
        if not problems:
            problems = [f"{key} {receipt[key]!r} ≠ {value!r}"
                        for key, value in expected.items() if receipt[key] != value]
        if problems:
            self.failures["receipts"].append(f"game {game_id}: {'; '.join(problems)}")
            return
        encoded = getattr(replayed, "encoded", None) or safe_canonical(transcript)
        actual = hashlib.sha256(encoded).hexdigest() if encoded is not None else None
        if actual != receipt["transcript_sha256"]:
            self.failures["transcript hashes"].append(
                f"game {game_id}: SHA-256 of the transcript {actual} ≠ receipt "
                f"transcript_sha256 {receipt['transcript_sha256']}")
        total = replayed.totals.total
        if total != receipt["total"]:
            self.failures["totals"].append(
                f"game {game_id}: recomputed {total} ≠ receipt total {receipt['total']}")
        # A well-formed receipt holds no float, so its plain canonical encoding is exact.
        message = _encode(unsigned(receipt))
        if self.verify_signature is not None:
            key = self.epoch["public_key"]
            if not self.verify_signature(key, message, receipt["sig"]):
                self.failures["receipt signatures"].append(
                    f"game {game_id}: sig {short(receipt['sig'])} is not a valid Ed25519 "
                    f"signature by epoch {receipt['epoch']}'s key {short(key)}")
            self.signatures += 1
        self.leaves.append((game_id, merkle.leaf_hash(message)))
        self.results.append({"player": game.get("player"), "name": game.get("name"),
                             "game": game_id, "total": total})

    def checks(self) -> list[Check]:
        """The day's checks, aggregated over its games."""
        games, receipts = self.games, len(self.leaves)
        successes = {
            "games replayed": f"{games} games: every roll equals the shared stream with its "
                              "holds, every box follows the rules",
            "games complete": f"{receipts} finished with every box filled, "
                              f"{games - receipts} unfinished",
            "receipts": f"{receipts} receipts, each naming its game, player, date, sheet, epoch",
            "transcript hashes": f"{receipts} transcripts hash to their receipt's "
                                 "transcript_sha256",
            "totals": f"{receipts} recomputed totals = their receipt's total",
        }
        checks = [_aggregate(name, self.failures[name], successes[name])
                  for name in successes]
        if self.verify_signature is None:
            checks.append(Check("receipt signatures", None, NOT_CHECKED))
        else:
            checks.append(_aggregate("receipt signatures", self.failures["receipt signatures"],
                                     f"{self.signatures} valid Ed25519 signatures by epoch "
                                     f"{self.reveal['epoch']}'s key"))
        published = self.reveal["games"].get(self.ruleset)
        checks.append(Check("game count", receipts == published,
                            f"{receipts} receipts {'=' if receipts == published else '≠'} "
                            f"reveal games[{self.ruleset}] {published}"))
        leaves = [leaf for _, leaf in sorted(self.leaves, key=lambda item: item[0])]
        root = merkle.root(leaves).hex()
        checks.append(Check("merkle root", root == self.reveal["roots"][self.ruleset],
                            f"root of the {receipts} receipts by game id "
                            f"{compared(root, self.reveal['roots'][self.ruleset])} "
                            f"reveal roots[{self.ruleset}]"))
        return checks

    def leaderboard(self) -> list[dict]:
        """The finished games ranked by total (ties share a rank, then by game id)."""
        ranked = sorted(self.results, key=lambda r: (-r["total"], r["game"]))
        board, rank = [], 0
        for position, result in enumerate(ranked, 1):
            if position == 1 or result["total"] != ranked[position - 2]["total"]:
                rank = position
            board.append({"rank": rank, **result})
        return board


_DAY_CHECKS = ("games replayed", "games complete", "receipts", "transcript hashes", "totals",
               "receipt signatures")
