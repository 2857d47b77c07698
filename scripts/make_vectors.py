"""Write tests/vectors.json: the protocol's test vectors, computed by the core from fixed inputs.

Usage (from the repository root):

    make vectors                             # rewrite tests/vectors.json
    .venv/bin/python scripts/make_vectors.py # the same
    .venv/bin/python scripts/make_vectors.py --check   # exit 1 if the file is out of date

Every input is fixed and Ed25519 signatures are deterministic, so running it again gives the
same bytes; tests/fairness/test_vectors.py rebuilds the vectors in memory and compares them with
the committed file, so they can never drift from the code. The signing key is a public TEST key
(RFC 8032 test 1): never use it for anything real.

Games are played by simple deterministic strategies on seeds found by a deterministic search,
so that the file holds games that hit the Joker rule, the +100 bonus and the upper bonus.
"""

import argparse
import base64
import datetime as dt
import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairness import (
    RULESETS,
    DiceStream,
    Game,
    canonical_json,
    extra_bonus,
    gossip,
    ledger,
    match,
    merkle,
    placement,
    score,
    service_log,
    tiles,
    tlog_proof,
)
from fairness import checkpoint as tlog
from fairness import note as notes
from fairness.audit import match_checks
from fairness.chain import new_epoch, seed_for_day
from fairness.daylog import published_log
from fairness.dice import PER_TURN, SEQUENTIAL, block_message, dice_from_block
from fairness.sheets import DAILY_RULESETS, LOWER, UPPER, YATZY_DAILY

VECTORS_PATH = Path(__file__).resolve().parents[1] / "tests" / "vectors.json"

# RFC 8032 section 7.1, TEST 1: a published key, for test vectors only.
TEST_KEY_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")

GAME_DATE = "2026-12-01"
LEDGER_START = "2026-12-01"
LEDGER_EPOCH_LENGTH = 7
LEDGER_PLAYERS = {  # per revealed day: how many finished games per sheet, and abandoned ones
    1: {"yacht": 2, "yacht-bonus": 3, "yahtzee": 1},
    2: {"yacht": 1, "yacht-bonus": 0, "yahtzee": 2},
}
LEDGER_ABANDONED = {1: {"yacht": 1}, 2: {"yahtzee": 1}}
SEARCH_LIMIT = 3000

# Certificate Transparency's reference leaves: trees of up to 8 of them have published heads.
CT_LEAVES = [
    "",
    "00",
    "10",
    "2021",
    "3031",
    "40414243",
    "5051525354555657",
    "606162636465666768696a6b6c6d6e6f",
]
MERKLE_SIZES = (0, 1, 2, 3, 5, 7, 8, 13)

# The sheets of the reference documents; the sheets from public descriptions (docs/sheets.md)
# come after every earlier vector of a section, so that those keep their place.
DOCUMENTED_SHEETS = ("yacht", "yacht-bonus", "yahtzee", "yahtzee-no-joker", "yahtzee-no-bonus",
                     "yahtzee-no-joker-no-bonus")
PUBLIC_SHEETS = tuple(r for r in RULESETS if r not in DOCUMENTED_SHEETS)


def label_bytes(label: str) -> bytes:
    """32 fixed bytes named by ``label``: SHA-256 of ``yacht-daily/vectors/<label>``."""
    return hashlib.sha256(f"yacht-daily/vectors/{label}".encode()).digest()


def signed(key: Ed25519PrivateKey, obj: dict) -> dict:
    """``obj`` with ``sig``: the Ed25519 signature of its canonical JSON without ``sig``."""
    return {**obj, "sig": key.sign(ledger.signed_bytes(obj)).hex()}


# ---------------------------------------------------------------- canonical JSON


def canonical_vectors() -> list[dict]:
    """Values and their canonical JSON text."""
    values = [
        {"b": 1, "a": [True, False, None]},
        {"z": {"y": 2, "x": 1}, "a": [], "m": {}},
        {"name": "Élodie à Zürich", "emoji": "🎲"},
        'quote " backslash \\ slash / tab \t newline \n control \u0001',
        [-9007199254740991, 0, 9007199254740991],
        {"action": "roll", "hold": [False, True, False, False, True], "dice": [6, 2, 6, 3, 6]},
        {"action": "score", "category": "full-house", "points": 25, "bonus": 0},
    ]
    return [
        {"value": value, "canonical": canonical_json(value).decode("utf-8")} for value in values
    ]


# ---------------------------------------------------------------- dice streams


def stream_vector(seed: bytes, date: str, ruleset_id: str) -> dict:
    """The first blocks, dice and rolls of one (seed, date, sheet)."""
    stream = DiceStream(seed, date, ruleset_id)
    blocks = [stream.block(k) for k in range(3)]
    return {
        "seed": seed.hex(),
        "date": date,
        "ruleset": ruleset_id,
        "messages": [block_message(date, ruleset_id, k).decode("ascii") for k in range(3)],
        "blocks": [block.hex() for block in blocks],
        "block_dice": [dice_from_block(block) for block in blocks],
        "rejected_bytes": sum(1 for block in blocks for byte in block if byte >= 252),
        "dice": stream.dice(100),
        "rolls": [list(stream.roll(n)) for n in range(8)],
    }


def stream_vectors(chain_day_seed: bytes) -> list[dict]:
    """Streams of every sheet on one seed, of the daily sheets on a chain seed, and more dates."""
    vectors = [stream_vector(bytes(range(32)), GAME_DATE, r) for r in DOCUMENTED_SHEETS]
    vectors += [stream_vector(chain_day_seed, LEDGER_START, r) for r in DAILY_RULESETS]
    vectors.append(stream_vector(bytes(32), "2028-02-29", "yacht"))
    vectors.append(stream_vector(label_bytes("stream"), "2027-01-01", "yahtzee"))
    vectors += [stream_vector(bytes(range(32)), GAME_DATE, r) for r in PUBLIC_SHEETS]
    vectors.append(stream_vector(chain_day_seed, LEDGER_START, YATZY_DAILY))
    if not any(vector["rejected_bytes"] for vector in vectors):
        raise AssertionError("no stream vector shows a rejected byte")
    return vectors


# ---------------------------------------------------------------- seed chains


def chain_vector(secret: bytes, start: str, length: int) -> dict:
    """An epoch's anchor and every day's seed."""
    epoch = new_epoch(secret, start, length)
    return {
        "secret": secret.hex(),
        "start": start,
        "length": length,
        "anchor": epoch.anchor.hex(),
        "dates": {str(i): epoch.date_of(i) for i in range(1, length + 1)},
        "seeds": {str(i): seed_for_day(secret, epoch, i).hex() for i in range(1, length + 1)},
    }


def chain_vectors() -> list[dict]:
    """The ledger's epoch, one across a year end, and a one-day epoch."""
    return [
        chain_vector(label_bytes("epoch-1"), LEDGER_START, LEDGER_EPOCH_LENGTH),
        chain_vector(label_bytes("epoch-2"), "2026-12-30", 4),
        chain_vector(bytes(range(32)), "2027-03-01", 1),
    ]


# ---------------------------------------------------------------- Merkle trees


def merkle_leaf_data(size: int) -> list[bytes]:
    """``size`` leaves: CT's reference leaves first, then ``leaf <i>``."""
    return [
        bytes.fromhex(CT_LEAVES[i]) if i < len(CT_LEAVES) else f"leaf {i}".encode()
        for i in range(size)
    ]


