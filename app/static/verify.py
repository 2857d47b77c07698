#!/usr/bin/env python3
"""Yacht Daily — standalone verifier. Python 3.9+, standard library only.

This file is a second, independent implementation of FAIRNESS.md: it does not use the
server's code. It recomputes everything from what the server published.

    python3 verify.py game https://yacht.example GAME_ID
    python3 verify.py day  https://yacht.example 2026-11-29 yahtzee
    python3 verify.py files --ledger ledger.json --receipt receipt.json \\
                            --transcript transcript.json [--proof proof.json]
    python3 verify.py match https://yacht.example/api/v1/matches/MATCH_ID
    python3 verify.py match match.json --ledger ledger.json   (or --key HEX)
    python3 verify.py log   --ledger ledger.json --log log.json --date 2026-12-02 \\
                            --sheet yahtzee [--games games.json] [--receipt r.json \\
                            --proof p.json] [--saved checkpoint.txt] [--witness VKEY]
    python3 verify.py log   --url https://yacht.example --date 2026-12-02 \\
                            --sheet yahtzee [--witness VKEY] [--friend share.txt]

The log mode checks a v2 day's log of finished games (FAIRNESS.md, "The day's log"): its
signed checkpoints, their consistency, the close checkpoint against the reveal, the final
transcripts, a receipt's place in the log, checkpoints you kept, and the cosignatures of the
witnesses you name (--witness, repeatable; --quorum k, default all of them). With --url it
fetches what is not given as a file from the server. --friend FILE checks the fingerprint in a
friend's share text ("log <date>/<sheet> <size> XXXX-…") against the log as served to you.

Each mode takes --expect-key HEX (repeatable) or --expect-key FILE: the epoch public keys you
recorded earlier, each epoch entry's key is then checked to be one of them. The day mode reads
the day's games page by page (--page-size, default 1000) and keeps only the leaf hashes and
totals of the games already checked, so its memory stays small on a busy day.

It checks the ledger's hash links and signatures, that each revealed seed chains down to its
epoch's anchor and to the previous day's seed, every roll against the day's dice stream (dealt
per turn or sequentially, as the date's epoch entry published), every box's points (Joker rule
included), the total, the receipt's signature and its inclusion proof in the day's Merkle
root. One line per check, "✓" or "✗". Ed25519 signatures are checked with the `cryptography`
package when it is installed; otherwise the script says they were NOT checked. Exit status:
0 every check holds, 1 something failed, 2 bad usage or download, 3 nothing failed but some
checks could not be made.

Reading guide: the protocol itself is in the first two sections (the sheets' rules; bytes and
hashes: canonical JSON, the seed chain, the dice stream, Merkle trees, Ed25519); the rest checks
published objects against it (formats, the ledger, a game's actions, one game, a whole day)
and runs the command line.
"""

import argparse
import base64
import binascii
import datetime
import functools
import hashlib
import hmac
import itertools
import json
import marshal
import re
import struct
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from json.encoder import encode_basestring  # json.dumps's escaping (ensure_ascii=False)

GENESIS = "0" * 64
EPOCH, REVEAL, RECEIPT = "yacht-daily/epoch/v1", "yacht-daily/reveal/v1", "yacht-daily/receipt/v1"
REVEAL2, RECEIPT2 = "yacht-daily/reveal/v2", "yacht-daily/receipt/v2"
EPOCH2 = "yacht-daily/epoch/v2"  # a v1 epoch entry plus the dealing of its dates
EPOCHS = (EPOCH, EPOCH2)
# The dealing (FAIRNESS.md, "The dice stream"): which slot of five dice a game's roll takes.
# Per turn (epoch v2, match v2), roll r of turn t takes slot 3t + r; sequentially (every v1
# epoch and match), roll n of the whole game takes slot n.
PER_TURN, SEQUENTIAL = "per-turn", "sequential"
ROLLS_PER_TURN = 3
CHAIN_MESSAGE = b"yacht-daily/chain/v1"
HEX_DIGITS = set("0123456789abcdef")
NOT_CHECKED = "NOT checked: no Ed25519 verifier available (install the cryptography package)"

# ---------------------------------------------------------------------- the sheets' rules

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
YAHTZEE_LOWER = ["three-of-a-kind", "four-of-a-kind", "full-house", "small-straight",
                 "large-straight", "yahtzee", "chance"]
YATZY_LOWER = ["one-pair", "two-pairs", "three-of-a-kind", "four-of-a-kind", "small-straight",
               "large-straight", "full-house", "chance", "yatzy"]
GENERALA_LOWER = ["escalera", "full", "poker", "generala", "doble-generala"]


def _sheet(lower, upper_bonus=0, kind_box=None, extra=0, joker=False, columns=1,
           first_roll_bonus=None, second_five=None):
    """A sheet: its boxes in order and its sheet-level rules. A sheet of several columns has
    the boxes ``<box>@1`` (worth ×1), ``<box>@2`` (×2)… column by column."""
    kinds = UPPER + lower
    boxes = kinds if columns == 1 else [f"{b}@{k}" for k in range(1, columns + 1) for b in kinds]
    return {"boxes": boxes, "lower": [b for b in boxes if kind_of(b) in lower],
            "upper_bonus": upper_bonus, "kind_box": kind_box,
            "kind_boxes": [b for b in boxes if kind_of(b) == kind_box], "extra": extra,
            "joker": joker, "columns": columns, "first_roll_bonus": first_roll_bonus or {},
            "second_five": second_five,
            "upper_columns": [[b for b in boxes if kind_of(b) in UPPER and multiplier(b) == k]
                              for k in range(1, columns + 1)]}


def kind_of(box):
    """The box a column box repeats (``ones@2`` → ``ones``)."""
    return box.split("@")[0]


def multiplier(box):
    """What a box's column multiplies its points by (``@k`` → k; 1 without a column)."""
    return int(box.split("@")[1]) if "@" in box else 1


SHEETS = {
    "yacht": _sheet(["full-house", "four-of-a-kind", "little-straight", "big-straight",
                     "choice", "yacht"]),
    "yacht-bonus": _sheet(["choice", "four-of-a-kind", "full-house", "small-straight",
                           "large-straight", "yacht"], upper_bonus=35),
    "yahtzee": _sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, True),
    "yahtzee-no-joker": _sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, False),
    "yahtzee-no-bonus": _sheet(YAHTZEE_LOWER, 35, "yahtzee", 0, True),
    "yahtzee-no-joker-no-bonus": _sheet(YAHTZEE_LOWER, 35, "yahtzee", 0, False),
    "yatzy": _sheet(YATZY_LOWER, upper_bonus=50),
    "generala": _sheet(GENERALA_LOWER, kind_box="generala", second_five="doble-generala",
                       first_roll_bonus={"escalera": 5, "full": 5, "poker": 5, "generala": 50}),
    "yahtzee-triple": _sheet(YAHTZEE_LOWER, 35, "yahtzee", 100, True, columns=3),
}
JOKER_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def face_points(sheet_id, box, dice):
    """What five dice are worth in ``box`` of the sheet, before the Joker rule, the first-roll
    bonus and the doble generala's condition."""
    if "@" in box:  # a column of the triple sheet: the Yahtzee box times the column
        return multiplier(box) * face_points("yahtzee", kind_of(box), dice)
    counts = sorted(Counter(dice).values())
    faces, total = set(dice), sum(dice)
    yacht_family = sheet_id in ("yacht", "yacht-bonus")
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * dice.count(face)
    if sheet_id == "yatzy":
        return yatzy_points(box, dice)
    if sheet_id == "generala":
        return generala_points(box, dice)
    if box in ("choice", "chance"):
        return total
    if box == "three-of-a-kind":
        return total if counts[-1] >= 3 else 0
    if box == "four-of-a-kind":
        if counts[-1] < 4:
            return 0
        return 4 * Counter(dice).most_common(1)[0][0] if sheet_id == "yacht" else total
    if box == "full-house":
        return (total if yacht_family else 25) if counts == [2, 3] else 0
    if box == "little-straight":
        return 30 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if box == "big-straight":
        return 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if box == "small-straight":
        runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
        return (15 if yacht_family else 30) if any(run <= faces for run in runs) else 0
    if box == "large-straight":
        return (30 if yacht_family else 40) if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if box in ("yacht", "yahtzee"):
        return 50 if len(faces) == 1 else 0
    raise ValueError(box)


def yatzy_points(box, dice):
    """Scandinavian Yatzy's lower boxes: only the dice that make the combination count."""
    counts = Counter(dice)
    pairs = sorted(face for face, count in counts.items() if count >= 2)
    face, most = counts.most_common(1)[0]
    return {
        "one-pair": 2 * pairs[-1] if pairs else 0,
        "two-pairs": 2 * sum(pairs) if len(pairs) == 2 else 0,
        "three-of-a-kind": 3 * face if most >= 3 else 0,
        "four-of-a-kind": 4 * face if most >= 4 else 0,
        "small-straight": 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0,
        "large-straight": 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0,
        "full-house": sum(dice) if sorted(counts.values()) == [2, 3] else 0,
        "chance": sum(dice),
        "yatzy": 50 if most == 5 else 0,
    }[box]


def generala_points(box, dice):
    """Generala's lower boxes, fixed values (not made on the first roll)."""
    shape = sorted(Counter(dice).values())
    made = {"escalera": sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]),
            "full": shape == [2, 3], "poker": shape[-1] >= 4, "generala": shape == [5],
            "doble-generala": shape == [5]}[box]
    return {"escalera": 20, "full": 30, "poker": 40, "generala": 50,
            "doble-generala": 100}[box] if made else 0


def joker_applies(sheet, dice, boxes):
    """The forced Joker rule places a further five-of-a-kind once every box of its kind (one
    per column) is filled."""
    return sheet["joker"] and len(set(dice)) == 1 and all(b in boxes for b in sheet["kind_boxes"])


def further_five(sheet, dice, boxes):
    """Five of a kind once every five-of-a-kind box is filled: only then can the sheet change
    what the dice score (the Joker rule, the extra bonus, the doble generala's condition)."""
    return len(set(dice)) == 1 and bool(sheet["kind_boxes"]) and \
        all(b in boxes for b in sheet["kind_boxes"])


def kind_boxes_hold_points(sheet, boxes):
    """Every five-of-a-kind box of the sheet holds its points (not 0)."""
    return bool(sheet["kind_boxes"]) and all(boxes.get(b) for b in sheet["kind_boxes"])


def allowed_boxes(sheet, dice, boxes):
    """The free boxes these dice may go in now (the Joker rule may narrow them)."""
    free = [box for box in sheet["boxes"] if box not in boxes]
    if not joker_applies(sheet, dice, boxes):
        return free
    upper_kind = UPPER[dice[0] - 1]
    upper = [box for box in free if kind_of(box) == upper_kind]
    return upper or [box for box in free if box in sheet["lower"]] or free


FACE_POINTS = {}  # (sheet, box, sorted dice, first roll) -> points: the dice recur all day


def points(sheet_id, box, dice, boxes, first_roll=False):
    """What the dice score in ``box`` on this sheet, Joker, first-roll bonus (Generala's
    servida) and doble generala included."""
    sheet = SHEETS[sheet_id]
    if kind_of(box) in JOKER_POINTS and joker_applies(sheet, dice, boxes):
        return JOKER_POINTS[kind_of(box)] * multiplier(box)
    if box == sheet["second_five"] and not kind_boxes_hold_points(sheet, boxes):
        return 0
    key = (sheet_id, box, tuple(sorted(dice)), first_roll)  # 252 multisets of five dice
    if key not in FACE_POINTS:
        worth = face_points(sheet_id, box, dice)
        if first_roll and worth:
            worth += sheet["first_roll_bonus"].get(box, 0)
        FACE_POINTS[key] = worth
    return FACE_POINTS[key]


def extra_bonus(sheet, dice, boxes, box=None):
    """A further five-of-a-kind while every five-of-a-kind box holds its points: the sheet's
    extra bonus times the multiplier of the box the dice go in."""
    five = len(set(dice)) == 1 and sheet["extra"] and kind_boxes_hold_points(sheet, boxes)
    return sheet["extra"] * (multiplier(box) if box else 1) if five else 0


NO_POINTS = (0,) * len(UPPER)  # an empty upper box of a column counts 0


def totals(sheet, boxes, extra):
    """upper, upper bonus, lower, extra bonus, total; column k's upper bonus is the bonus × k
    once its upper boxes total 63 × k."""
    columns = [sum(map(boxes.get, column, NO_POINTS)) for column in sheet["upper_columns"]]
    upper = sum(columns)
    lower = sum(boxes.values()) - upper
    bonus = sum(sheet["upper_bonus"] * k for k, column_upper in enumerate(columns, 1)
                if column_upper >= 63 * k)
    return upper, bonus, lower, extra, upper + bonus + lower + extra


# ---------------------------------------------------------------------- bytes and hashes


