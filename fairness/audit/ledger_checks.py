"""The ledger's checks: format, numbering, hash links, signatures, reveal dates, seed chains."""

import datetime as dt
from collections.abc import Collection, Mapping

from ..canonical import sha256_hex
from ..chain import previous_seed
from ..dates import parse_date
from ..ledger import GENESIS_PREV, is_epoch_entry
from .checks import (
    NOT_CHECKED,
    Check,
    SignatureCheck,
    aggregate,
    field_problems,
    safe_canonical,
    short,
    signature_valid,
)
from .ledger_view import ENTRY_FIELDS, LedgerView, entry_value_problems


def check_ledger(entries: list[dict], verify_signature: SignatureCheck | None = None
                 ) -> list[Check]:
    """Check the whole ledger: format, numbering, hash links, signatures, dates, seed chains."""
    return ledger_checks(LedgerView.read(entries), verify_signature)


def ledger_checks(view: LedgerView, verify_signature: SignatureCheck | None) -> list[Check]:
    """``check_ledger`` on a ledger already read."""
    return [
        _check_ledger_format(view),
        _check_sequence(view),
        _check_links(view),
        _check_ledger_signatures(view, verify_signature),
        _check_reveal_dates(view),
        _check_seed_chains(view),
        _check_seed_successions(view),
    ]


def check_recorded_keys(entries: list[dict], recorded: Collection[str]) -> list[Check]:
    """One check per epoch entry: its ``public_key`` is one of the keys the auditor recorded
    earlier (``--expect-key``); with no epoch entry at all, one failing ``recorded key``."""
    epochs = [entry for entry in entries if is_epoch_entry(entry)]
    if not epochs:
        return [Check("recorded key", False, "no epoch entry to compare with the recorded keys")]
    checks = []
    for entry in epochs:
        key, name = entry.get("public_key"), f"epoch {entry.get('epoch')!r} key"
        if key in recorded:
            checks.append(Check(name, True, f"public_key {key} = a recorded key"))
        else:
            checks.append(Check(name, False, f"public_key {key!r} ≠ the recorded key "
                                             f"{' or '.join(sorted(recorded))}"))
    return checks


def reveal_check(view: LedgerView, date: str, ruleset: str, epoch: int | None = None) -> Check:
    """``date`` is revealed in the ledger (in ``epoch`` when given), usable for ``ruleset``."""
    reveal = view.reveals.get(date)
    if reveal is None:
        return Check("reveal", False, f"{date} has no well-formed reveal entry in the ledger "
                                      f"({len(view.entries)} entries)")
    position = view.position(reveal)
    if epoch is not None and reveal["epoch"] != epoch:
        return Check("reveal", False, f"receipt epoch {epoch} ≠ epoch "
                                      f"{reveal['epoch']} of the reveal of {date} "
                                      f"(entry {position})")
    if ruleset not in reveal["roots"] or ruleset not in reveal["games"]:
        return Check("reveal", False,
                     f"the reveal of {date} (entry {position}) has no {ruleset} root")
    if view.epoch_of(reveal["epoch"]) is None:
        return Check("reveal", False,
                     f"the reveal of {date} (entry {position}) names epoch {reveal['epoch']}, "
                     "which has no well-formed epoch entry")
    return Check("reveal", True, f"{date} revealed by entry {position} "
                                 f"(epoch {reveal['epoch']}, day {reveal['day']})")


def seed_check(view: LedgerView, reveal: Mapping) -> Check:
    """The revealed seed of a date hashes down to its epoch's anchor."""
    problem = _seed_chain_problem(view, reveal, {})
    if problem:
        return Check("seed", False, problem)
    epoch = view.epoch_of(reveal["epoch"])
    return Check("seed", True, f"seed {short(reveal['seed'])} hashed down {reveal['day']} steps "
                               f"= epoch {reveal['epoch']}'s anchor {short(epoch['anchor'])}")


def _check_ledger_format(view: LedgerView) -> Check:
    """Every entry is an epoch or a reveal entry with exactly its fields, well typed."""
    failures = []
    for position, entry in enumerate(view.entries):
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        fields = ENTRY_FIELDS.get(kind)
        if fields is None:
            failures.append(f"entry {position}: unknown type {kind!r}")
            continue
        problems = field_problems(entry, fields, f"entry {position}")
        if not problems:
            problems = entry_value_problems(entry)
        failures.extend(f"entry {position}: {problem}" for problem in problems)
    count = len(view.entries)
    return aggregate("ledger format", failures,
                     f"{count} entries, each an epoch or reveal entry with exactly its fields")


def _check_sequence(view: LedgerView) -> Check:
    """Entry ``i`` carries ``seq`` ``i``."""
    failures = []
    for position, entry in enumerate(view.entries):
        seq = entry.get("seq") if isinstance(entry, Mapping) else None
        if type(seq) is not int or seq != position:
            failures.append(f"entry {position}: seq {seq!r} ≠ position {position}")
    return aggregate("ledger sequence", failures,
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
        expected = None if encoded is None else sha256_hex(encoded)
    return aggregate("ledger links", failures,
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
        if is_epoch_entry(entry):
            key = entry.get("public_key")
        else:
            epoch = view.epoch_of(entry.get("epoch"))
            key = epoch["public_key"] if epoch else None
        if key is None:
            failures.append(f"entry {position}: no published key for epoch {entry.get('epoch')!r}")
        elif not signature_valid(verify_signature, key, entry):
            failures.append(f"entry {position}: sig {short(entry.get('sig'))} is not a valid "
                            f"Ed25519 signature by {short(key)} of its {entry.get('type')} fields")
    return aggregate("ledger signatures", failures,
                     f"{len(view.entries)} entries, each a valid Ed25519 signature by its "
                     "epoch's published key")


def _check_reveal_dates(view: LedgerView) -> Check:
    """Each reveal names a published epoch, a day inside it, its date, and that epoch's sheets."""
    failures = []
    seen = {}
    reveals = view.well_formed_reveals()
    for position, entry in reveals:
        epoch = view.epoch_of(entry["epoch"])
        if epoch is None or view.position(epoch) > position:
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
    return aggregate("reveal dates", failures,
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
    for key in ("games", "roots", "logs")[:3 if "logs" in entry else 2]:
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
    return aggregate("seed chains", failures, f"{len(by_day)} reveals, each seed hashes down "
                                              "`day` steps to its epoch's anchor")


def _first_reveal_per_day(view: LedgerView) -> dict:
    """(epoch, day) → (position, entry) of the first well-formed reveal of that day."""
    by_day: dict = {}
    for position, entry in view.well_formed_reveals():
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
        current = previous_seed(current)
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
        stepped = previous_seed(bytes.fromhex(entry["seed"])).hex()
        if stepped != previous:
            failures.append(f"entry {position}: seed {short(entry['seed'])} steps down to "
                            f"{stepped} ≠ {source} {previous}")
    return aggregate("seed successions", failures,
                     f"{len(by_day)} reveals, each seed one step above the previous day's")