def merkle_vector(size: int) -> dict:
    """A tree's leaves, root and every inclusion proof."""
    data = merkle_leaf_data(size)
    hashes = [merkle.leaf_hash(leaf) for leaf in data]
    return {
        "leaves": [leaf.hex() for leaf in data],
        "leaf_hashes": [h.hex() for h in hashes],
        "root": merkle.root(hashes).hex(),
        "proofs": [
            {"index": i, "size": size, "path": [h.hex() for h in merkle.inclusion_path(i, hashes)]}
            for i in range(size)
        ],
    }


# ---------------------------------------------------------------- scores

# The reference documents' own examples, as (ruleset, box, dice).
REFERENCE_EXAMPLES = [
    ("yacht", "fives", [5, 5, 5, 2, 1]),
    ("yacht-bonus", "fours", [4, 4, 4, 2, 1]),
    ("yacht-bonus", "choice", [6, 5, 4, 3, 1]),
    ("yacht-bonus", "four-of-a-kind", [5, 5, 5, 5, 2]),
    ("yacht-bonus", "full-house", [6, 6, 6, 5, 5]),
    ("yacht-bonus", "full-house", [1, 1, 1, 2, 2]),
    ("yacht-bonus", "small-straight", [2, 3, 4, 5, 5]),
    ("yacht-bonus", "large-straight", [2, 3, 4, 5, 6]),
    ("yacht-bonus", "yacht", [3, 3, 3, 3, 3]),
    *(
        ("yacht-bonus", box, [6, 6, 6, 6, 6])
        for box in ("sixes", "choice", "four-of-a-kind", "full-house", "yacht")
    ),
    ("yahtzee", "fours", [4, 4, 2, 4, 6]),
    ("yahtzee", "three-of-a-kind", [6, 6, 6, 2, 1]),
    ("yahtzee", "small-straight", [1, 2, 3, 4, 4]),
    ("yahtzee", "small-straight", [1, 2, 3, 4, 5]),
    ("yahtzee", "large-straight", [1, 2, 3, 4, 5]),
    ("yahtzee", "full-house", [5, 5, 5, 5, 5]),
]
# Throws from which every box of every sheet gets one scoring and one zero example.
SCORE_THROWS = [
    [1, 1, 1, 2, 2],
    [6, 6, 6, 5, 5],
    [1, 2, 3, 4, 5],
    [2, 3, 4, 5, 6],
    [5, 5, 5, 5, 2],
    [3, 3, 3, 3, 3],
    [1, 3, 4, 5, 6],
    [6, 5, 4, 3, 1],
    [2, 2, 4, 4, 6],
]
_ALL_LOWER = (
    "three-of-a-kind",
    "four-of-a-kind",
    "full-house",
    "small-straight",
    "large-straight",
    "yahtzee",
    "chance",
)
JOKER_SHEETS = [  # (dice, sheet) of further five-of-a-kinds on the 13-box sheets
    ([6, 6, 6, 6, 6], {"yahtzee": 50}),
    ([6, 6, 6, 6, 6], {"yahtzee": 0}),
    ([6, 6, 6, 6, 6], {"yahtzee": 50, "sixes": 18, "chance": 22}),
    ([2, 2, 2, 2, 2], {"yahtzee": 0, "twos": 4}),
    ([6, 6, 6, 6, 6], {box: 0 for box in _ALL_LOWER} | {"yahtzee": 50, "sixes": 24, "ones": 3}),
    ([1, 1, 1, 1, 1], {box: 0 for box in _ALL_LOWER} | {"ones": 4}),
]


def score_vector(ruleset_id: str, category: str, dice: list[int], sheet: dict,
                 first_roll: bool | None = None) -> dict:
    """What ``dice`` score in ``category`` given ``sheet``, and where they may go.

    The vectors of the sheets from public descriptions also say whether the dice came on the
    turn's first roll (``first_roll``); the earlier ones keep their keys (never a first roll).
    """
    allowed = placement(ruleset_id, dice, sheet, bool(first_roll))
    vector = {
        "ruleset": ruleset_id,
        "category": category,
        "dice": dice,
        "sheet": sheet,
        "points": score(ruleset_id, category, dice, sheet, bool(first_roll)),
        "extra_bonus": extra_bonus(ruleset_id, dice, sheet, category),
        "allowed": list(allowed.allowed),
        "restriction": allowed.restriction,
    }
    if first_roll is not None:
        vector["first_roll"] = first_roll
    return vector


def score_vectors() -> list[dict]:
    """Reference examples, a scoring and a zero throw per box of every sheet, Joker cases.

    Then, for each Joker case and for a second five-of-a-kind on the 12-box sheets, every
    free box.
    """
    vectors = [
        score_vector(ruleset_id, box, dice, {}) for ruleset_id, box, dice in REFERENCE_EXAMPLES
    ]
    for ruleset in map(RULESETS.get, DOCUMENTED_SHEETS):
        for box in ruleset.category_ids:
            scoring = next(d for d in SCORE_THROWS if score(ruleset.id, box, d))
            zero = next((d for d in SCORE_THROWS if not score(ruleset.id, box, d)), None)
            vectors += [
                score_vector(ruleset.id, box, dice, {})
                for dice in (scoring, zero)
                if dice is not None
            ]  # Choice is never 0
    for ruleset_id in ("yacht", "yacht-bonus"):
        sheet = {"yacht": 50}
        vectors += [
            score_vector(ruleset_id, box, [6] * 5, sheet)
            for box in RULESETS[ruleset_id].category_ids
            if box not in sheet
        ]
    for ruleset in map(RULESETS.get, DOCUMENTED_SHEETS):
        if ruleset.five_of_a_kind_box is None:
            continue
        for dice, sheet in JOKER_SHEETS:
            vectors += [
                score_vector(ruleset.id, box, dice, sheet)
                for box in ruleset.category_ids
                if box not in sheet
            ]
    return vectors + public_sheet_score_vectors()