def canonical(value):
    """Canonical JSON: sorted keys, no spaces, UTF-8, no floats."""
    reject_floats(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def reject_floats(value):
    """Raise ValueError if a float hides anywhere in ``value``: it has no canonical form."""
    if isinstance(value, float):
        raise ValueError("canonical JSON holds no floats")
    children = value.values() if isinstance(value, dict) else \
        value if isinstance(value, (list, tuple)) else ()
    for child in children:
        reject_floats(child)


def sha256(data):
    """Hex SHA-256."""
    return hashlib.sha256(data).hexdigest()


def unsigned_bytes(obj):
    """The bytes a signature covers: the object without ``sig``, canonical."""
    return canonical({k: v for k, v in obj.items() if k != "sig"})


def step_down(seed):
    """One step down the seed chain: s(i-1) = HMAC-SHA256(s(i), "yacht-daily/chain/v1")."""
    return hmac.new(seed, CHAIN_MESSAGE, hashlib.sha256).digest()


def dice_stream(seed_hex, date, sheet_id, count):
    """The first ``count`` dice of the day's stream for a sheet."""
    dice, block, seed = [], 0, bytes.fromhex(seed_hex)
    while len(dice) < count:
        message = f"yacht-daily/dice/v1|{date}|{sheet_id}|{block}".encode()
        dice += [b % 6 + 1 for b in hmac.new(seed, message, hashlib.sha256).digest() if b < 252]
        block += 1
    return dice[:count]


def roll_slot(dealing, turn, roll_in_turn, rolls_taken):
    """The slot (dice 5n..5n+4 of the stream) a game's roll takes: roll ``roll_in_turn`` of
    turn ``turn`` (both 0-based; the turn is the number of boxes filled) per turn, and the
    number of rolls the game took before it sequentially."""
    return ROLLS_PER_TURN * turn + roll_in_turn if dealing == PER_TURN else rolls_taken


def merkle_leaf(data):
    """RFC 9162 leaf hash."""
    return hashlib.sha256(b"\x00" + data).digest()


def merkle_node(left, right):
    """RFC 9162 node hash."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def merkle_root(leaves):
    """RFC 9162 root of the leaf hashes, in order."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    level = list(leaves)
    while len(level) > 1:
        pairs = [merkle_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = pairs + level[-1:] if len(level) % 2 else pairs
    return level[0]


def proof_root(leaf, index, size, path):
    """The root an RFC 9162 (2.1.3.2) inclusion proof leads to, or None if it is ill-shaped."""
    if not 0 <= index < size:
        return None
    fn, sn, result = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return None
        if fn % 2 == 1 or fn == sn:
            result = merkle_node(sibling, result)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            result = merkle_node(result, sibling)
        fn, sn = fn // 2, sn // 2
    return result if sn == 0 else None


def ed25519_verifier():
    """A function (key hex, message, signature hex) -> bool, or None without `cryptography`."""
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


# ---------------------------------------------------------------------- formats


def is_hex(value, digits):
    """Exactly ``digits`` lowercase hex digits."""
    return isinstance(value, str) and len(value) == digits and set(value) <= HEX_DIGITS


def is_date(value):
    """A YYYY-MM-DD calendar date."""
    try:
        return datetime.date.fromisoformat(value).isoformat() == value
    except (TypeError, ValueError):
        return False


FIELDS = {
    EPOCH: {"type": str, "seq": int, "prev": 64, "epoch": int, "start": "date", "length": int,
            "anchor": 64, "public_key": 64, "rulesets": list, "published_at": str, "sig": 128},
    REVEAL: {"type": str, "seq": int, "prev": 64, "epoch": int, "date": "date", "day": int,
             "seed": 64, "games": dict, "roots": dict, "revealed_at": str, "sig": 128},
    RECEIPT: {"type": str, "game": str, "epoch": int, "date": "date", "ruleset": str,
              "player": str, "transcript_sha256": 64, "total": int, "sig": 128},
}
FIELDS[EPOCH2] = dict(FIELDS[EPOCH], dealing=str)
FIELDS[REVEAL2] = dict(FIELDS[REVEAL], logs=dict)
FIELDS[RECEIPT2] = dict(FIELDS[RECEIPT], index=int, finished_at="time")
TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def is_time(value):
    """A YYYY-MM-DDTHH:MM:SSZ time on a calendar date."""
    return isinstance(value, str) and bool(TIME.fullmatch(value)) and is_date(value[:10])


def format_problems(obj, kind):
    """What is wrong with the fields of an object of type ``kind`` (empty list: nothing)."""
    if not isinstance(obj, dict):
        return ["not a JSON object"]
    fields = FIELDS[kind]
    problems = []
    missing = [k for k in fields if k not in obj]
    extra = sorted(str(k) for k in obj if k not in fields)
    if missing:
        problems.append("missing " + ", ".join(missing))
    if extra:
        problems.append("unexpected " + ", ".join(extra))
    for key, want in fields.items():
        if key not in obj:
            continue
        value = obj[key]
        if want in (64, 128):
            good, wanted = is_hex(value, want), f"{want} hex digits"
        elif want == "date":
            good, wanted = is_date(value), "a YYYY-MM-DD date"
        elif want == "time":
            good, wanted = is_time(value), "a YYYY-MM-DDTHH:MM:SSZ time"
        else:
            good, wanted = type(value) is want, want.__name__
        if not good:
            problems.append(f"{key} {value!r} is not {wanted}")
    if problems or kind in (RECEIPT, RECEIPT2, MATCH, MATCH2):
        return problems
    if kind in EPOCHS:
        if not 1 <= obj["length"] <= 100000:
            problems.append(f"length {obj['length']} is not 1..100000")
        if any(r not in SHEETS for r in obj["rulesets"]):
            problems.append(f"rulesets {obj['rulesets']!r} names an unknown sheet")
        if kind == EPOCH2 and obj["dealing"] != PER_TURN:
            problems.append(f"dealing {obj['dealing']!r} is not {PER_TURN!r}")
    else:
        bad = {k: v for k, v in obj["games"].items() if type(v) is not int or v < 0}
        if bad:
            problems.append(f"games {bad!r} is not a count")
        for key in ("roots", "logs") if kind == REVEAL2 else ("roots",):
            bad = {k: v for k, v in obj[key].items() if not is_hex(v, 64)}
            if bad:
                problems.append(f"{key} {bad!r} is not 64 hex digits")
    return problems


# ---------------------------------------------------------------------- reporting


class Report:
    """The checks made so far, as (name, ok, detail); ok None: could not be checked."""

    def __init__(self):
        """No checks yet."""
        self.checks = []

    def add(self, name, ok, detail):
        """Record one check; return its outcome."""
        self.checks.append((name, ok, detail))
        return ok

    def over(self, name, failures, success):
        """One check over many items: holds with ``success``, or lists the first failures."""
        if not failures:
            return self.add(name, True, success)
        more = f"; and {len(failures) - 5} more" if len(failures) > 5 else ""
        return self.add(name, False, "; ".join(failures[:5]) + more)


def short(text):
    """A long hex value's first 12 digits."""
    text = str(text)
    return text[:12] + "…" if len(text) > 12 else text


def compare(left, right):
    """'a = b' (shortened) when equal, 'a ≠ b' in full when not."""
    return f"{short(left)} = {short(right)}" if left == right else f"{left} ≠ {right}"


def show(values):
    """Dice as [3,1,6,6,2], holds as [T,F,F,T,F]."""
    return "[" + ",".join("T" if v is True else "F" if v is False else str(v)
                          for v in values) + "]"


def signature_ok(verify, key, obj):
    """True when ``obj["sig"]`` is a valid Ed25519 signature of its unsigned bytes by ``key``."""
    try:
        message = unsigned_bytes(obj)
    except (ValueError, TypeError):
        return False
    return is_hex(obj.get("sig"), 128) and is_hex(key, 64) and verify(key, message, obj["sig"])


# ---------------------------------------------------------------------- the ledger


def check_ledger(report, entries, verify):
    """Format, numbering, hash links, signatures, dates and seed chains of every entry.

    Returns the well-formed epochs by number and reveals by date, as (position, entry).
    """
    epochs, reveals, well_formed, failures = {}, {}, [], []
    for i, entry in enumerate(entries):
        kind = entry.get("type") if isinstance(entry, dict) else None
        problems = format_problems(entry, kind) if kind in (*EPOCHS, REVEAL, REVEAL2) else \
            [f"unknown type {kind!r}"]
        failures += [f"entry {i}: {problem}" for problem in problems]
        if not problems and kind in EPOCHS:
            epochs.setdefault(entry["epoch"], (i, entry))
        elif not problems:
            reveals.setdefault(entry["date"], (i, entry))
            well_formed.append((i, entry))
    report.over("ledger format", failures,
                f"{len(entries)} entries, each an epoch or reveal entry with exactly its fields")

    failures = [f"entry {i}: seq {e.get('seq') if isinstance(e, dict) else None!r} ≠ position {i}"
                for i, e in enumerate(entries)
                if not isinstance(e, dict) or type(e.get("seq")) is not int or e["seq"] != i]
    report.over("ledger sequence", failures, f"seq 0..{len(entries) - 1} in order, no gap")

    failures, expected = [], GENESIS
    for i, entry in enumerate(entries):
        prev = entry.get("prev") if isinstance(entry, dict) else None
        source = "the genesis" if i == 0 else f"SHA-256 of entry {i - 1}"
        if expected is None:
            failures.append(f"entry {i}: entry {i - 1} has no canonical JSON")
        elif prev != expected:
            failures.append(f"entry {i}: prev {prev} ≠ {source} {expected}")
        try:
            expected = sha256(canonical(entry))
        except (ValueError, TypeError):
            expected = None
    report.over("ledger links", failures, f"{len(entries)} entries, each prev = SHA-256 of the "
                                          "entry before it, from the genesis 000…0")

    if verify is None:
        report.add("ledger signatures", None, NOT_CHECKED)
    else:
        failures = []
        for i, entry in enumerate(entries):
            number = entry.get("epoch") if isinstance(entry, dict) else None
            if isinstance(entry, dict) and entry.get("type") in EPOCHS:
                key = entry.get("public_key")
            elif type(number) is int and number in epochs:
                key = epochs[number][1]["public_key"]
            else:
                failures.append(f"entry {i}: no published key for epoch {number!r}")
                continue
            if not signature_ok(verify, key, entry):
                failures.append(f"entry {i}: sig {short(entry.get('sig'))} is not a valid Ed25519 "
                                f"signature by {short(key)} of its {entry.get('type')} fields")
        report.over("ledger signatures", failures, f"{len(entries)} entries, each a valid "
                                                   "Ed25519 signature by its epoch's published key")
    check_reveals(report, well_formed, epochs)
    return epochs, reveals


def check_reveals(report, reveals, epochs):
    """Each reveal's date, and its seed's chain down to the anchor and to the previous day."""
    failures, dated, by_day = [], {}, {}
    for i, entry in reveals:
        key = (entry["epoch"], entry["day"])
        by_day.setdefault(key, (i, entry))
        position, epoch = epochs.get(entry["epoch"], (None, None))
        if epoch is None or position > i:
            failures.append(f"entry {i}: epoch {entry['epoch']} is not published before it")
            continue
        problem = date_problem(entry, epoch)
        if problem:
            failures.append(f"entry {i}: {problem}")
        if key in dated:
            failures.append(f"entry {i}: epoch {key[0]} day {key[1]} already revealed by "
                            f"entry {dated[key]}")
        dated.setdefault(key, i)
    report.over("reveal dates", failures, f"{len(reveals)} reveals, each dated epoch start + "
                                          "day − 1 within its epoch, one per day")
    chains, successions, proven = [], [], {}
    for (number, day), (i, entry) in sorted(by_day.items()):
        epoch = epochs.get(number, (None, None))[1]
        problem = chain_problem(entry, epoch, proven)
        if problem:
            chains.append(f"entry {i}: {problem}")
        if day == 1:
            previous, source = epoch and epoch["anchor"], f"epoch {number}'s anchor"
        elif (number, day - 1) in by_day:
            j, before = by_day[(number, day - 1)]
            previous, source = before["seed"], f"day {day - 1}'s seed (entry {j})"
        else:
            successions.append(f"entry {i}: day {day - 1} of epoch {number} is not revealed")
            continue
        stepped = step_down(bytes.fromhex(entry["seed"])).hex()
        if stepped != previous:
            successions.append(f"entry {i}: seed {short(entry['seed'])} steps down to "
                               f"{stepped} ≠ {source} {previous}")
    report.over("seed chains", chains, f"{len(by_day)} reveals, each seed hashes down `day` "
                                       "steps to its epoch's anchor")
    report.over("seed successions", successions, f"{len(by_day)} reveals, each seed one step "
                                                 "above the previous day's")


def epoch_dealing(epoch):
    """The dealing of a well-formed epoch entry's dates: its ``dealing`` (v2), else sequential."""
    return epoch["dealing"] if epoch["type"] == EPOCH2 else SEQUENTIAL


def date_problem(entry, epoch):
    """Why a reveal's day, date or sheets do not fit its epoch (or None)."""
    day = entry["day"]
    if not 1 <= day <= epoch["length"]:
        return f"day {day} is not 1..{epoch['length']} of epoch {epoch['epoch']}"
    start = datetime.date.fromisoformat(epoch["start"])
    expected = (start + datetime.timedelta(days=day - 1)).isoformat()
    if entry["date"] != expected:
        return (f"date {entry['date']!r} ≠ epoch {epoch['epoch']} start {epoch['start']} "
                f"+ day {day} − 1 = {expected}")
    for key in ("games", "roots", "logs") if entry["type"] == REVEAL2 else ("games", "roots"):
        if sorted(entry[key]) != sorted(epoch["rulesets"]):
            return (f"{key} covers {sorted(entry[key])!r}, not the epoch's sheets "
                    f"{sorted(epoch['rulesets'])!r}")
    return None


def chain_problem(entry, epoch, proven):
    """Why a reveal's seed does not hash down ``day`` steps to the anchor (or None).

    Stops early at a seed already proven to reach the anchor: the same statement, less work.
    """
    day, number = entry["day"], entry["epoch"]
    if epoch is None or not 1 <= day <= epoch["length"]:
        return f"day {day} has no published epoch {number} to chain to"
    seed = bytes.fromhex(entry["seed"])
    for steps in range(day, 0, -1):
        if (number, steps) in proven:
            reached = proven[(number, steps)] == seed
            break
        seed = step_down(seed)
    else:
        reached = seed.hex() == epoch["anchor"]
    if not reached:
        return (f"seed {entry['seed']} hashed down {day} steps does not give epoch {number}'s "
                f"anchor {epoch['anchor']}")
    proven[(number, day)] = bytes.fromhex(entry["seed"])
    return None


# ---------------------------------------------------------------------- a game's actions


class Sheet:
    """A game's sheet being rebuilt: filled boxes, current dice, rolls taken, and the dealing
    its rolls are taken by."""

    def __init__(self, sheet_id, dealing=SEQUENTIAL):
        """An empty sheet."""
        self.id, self.rules, self.dealing = sheet_id, SHEETS[sheet_id], dealing
        self.boxes, self.extra, self.dice, self.rolls_in_turn, self.rolls = {}, 0, None, 0, 0

    def full(self):
        """Every box filled."""
        return len(self.boxes) == len(self.rules["boxes"])

    def roll_problem(self, entry):
        """Why this roll entry is not a legal roll now (or None)."""
        hold = entry.get("hold")
        if set(entry) != {"action", "hold", "dice"}:
            return f"a roll entry has exactly the keys action, dice, hold; got {sorted(entry)}"
        if not isinstance(hold, list) or len(hold) != 5 or any(type(h) is not bool for h in hold):
            return f"hold {hold!r} is not five true/false values"
        if self.full():
            return "the game is over: every box is filled"
        if self.rolls_in_turn >= 3:
            return "no rolls left: a turn has 3 rolls"
        if self.dice is None and any(hold):
            return f"hold {show(hold)} on a turn's first roll (nothing can be held yet)"
        return None

    def score_problem(self, entry):
        """Why this score entry is not a legal box choice now (or None)."""
        box = entry.get("category")
        if set(entry) != {"action", "category", "points", "bonus"}:
            return ("a score entry has exactly the keys action, bonus, category, points; "
                    f"got {sorted(entry)}")
        if self.full():
            return "the game is over: every box is filled"
        if self.dice is None:
            return "a box is scored before the turn's first roll"
        if not isinstance(box, str) or box not in self.rules["boxes"]:
            return f"{box!r} is not a box of {self.id}"
        if box in self.boxes:
            return f"the {box} box is already filled"
        allowed = allowed_boxes(self.rules, self.dice, self.boxes)
        if box not in allowed:
            return f"Joker rule: {show(self.dice)} may only go in {', '.join(allowed)}"
        return None


def replay(report, transcript, sheet_id, rolls, explain, dealing=SEQUENTIAL):
    """Check every action of a transcript against the stream's slots (``rolls``: element n is
    slot n) taken by ``dealing`` and the sheet's rules.

    Goes on after a wrong entry with what the rules give, so that every wrong entry is named.
    Reports only failures unless ``explain``. Returns the rebuilt Sheet.
    """
    sheet = Sheet(sheet_id, dealing)
    if not isinstance(transcript, list):
        report.add("transcript", False, "the transcript is not a list of actions")
        return sheet
    for i, entry in enumerate(transcript):
        action = entry.get("action") if isinstance(entry, dict) else None
        if action == "roll":
            replay_roll(report, sheet, i, entry, rolls, explain)
        elif action == "score":
            replay_score(report, sheet, i, entry, explain)
        else:
            report.add(f"action {i}", False, f"unknown action {action!r} (a roll or a score)")
    if explain or not sheet.full():
        report.add("game complete", sheet.full(),
                   f"{len(sheet.boxes)} of {len(sheet.rules['boxes'])} boxes filled")
    return sheet


def replay_roll(report, sheet, i, entry, rolls, explain):
    """A roll takes the five dice of the slot its dealing gives it (slot n: stream dice
    5n..5n+4); a held position keeps its die. A legal roll's slot is below 3 per box."""
    name = f"roll {sheet.rolls}"
    problem = sheet.roll_problem(entry)
    if problem:
        report.add(name, False, f"action {i}: {problem}")
        return
    slot = roll_slot(sheet.dealing, len(sheet.boxes), sheet.rolls_in_turn, sheet.rolls)
    hold, drawn, before = entry["hold"], rolls[slot], sheet.dice
    dice = [before[p] if hold[p] else drawn[p] for p in range(5)]
    got = entry["dice"]
    exact = isinstance(got, list) and all(type(d) is int for d in got) and got == dice
    if explain or not exact:
        text = (f"stream dice {5 * slot}–{5 * slot + 4} give {show(drawn)} "
                f"with hold {show(hold)} → {show(dice)}")
        report.add(name, exact, text if exact else f"{text} but the transcript records {got!r}")
    sheet.dice, sheet.rolls_in_turn, sheet.rolls = dice, sheet.rolls_in_turn + 1, sheet.rolls + 1


def replay_score(report, sheet, i, entry, explain):
    """The box's points and the extra bonus follow the sheet's rules, Joker included."""
    box = entry.get("category")
    name = f"box {box if isinstance(box, str) else json.dumps(box)}"
    problem = sheet.score_problem(entry)
    if problem:
        report.add(name, False, f"action {i}: {problem}")
        return
    worth = points(sheet.id, box, sheet.dice, sheet.boxes, sheet.rolls_in_turn == 1)
    bonus = extra_bonus(sheet.rules, sheet.dice, sheet.boxes, box)
    got = (entry["points"], entry["bonus"])
    exact = type(got[0]) is int and type(got[1]) is int and got == (worth, bonus)
    if explain or not exact:
        joker = " (Joker rule)" if joker_applies(sheet.rules, sheet.dice, sheet.boxes) else ""
        text = (f"turn {len(sheet.boxes) + 1}: {show(sheet.dice)} score {worth} in {box}{joker}, "
                f"bonus {bonus}")
        report.add(name, exact, f"{text} = recorded {worth}, bonus {bonus}" if exact
                   else f"{text} but the transcript records points {got[0]!r}, bonus {got[1]!r}")
    sheet.boxes[box], sheet.extra = worth, sheet.extra + bonus
    sheet.dice, sheet.rolls_in_turn = None, 0


# marshal version 2 writes no back-references and no interning marks: its bytes are a function
# of the value alone, and it refuses every type but the exact built-in ones, telling True from 1
# and 1.0. A marshalled list of dicts is "[", its length, then each dict as "{ ... 0".
MARSHAL_VERSION = 2


def fast_replay(transcript, sheet_id, rolls, steps, dealing=SEQUENTIAL):
    """The whole-day audit's shortcut: (Sheet, canonical bytes) when the transcript is exactly
    what the rules give, else None (then ``replay`` names what differs).

    The transcript's marshal bytes are cut into one piece per entry. A day's games share one
    stream and one dealing, so the same piece recurs in the same replay state (the slot the
    next roll takes, rolls in the turn, dice) in many games: ``steps`` (for one stream and one
    dealing) keeps, per state, what each piece does (the next state, the entry's canonical
    JSON, the box it fills), learnt once by ``replay``'s rules; and, under "read", what each
    piece says whatever the state (``read_entry``). The box filled twice, a roll after the last
    box, and five of a kind (the Joker rule, the extra bonus) depend on the whole sheet and are
    checked in every game.
    """
    if isinstance(transcript, PageTranscript):  # its pieces are its entries' own texts
        pieces, entries = transcript.pieces, itertools.repeat(None)
        steps = steps.setdefault("published", {})
    else:
        try:
            encoded = marshal.dumps(transcript, MARSHAL_VERSION)
        except ValueError:  # not plain JSON values
            return None
        pieces, entries = marshal_pieces(encoded), transcript
        if pieces is None:
            return None
    sheet = Sheet(sheet_id, dealing)
    node, texts, boxes = step_node(steps, (0, 0, None)), [], sheet.boxes
    for piece, entry in zip(pieces, entries, strict=False):  # entries may be repeat(None)
        step = node.get(piece) or learn_step(steps, node, piece, entry, sheet_id, rolls,
                                             dealing)
        if step is None:
            return None
        node, text, score = step
        texts.append(text)
        if score is not None:
            box, worth, bonus, five, first_roll, plain = score
            if box in boxes:
                return None
            if five is not None and further_five(sheet.rules, five, boxes):
                if (box not in allowed_boxes(sheet.rules, five, boxes)
                        or worth != points(sheet_id, box, five, boxes, first_roll)
                        or bonus != extra_bonus(sheet.rules, five, boxes, box)):
                    return None
            elif not plain:  # not what the box scores before the sheet matters
                return None
            boxes[box], sheet.extra = worth, sheet.extra + bonus
    if sheet.full() and node[None][1]:  # rolled after the last box
        return None
    return sheet, b"[" + b",".join(texts) + b"]"


class PageTranscript:
    """A transcript as a day's page publishes it: its exact text and the texts of its entries
    between their braces (``read_page`` checked each parses as a JSON object)."""

    __slots__ = ("text", "pieces")

    def __init__(self, text, pieces):
        """Keep the text and the entries' pieces."""
        self.text, self.pieces = text, pieces

    def parsed(self):
        """The transcript as json.loads reads it."""
        return json.loads(self.text)


# A transcript's text in a page: its key (the quote after "transcript" ends a string, and the
# ":" after it makes that a key in a valid page), then "[]" or "[{" up to the first "}]"
TRANSCRIPT_KEY = '"transcript":['


def read_page(text, objects):
    """A day's page (``GET /days/<date>/<sheet>/games``) as json.loads reads it, except that a
    game's transcript whose text can be cut exactly is a PageTranscript: its entries, cut at
    "},{", each parse as an object (``objects`` keeps the pieces known to, across the day's
    pages), so the cut text is a whole array. The page is parsed with a placeholder string
    starting with U+0000 in each cut transcript's place (a page that holds the escape \\u0000
    anywhere is parsed whole: every such string parsed is a placeholder), and each must come
    back as a game's transcript, or the page is parsed whole."""
    if "\\u0000" in text:
        return json.loads(text)
    parts, cut, done = [], [], 0
    found = text.find(TRANSCRIPT_KEY)
    while found >= 0:
        start = found + len(TRANSCRIPT_KEY) - 1
        if text.startswith("[]", start):
            end, pieces = start + 2, []
        elif not text.startswith("[{", start):
            found = text.find(TRANSCRIPT_KEY, start)
            continue
        else:
            end = text.find("}]", start) + 2
            if end < 2:
                break
            pieces = text[start + 2:end - 2].split("},{")
            for piece in () if objects.issuperset(pieces) else pieces:
                if piece not in objects:
                    try:
                        json.loads("{" + piece + "}")
                    except (ValueError, RecursionError):
                        return json.loads(text)
                    objects.add(piece)
        parts += [text[done:start], f'"\\u0000{len(cut)}"']
        cut.append(PageTranscript(text[start:end], pieces))
        done = end
        found = text.find(TRANSCRIPT_KEY, end)
    if not cut:
        return json.loads(text)
    try:
        page = json.loads("".join(parts) + text[done:])
    except (ValueError, RecursionError):
        return json.loads(text)
    games = page.get("games") if isinstance(page, dict) else None
    placed = 0
    for game in games if isinstance(games, list) else []:
        value = game.get("transcript") if isinstance(game, dict) else None
        if isinstance(value, str) and value.startswith("\0"):
            game["transcript"] = cut[int(value[1:])]
            placed += 1
    return page if placed == len(cut) else json.loads(text)


def read_pages(pages):
    """The games of a day's pages' texts, one after another, read by ``read_page``."""
    objects = set()
    for page in pages:
        yield from read_page(page, objects)["games"]


def marshal_pieces(encoded):
    """A marshalled list of dicts cut into one piece per dict (its bytes without "{" and "0"),
    or None when it is not a list of as many pieces as its length says."""
    if encoded[:1] != b"[":
        return None
    count = int.from_bytes(encoded[1:5], "little")
    if count == 0:
        return [] if len(encoded) == 5 else None
    if encoded[5:6] != b"{" or encoded[-1:] != b"0":
        return None
    pieces = encoded[6:-1].split(b"0{")
    return pieces if len(pieces) == count else None


def step_node(steps, state):
    """The dict of the steps learnt from a replay state; its state is kept under None."""
    if state not in steps:
        steps[state] = {None: state}
    return steps[state]


def learn_step(steps, node, piece, entry, sheet_id, rolls, dealing=SEQUENTIAL):
    """The step ``entry`` makes from ``node``'s state, kept under ``piece``; None when the
    entry does not marshal to exactly ``piece`` or is not what the rules allow there (the
    checks of ``Sheet.roll_problem``, ``replay_roll``, ``Sheet.score_problem`` and
    ``replay_score``). A roll takes the state's slot, the next roll the one after; a score
    moves to the next turn's first slot, by ``dealing``."""
    known = steps.setdefault("read", {})
    if piece not in known:
        known[piece] = read_entry(piece, entry, sheet_id)
    read = known[piece]
    if read is None:
        return None
    slot, in_turn, dice = node[None]
    if read[0] == "roll":
        hold, got = read[1], read[2]
        if slot >= len(rolls) or in_turn >= 3 or (dice is None and any(hold)):
            return None
        drawn, before = rolls[slot], dice or (0,) * 5
        if got != tuple(before[p] if hold[p] else drawn[p] for p in range(5)):
            return None
        after, score = (slot + 1, in_turn + 1, got), None
    else:  # five of a kind scores otherwise once the sheet matters: checked in every game
        box, worth, bonus = read[1], read[2], read[3]
        if dice is None:
            return None
        five = len(set(dice)) == 1
        plain = worth == points(sheet_id, box, dice, {}, in_turn == 1) and \
            bonus == extra_bonus(SHEETS[sheet_id], dice, {}, box)
        if not (five or plain):
            return None
        after = (next_turn_slot(dealing, slot, in_turn), 0, None)
        score = (box, worth, bonus, dice if five else None, in_turn == 1, plain)
    step = node[piece] = (step_node(steps, after), read[-1], score)
    return step


def next_turn_slot(dealing, slot, in_turn):
    """The slot of the next turn's first roll, after a turn of ``in_turn`` rolls whose next
    roll would have taken ``slot``: the same slot sequentially, the turn's first slot plus 3
    per turn."""
    return slot - in_turn + ROLLS_PER_TURN if dealing == PER_TURN else slot


def read_entry(piece, entry, sheet_id):
    """What an entry says whatever the state, with its canonical JSON last: ("roll", hold,
    dice, text) or ("score", box, points, bonus, text); None when it does not marshal to
    exactly ``piece`` or is not a well-formed entry (the keys and types ``replay`` requires).
    A published text's piece comes without its entry (None): the entry is what it parses to
    (``read_page`` checked that it parses)."""
    if entry is None:
        entry = json.loads("{" + piece + "}")
    else:
        try:
            if marshal.dumps(entry, MARSHAL_VERSION) != b"{" + piece + b"0":
                return None
        except ValueError:
            return None
    action = entry.get("action")
    if action == "roll" and set(entry) == {"action", "hold", "dice"}:
        hold, dice = entry["hold"], entry["dice"]
        if not (isinstance(hold, list) and len(hold) == 5 and all(type(h) is bool for h in hold)
                and isinstance(dice, list) and len(dice) == 5
                and all(type(d) is int for d in dice)):
            return None
        return "roll", tuple(hold), tuple(dice), canonical(entry)
    if action == "score" and set(entry) == {"action", "category", "points", "bonus"}:
        box, worth, bonus = entry["category"], entry["points"], entry["bonus"]
        if not (isinstance(box, str) and box in SHEETS[sheet_id]["boxes"]
                and type(worth) is int and type(bonus) is int):
            return None
        return "score", box, worth, bonus, canonical(entry)
    return None


def stream_rolls(seed_hex, date, sheet_id):
    """Every slot a game of this sheet can take under either dealing (3 per box), computed once
    for the day: element n is slot n, stream dice 5n..5n+4."""
    count = 3 * len(SHEETS[sheet_id]["boxes"])
    dice = dice_stream(seed_hex, date, sheet_id, 5 * count)
    return [dice[5 * n:5 * n + 5] for n in range(count)]


def transcript_digest(transcript):
    """The hex SHA-256 of the transcript's canonical JSON, or None if it has none."""
    try:
        return sha256(canonical(transcript)) if isinstance(transcript, list) else None
    except (ValueError, TypeError):
        return None


# ---------------------------------------------------------------------- one game


def find_reveal(report, entries, epochs, reveals, date, sheet_id, epoch_number=None):
    """The reveal entry of ``date`` for the sheet, checked with its seed chain; or None."""
    position, reveal = reveals.get(date, (None, None))
    if reveal is None:
        report.add("reveal", False, f"{date} has no well-formed reveal entry in the ledger "
                                    f"({len(entries)} entries)")
        return None
    if epoch_number is not None and reveal["epoch"] != epoch_number:
        report.add("reveal", False, f"receipt epoch {epoch_number} ≠ epoch {reveal['epoch']} of "
                                    f"the reveal of {date} (entry {position})")
        return None
    if sheet_id not in reveal["roots"] or sheet_id not in reveal["games"]:
        report.add("reveal", False, f"the reveal of {date} (entry {position}) has no {sheet_id} "
                                    "root")
        return None
    if reveal["epoch"] not in epochs:
        report.add("reveal", False, f"the reveal of {date} (entry {position}) names epoch "
                                    f"{reveal['epoch']}, which has no well-formed epoch entry")
        return None
    report.add("reveal", True, f"{date} revealed by entry {position} (epoch {reveal['epoch']}, "
                               f"day {reveal['day']})")
    epoch = epochs[reveal["epoch"]][1]
    problem = chain_problem(reveal, epoch, {})
    report.add("seed", not problem, problem or (
        f"seed {short(reveal['seed'])} hashed down {reveal['day']} steps = epoch "
        f"{epoch['epoch']}'s anchor {short(epoch['anchor'])}"))
    return reveal


def check_game(report, entries, receipt, transcript, proof, verify):
    """Everything one finished game proves, given the ledger, its receipt and transcript."""
    epochs, reveals = check_ledger(report, entries, verify)
    kind = receipt.get("type") if isinstance(receipt, dict) else None
    problems = format_problems(receipt, RECEIPT2 if kind == RECEIPT2 else RECEIPT)
    if not problems and receipt["type"] not in (RECEIPT, RECEIPT2):
        problems.append(f"type {receipt['type']!r} ≠ {RECEIPT} or {RECEIPT2}")
    if not problems and receipt["ruleset"] not in SHEETS:
        problems.append(f"ruleset {receipt['ruleset']!r} is no known sheet")
    if not report.over("receipt format", problems,
                       "a receipt with exactly its fields, well typed"):
        return
    sheet_id = receipt["ruleset"]
    reveal = find_reveal(report, entries, epochs, reveals, receipt["date"], sheet_id,
                         receipt["epoch"])
    if reveal is None:
        return
    if receipt["type"] == RECEIPT2 or reveal["type"] == REVEAL2:
        wanted = RECEIPT2 if reveal["type"] == REVEAL2 else RECEIPT
        report.add("receipt version", receipt["type"] == wanted,
                   f"receipt type {receipt['type']} {'=' if receipt['type'] == wanted else '≠'} "
                   f"{wanted} of a {reveal['type']} day")
    rolls = stream_rolls(reveal["seed"], receipt["date"], sheet_id)
    dealing = epoch_dealing(epochs[reveal["epoch"]][1])  # published before the date was played
    sheet = replay(report, transcript, sheet_id, rolls, True, dealing)
    upper, bonus, lower, extra, total = totals(sheet.rules, sheet.boxes, sheet.extra)
    same = total == receipt["total"]
    report.add("total", same, f"recomputed {total} (upper {upper} + bonus {bonus} + lower {lower} "
                              f"+ extra {extra}) {'=' if same else '≠'} receipt total "
                              f"{receipt['total']}")
    digest = transcript_digest(transcript)
    if digest is None:
        report.add("transcript hash", False,
                   "the transcript has no canonical JSON (not a list, or holds a float)")
    else:
        report.add("transcript hash", digest == receipt["transcript_sha256"],
                   f"SHA-256 of the transcript {compare(digest, receipt['transcript_sha256'])} "
                   "receipt transcript_sha256")
    key = epochs[reveal["epoch"]][1]["public_key"]
    if verify is None:
        report.add("receipt signature", None, NOT_CHECKED)
    else:
        valid = signature_ok(verify, key, receipt)
        report.add("receipt signature", valid,
                   f"sig {short(receipt['sig'])} is {'' if valid else 'not '}a valid Ed25519 "
                   f"signature by epoch {receipt['epoch']}'s key {short(key)}")
    check_proof(report, receipt, reveal, proof)


def check_proof(report, receipt, reveal, proof):
    """The proof's tree size is the day's count, and it leads the receipt's leaf to the root."""
    if proof is None:
        report.add("inclusion proof", None, "NOT checked: no inclusion proof given")
        return
    sheet_id = receipt["ruleset"]
    well_formed = (isinstance(proof, dict) and sorted(proof) == ["index", "path", "size"]
                   and type(proof["index"]) is int and type(proof["size"]) is int
                   and isinstance(proof["path"], list)
                   and all(is_hex(h, 64) for h in proof["path"]))
    if well_formed and "index" in receipt and proof["index"] != receipt["index"]:
        report.add("inclusion proof", False, f"malformed proof: index {proof['index']} ≠ "
                                             f"receipt index {receipt['index']}")
        return
    if not well_formed:
        report.add("inclusion proof", False, f"malformed proof: {proof!r}")
        return
    games = reveal["games"][sheet_id]
    report.add("proof size", proof["size"] == games, f"tree size {proof['size']} "
               f"{'=' if proof['size'] == games else '≠'} reveal games[{sheet_id}] {games}")
    leaf = merkle_leaf(unsigned_bytes(receipt))
    path = [bytes.fromhex(h) for h in proof["path"]]
    root = proof_root(leaf, proof["index"], games, path)  # size: the reveal's, not the proof's
    shown = root.hex() if root else "no root (index/size/path do not fit together)"
    report.add("inclusion proof", shown == reveal["roots"][sheet_id],
               f"leaf {short(leaf.hex())} at index {proof['index']} of {games} with "
               f"{len(path)} path hashes → root {compare(shown, reveal['roots'][sheet_id])} "
               f"reveal roots[{sheet_id}]")


# ---------------------------------------------------------------------- a whole day

DAY_CHECKS = ["games replayed", "games complete", "receipts", "transcript hashes", "totals",
              "receipt signatures"]


def check_day(report, entries, date, sheet_id, games, verify, public_board=None):
    """Replay every published game of (date, sheet) on one shared stream; check the receipts,
    their count and Merkle root against the reveal, and the published leaderboard when
    given. ``games`` may be any iterable (pages fetched one by one): only the leaf hashes and
    totals are kept. Returns the recomputed leaderboard as [(rank, total, game id, player)]."""
    epochs, reveals = check_ledger(report, entries, verify)
    if sheet_id not in SHEETS:
        report.add("reveal", False, f"{sheet_id!r} is no known sheet")
        return []
    reveal = find_reveal(report, entries, epochs, reveals, date, sheet_id)
    if reveal is None:
        return []
    key = epochs[reveal["epoch"]][1]["public_key"]
    kind = RECEIPT2 if reveal["type"] == REVEAL2 else RECEIPT  # v2: leaves in index order
    rolls = stream_rolls(reveal["seed"], date, sheet_id)
    dealing = epoch_dealing(epochs[reveal["epoch"]][1])  # published before the date was played
    failures = {name: [] for name in DAY_CHECKS}
    leaves, results, seen, steps, played, unverified = [], [], set(), {}, 0, []
    signed, key_ok = day_receipt_bytes(date, reveal["epoch"], sheet_id), is_hex(key, 64)
    for number, game in enumerate(games, 1):
        played = number
        game_id = game.get("id") if isinstance(game, dict) else None
        if not isinstance(game_id, str) or game_id in seen:
            failures["games replayed"].append(f"game #{number}: missing or repeated id "
                                              f"{game_id!r}")
            continue
        seen.add(game_id)
        transcript = game.get("transcript")
        fast = fast_replay(transcript, sheet_id, rolls, steps, dealing)
        if fast:
            sheet, encoded = fast
        else:
            own, encoded = Report(), None
            if isinstance(transcript, PageTranscript):
                transcript = transcript.parsed()
            sheet = replay(own, transcript, sheet_id, rolls, False, dealing)
            wrong = [check for check in own.checks if check[0] != "game complete"]
            if wrong:
                failures["games replayed"].append(f"game {game_id}: {wrong[0][0]}: "
                                                  f"{wrong[0][2]}")
        finished = game.get("status") == "finished"
        if finished != sheet.full():
            failures["games complete"].append(
                f"game {game_id}: status {game.get('status')!r} but {len(sheet.boxes)} of "
                f"{len(sheet.rules['boxes'])} boxes filled")
        receipt = game.get("receipt")
        if receipt is None:
            if finished:
                failures["receipts"].append(f"game {game_id}: finished without a receipt")
            continue
        message = signed(receipt, game_id, game.get("player")) if kind == RECEIPT else None
        if message is None:  # not plainly this game's receipt: the format checks say why
            problems = format_problems(receipt, RECEIPT2 if receipt.get("type") == RECEIPT2
                                       else RECEIPT) if isinstance(receipt, dict) \
                else ["not an object"]
            if not problems:
                expected = {"type": kind, "game": game_id, "epoch": reveal["epoch"],
                            "date": date, "ruleset": sheet_id, "player": game.get("player")}
                problems = [f"{k} {receipt[k]!r} ≠ {v!r}" for k, v in expected.items()
                            if receipt[k] != v]
            if problems:
                failures["receipts"].append(f"game {game_id}: {'; '.join(problems)}")
                continue
            message = unsigned_bytes(receipt)
        digest = sha256(encoded) if encoded else transcript_digest(transcript)
        if digest != receipt["transcript_sha256"]:
            failures["transcript hashes"].append(
                f"game {game_id}: SHA-256 of the transcript {digest} ≠ receipt "
                f"transcript_sha256 {receipt['transcript_sha256']}")
        total = totals(sheet.rules, sheet.boxes, sheet.extra)[4]
        if total != receipt["total"]:
            failures["totals"].append(f"game {game_id}: recomputed {total} ≠ receipt total "
                                      f"{receipt['total']}")
        if verify is not None:
            unverified.append((game_id, message, receipt["sig"]))
            if len(unverified) >= SIGNATURE_BATCH:
                verify_receipts(unverified, verify, key, key_ok, reveal["epoch"],
                                failures["receipt signatures"])
        order = receipt["index"] if kind == RECEIPT2 else game_id  # v2: the finish order
        leaves.append((order, merkle_leaf(message)))
        results.append((total, game_id, game.get("player")))
    verify_receipts(unverified, verify, key, key_ok, reveal["epoch"],
                    failures["receipt signatures"])
    count = len(leaves)
    indexes = sorted(order for order, _ in leaves)
    if kind == RECEIPT2 and indexes != list(range(count)):
        failures["receipts"].append(f"leaf indexes {indexes[:10]} are not 0..{count - 1}, "
                                    "each once")
    successes = {
        "games replayed": f"{played} games: every roll equals the shared stream with its holds, "
                          "every box follows the rules",
        "games complete": f"{count} finished with every box filled, {played - count} unfinished",
        "receipts": f"{count} receipts, each naming its game, player, date, sheet, epoch",
        "transcript hashes": f"{count} transcripts hash to their receipt's transcript_sha256",
        "totals": f"{count} recomputed totals = their receipt's total",
        "receipt signatures": f"{count} valid Ed25519 signatures by epoch {reveal['epoch']}'s key",
    }
    for name in DAY_CHECKS:
        if name == "receipt signatures" and verify is None:
            report.add(name, None, NOT_CHECKED)
        else:
            report.over(name, failures[name], successes[name])
    published = reveal["games"][sheet_id]
    report.add("game count", count == published, f"{count} receipts "
               f"{'=' if count == published else '≠'} reveal games[{sheet_id}] {published}")
    root = merkle_root([leaf for _, leaf in sorted(leaves, key=lambda item: item[0])]).hex()
    report.add("merkle root", root == reveal["roots"][sheet_id],
               f"root of the {count} receipts by {'index' if kind == RECEIPT2 else 'game id'} "
               f"{compare(root, reveal['roots'][sheet_id])} reveal roots[{sheet_id}]")
    board = leaderboard(results)
    if public_board is not None:
        check_leaderboard(report, public_board, board)
    return board


# Receipt signatures are checked a batch at a time, apart from the replays: alternating one
# Ed25519 verification with one replay costs both more (each evicts the other from the caches).
# Long runs pay: 4096 at a time cut a 10,000-game audit by 15 % against 256 (docs/performance.md)
SIGNATURE_BATCH = 4096


def verify_receipts(unverified, verify, key, key_ok, epoch, failures):
    """Check the (game id, signed bytes, sig) waiting in ``unverified`` by ``key`` (none is
    valid unless ``key_ok``: 64 hex digits) and empty it."""
    for game_id, message, sig in unverified:
        if not (key_ok and verify(key, message, sig)):
            failures.append(f"game {game_id}: sig {short(sig)} is not a valid Ed25519 signature "
                            f"by epoch {epoch}'s key {short(key)}")
    unverified.clear()


def day_receipt_bytes(date, epoch, sheet_id):
    """A function (receipt, game id, player) -> the bytes its signature covers (its canonical
    JSON without sig), written around the fields the day's receipts share; None when the
    receipt is not plainly a well-formed receipt of that game, player, date, epoch and sheet."""
    keys = set(FIELDS[RECEIPT])
    head = f'{{"date":{encode_basestring(date)},"epoch":{epoch},"game":'
    middle = f',"ruleset":{encode_basestring(sheet_id)},"total":'
    tail = f'","type":{encode_basestring(RECEIPT)}}}'

    def receipt_bytes(receipt, game_id, player):
        """The signed bytes of ``receipt``, or None (then the format checks say what)."""
        if type(receipt) is not dict or receipt.keys() != keys:
            return None
        game, owner, total = receipt["game"], receipt["player"], receipt["total"]
        digest, sig, number = receipt["transcript_sha256"], receipt["sig"], receipt["epoch"]
        kind, day, sheet = receipt["type"], receipt["date"], receipt["ruleset"]
        if not (type(game) is str and game == game_id and type(owner) is str and owner == player
                and type(total) is int and type(number) is int and number == epoch
                and plain_hex(digest, 64) and plain_hex(sig, 128)
                and type(kind) is str and kind == RECEIPT and type(day) is str and day == date
                and type(sheet) is str and sheet == sheet_id):
            return None
        return (f"{head}{encode_basestring(game)},\"player\":{encode_basestring(owner)}{middle}"
                f"{total},\"transcript_sha256\":\"{digest}{tail}").encode()
    return receipt_bytes


def plain_hex(value, digits):
    """A str of exactly ``digits`` lowercase hex digits."""
    return type(value) is str and len(value) == digits and not value.strip("0123456789abcdef")


def check_leaderboard(report, published, board):
    """The published players, top and score bands against the replays' ranking. Equal totals
    share a rank; their order is the server's choice, so (player, total) pairs are compared."""
    totals = [total for _, total, _, _ in board]
    failures = []
    if published.get("players") != len(totals):
        failures.append(f"players {published.get('players')!r} ≠ {len(totals)} finished games")
    unclaimed = Counter((player, total) for _, total, _, player in board)
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
    report.over("leaderboard", failures, f"published players {len(totals)}, top {len(top)} and "
                                         f"{len(bands)} score bands = the ranking of the replayed "
                                         "games")


def leaderboard(results):
    """(total, game id, player) ranked by total; equal totals share a rank."""
    board = []
    for place, (total, game_id, player) in enumerate(sorted(results,
                                                            key=lambda r: (-r[0], r[1])), 1):
        rank = board[-1][0] if board and board[-1][1] == total else place
        board.append((rank, total, game_id, player))
    return board


def check_expected_keys(report, entries, expected):
    """One line per epoch entry: is its public_key one of the keys the auditor recorded?"""
    epochs = [entry for entry in entries
              if isinstance(entry, dict) and entry.get("type") in EPOCHS]
    if not epochs:
        report.add("recorded key", False, "no epoch entry to compare with the recorded keys")
    for entry in epochs:
        key = entry.get("public_key")
        name = f"epoch {entry.get('epoch')!r} key"
        if key in expected:
            report.add(name, True, f"public_key {key} = a recorded key")
        else:
            report.add(name, False, f"public_key {key!r} ≠ the recorded key "
                                    f"{' or '.join(sorted(expected))}")


# ---------------------------------------------------------------------- the day's log (v2)

LOG_PREFIX, DASH, ZERO_HASH = "yacht-daily/log", "\u2014", bytes(32)
ED25519_NOTE, COSIGNATURE = 0x01, 0x04


def consistent(first, second, first_root, second_root, path):
    """RFC 9162 (2.1.4.2): is the tree (second, second_root) an extension of (first, ...)?"""
    if not 0 <= first <= second:
        return False
    if first == second:
        return not path and first_root == second_root
    if first == 0:
        return not path and first_root == hashlib.sha256(b"").digest()
    proof = ([first_root] if first & (first - 1) == 0 else []) + list(path)
    if not proof:
        return False
    fn, sn = first - 1, second - 1
    while fn % 2 == 1:
        fn, sn = fn // 2, sn // 2
    fr = sr = proof[0]
    for sibling in proof[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = merkle_node(sibling, fr), merkle_node(sibling, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            sr = merkle_node(sr, sibling)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and fr == first_root and sr == second_root


def note_key_id(name, kind, key):
    """SHA-256(name || 0x0A || signature type || public key)[:4] (C2SP signed-note)."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + key).digest()[:4]


def b64(text, size=None):
    """Strict, canonical standard base64 (``size`` bytes when given), or ValueError."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, AttributeError):
        raise ValueError(f"{text!r} is not base64") from None
    if base64.b64encode(raw).decode() != text or (size is not None and len(raw) != size):
        raise ValueError(f"{text!r} is not canonical base64 of {size or 'some'} bytes")
    return raw


def key_name_ok(name):
    """A note key name: non-empty, no space, no '+'."""
    return bool(name) and not any(c.isspace() or c == "+" for c in name)


def read_note(note):
    """(text, [(name, key id, payload)]) of a C2SP signed note, or ValueError."""
    if not isinstance(note, str) or any(ord(c) < 32 and c != "\n" for c in note):
        raise ValueError("a note is text without control characters but newlines")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in note) or len(note.encode("utf-8",
                                                                         "surrogatepass")) > 65536:
        raise ValueError("a note is valid UTF-8 of at most 65536 bytes")
    split = note.rfind("\n\n")
    if split < 0 or not note.endswith("\n"):
        raise ValueError("a note is text, a blank line and signature lines")
    text, lines = note[:split + 1], note[split + 2:-1].split("\n")  # not splitlines: U+2028
    if not 1 <= len(lines) <= 64:
        raise ValueError("a note has 1 to 64 signature lines")
    signatures = []
    for line in lines:
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH or not key_name_ok(parts[1]):
            raise ValueError(f"{line!r} is not a signature line")
        raw = b64(parts[2])
        if len(raw) < 5:
            raise ValueError(f"the signature of {parts[1]!r} is too short")
        signatures.append((parts[1], raw[:4], raw[4:]))
    return text, signatures


def read_checkpoint(body):
    """A checkpoint body as a dict (origin, size, root, time, prev, close), or ValueError."""
    lines = body[:-1].split("\n") if body.endswith("\n") else []
    if len(lines) not in (5, 6):
        raise ValueError(f"a checkpoint has 5 lines (6 when it closes), not {len(lines)}")
    origin, size, root, time_line, prev = lines[:5]
    parts = origin.split("/")
    if not (len(parts) == 5 and "/".join(parts[:2]) == LOG_PREFIX and is_hex(parts[2], 16)
            and is_date(parts[3]) and re.fullmatch(r"[a-z]+(-[a-z]+)*", parts[4])):
        raise ValueError(f"origin {origin!r} is not {LOG_PREFIX}/<16 hex>/<date>/<sheet>")
    decimal = re.compile(r"0|[1-9][0-9]{0,15}")
    if not decimal.fullmatch(size) or int(size) > 2 ** 53 - 1:
        raise ValueError(f"the tree size {size!r} is not a decimal")
    if not time_line.startswith("time ") or not is_time(time_line[5:]) or \
            int(time_line[16:18]) > 23 or int(time_line[19:21]) > 59 or \
            int(time_line[22:24]) > 59:
        raise ValueError(f"line {time_line!r} is not 'time YYYY-MM-DDTHH:MM:SSZ'")
    if not prev.startswith("prev "):
        raise ValueError(f"line {prev!r} is not 'prev <base64>'")
    checkpoint = {"origin": origin, "size": int(size), "root": b64(root, 32),
                  "time": time_line[5:], "prev": b64(prev[5:], 32), "close": None}
    if len(lines) == 6:
        close = lines[5].split(" ")
        if len(close) != 3 or close[0] != "close" or not decimal.fullmatch(close[1]):
            raise ValueError(f"line {lines[5]!r} is not 'close <games> <base64 root>'")
        checkpoint["close"] = (int(close[1]), b64(close[2], 32))
    return checkpoint


def read_log(log):
    """[(checkpoint, body, signatures, consistency)] of a published log, and its problems."""
    items = log.get("checkpoints") if isinstance(log, dict) else None
    if not isinstance(items, list) or not items or sorted(log) != ["checkpoints"]:
        return [], ["the log is not an object with exactly a non-empty checkpoints list"]
    points, problems = [], []
    for i, item in enumerate(items):
        try:
            if not isinstance(item, dict) or sorted(item) != ["consistency", "note"]:
                raise ValueError("not an object with exactly note and consistency")
            proof = item["consistency"]
            if not isinstance(proof, list) or not all(is_hex(h, 64) for h in proof):
                raise ValueError("consistency is not a list of 64-hex-digit hashes")
            body, signatures = read_note(item["note"])
            points.append((read_checkpoint(body), body, signatures,
                           [bytes.fromhex(h) for h in proof]))
        except ValueError as error:
            problems.append(f"checkpoint {i}: {error}")
    return points, problems


def ed25519_ok(verify, key_hex, message, signature):
    """A 64-byte Ed25519 signature of ``message`` by ``key_hex``."""
    return len(signature) == 64 and verify(key_hex, message, signature.hex())


def parse_witness(text):
    """(name, public key bytes) of a witness vkey ``name+keyid+base64(0x04 || key)``."""
    parts = text.split("+", 2)
    if len(parts) != 3 or not key_name_ok(parts[0]):
        raise ValueError(f"--witness {text!r} is not name+keyid+base64")
    raw = b64(parts[2], 33)
    if raw[0] != COSIGNATURE or note_key_id(parts[0], raw[0], raw[1:]).hex() != parts[1]:
        raise ValueError(f"--witness {text!r}: not a cosignature/v1 key with that key ID")
    return parts[0], raw[1:]


def owning_epoch(entries, date):
    """The epoch entry that owns ``date``: of those covering it, the latest started."""
    epochs = [e for e in entries if isinstance(e, dict) and e.get("type") in EPOCHS
              and not format_problems(e, e["type"])]
    owner = None
    for entry in sorted(epochs, key=lambda e: (e["start"], e["epoch"])):
        start = datetime.date.fromisoformat(entry["start"])
        if is_date(date) and 0 <= (datetime.date.fromisoformat(date) - start).days \
                < entry["length"]:
            owner = entry
    return owner


def check_log(report, entries, date, sheet_id, log, verify, witnesses=(), quorum=0):
    """The log of (date, sheet): signed checkpoints of one origin, a hash chain, consistent
    sizes, one close checkpoint that is the reveal's, and the witnesses' cosignatures."""
    epoch = owning_epoch(entries, date)
    if epoch is None:
        report.add("log format", False, f"no published epoch covers {date}")
        return
    key = epoch["public_key"]
    name = f"{LOG_PREFIX}/{key[:16]}/{date}/{sheet_id}"
    points, problems = read_log(log)
    problems += [f"checkpoint {i}: origin {p[0]['origin']!r} ≠ {name!r}"
                 for i, p in enumerate(points) if p[0]["origin"] != name]
    if not report.over("log format", problems,
                       f"{len(points)} checkpoints of {name}, each a signed note"):
        return
    if verify is None:
        report.add("log signatures", None, NOT_CHECKED)
    else:
        wanted, failures = note_key_id(name, ED25519_NOTE, bytes.fromhex(key)), []
        for i, (_, body, signatures, _) in enumerate(points):
            mine = [s for s in signatures if s[0] == name and s[1] == wanted]
            if not mine:
                failures.append(f"checkpoint {i}: no signature by {name} (key ID {wanted.hex()})")
            elif not all(ed25519_ok(verify, key, body.encode(), s[2]) for s in mine):
                failures.append(f"checkpoint {i}: signature by {name} is not a valid Ed25519 "
                                f"signature of its body by {short(key)}")
        report.over("log signatures", failures,
                    f"{len(points)} checkpoints, each signed by the epoch key {short(key)}")
    chain, consistency = [], []
    for i, (cp, _, _, proof) in enumerate(points):
        before = points[i - 1] if i else None
        expected = ZERO_HASH if before is None else hashlib.sha256(before[1].encode()).digest()
        source = "32 zero bytes" if before is None else f"SHA-256 of checkpoint {i - 1}"
        if cp["prev"] != expected:
            chain.append(f"checkpoint {i}: prev {cp['prev'].hex()} ≠ {source} {expected.hex()}")
        if before is None:
            if proof:
                consistency.append("checkpoint 0: a consistency proof from nothing")
            continue
        old = before[0]
        if cp["size"] < old["size"]:
            chain.append(f"checkpoint {i}: size {cp['size']} < {old['size']} of checkpoint "
                         f"{i - 1}")
        if cp["time"] < old["time"]:
            chain.append(f"checkpoint {i}: time {cp['time']} before {old['time']} of "
                         f"checkpoint {i - 1}")
        if not consistent(old["size"], cp["size"], old["root"], cp["root"], proof):
            fork = " (same size, other root: a fork)" if old["size"] == cp["size"] and \
                old["root"] != cp["root"] else ""
            consistency.append(f"checkpoint {i}: size {cp['size']} root {cp['root'].hex()} is "
                               f"not consistent with size {old['size']} root "
                               f"{old['root'].hex()}{fork}")
    report.over("log chain", chain, f"{len(points)} checkpoints, each prev = SHA-256 of the one "
                                    "before, sizes and times in order")
    report.over("log consistency", consistency,
                f"{len(points)} checkpoints, each an append-only extension of the one before "
                "(RFC 9162 consistency proofs)")
    check_close(report, entries, date, sheet_id, points)
    check_cosignatures(report, points, witnesses, quorum, verify)


def check_close(report, entries, date, sheet_id, points):
    """Only the last checkpoint closes; once revealed, it is the reveal's count, root, hash."""
    failures = [f"checkpoint {i}: closes before the last one"
                for i, p in enumerate(points[:-1]) if p[0]["close"] is not None]
    reveal = next((e for e in entries if isinstance(e, dict) and e.get("type") in
                   (REVEAL, REVEAL2) and e.get("date") == date
                   and not format_problems(e, e["type"])), None)
    cp, body = points[-1][0], points[-1][1]
    if reveal is None:
        report.over("log close", failures, "not revealed yet; the log is "
                                           f"{'closed' if cp['close'] else 'open'}")
        return
    if reveal["type"] != REVEAL2:
        report.add("log close", False, f"{date} was revealed by a {reveal['type']} entry, which "
                                       "commits to no log")
        return
    if cp["close"] is None:
        failures.append("the last checkpoint does not close the log")
    wanted = {"games": (cp["size"], reveal["games"].get(sheet_id)),
              "roots": (cp["root"].hex(), reveal["roots"].get(sheet_id)),
              "logs": (sha256(body.encode()), reveal["logs"].get(sheet_id))}
    for key, (mine, published) in wanted.items():
        if mine != published:
            failures.append(f"close checkpoint {key} {mine} ≠ reveal {key}[{sheet_id}] "
                            f"{published}")
    report.over("log close", failures, f"the close checkpoint (size {cp['size']}, root "
                                       f"{short(cp['root'].hex())}) is the reveal's games, "
                                       f"roots and logs[{sheet_id}]")


def check_cosignatures(report, points, witnesses, quorum, verify):
    """Every cosignature by a named witness verifies; the last checkpoint has ``quorum``."""
    if not witnesses and not quorum:
        return
    if verify is None:
        report.add("cosignatures", None, NOT_CHECKED)
        return
    failures, valid = [], set()
    for i, (_, body, signatures, _) in enumerate(points):
        for name, key in witnesses:
            ident = note_key_id(name, COSIGNATURE, key)
            for _, _, payload in [s for s in signatures if s[0] == name and s[1] == ident]:
                stamp = struct.unpack(">Q", payload[:8])[0] if len(payload) == 72 else 2 ** 63
                message = f"cosignature/v1\ntime {stamp}\n{body}".encode()
                if stamp < 2 ** 63 and ed25519_ok(verify, key.hex(), message, payload[8:]):
                    if i == len(points) - 1:
                        valid.add(name)
                else:
                    failures.append(f"checkpoint {i}: cosignature by {name} does not verify")
    if len(valid) < quorum:
        failures.append(f"the last checkpoint has {len(valid)} valid cosignatures of the named "
                        f"witnesses ({', '.join(sorted(valid)) or 'none'}), fewer than the "
                        f"{quorum} required")
    report.over("cosignatures", failures, f"the last checkpoint is cosigned by {len(valid)} "
                                          f"named witnesses ({', '.join(sorted(valid))}); "
                                          f"{quorum} required")


def check_receipt_in_log(report, receipt, log, proof):
    """A v2 receipt's inclusion proof leads to a checkpoint of the log of the proof's size, and
    the game finished no later than the first checkpoint that includes it."""
    points, problems = read_log(log)
    if problems:
        report.add("receipt in log", False, "; ".join(problems))
        return
    if not (isinstance(proof, dict) and sorted(proof) == ["index", "path", "size"]
            and type(proof.get("index")) is int
            and type(proof.get("size")) is int and isinstance(proof.get("path"), list)
            and all(is_hex(h, 64) for h in proof["path"])):
        report.add("receipt in log", False, "malformed inclusion proof")
        return
    index = receipt.get("index")
    if proof["index"] != index:
        report.add("receipt in log", False, f"proof index {proof['index']} ≠ receipt index "
                                            f"{index!r}")
        return
    sized = [p[0] for p in points if p[0]["size"] == proof["size"]]
    if not sized:
        report.add("receipt in log", False, "no checkpoint of the log has the proof's size "
                                            f"{proof['size']}")
        return
    target, leaf = sized[0], merkle_leaf(unsigned_bytes(receipt))
    found = proof_root(leaf, index, target["size"], [bytes.fromhex(h) for h in proof["path"]])
    shown = found.hex() if found else "no root (index/size/path do not fit together)"
    report.add("receipt in log", found == target["root"],
               f"leaf {short(leaf.hex())} at index {index} of {target['size']} → root "
               f"{compare(shown, target['root'].hex())} of the checkpoint of size "
               f"{target['size']}")
    first = next((p[0] for p in points if p[0]["size"] > index), None)
    finished = receipt.get("finished_at")
    ok = first is not None and isinstance(finished, str) and finished <= first["time"]
    report.add("receipt time", ok, f"finished_at {finished} {'≤' if ok else 'after'} the time "
                                   f"{first['time'] if first else '(none)'} of the first "
                                   f"checkpoint that includes index {index}")


def check_saved(report, saved, log, verify=None, key=None):
    """Checkpoints kept earlier are, byte for byte, checkpoints the log serves now; one of a
    served size with another root is a fork."""
    points, problems = read_log(log)
    if problems:
        report.add("saved checkpoints", False, "; ".join(problems))
        return
    bodies, failures = {p[1] for p in points}, []
    for i, note in enumerate(saved):
        try:
            body, signatures = read_note(note)
            cp = read_checkpoint(body)
        except ValueError as error:
            failures.append(f"saved {i}: {error}")
            continue
        if verify is not None and key is not None:
            ident = note_key_id(cp["origin"], ED25519_NOTE, bytes.fromhex(key))
            if not any(s[1] == ident and ed25519_ok(verify, key, body.encode(), s[2])
                       for s in signatures):
                failures.append(f"saved {i}: not signed by the epoch key {short(key)}")
                continue
        if body in bodies:
            continue
        other = [p[0]["root"].hex() for p in points if p[0]["size"] == cp["size"]
                 and p[0]["root"] != cp["root"]]
        if other:
            failures.append(f"saved {i}: size {cp['size']} root {cp['root'].hex()} ≠ served "
                            f"root {other[0]} of the same size (a fork)")
        else:
            failures.append(f"saved {i}: the log does not serve this checkpoint (size "
                            f"{cp['size']}, time {cp['time']})")
    report.over("saved checkpoints", failures, f"{len(saved)} saved checkpoints, each served "
                                               "unchanged")


FINGERPRINT_CHARACTERS = 20
GOSSIP_LINE = re.compile(r"(?<!\S)log ([0-9]{4}-[0-9]{2}-[0-9]{2})/([a-z]+(?:-[a-z]+)*) "
                         r"((?:0|[1-9][0-9]{0,15}) (?:[A-Z2-7]{4}-){4}[A-Z2-7]{4})(?!\S)")


def fingerprint(body):
    """A checkpoint body's fingerprint (FAIRNESS.md, "Gossip"): its size, a space, the first 20
    characters of base32(SHA-256(body)) in groups of four joined by hyphens."""
    code = base64.b32encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    code = code[:FINGERPRINT_CHARACTERS]
    groups = "-".join(code[i:i + 4] for i in range(0, FINGERPRINT_CHARACTERS, 4))
    return f"{read_checkpoint(body)['size']} {groups}"


def find_gossip_line(text):
    """(date, sheet, fingerprint) of the first gossip line of a share text, or ValueError."""
    found = GOSSIP_LINE.search(text)
    if found is None:
        raise ValueError("the share text holds no line 'log <date>/<sheet> <size> "
                         "XXXX-XXXX-XXXX-XXXX-XXXX'")
    return found.groups()


def check_gossip(report, log, date, sheet, line):
    """A friend's gossip line names a checkpoint of this log as it is served here."""
    points, problems = read_log(log)
    if problems:
        report.add("gossip", False, "; ".join(problems))
        return
    friend_date, friend_sheet, friend = line
    if (friend_date, friend_sheet) != (date, sheet):
        report.add("gossip", False, f"the friend's line is about {friend_date}/{friend_sheet}, "
                                    f"not {date}/{sheet}")
        return
    prints = [fingerprint(p[1]) for p in points]
    size = int(friend.split(" ")[0])
    same_size = [prints[i] for i, p in enumerate(points) if p[0]["size"] == size]
    if friend in prints:
        report.add("gossip", True, f"checkpoint {prints.index(friend)} of the log (size "
                                   f"{size}) has the fingerprint {friend}")
    elif same_size:
        report.add("gossip", False, f"the log's checkpoint of size {size} has the fingerprint "
                                    f"{same_size[0]}, not {friend} (a fork: two histories)")
    else:
        report.add("gossip", False, f"the log has no checkpoint of size {size} (another "
                                    "history)")


def check_final_transcripts(report, log, games):
    """The close checkpoint commits to every published game's final transcript."""
    points, problems = read_log(log)
    close = points[-1][0]["close"] if points else None
    if problems or close is None:
        report.add("final transcripts", False,
                   "; ".join(problems) or "the log has no close checkpoint")
        return
    leaves, failures = {}, []
    for game in games:
        try:
            digest = transcript_digest(game["transcript"])
            if digest is None:
                raise ValueError("the transcript has no canonical JSON")
            leaves[game["id"]] = canonical({
                "type": "yacht-daily/final/v1", "game": game["id"], "player": game["player"],
                "finished": game["status"] == "finished", "transcript_sha256": digest})
        except (KeyError, TypeError, ValueError) as error:
            failures.append(f"game {game.get('id') if isinstance(game, dict) else game!r}: no "
                            f"final transcript leaf ({error})")
    if failures:
        report.over("final transcripts", failures, "")
        return
    root = merkle_root([merkle_leaf(leaves[k]) for k in sorted(leaves)])
    if len(leaves) != close[0]:
        failures.append(f"{len(leaves)} published games ≠ close games {close[0]}")
    if root != close[1]:
        failures.append(f"root of the {len(leaves)} final transcripts {root.hex()} ≠ close "
                        f"root {close[1].hex()}")
    report.over("final transcripts", failures, f"{len(leaves)} games' final transcripts "
                                               "(finished or abandoned) are the close "
                                               "checkpoint's")


# ---------------------------------------------------------------------- one match

# A game on its own (practice, against the computer, a table; FAIRNESS.md, "Games on their
# own"): a commitment to a fresh server seed (and to the match's dealing) before the first
# roll, one dice stream per seat mixing every human's client seed, and a signed result
# revealing the seed at the end. A v2 result deals per turn and its commitment binds that
# dealing; a v1 result deals sequentially.
MATCH, MATCH2 = "yacht-daily/match/v1", "yacht-daily/match/v2"
MATCH_COMMIT = b"yacht-daily/match-commit/v1|"
MATCH_COMMIT2 = "yacht-daily/match-commit/v2"  # then "|<dealing>|" and the seed bytes
MATCH_KINDS = ("practice", "computer", "table")
MAX_SEATS = 6
TOKEN = re.compile(r"[A-Za-z0-9._~-]{1,64}")
TOKEN_TEXT = "A-Z a-z 0-9 - . _ ~"
FIELDS[MATCH] = {"type": str, "match": str, "kind": str, "ruleset": str, "epoch": int,
                 "created_at": "time", "ended_at": "time", "commitment": 64, "server_seed": 64,
                 "client_seeds": list, "seats": list, "winners": list, "finished": bool,
                 "sig": 128}
FIELDS[MATCH2] = dict(FIELDS[MATCH], dealing=str)
SEAT_KEYS = ["seat", "kind", "player", "bot", "name", "transcript_sha256", "total", "rank"]


def match_commitment(seed_hex, dealing=SEQUENTIAL):
    """SHA-256 of "yacht-daily/match-commit/v2|<dealing>|" (per turn; sequentially, v1:
    "yacht-daily/match-commit/v1|") followed by the 32 server seed bytes."""
    prefix = MATCH_COMMIT if dealing == SEQUENTIAL else \
        f"{MATCH_COMMIT2}|{dealing}|".encode("ascii")
    return sha256(prefix + bytes.fromhex(seed_hex))


def result_dealing(result):
    """The dealing of a well-formed result's seats: its ``dealing`` (v2), else sequential."""
    return result["dealing"] if result["type"] == MATCH2 else SEQUENTIAL


def seat_rolls(seed_hex, client_seeds, match_id, seat, sheet_id):
    """Every slot a seat's game can take under either dealing (3 per box; element n is slot
    n), from the seat's own stream: block k is
    HMAC-SHA256(seed, "yacht-daily/match-dice/v1|<match>|<sheet>|<seat>|<c0>,<c1>…|<k>")."""
    count, dice, block, seed = 15 * len(SHEETS[sheet_id]["boxes"]), [], 0, bytes.fromhex(seed_hex)
    while len(dice) < count:
        message = (f"yacht-daily/match-dice/v1|{match_id}|{sheet_id}|{seat}|"
                   f"{','.join(client_seeds)}|{block}").encode("ascii")
        dice += [b % 6 + 1 for b in hmac.new(seed, message, hashlib.sha256).digest() if b < 252]
        block += 1
    return [dice[5 * n:5 * n + 5] for n in range(count // 5)]


def match_problems(result):
    """What is wrong with a match result's fields and values (empty list: nothing)."""
    v2 = isinstance(result, dict) and result.get("type") == MATCH2
    problems = format_problems(result, MATCH2 if v2 else MATCH)
    if problems:
        return ["the result is " + problems[0]] if problems == ["not a JSON object"] else problems
    if result["type"] not in (MATCH, MATCH2):
        problems.append(f"type {result['type']!r} ≠ {MATCH} or {MATCH2}")
    if v2 and result["dealing"] != PER_TURN:
        problems.append(f"dealing {result['dealing']!r} is not {PER_TURN!r}")
    if not TOKEN.fullmatch(result["match"]):
        problems.append(f"match {result['match']!r} is not 1 to 64 characters of {TOKEN_TEXT}")
    if result["kind"] not in MATCH_KINDS:
        problems.append(f"kind {result['kind']!r} is not practice, computer or table")
    if result["ruleset"] not in SHEETS:
        problems.append(f"ruleset {result['ruleset']!r} is no known sheet")
    if result["epoch"] < 1:
        problems.append(f"epoch {result['epoch']} is not a positive number")
    if result["ended_at"] < result["created_at"]:
        problems.append(f"ended_at {result['ended_at']} is before created_at "
                        f"{result['created_at']}")
    seeds = result["client_seeds"]
    if not 1 <= len(seeds) <= MAX_SEATS or not all(
            isinstance(seed, str) and TOKEN.fullmatch(seed) for seed in seeds):
        problems.append(f"client_seeds {seeds!r} is not 1 to {MAX_SEATS} client seeds of 1 to "
                        f"64 characters of {TOKEN_TEXT}")
    seats = result["seats"]
    if not 1 <= len(seats) <= MAX_SEATS:
        problems.append(f"{len(seats)} seats (a match has 1 to {MAX_SEATS})")
    else:
        for position, seat in enumerate(seats):
            problems += [f"seat {position}: {problem}"
                         for problem in seat_problems(position, seat, len(seats))]
    if not all(type(seat) is int for seat in result["winners"]):
        problems.append(f"winners {result['winners']!r} is not a list of seat numbers")
    if not problems:
        problems += composition_problems(result)
    return problems


def seat_problems(position, seat, count):
    """What is wrong with one seat of a match result."""
    if not isinstance(seat, dict):
        return ["not a JSON object"]
    missing = [key for key in SEAT_KEYS if key not in seat]
    extra = sorted(str(key) for key in seat if key not in SEAT_KEYS)
    if missing or extra:
        return ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
    problems = []
    if type(seat["seat"]) is not int or seat["seat"] != position:
        problems.append(f"seat number {seat['seat']!r} ≠ its position {position}")
    if seat["kind"] == "human":
        if not (isinstance(seat["player"], str) and seat["player"] and seat["bot"] is None):
            problems.append("a human seat has a player and a null bot")
    elif seat["kind"] == "bot":
        if not (isinstance(seat["bot"], str) and seat["bot"] and seat["player"] is None):
            problems.append("a bot seat has a bot and a null player")
    else:
        problems.append(f"kind {seat['kind']!r} is not human or bot")
    if not isinstance(seat["name"], str) or not seat["name"]:
        problems.append(f"name {seat['name']!r} is not a non-empty string")
    if not is_hex(seat["transcript_sha256"], 64):
        problems.append(f"transcript_sha256 {seat['transcript_sha256']!r} is not 64 hex digits")
    if type(seat["total"]) is not int or seat["total"] < 0:
        problems.append(f"total {seat['total']!r} is not a count")
    rank = seat["rank"]
    if rank is not None and (type(rank) is not int or not 1 <= rank <= count):
        problems.append(f"rank {rank!r} is not null or 1..{count}")
    return problems


def composition_problems(result):
    """practice: 1 human seat; computer: 1 human and 1 to 5 bots; table: 2 to 6 seats, at
    least one human; and one client seed per human seat."""
    seats, kind = result["seats"], result["kind"]
    humans = sum(seat["kind"] == "human" for seat in seats)
    fits = {"practice": len(seats) == 1 and humans == 1,
            "computer": 2 <= len(seats) <= MAX_SEATS and humans == 1,
            "table": 2 <= len(seats) <= MAX_SEATS and humans >= 1}[kind]
    if not fits:
        return [f"{len(seats)} seats with {humans} humans do not make a {kind} match "
                "(practice: 1 human, computer: 1 human and 1 to 5 bots, table: 2 to 6 seats "
                "with at least one human)"]
    if humans != len(result["client_seeds"]):
        return [f"{humans} human seats but {len(result['client_seeds'])} client seeds"]
    return []


def answer_parts(answer):
    """The result and the seats' transcripts of a GET /api/v1/matches/<id> answer."""
    state = answer.get("match", answer) if isinstance(answer, dict) else None
    if not isinstance(state, dict):
        return None, None
    seats = state.get("seats")
    transcripts = [seat.get("transcript") if isinstance(seat, dict) else None
                   for seat in seats] if isinstance(seats, list) else None
    return state.get("result"), transcripts


def listed(values):
    """Values as [2,1,null]."""
    return "[" + ",".join("null" if value is None else str(value) for value in values) + "]"


def check_match(report, result, transcripts, key, verify, shown=None, client_seed=None):
    """Everything one match proves from its result: format, signature by ``key``, commitment
    (and, when given, the commitment ``shown`` before the first roll and your ``client_seed``),
    every seat's replay on its own stream, transcript hashes, totals, the end, ranks."""
    if result is None:
        report.add("match format", False, "no result: the match has not ended")
        return
    problems = match_problems(result)
    if not report.over("match format", problems,
                       f"a {MATCH if problems else result['type']} result with exactly its "
                       "fields, well typed"):
        return
    if verify is None:
        report.add("match signature", None, NOT_CHECKED)
    elif key is None:
        report.add("match signature", False, "no epoch key to check the signature with")
    else:
        valid = signature_ok(verify, key, result)
        report.add("match signature", valid, f"sig {short(result['sig'])} is "
                   f"{'' if valid else 'not '}a valid Ed25519 signature by key {short(key)} of "
                   "the result's fields")
    seed = result["server_seed"]
    commitment = match_commitment(seed, result_dealing(result))
    report.add("commitment", commitment == result["commitment"],
               f"commitment of server seed {short(seed)}: "
               f"{compare(commitment, result['commitment'])} the result's commitment")
    if shown is not None:
        report.add("commitment shown", shown == result["commitment"],
                   f"the result's commitment {compare(result['commitment'], shown)} the "
                   "commitment shown before the first roll")
    if client_seed is not None:
        seeds = result["client_seeds"]
        report.add("your client seed", client_seed in seeds,
                   f"client seed {client_seed} is client_seeds[{seeds.index(client_seed)}]"
                   if client_seed in seeds else f"client seed {client_seed} is not in client_seeds")
    seats = result["seats"]
    fits = isinstance(transcripts, list) and len(transcripts) == len(seats)
    report.add("transcripts", fits, f"a transcript for each of the {len(seats)} seats" if fits
               else f"{len(transcripts) if isinstance(transcripts, list) else 'no list of'} "
                    f"transcripts for {len(seats)} seats")
    if not fits:
        return
    complete = 0
    for position, seat in enumerate(seats):
        complete += check_seat(report, result, seat, transcripts[position])
    flag = "true" if result["finished"] else "false"
    ended = result["finished"] == (complete == len(seats))
    report.add("finished", ended, f"{complete} of {len(seats)} seats have every box filled, "
                                  + (f"as finished {flag} says" if ended
                                     else f"but finished is {flag}"))
    check_ranks(report, result)


def check_seat(report, result, seat, transcript):
    """One seat replayed on its own stream, its transcript hash and total; True if complete."""
    number, prefix = seat["seat"], f"seat {seat['seat']} "
    rolls = seat_rolls(result["server_seed"], result["client_seeds"], result["match"], number,
                       result["ruleset"])
    own = Report()
    sheet = replay(own, transcript, result["ruleset"], rolls, True, result_dealing(result))
    for name, ok, detail in own.checks:
        if name != "game complete":
            report.add(prefix + name, ok, detail)
    digest = transcript_digest(transcript)
    if digest is None:
        report.add(prefix + "transcript hash", False,
                   "the transcript has no canonical JSON (not a list, or holds a float)")
    else:
        report.add(prefix + "transcript hash", digest == seat["transcript_sha256"],
                   f"SHA-256 of the transcript {compare(digest, seat['transcript_sha256'])} "
                   f"seat {number}'s transcript_sha256")
    upper, bonus, lower, extra, total = totals(sheet.rules, sheet.boxes, sheet.extra)
    same = total == seat["total"]
    report.add(prefix + "total", same, f"recomputed {total} (upper {upper} + bonus {bonus} + "
                                       f"lower {lower} + extra {extra}) {'=' if same else '≠'} "
                                       f"seat {number}'s total {seat['total']}")
    return sheet.full()


def check_ranks(report, result):
    """Ranks: 1 + the seats with a strictly higher total (ties share a rank, everyone tied at
    the top wins); an unfinished match has no ranks and no winners."""
    seats = result["seats"]
    scores = [seat["total"] for seat in seats]
    recorded = [seat["rank"] for seat in seats]
    if result["finished"]:
        expected = [1 + sum(other > mine for other in scores) for mine in scores]
        winners = [seat["seat"] for seat in seats if expected[seat["seat"]] == 1]
    else:
        expected, winners = [None] * len(seats), []
    shown = f"ranks {listed(expected)} and winners {listed(winners)} from totals {listed(scores)}"
    if recorded == expected and result["winners"] == winners:
        report.add("ranks", True, f"recorded {shown}")
    else:
        report.add("ranks", False, f"recorded ranks {listed(recorded)} and winners "
                                   f"{listed(result['winners'])} ≠ {shown}")


def match_key(report, entries, result):
    """The key of the epoch that owns the UTC date the match ended, if it is the result's."""
    ended = result.get("ended_at") if isinstance(result, dict) else None
    date = ended[:10] if isinstance(ended, str) else None
    epoch = owning_epoch(entries, date) if date else None
    if epoch is None:
        report.add("match epoch", False, f"no published epoch covers {date}")
        return None
    if epoch["epoch"] != result.get("epoch"):
        report.add("match epoch", False, f"the match ended on {date}, a day of epoch "
                                         f"{epoch['epoch']}, not of epoch {result.get('epoch')!r}")
        return None
    report.add("match epoch", True, f"the match ended on {date}, a day of epoch "
                                    f"{epoch['epoch']}, whose key {short(epoch['public_key'])} "
                                    "signs its result")
    return epoch["public_key"]


def check_match_in_ledger(report, entries, result, transcripts, verify, shown=None,
                          client_seed=None):
    """The ledger's checks, the match's epoch and key from it, then the match itself."""
    check_ledger(report, entries, verify)
    key = match_key(report, entries, result)
    check_match(report, result, transcripts, key, verify, shown, client_seed)


def read_source(source, *wrappers):
    """A JSON document from a URL (http/https) or a local file."""
    if not source.startswith(("http://", "https://")):
        return load(source, *wrappers)
    base, _, path = source.partition("/api/v1")
    value = fetch(base, path)
    for key in wrappers:
        if isinstance(value, dict) and key in value and "type" not in value:
            value = value[key]
    return value


def verify_match(args, verify, report):
    """The ``match`` mode: a match's answer from its URL or a file, checked against the ledger
    (--ledger, or the server's own when a URL is given) or a key given with --key."""
    try:
        expected = read_keys(args.expect_key)
        answer = read_source(args.source)
        ledger_source = args.ledger
        if ledger_source is None and args.key is None and "/api/v1" in args.source:
            ledger_source = args.source.partition("/api/v1")[0] + "/api/v1/ledger"
        entries = read_source(ledger_source, "entries") if ledger_source else None
        if args.key is not None and not is_hex(args.key, 64):
            raise ValueError(f"--key: {args.key!r} is no 64-digit lowercase hex Ed25519 key")
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"verify.py: cannot read the published data: {error}", file=sys.stderr)
        return 2
    result, transcripts = answer_parts(answer)
    noted = (args.commitment, args.client_seed)
    if entries is not None:
        check_match_in_ledger(report, entries, result, transcripts, verify, *noted)
        if expected:
            check_expected_keys(report, entries, expected)
    else:
        check_match(report, result, transcripts, args.key, verify, *noted)
    return print_report(report)


def add_match_mode(modes):
    """The ``match`` subcommand and its arguments."""
    match = modes.add_parser("match", help="verify a game on its own (practice, against the "
                                           "computer, a table) from its URL or a saved answer")
    match.add_argument("source", help="<base>/api/v1/matches/<id>, or a file of that answer")
    match.add_argument("--ledger", help="the ledger (file or URL); by default the server's "
                                        "own when SOURCE is a URL")
    match.add_argument("--key", help="check the signature with this epoch key (hex) instead "
                                     "of the ledger's")
    match.add_argument("--commitment", help="the commitment the page showed before your first "
                                            "roll: check it is the result's")
    match.add_argument("--client-seed", help="your client seed: check it is in the result")
    match.add_argument("--expect-key", action="append", default=[], metavar="HEX|FILE",
                       help="an epoch public key you recorded earlier (or a file of them); "
                            "repeatable")


# ---------------------------------------------------------------------- the command line

DAY_PAGE, MAX_DAY_PAGE = 1000, 1000
RETRIES, MAX_WAIT = 10, 120  # on a 429: wait as Retry-After says (seconds, at most MAX_WAIT)


def page_size(text):
    """The --page-size argument: a whole number of games the server serves in one page."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_DAY_PAGE:
        raise argparse.ArgumentTypeError(f"not a whole number from 1 to {MAX_DAY_PAGE}")
    return int(text)


def fetch(base, path, read=json.loads):
    """GET a JSON document from the server's API, read from its text by ``read``; a 429 (rate
    limited) is waited out and asked again, up to RETRIES times."""
    url = base.rstrip("/") + "/api/v1" + path
    request = urllib.request.Request(url, headers={"Accept": "application/json",
                                                   "User-Agent": "yacht-daily-verify/1"})
    for attempt in range(RETRIES + 1):
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return read(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            if error.code != 429 or attempt == RETRIES:
                raise OSError(f"{url}: HTTP {error.code}: {error_message(error)}") from None
            time.sleep(retry_after(error))
        except OSError as error:
            raise OSError(f"{url}: {error}") from None


def retry_after(error):
    """The seconds a 429 asks to wait (its Retry-After), from 1 to MAX_WAIT."""
    text = error.headers.get("Retry-After", "")
    seconds = int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 1
    return min(max(seconds, 1), MAX_WAIT)


def error_message(error):
    """The API's own explanation of an HTTP error (its JSON error message), or the reason."""
    try:
        return json.loads(error.read().decode("utf-8"))["error"]["message"]
    except (ValueError, KeyError, TypeError, OSError):
        return str(error.reason)


def load(path, *wrappers):
    """A local JSON file, unwrapped from the API responses' wrapper keys when present."""
    with open(path, encoding="utf-8") as handle:
        value = json.load(handle)
    for key in wrappers:
        if isinstance(value, dict) and key in value and "type" not in value:
            value = value[key]
    return value


def download(args):
    """The published objects the chosen mode needs, from the server or from files."""
    if args.mode == "files":
        return {"ledger": load(args.ledger, "entries"),
                "receipt": load(args.receipt, "game", "receipt"),
                "transcript": load(args.transcript, "game", "transcript"),
                "proof": load(args.proof, "proof") if args.proof else None}
    data = {"ledger": fetch(args.url, "/ledger")["entries"]}
    if args.mode == "day":
        data["leaderboard"] = fetch(args.url, f"/leaderboard/{args.date}/{args.sheet}?limit=100")
        # the transcripts' text kept (read_page): check_day's fast path
        read = functools.partial(read_page, objects=set())
        first = fetch(args.url, day_page_path(args, None), read)  # a day not revealed stops here
        data["games"] = day_games(args, first, read)
        return data
    state = fetch(args.url, f"/games/{args.game_id}")["game"]
    data.update(receipt=state["receipt"], transcript=state["transcript"],
                proof=fetch(args.url, f"/games/{args.game_id}/proof")["proof"])
    return data


def day_page_path(args, after):
    """The API path of the page of the day's games after game id ``after`` (None: the first)."""
    path = f"/days/{args.date}/{args.sheet}/games?limit={args.page_size}"
    return path if after is None else f"{path}&after={after}"


def day_games(args, page, read):
    """Every game of the day, fetched page by page from ``page`` on, each read by ``read``:
    only one page is held. On a terminal, a progress bar counts them against the day's total."""
    done, total = 0, page.get("total")
    bar = progress_bar if sys.stderr.isatty() else None
    while True:
        for game in page["games"]:
            done += 1
            if bar:
                bar(done, total)
            yield game
        if page.get("next") is None:
            return
        page = fetch(args.url, day_page_path(args, page["next"]), read)


def read_keys(values):
    """The Ed25519 public keys given to --expect-key: each a 64-digit hex key, or a file of
    such keys (whitespace-separated)."""
    keys = set()
    for value in values:
        if is_hex(value.lower(), 64):
            words = [value]
        else:
            with open(value, encoding="utf-8") as handle:
                words = handle.read().split()
        for word in words:
            if not is_hex(word.lower(), 64):
                raise ValueError(f"--expect-key: {word!r} is no 64-digit hex Ed25519 public key")
            keys.add(word.lower())
    return keys


def progress_bar(done, total):
    """A one-line progress bar on stderr, redrawn every 500 games."""
    if done % 500 and done != total:
        return
    filled = 40 * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (40 - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def print_report(report):
    """One line per check, then a summary; returns the exit status."""
    for name, ok, detail in report.checks:
        print(f"{'✓' if ok else '✗' if ok is False else '-'} {name}: {detail}")
    failed = sum(1 for check in report.checks if check[1] is False)
    unchecked = [check[0] for check in report.checks if check[1] is None]
    if failed:
        print(f"FAILED: {failed} of {len(report.checks)} checks do not hold.")
        return 1
    if unchecked:
        print(f"Nothing failed, but NOT fully verified: {', '.join(unchecked)} not checked.")
        return 3
    print(f"All {len(report.checks)} checks hold.")
    return 0


def verify_log_files(args, verify, report):
    """The ``log`` mode: a (date, sheet)'s log and what comes with it, from files or live from
    the server (``--url``: what is not given as a file is fetched)."""
    if args.url is None and (args.ledger is None or args.log is None or args.game):
        print("verify.py: give --url, or both --ledger and --log (--game needs --url)",
              file=sys.stderr)
        return 2
    try:
        expected = read_keys(args.expect_key)
        witnesses = [parse_witness(text) for text in args.witness]
        entries = (load(args.ledger, "entries") if args.ledger
                   else fetch(args.url, "/ledger")["entries"])
        log = (load(args.log, "log") if args.log
               else fetch(args.url, f"/logs/{args.date}/{args.sheet}"))
        friend = None
        if args.friend:
            with open(args.friend, encoding="utf-8") as handle:
                friend = find_gossip_line(handle.read())
        games = load(args.games, "games") if args.games else None
        if games is None and args.url and any(e.get("date") == args.date for e in entries):
            games = list(logged_day_games(args))
        receipts = []
        if args.receipt:
            receipts.append((load(args.receipt, "game", "receipt"),
                             load(args.proof, "proof") if args.proof else None))
        for game_id in args.game:
            receipts.append((fetch(args.url, f"/games/{game_id}")["game"]["receipt"],
                             fetch(args.url, f"/games/{game_id}/proof")["proof"]))
        saved = []
        for path in args.saved:
            with open(path, encoding="utf-8") as handle:
                saved.append(handle.read())
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"verify.py: cannot read the published data: {error}", file=sys.stderr)
        return 2
    quorum = len(witnesses) if args.quorum is None else args.quorum
    check_log(report, entries, args.date, args.sheet, log, verify, witnesses, quorum)
    if games is not None:
        check_final_transcripts(report, log, games)
    for receipt, proof in receipts:
        check_receipt_in_log(report, receipt, log, proof)
    if saved:
        epoch = owning_epoch(entries, args.date)
        check_saved(report, saved, log, verify, epoch["public_key"] if epoch else None)
    if friend is not None:
        check_gossip(report, log, args.date, args.sheet, friend)
    if expected:
        check_expected_keys(report, entries, expected)
    return print_report(report)


def logged_day_games(args):
    """Every published game of a revealed (date, sheet), page by page."""
    path = f"/days/{args.date}/{args.sheet}/games?limit={MAX_DAY_PAGE}"
    page = fetch(args.url, path)
    while True:
        yield from page["games"]
        if page.get("next") is None:
            return
        page = fetch(args.url, f"{path}&after={page['next']}")


def main(argv=None):
    """Parse the command line, run the checks, print them; return the exit status."""
    parser = argparse.ArgumentParser(description="Verify Yacht Daily games independently.")
    modes = parser.add_subparsers(dest="mode", required=True)
    game = modes.add_parser("game", help="verify one game from the server")
    game.add_argument("url")
    game.add_argument("game_id")
    day = modes.add_parser("day", help="audit every game of a revealed date and sheet")
    day.add_argument("url")
    day.add_argument("date")
    day.add_argument("sheet", choices=sorted(SHEETS))
    day.add_argument("--top", type=int, default=10, help="leaderboard lines to print")
    day.add_argument("--page-size", type=page_size, default=DAY_PAGE,
                     help=f"games fetched per request, 1 to {MAX_DAY_PAGE}")
    files = modes.add_parser("files", help="verify one game from downloaded JSON files")
    files.add_argument("--ledger", required=True)
    files.add_argument("--receipt", required=True)
    files.add_argument("--transcript", required=True)
    files.add_argument("--proof")
    logs = modes.add_parser("log", help="verify a (date, sheet)'s log of finished games (v2 "
                                        "days) live from the server or from JSON files")
    logs.add_argument("--url", help="the server: what is not given as a file is fetched")
    logs.add_argument("--ledger")
    logs.add_argument("--log", help="the log: {\"checkpoints\": [...]}")
    logs.add_argument("--date", required=True)
    logs.add_argument("--sheet", required=True, choices=sorted(SHEETS))
    logs.add_argument("--games", help="the day's published games (a JSON list): check that "
                                      "the close checkpoint commits to their final transcripts")
    logs.add_argument("--receipt", help="a v2 receipt to find in the log (with --proof)")
    logs.add_argument("--proof", help="its inclusion proof {index, size, path}")
    logs.add_argument("--game", action="append", default=[], metavar="ID",
                      help="with --url, after the reveal: a game whose receipt and proof the "
                           "server gives, to find in the log; repeatable")
    logs.add_argument("--saved", action="append", default=[], metavar="FILE",
                      help="a checkpoint (signed note) you kept earlier; repeatable")
    logs.add_argument("--witness", action="append", default=[], metavar="VKEY",
                      help="a witness key name+keyid+base64 whose cosignatures count; "
                           "repeatable")
    logs.add_argument("--quorum", type=int, help="cosignatures required on the last checkpoint "
                                                 "(default: every --witness)")
    logs.add_argument("--friend", metavar="FILE", help="a friend's share text: its checkpoint "
                                                        "fingerprint must be one of this log's")
    for mode in (game, day, files, logs):
        mode.add_argument("--expect-key", action="append", default=[], metavar="HEX|FILE",
                          help="an epoch public key you recorded earlier (or a file of them); "
                               "repeatable")
    add_match_mode(modes)
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    verify, report = ed25519_verifier(), Report()
    if args.mode == "log":
        return verify_log_files(args, verify, report)
    if args.mode == "match":
        return verify_match(args, verify, report)
    try:
        expected = read_keys(args.expect_key)
        data = download(args)
        if args.mode == "day":
            board = check_day(report, data["ledger"], args.date, args.sheet, data["games"],
                              verify, data["leaderboard"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"verify.py: cannot read the published data: {error}", file=sys.stderr)
        return 2
    if args.mode == "day":
        print("Leaderboard recomputed from the replayed games:")
        for rank, total, game_id, player in board[:args.top]:
            print(f"  #{rank:<5} {total:>4}  {player}  game {game_id}")
    else:
        check_game(report, data["ledger"], data["receipt"], data["transcript"], data["proof"],
                   verify)
    if expected:
        check_expected_keys(report, data["ledger"], expected)
    return print_report(report)


if __name__ == "__main__":
    sys.exit(main())