# The public descriptions' examples and the cases that tell the readings apart (docs/sheets.md).
PUBLIC_EXAMPLES = [  # (ruleset, box, dice, first roll)
    ("yatzy", "one-pair", [5, 3, 3, 2, 1], False),
    ("yatzy", "one-pair", [6, 6, 6, 1, 1], False),
    ("yatzy", "two-pairs", [5, 3, 3, 4, 4], False),
    ("yatzy", "two-pairs", [6, 6, 6, 1, 1], False),
    ("yatzy", "two-pairs", [4, 4, 4, 4, 2], False),
    ("yatzy", "three-of-a-kind", [2, 5, 5, 4, 5], False),
    ("yatzy", "four-of-a-kind", [5, 5, 5, 4, 5], False),
    ("yatzy", "four-of-a-kind", [3, 3, 3, 3, 3], False),
    ("yatzy", "small-straight", [1, 2, 3, 4, 5], False),
    ("yatzy", "small-straight", [2, 3, 4, 5, 6], False),
    ("yatzy", "large-straight", [2, 3, 4, 5, 6], False),
    ("yatzy", "full-house", [3, 5, 5, 3, 3], False),
    ("yatzy", "full-house", [3, 3, 3, 3, 3], False),
    ("yatzy", "yatzy", [2, 2, 2, 2, 2], True),
    ("generala", "escalera", [1, 2, 3, 4, 5], False),
    ("generala", "escalera", [1, 2, 3, 4, 5], True),
    ("generala", "escalera", [3, 4, 5, 6, 1], True),
    ("generala", "full", [5, 5, 5, 3, 3], True),
    ("generala", "full", [5, 5, 5, 5, 5], True),
    ("generala", "poker", [2, 2, 2, 2, 6], False),
    ("generala", "poker", [2, 2, 2, 2, 2], True),
    ("generala", "generala", [3, 3, 3, 3, 3], False),
    ("generala", "generala", [3, 3, 3, 3, 3], True),
    ("generala", "doble-generala", [3, 3, 3, 3, 3], True),
    ("generala", "fours", [4, 4, 4, 2, 6], True),
    ("yahtzee-triple", "full-house@3", [2, 2, 5, 5, 5], False),
    ("yahtzee-triple", "chance@2", [6, 5, 4, 3, 1], False),
    ("yahtzee-triple", "yahtzee@3", [4, 4, 4, 4, 4], True),
]
_TRIPLE_YAHTZEES = {"yahtzee@1": 50, "yahtzee@2": 100, "yahtzee@3": 150}
_TRIPLE_LOWER = [f"{box}@{k}" for k in (1, 2, 3) for box in _ALL_LOWER]
PUBLIC_SHEET_CASES = [  # (ruleset, dice, sheet, first roll): every free box is a vector
    ("generala", [6, 6, 6, 6, 6], {"generala": 50}, True),
    ("generala", [6, 6, 6, 6, 6], {"generala": 0}, False),
    ("generala", [6, 6, 6, 6, 6], {"generala": 100, "doble-generala": 100}, True),
    ("yatzy", [6, 6, 6, 6, 6], {"yatzy": 50}, False),
    ("yahtzee-triple", [6, 6, 6, 6, 6], {"yahtzee@1": 50, "yahtzee@2": 100}, False),
    ("yahtzee-triple", [6, 6, 6, 6, 6], _TRIPLE_YAHTZEES | {"sixes@2": 24}, False),
    ("yahtzee-triple", [6, 6, 6, 6, 6],
     _TRIPLE_YAHTZEES | {"sixes@1": 12, "sixes@2": 24, "sixes@3": 90}, False),
    ("yahtzee-triple", [2, 2, 2, 2, 2], _TRIPLE_YAHTZEES | {"yahtzee@2": 0, "twos@1": 4}, False),
    ("yahtzee-triple", [1, 1, 1, 1, 1],
     {box: 0 for box in _TRIPLE_LOWER} | {"ones@1": 3, "ones@2": 6, "ones@3": 9}, False),
]


def public_sheet_score_vectors() -> list[dict]:
    """The vectors of Yatzy, Generala and triple Yahtzee: examples, a scoring and a zero throw
    per box (not a first roll), the first-roll bonus of every Generala box, further
    five-of-a-kinds."""
    vectors = [score_vector(r, box, dice, {}, first) for r, box, dice, first in PUBLIC_EXAMPLES]
    for ruleset in map(RULESETS.get, PUBLIC_SHEETS):
        for box in ruleset.category_ids:
            scoring = next((d for d in SCORE_THROWS if score(ruleset.id, box, d)), None)
            zero = next((d for d in SCORE_THROWS if not score(ruleset.id, box, d)), None)
            vectors += [score_vector(ruleset.id, box, dice, {}, False)
                        for dice in (scoring, zero) if dice is not None]
    for box in RULESETS["generala"].category_ids:
        scoring = next((d for d in SCORE_THROWS if score("generala", box, d)), None)
        if scoring is not None:
            vectors.append(score_vector("generala", box, scoring, {}, True))
    for ruleset_id, dice, sheet, first in PUBLIC_SHEET_CASES:
        vectors += [score_vector(ruleset_id, box, dice, sheet, first)
                    for box in RULESETS[ruleset_id].category_ids if box not in sheet]
    return vectors


# ---------------------------------------------------------------- games

Strategy = Callable[[Game], str]


def most_common_face(dice) -> int:
    """The face showing most often (the higher face on a tie)."""
    counts = Counter(dice)
    return max(counts, key=lambda face: (counts[face], face))


def best_box(game: Game, boxes: Iterable[str]) -> str:
    """The box scoring the most among ``boxes`` (the first in sheet order on a tie)."""
    previews = game.previews()
    candidates = [box for box in boxes if box in previews]
    return max(candidates, key=lambda box: (previews[box], -candidates.index(box)))


def greedy_box(game: Game) -> str:
    """The allowed box scoring the most."""
    return best_box(game, game.placement().allowed)


def lower_first_box(game: Game) -> str:
    """The best allowed lower box while one is free, then the best upper box."""
    ruleset = RULESETS[game.ruleset]
    allowed = game.placement().allowed
    lower = [box for box in allowed if ruleset.category(box).section == LOWER]
    return best_box(game, lower or allowed)


def upper_first_box(game: Game) -> str:
    """The best allowed upper box while one is free, then the best lower box."""
    ruleset = RULESETS[game.ruleset]
    allowed = game.placement().allowed
    upper = [box for box in allowed if ruleset.category(box).section == UPPER]
    return best_box(game, upper or allowed)


def scratch_first_box(game: Game) -> str:
    """Scratch the five-of-a-kind box first (0, unless the dice are five of a kind), then greedy."""
    box = RULESETS[game.ruleset].five_of_a_kind_box
    if box and box in game.placement().allowed:
        return box
    return greedy_box(game)


HOLD_ALL = "hold-all"  # rolls three times a turn, holding all five: the rolls change nothing
STRATEGIES: dict[str, tuple[Strategy, int]] = {  # name -> (box choice, rolls per turn at most)
    "greedy": (greedy_box, 3),
    "lower-first": (lower_first_box, 3),
    "upper-first": (upper_first_box, 3),
    "scratch-first": (scratch_first_box, 3),
    "two-rolls": (greedy_box, 2),
    "one-roll": (greedy_box, 1),
}


def play(ruleset_id: str, date: str, seed: bytes, strategy: str, stop_after_turns=None,
         dealing: str = SEQUENTIAL) -> Game:
    """A game played by ``strategy``: keep the most common face, stop at five of a kind
    (``hold-all``: roll three times every turn, holding all five after the first roll)."""
    stream = DiceStream(seed, date, ruleset_id, dealing)
    return play_on(stream, Game.new(ruleset_id, date), strategy, stop_after_turns)


def play_on(stream: DiceStream, game: Game, strategy: str, turns=None) -> Game:
    """``game`` played on ``stream`` by ``strategy`` for ``turns`` turns, or to the end."""
    if strategy == HOLD_ALL:
        choose, max_rolls = greedy_box, 3
    else:
        choose, max_rolls = STRATEGIES[strategy]
    while not game.finished and (turns is None or len(game.boxes) < turns):
        game = game.roll(None, stream)
        while game.rolls_in_turn < max_rolls and (strategy == HOLD_ALL or len(set(game.dice)) > 1):
            face = most_common_face(game.dice)
            game = game.roll([strategy == HOLD_ALL or die == face for die in game.dice], stream)
        game = game.score(choose(game))
    return game


def features(game: Game) -> list[str]:
    """What a game shows: Joker placements, bonuses, further five-of-a-kinds, first-roll
    bonuses (Generala's servida) and a doble generala."""
    ruleset = RULESETS[game.ruleset]
    seen = set()
    boxes: dict[str, int] = {}
    dice, rolls_in_turn = None, 0
    five_boxes = ruleset.boxes_of_kind(ruleset.five_of_a_kind_box) or tuple(
        box for box in ("yacht", "yatzy") if ruleset.category(box))
    for entry in game.transcript:
        if entry["action"] == "roll":
            dice, rolls_in_turn = entry["dice"], rolls_in_turn + 1
            continue
        restriction = placement(game.ruleset, dice, boxes).restriction
        if restriction:
            seen.add(restriction)
        if len(set(dice)) == 1 and all(box in boxes for box in five_boxes):
            seen.add("second-five-of-a-kind")
            if restriction and not all(boxes[box] for box in five_boxes):
                seen.add("joker-with-zero-box")
        if entry["bonus"]:
            seen.add("extra-bonus")
        if rolls_in_turn == 1 and entry["points"] != score(game.ruleset, entry["category"],
                                                           dice, boxes):
            seen.add("first-roll-bonus")
        if entry["category"] == ruleset.second_five_box and entry["points"]:
            seen.add("doble-generala")
        boxes[entry["category"]] = entry["points"]
        rolls_in_turn = 0
    if game.finished and game.totals().upper_bonus:
        seen.add("upper-bonus")
    if any(len(turn) < 3 for turn in _rolls_per_turn(game)):
        seen.add("early-stop")
    return sorted(seen)


def _rolls_per_turn(game: Game) -> list[str]:
    """Each finished turn's actions as ``r`` letters (one per roll)."""
    kinds = "".join("r" if entry["action"] == "roll" else "s" for entry in game.transcript)
    return kinds.split("s")[:-1]


WANTED_GAMES = [  # (ruleset, strategies to try, features the game must show)
    ("yacht", ("greedy",), ()),
    ("yacht", ("greedy",), ("second-five-of-a-kind",)),
    ("yacht-bonus", ("greedy",), ()),
    ("yacht-bonus", ("upper-first", "greedy"), ("upper-bonus",)),
    ("yacht-bonus", ("greedy",), ("second-five-of-a-kind",)),
    ("yahtzee", ("greedy",), ("extra-bonus", "joker-upper")),
    ("yahtzee", ("greedy",), ("extra-bonus", "joker-lower")),
    ("yahtzee", ("lower-first",), ("joker-upper-zero",)),
    ("yahtzee", ("scratch-first",), ("joker-with-zero-box",)),
    ("yahtzee", ("upper-first", "greedy"), ("upper-bonus",)),
    ("yahtzee-no-joker", ("greedy",), ("extra-bonus",)),
    ("yahtzee-no-bonus", ("greedy",), ("joker-lower", "second-five-of-a-kind")),
    ("yahtzee-no-bonus", ("upper-first", "greedy"), ("upper-bonus",)),  # the +35 stays
    ("yahtzee-no-joker-no-bonus", ("greedy",), ("second-five-of-a-kind",)),
]


def find_game(ruleset_id: str, strategies: tuple[str, ...], wanted: tuple[str, ...]) -> tuple:
    """The first (seed, strategy, game) in a fixed search order whose game shows ``wanted``."""
    for attempt in range(SEARCH_LIMIT):
        seed = label_bytes(f"game/{ruleset_id}/{attempt}")
        for strategy in strategies:
            game = play(ruleset_id, GAME_DATE, seed, strategy)
            if set(wanted) <= set(features(game)):
                return seed, strategy, game
    raise RuntimeError(f"no {ruleset_id} game with {wanted} in {SEARCH_LIMIT} seeds")


def game_vector(game_id: str, player: str, seed: bytes, strategy: str, game: Game,
                dealing: str = SEQUENTIAL) -> dict:
    """A game as published, with everything a verifier recomputes."""
    return {
        "game": game_id,
        "player": player,
        "seed": seed.hex(),
        "date": game.date,
        "ruleset": game.ruleset,
        "dealing": dealing,
        "strategy": strategy,
        "finished": game.finished,
        "features": features(game),
        "transcript": list(game.transcript),
        "boxes": {
            box: game.boxes[box] for box in RULESETS[game.ruleset].category_ids if box in game.boxes
        },
        "totals": game.totals().as_dict(),
        "transcript_sha256": ledger.transcript_hash(game.transcript),
    }


def searched_game_vectors(wanted_games=WANTED_GAMES, label: str = "") -> list[dict]:
    """Whole games on the reference documents' six sheets, found to show the rules that
    matter (``label`` keeps other sheets' ids apart)."""
    vectors = []
    for number, (ruleset_id, strategies, wanted) in enumerate(wanted_games):
        seed, strategy, game = find_game(ruleset_id, strategies, wanted)
        game_id = label_bytes(f"game-id/{label}{number}").hex()[:32]
        player = f"p-{label_bytes(f'player/{label}{number}').hex()[:12]}"
        vectors.append(game_vector(game_id, player, seed, strategy, game))
    return vectors


PUBLIC_WANTED_GAMES = [
    ("yatzy", ("greedy",), ()),
    ("yatzy", ("upper-first", "greedy"), ("upper-bonus",)),
    ("generala", ("one-roll", "greedy"), ("first-roll-bonus",)),
    ("generala", ("greedy",), ("doble-generala",)),
    ("yahtzee-triple", ("greedy",), ("extra-bonus",)),
    ("yahtzee-triple", ("upper-first", "greedy"), ("upper-bonus", "joker-upper")),
]


def public_sheet_game_vectors() -> list[dict]:
    """Whole games on Yatzy, Generala and triple Yahtzee."""
    return searched_game_vectors(PUBLIC_WANTED_GAMES, "public/")


# ---------------------------------------------------------------- the ledger


def reveal_time(date: str) -> str:
    """When ``date`` is revealed: play ends D+1 12:00Z, closes 1 h later, reveal 60 s after."""
    return f"{dt.date.fromisoformat(date) + dt.timedelta(days=1)}T13:01:00Z"


def ledger_vectors(key: Ed25519PrivateKey, dealing: str = SEQUENTIAL
                   ) -> tuple[dict, list[dict]]:
    """An epoch (v1 sequential, or v2 with ``dealing``) and two revealed days with their games:
    the ledger section and the games."""
    public_key = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    secret = label_bytes("epoch-1" if dealing == SEQUENTIAL else f"epoch-1/{dealing}")
    epoch = new_epoch(secret, LEDGER_START, LEDGER_EPOCH_LENGTH, dealing)
    entries = [
        signed(
            key,
            ledger.epoch_entry(
                seq=0,
                prev=ledger.GENESIS_PREV,
                number=1,
                epoch=epoch,
                public_key=public_key,
                rulesets=DAILY_RULESETS,
                published_at="2026-11-29T12:00:00Z",
            ),
        )
    ]
    receipts, proofs, games = [], [], []
    strategies = list(STRATEGIES)
    for day, finished_counts in LEDGER_PLAYERS.items():
        date, seed = epoch.date_of(day), seed_for_day(secret, epoch, day)
        day_receipts = {}
        for ruleset_id in DAILY_RULESETS:
            sheet_receipts = []
            count = finished_counts[ruleset_id]
            abandoned = LEDGER_ABANDONED.get(day, {}).get(ruleset_id, 0)
            for number in range(count + abandoned):
                label = f"{date}/{ruleset_id}/{number}" if dealing == SEQUENTIAL else \
                    f"{dealing}/{date}/{ruleset_id}/{number}"
                game_id = label_bytes(f"game-id/{label}").hex()[:32]
                player = f"p-{label_bytes(f'player/{label}').hex()[:12]}"
                strategy = strategies[(day + number) % len(strategies)]
                stop = None if number < count else 4
                game = play(ruleset_id, date, seed, strategy, stop_after_turns=stop,
                            dealing=dealing)
                games.append(game_vector(game_id, player, seed, strategy, game, dealing))
                if game.finished:
                    sheet_receipts.append(
                        signed(
                            key,
                            ledger.receipt(
                                game=game_id,
                                epoch=1,
                                date=date,
                                ruleset=ruleset_id,
                                player=player,
                                transcript=game.transcript,
                                total=game.totals().total,
                            ),
                        )
                    )
            day_receipts[ruleset_id] = sheet_receipts
        entries.append(
            signed(
                key,
                ledger.reveal_entry(
                    seq=len(entries),
                    prev=ledger.entry_hash(entries[-1]),
                    epoch=1,
                    date=date,
                    day=day,
                    seed=seed,
                    games={r: len(day_receipts[r]) for r in DAILY_RULESETS},
                    roots={r: ledger.day_root(day_receipts[r]) for r in DAILY_RULESETS},
                    revealed_at=reveal_time(date),
                ),
            )
        )
        for ruleset_id, sheet_receipts in day_receipts.items():
            receipts += ledger.day_tree(sheet_receipts)
            proofs += [
                {
                    "game": r["game"],
                    "date": date,
                    "ruleset": ruleset_id,
                    **ledger.inclusion_proof(sheet_receipts, r["game"]),
                    "root": ledger.day_root(sheet_receipts).hex(),
                }
                for r in ledger.day_tree(sheet_receipts)
            ]
    return {"entries": entries, "receipts": receipts, "proofs": proofs}, games


def signing_vectors(key: Ed25519PrivateKey, ledger_section: dict) -> dict:
    """The test key and, for a few signed objects, the exact bytes signed and the signature."""
    objects = [
        ledger_section["entries"][0],
        ledger_section["entries"][1],
        ledger_section["receipts"][0],
    ]
    return {
        "private_key_seed": TEST_KEY_SEED.hex(),
        "note": "RFC 8032 section 7.1 TEST 1 key: a public TEST key, never use it for real",
        "public_key": key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex(),
        "objects": [
            {
                "object": obj,
                "signed_bytes": ledger.signed_bytes(obj).decode("utf-8"),
                "sig": obj["sig"],
            }
            for obj in objects
        ],
    }


# ---------------------------------------------------------------- the day's log (v2)

TLOG_START = "2026-12-01"
TLOG_V2_DAY = 2  # day 1 is revealed as v1, day 2 as v2 with its logs
TLOG_FINISHED = {"yacht": 2, "yacht-bonus": 0, "yahtzee": 3}
TLOG_ABANDONED = {"yahtzee": 1, "yacht": 1}
WITNESS_NAME = "witness.example/w1"
# finish times (minute, second after the date opens at D−1 10:00Z) of each sheet's games
TLOG_FINISH_OFFSETS = [(0, 30), (0, 45), (3, 5)]


def public_hex(key: Ed25519PrivateKey) -> str:
    """The raw public key of ``key`` in hex."""
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def note_signer(key: Ed25519PrivateKey, name: str) -> Callable:
    """A function signing a checkpoint body as the log: an Ed25519 note signature line."""
    ident = notes.key_id(name, notes.ED25519, bytes.fromhex(public_hex(key)))
    return lambda body: notes.NoteSignature(name, ident, key.sign(body.encode("utf-8")))


def cosignature(witness: Ed25519PrivateKey, body: str, timestamp: int) -> notes.NoteSignature:
    """The witness's cosignature/v1 line of a checkpoint body at ``timestamp``."""
    ident = notes.key_id(WITNESS_NAME, notes.COSIGNATURE_V1, bytes.fromhex(public_hex(witness)))
    signature = witness.sign(tlog.cosigned_message(body, timestamp))
    return notes.NoteSignature(WITNESS_NAME, ident, tlog.cosignature_payload(timestamp, signature))


def unix_time(text: str) -> int:
    """Seconds since 1970 of a ``YYYY-MM-DDTHH:MM:SSZ`` time."""
    return int(dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
               .replace(tzinfo=dt.UTC).timestamp())


def clock(date: str, minute: int, second: int) -> str:
    """The time ``minute``:``second`` after ``date`` opens (D−1 10:00Z)."""
    opened = dt.datetime.fromisoformat(date) - dt.timedelta(hours=14)
    return (opened + dt.timedelta(minutes=minute, seconds=second)).strftime("%Y-%m-%dT%H:%M:%SZ")


def close_time(date: str) -> str:
    """When ``date`` closes: D+1 13:00Z."""
    return f"{dt.date.fromisoformat(date) + dt.timedelta(days=1)}T13:00:00Z"


def tlog_sheet(key, witness, public_key, date, seed, ruleset_id):
    """One (date, sheet) of the v2 day: its published games, v2 receipts, log and proofs."""
    strategies = list(STRATEGIES)
    finished, games, receipts = TLOG_FINISHED[ruleset_id], [], []
    for number in range(finished + TLOG_ABANDONED.get(ruleset_id, 0)):
        label = f"tlog/{date}/{ruleset_id}/{number}"
        game_id = label_bytes(f"game-id/{label}").hex()[:32]
        player = f"p-{label_bytes(f'player/{label}').hex()[:12]}"
        game = play(ruleset_id, date, seed, strategies[number % len(strategies)],
                    stop_after_turns=None if number < finished else 3)
        receipt = None
        if game.finished:
            minute, second = TLOG_FINISH_OFFSETS[number]
            receipt = signed(key, ledger.receipt_v2(
                game=game_id, epoch=1, date=date, ruleset=ruleset_id, player=player,
                transcript=game.transcript, total=game.totals().total, index=len(receipts),
                finished_at=clock(date, minute, second)))
            receipts.append(receipt)
        games.append({"id": game_id, "player": player,
                      "status": "finished" if game.finished else "abandoned",
                      "transcript": list(game.transcript), "receipt": receipt})
    finals = {g["id"]: ledger.final_leaf(game=g["id"], player=g["player"],
                                         transcript=g["transcript"],
                                         finished=g["status"] == "finished") for g in games}
    # a checkpoint at the end of each minute in which a game finished, then the close
    cuts, by_minute = [], Counter(TLOG_FINISH_OFFSETS[i][0] for i in range(finished))
    done = 0
    for minute in sorted(by_minute):
        done += by_minute[minute]
        cuts.append((done, clock(date, minute + 1, 0)))
    cuts.append((finished, close_time(date)))
    name = tlog.origin(public_key, date, ruleset_id)
    bodies: dict[int, str] = {}

    def sign(body: str) -> notes.NoteSignature:
        """The log's signature, remembering each body for the witness."""
        bodies[len(bodies)] = body
        return note_signer(key, name)(body)

    log = published_log(public_key_hex=public_key, date=date, ruleset=ruleset_id,
                        receipts=receipts, cuts=cuts, sign=sign,
                        close=tlog.Close(len(finals), ledger.finals_root(finals)))
    # the witness cosigns every checkpoint 5 s after it is cut
    for position, item in enumerate(log["checkpoints"]):
        body = bodies[position]
        time = unix_time(cuts[position][1]) + 5
        item["note"] += cosignature(witness, body, time).line()
    hashes = [ledger.receipt_leaf_hash(r) for r in receipts]
    proofs = [{"game": r["game"], "ruleset": ruleset_id, "index": r["index"],
               "size": len(receipts),
               "path": [h.hex() for h in merkle.inclusion_path(r["index"], hashes)],
               "root": merkle.root(hashes).hex()} for r in receipts]
    close_body = bodies[len(bodies) - 1]
    return games, receipts, log, proofs, close_body


def tlog_vectors(key: Ed25519PrivateKey) -> dict:
    """Consistency proofs, a checkpoint, a cosignature, and a ledger of a v1 day then a v2 day
    with its logs, v2 receipts, inclusion proofs and final transcripts."""
    witness = Ed25519PrivateKey.from_private_bytes(label_bytes("witness-1"))
    public_key = public_hex(key)
    secret = label_bytes("epoch-tlog")
    epoch = new_epoch(secret, TLOG_START, LEDGER_EPOCH_LENGTH)
    entries = [signed(key, ledger.epoch_entry(
        seq=0, prev=ledger.GENESIS_PREV, number=1, epoch=epoch, public_key=public_key,
        rulesets=DAILY_RULESETS, published_at="2026-11-29T12:00:00Z"))]
    day1 = epoch.date_of(1)
    entries.append(signed(key, ledger.reveal_entry(
        seq=1, prev=ledger.entry_hash(entries[-1]), epoch=1, date=day1, day=1,
        seed=seed_for_day(secret, epoch, 1), games={r: 0 for r in DAILY_RULESETS},
        roots={r: merkle.root([]) for r in DAILY_RULESETS}, revealed_at=reveal_time(day1))))
    date, seed = epoch.date_of(TLOG_V2_DAY), seed_for_day(secret, epoch, TLOG_V2_DAY)
    sheets = {r: tlog_sheet(key, witness, public_key, date, seed, r) for r in DAILY_RULESETS}
    entries.append(signed(key, ledger.reveal_entry_v2(
        seq=2, prev=ledger.entry_hash(entries[-1]), epoch=1, date=date, day=TLOG_V2_DAY,
        seed=seed, games={r: len(sheets[r][1]) for r in DAILY_RULESETS},
        roots={r: tlog.parse_checkpoint(sheets[r][4]).root for r in DAILY_RULESETS},
        logs={r: tlog.body_hash(sheets[r][4]) for r in DAILY_RULESETS},
        revealed_at=reveal_time(date))))
    first_log = sheets["yahtzee"][2]["checkpoints"][0]["note"]
    body = first_log[:first_log.rfind("\n\n") + 1]
    witness_key = notes.VerifierKey(WITNESS_NAME, notes.COSIGNATURE_V1,
                                    bytes.fromhex(public_hex(witness)))
    stamp = unix_time(tlog.parse_checkpoint(body).time) + 5
    return {
        "consistency": consistency_vectors(),
        "checkpoint": {
            "body": body,
            "key_name": tlog.origin(public_key, date, "yahtzee"),
            "key_id": notes.key_id(tlog.origin(public_key, date, "yahtzee"), notes.ED25519,
                                   bytes.fromhex(public_key)).hex(),
            "note": first_log,
        },
        "gossip": {
            "body_sha256": tlog.body_hash(body).hex(),
            "base32": base64.b32encode(tlog.body_hash(body)).decode("ascii"),
            "fingerprint": gossip.fingerprint(body),
            "line": gossip.gossip_line(body).text(),
        },
        "witness": {
            "name": WITNESS_NAME,
            "private_key_seed": label_bytes("witness-1").hex(),
            "public_key": public_hex(witness),
            "vkey": witness_key.text(),
            "key_id": witness_key.key_id.hex(),
            "timestamp": stamp,
            "cosigned_message": tlog.cosigned_message(body, stamp).decode("utf-8"),
        },
        "day": {
            "entries": entries,
            "date": date,
            "logs": {r: sheets[r][2] for r in DAILY_RULESETS},
            "games": {r: sheets[r][0] for r in DAILY_RULESETS},
            "proofs": [proof for r in DAILY_RULESETS for proof in sheets[r][3]],
        },
    }


def consistency_vectors() -> list[dict]:
    """Consistency proofs between every pair of sizes of the 8 CT leaves and of 13 leaves."""
    out = []
    for total in (8, 13):
        hashes = [merkle.leaf_hash(d) for d in merkle_leaf_data(total)]
        for second in range(1, total + 1):
            for first in range(1, second):
                out.append({"leaves": total, "first": first, "second": second,
                            "first_root": merkle.root(hashes[:first]).hex(),
                            "second_root": merkle.root(hashes[:second]).hex(),
                            "path": [h.hex() for h in
                                     merkle.consistency_path(first, hashes[:second])]})
    return out


# ---------------------------------------------------------------- games on their own (matches)

MATCH_STARTED = "2026-12-01T10:00:00Z"
MATCH_SEATS = {  # match label -> kind, ruleset, seats (kind, name, level or None, strategy)
    "computer": ("computer", "yahtzee", [("human", "Alice", None, "greedy"),
                                         ("bot", "Robot (medium)", "medium", "lower-first")]),
    "table": ("table", "yacht", [("human", "Bea", None, "upper-first"),
                                 ("bot", "Robot (easy)", "easy", "two-rolls"),
                                 ("human", "Chloé", None, "greedy")]),
    "expired": ("practice", "yacht-bonus", [("human", "Dan", None, "one-roll")]),
}
EXPIRED_AFTER_TURNS = 4
DUPLICATE_MATCHES = ("computer", "table")  # dealt again as duplicate, after the v1 and v2 ones


def match_stream_vector(server_seed: bytes, client_seeds: list[str], match_id: str, seat: int,
                        ruleset_id: str) -> dict:
    """The first blocks, dice and rolls of one seat's stream."""
    stream = match.seat_stream(server_seed, client_seeds, match_id, seat, ruleset_id)
    return {
        "server_seed": server_seed.hex(), "client_seeds": client_seeds, "match": match_id,
        "seat": seat, "ruleset": ruleset_id,
        "messages": [match.seat_block_message(match_id, ruleset_id, seat, client_seeds, k)
                     .decode("ascii") for k in range(2)],
        "blocks": [stream.block(k).hex() for k in range(2)],
        "dice": stream.dice(40),
        "rolls": [list(stream.roll(n)) for n in range(4)],
    }


def play_seat(stream: match.MatchStream, strategy: str, turns: int | None) -> Game:
    """A seat's game played by ``strategy`` (as ``play`` does), for ``turns`` turns or all."""
    choose, max_rolls = STRATEGIES[strategy]
    game = Game.new_match(stream.ruleset)
    while not game.finished and (turns is None or len(game.boxes) < turns):
        game = game.roll(None, stream)
        while game.rolls_in_turn < max_rolls and len(set(game.dice)) > 1:
            face = most_common_face(game.dice)
            game = game.roll([die == face for die in game.dice], stream)
        game = game.score(choose(game))
    return game


def match_answer(key: Ed25519PrivateKey, name: str, dealing: str = SEQUENTIAL) -> dict:
    """A whole match as ``GET /api/v1/matches/<id>`` answers it after the end (the fields a
    verifier reads): the signed result, the server seed and every seat's transcript."""
    kind, ruleset_id, seats = MATCH_SEATS[name]
    label = name if dealing == SEQUENTIAL else f"{name}/{dealing}"
    server_seed = label_bytes(f"match/{label}/server-seed")
    match_id = label_bytes(f"match/{label}/id").hex()[:32]
    client_seeds = [label_bytes(f"match/{label}/client/{seat}").hex()[:16 + 4 * seat]
                    for seat, (who, *_) in enumerate(seats) if who == "human"]
    finished = name != "expired"
    games, rows = [], []
    for seat, (who, seat_name, level, strategy) in enumerate(seats):
        stream = match.seat_stream(server_seed, client_seeds, match_id, seat, ruleset_id,
                                   dealing)
        game = play_seat(stream, strategy, None if finished else EXPIRED_AFTER_TURNS)
        games.append(game)
        player = "p-" + label_bytes(f"match/{label}/player/{seat}").hex()[:12]
        rows.append(match.seat_record(seat, game, kind=who, name=seat_name,
                                      player=player if who == "human" else None, bot=level))
    ended = "2026-12-02T10:00:00Z" if not finished else "2026-12-01T10:25:00Z"
    result = match.match_result(
        match_id=match_id, kind=kind, ruleset=ruleset_id, epoch=1, created_at=MATCH_STARTED,
        ended_at=ended, commitment=match.commitment(server_seed, dealing),
        server_seed_hex=server_seed.hex(), client_seeds=client_seeds, seats=rows,
        finished=finished, dealing=dealing)
    return {"match": {
        "id": match_id, "kind": kind, "ruleset": ruleset_id, "status":
        "finished" if finished else "expired", "commitment": result["commitment"],
        "server_seed": server_seed.hex(), "result": signed(key, result),
        "seats": [{"seat": seat, "transcript": list(game.transcript)}
                  for seat, game in enumerate(games)]}}


def duplicate_tampered(answers: list[dict]) -> list[dict]:
    """Two changes of the duplicate table, with the checks that then fail: its ``dealing``
    claimed ``per-turn`` (the commitment binds the dealing), and seat 1's transcript as the
    seat would have played it on its own stream (``yacht-daily/match-dice/v1|…|1|…``) rather
    than seat 0's."""
    index = next(i for i, case in enumerate(answers) if case["label"] == "table/duplicate")
    answer, public_key = answers[index]["answer"], answers[index]["public_key"]
    state = answer["match"]
    _, ruleset_id, seats = MATCH_SEATS["table"]
    own = match.seat_stream(state["server_seed"], state["result"]["client_seeds"], state["id"],
                            1, ruleset_id, PER_TURN)
    own_transcript = list(play_seat(own, seats[1][3], None).transcript)
    cases = []
    for what, path, value in (
            ("dealing changed to per-turn", ["match", "result", "dealing"], PER_TURN),
            ("seat 1 played on its own stream", ["match", "seats", 1, "transcript"],
             own_transcript)):
        changed = json.loads(json.dumps(answer))
        parent = changed
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
        cases.append({"match": index, "what": what, "path": path, "value": value,
                      "failing": failing_checks(changed, public_key)})
    return cases


def tampered_matches(answers: list[dict]) -> list[dict]:
    """One change per field of the computer match's result (each seat's fields too), among them
    the client seeds and the server seed, and a changed die at one roll of each seat, with the
    checks that then fail."""
    answer = answers[0]["answer"]
    result = answer["match"]["result"]
    cases = []

    def case(what: str, path: list, value) -> None:
        """A change at ``path`` of the answer and the checks it fails in the core."""
        changed = json.loads(json.dumps(answer))
        parent = changed
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = value
        cases.append({"match": 0, "what": what, "path": path, "value": value,
                      "failing": failing_checks(changed, answers[0]["public_key"])})

    for field, value in result.items():
        if field != "seats":
            forged = FORGERIES.get(field, changed_value)(value)
            case(f"{field} changed", ["match", "result", field], forged)
            continue
        for seat, row in enumerate(value):
            for key, item in row.items():
                case(f"seat {seat}'s {key} changed", ["match", "result", "seats", seat, key],
                     FORGERIES.get(key, changed_value)(item))
    for seat, transcript in enumerate(answer["match"]["seats"]):
        rolls = [i for i, entry in enumerate(transcript["transcript"]) if entry["action"] == "roll"]
        index = rolls[len(rolls) // 2]
        dice = list(transcript["transcript"][index]["dice"])
        dice[2] = dice[2] % 6 + 1
        case(f"seat {seat}: one die of roll {len(rolls) // 2} changed",
             ["match", "seats", seat, "transcript", index, "dice"], dice)
    return cases


def later_time(value: str) -> str:
    """A YYYY-MM-DDTHH:MM:SSZ time one second later (within the minute)."""
    seconds = (int(value[17:19]) + 1) % 60
    return f"{value[:17]}{seconds:02d}Z"


FORGERIES = {  # field -> a forgery that keeps the result well formed, where one exists
    "kind": lambda kind: "table" if kind != "table" else "computer",
    "ruleset": lambda ruleset: "yacht" if ruleset != "yacht" else "yahtzee",
    "created_at": later_time,
    "ended_at": later_time,
    "rank": lambda rank: 1 if rank != 1 else 2,
    "seat": lambda seat: 1 - seat,
}


def changed_value(value):
    """One plausible forgery of a result field's value."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if value is None:
        return 1
    if isinstance(value, list):
        return [changed_value(value[0]), *value[1:]] if value else [0]
    hexdigits = "0123456789abcdef"
    last = value[-1]
    if last in hexdigits:
        return value[:-1] + hexdigits[(hexdigits.index(last) + 1) % 16]
    return value[:-1] + ("a" if last != "a" else "b")


def failing_checks(answer: dict, public_key: str) -> list[str]:
    """The names of the checks the core fails on ``answer``, in order."""
    result, transcripts = match_checks.answer_parts(answer)
    checks = match_checks.check_match(result, transcripts, public_key_hex=public_key,
                                      verify_signature=_verify)
    return [check.name for check in checks if check.ok is False]


def _verify(public_key: str, message: bytes, sig: str) -> bool:
    """Ed25519 verification through ``cryptography``."""
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(sig), message)
    except InvalidSignature:
        return False
    return True


def match_vectors(key: Ed25519PrivateKey) -> dict:
    """Commitments, seat streams, whole matches (v1, v2 per turn, v2 duplicate) with the core's
    checks, tampered cases."""
    public_key = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    seeds = [bytes(range(32)), label_bytes("match/commitment")]
    client_sets = [["4f1c9a2e7b3d5a60"], ["Alice.seed-1", "b~2", "0"]]
    streams = [match_stream_vector(seeds[0], client_sets[0], "m-1", 0, "yacht"),
               match_stream_vector(seeds[0], client_sets[1], "m-1", 0, "yahtzee"),
               match_stream_vector(seeds[0], client_sets[1], "m-1", 1, "yahtzee"),
               match_stream_vector(seeds[1], client_sets[1], "0f3c2a9d4e5b6a7c", 2,
                                   "yacht-bonus")]
    answers = []
    for name, dealing in [(name, SEQUENTIAL) for name in MATCH_SEATS] + [
            (name, PER_TURN) for name in MATCH_SEATS] + [
            (name, match.DUPLICATE) for name in DUPLICATE_MATCHES]:
        answer = match_answer(key, name, dealing)
        result, transcripts = match_checks.answer_parts(answer)
        checks = match_checks.check_match(result, transcripts, public_key_hex=public_key,
                                          verify_signature=_verify)
        label = name if dealing == SEQUENTIAL else f"{name}/{dealing}"
        answers.append({"label": label, "public_key": public_key, "answer": answer,
                        "signed_bytes": ledger.signed_bytes(result).decode("utf-8"),
                        "checks": [[c.name, c.ok, c.detail] for c in checks]})
    return {
        "commitments": [{"server_seed": seed.hex(), "dealing": dealing,
                         "commitment": match.commitment(seed, dealing)}
                        for dealing in (SEQUENTIAL, PER_TURN, match.DUPLICATE)
                        for seed in seeds],
        "streams": streams,
        "matches": answers,
        "tampered": tampered_matches(answers) + duplicate_tampered(answers),
    }


# ---------------------------------------------------------------- per-turn dealing

DEALING_SEED_LABEL = "dealing/0"
DEALING_STRATEGIES = ("one-roll", "two-rolls", "greedy", HOLD_ALL)
DEALING_RULESETS = ("yacht", "yahtzee")


def dealing_vectors(key: Ed25519PrivateKey) -> dict:
    """The same choices on one stream under both dealings (per turn, every game's turn ``t``
    starts with slot ``3t``), a game abandoned after 4 turns, and a v2 epoch's ledger."""
    seed = label_bytes(DEALING_SEED_LABEL)
    games = []
    for ruleset_id in DEALING_RULESETS:
        for dealing in (PER_TURN, SEQUENTIAL):
            for strategy in DEALING_STRATEGIES:
                label = f"dealing/{ruleset_id}/{dealing}/{strategy}"
                game = play(ruleset_id, GAME_DATE, seed, strategy, dealing=dealing)
                games.append(game_vector(label_bytes(f"game-id/{label}").hex()[:32],
                                         f"p-{label_bytes(f'player/{label}').hex()[:12]}",
                                         seed, strategy, game, dealing))
        label = f"dealing/{ruleset_id}/{PER_TURN}/abandoned"
        game = play(ruleset_id, GAME_DATE, seed, "one-roll", stop_after_turns=4,
                    dealing=PER_TURN)
        games.append(game_vector(label_bytes(f"game-id/{label}").hex()[:32],
                                 f"p-{label_bytes(f'player/{label}').hex()[:12]}", seed,
                                 "one-roll", game, PER_TURN))
    stream = DiceStream(seed, GAME_DATE, DEALING_RULESETS[0], PER_TURN)
    section, ledger_games = ledger_vectors(key, PER_TURN)
    return {
        "turns": [{"seed": seed.hex(), "date": GAME_DATE, "ruleset": DEALING_RULESETS[0],
                   "turn": turn, "roll": roll, "slot": 3 * turn + roll,
                   "dice": list(stream.deal(turn, roll, 0))}
                  for turn in range(3) for roll in range(3)],
        "games": games,
        "ledger": {**section, "games": ledger_games},
    }


# ---------------------------------------------------------------- the file


LOG_ORIGIN = "yacht.example/log"


def service_log_vectors(day: dict) -> dict:
    """The service log of the tlog day: its entries (every checkpoint of the day's logs, by
    time then sheet, each cut to its epoch-key line), two checkpoints signed by the log key
    (the second cosigned), the consistency proof between them, the tiles, a tlog-proof of an
    entry and a proven fork file."""
    log_private = Ed25519PrivateKey.from_private_bytes(label_bytes("log-key"))
    public_key = bytes.fromhex(public_hex(log_private))
    witness = Ed25519PrivateKey.from_private_bytes(label_bytes("witness-1"))
    cut = [(tlog.parse_checkpoint(c["note"].split("\n\n")[0] + "\n").time, order, c["note"])
           for order, r in enumerate(DAILY_RULESETS) for c in day["logs"][r]["checkpoints"]]
    entries = [first_signature_only(note) for _, _, note in sorted(cut)]
    hashes = [merkle.leaf_hash(e.encode("utf-8")) for e in entries]
    sign = note_signer(log_private, LOG_ORIGIN)

    def checkpoint(size: int, cosigned: bool = False) -> dict:
        body = service_log.LogCheckpoint(LOG_ORIGIN, size, merkle.root(hashes[:size])).body()
        lines = [sign(body)]
        if cosigned:
            lines.append(cosignature(witness, body, 1796200000))
        return {"size": size, "body": body, "note": notes.format_note(body, lines)}

    old, new = 3, len(entries)
    first, last = checkpoint(old), checkpoint(new, cosigned=True)
    forked = [merkle.leaf_hash(b"another history"), *hashes[1:]]
    fork_body = service_log.LogCheckpoint(LOG_ORIGIN, old, merkle.root(forked[:old])).body()
    fork_note = notes.format_note(fork_body, [sign(fork_body)])
    b64 = [base64.b64encode(h).decode("ascii") for h in merkle.consistency_path(old, hashes)]
    proof = tlog_proof.TlogProof(1, merkle.inclusion_path(1, hashes), last["note"])
    return {
        "origin": LOG_ORIGIN,
        "private_key_seed": label_bytes("log-key").hex(),
        "public_key": public_key.hex(),
        "key_id": service_log.log_key_id(LOG_ORIGIN, public_key).hex(),
        "vkey": service_log.log_vkey(LOG_ORIGIN, public_key),
        "entries": entries,
        "leaf_hashes": [h.hex() for h in hashes],
        "checkpoints": [first, last],
        "consistency": {"old": old, "size": new, "proof": b64},
        "tiles": {tiles.tile_path(tiles.TileAddress(0, 0, new)): b"".join(hashes).hex(),
                  tiles.tile_path(tiles.TileAddress(0, 0, new, entries=True)):
                      tiles.entry_bundle([e.encode("utf-8") for e in entries]).hex()},
        "tile_paths": {str(index): tiles.tile_path(tiles.TileAddress(0, index, None))
                       for index in (0, 255, 256, 1234067)},
        "tlog_proof": {"entry": 1, "text": tlog_proof.format_tlog_proof(proof)},
        "fork": service_log.format_fork(fork_note, last["note"], merkle.consistency_path(
            old, hashes)),
    }


def first_signature_only(note: str) -> str:
    """A signed note cut to its first signature line (the log's own)."""
    text_end = note.index("\n\n") + 2
    return note[:note.index("\n", text_end) + 1]


def build_vectors() -> dict:
    """Every vector, from fixed inputs."""
    key = Ed25519PrivateKey.from_private_bytes(TEST_KEY_SEED)
    chains = chain_vectors()
    ledger_section, ledger_games = ledger_vectors(key)
    return {
        "about": "Yacht Daily test vectors, written by scripts/make_vectors.py from fixed inputs "
        "(see FAIRNESS.md). Hex is lowercase; dates are YYYY-MM-DD.",
        "canonical_json": canonical_vectors(),
        "stream": stream_vectors(bytes.fromhex(chains[0]["seeds"]["1"])),
        "chain": chains,
        "merkle": [merkle_vector(size) for size in MERKLE_SIZES],
        "scores": score_vectors(),
        "games": searched_game_vectors() + ledger_games + public_sheet_game_vectors(),
        "signing": signing_vectors(key, ledger_section),
        "ledger": ledger_section,
        "tlog": (tlog_section := tlog_vectors(key)),
        "service_log": service_log_vectors(tlog_section["day"]),
        "match": match_vectors(key),
        "dealing": dealing_vectors(key),
    }


def render(vectors: dict) -> str:
    """The file's text: one vector per line inside each section, so diffs stay readable."""

    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def block(value, indent: int, depth: int) -> str:
        pad, inner = " " * indent, " " * (indent + 2)
        if isinstance(value, dict) and depth < 2:
            items = [
                f"{inner}{dumps(k)}: {block(v, indent + 2, depth + 1)}" for k, v in value.items()
            ]
            return "{\n" + ",\n".join(items) + f"\n{pad}}}"
        if isinstance(value, list) and value and depth < 3:
            return "[\n" + ",\n".join(inner + dumps(item) for item in value) + f"\n{pad}]"
        return dumps(value)

    return block(vectors, 0, 0) + "\n"


def main(argv=None) -> int:
    """Write the vectors file, or with --check say whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    args = parser.parse_args(argv)
    text = render(build_vectors())
    if args.check:
        current = VECTORS_PATH.read_text(encoding="utf-8") if VECTORS_PATH.exists() else ""
        if current != text:
            print(f"{VECTORS_PATH} is out of date: run `make vectors`", file=sys.stderr)
            return 1
        print(f"{VECTORS_PATH} is up to date")
        return 0
    VECTORS_PATH.write_text(text, encoding="utf-8")
    print(f"wrote {VECTORS_PATH} ({len(text.encode('utf-8'))} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
