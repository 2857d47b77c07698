"""Helpers shared by the core's tests: an independent dice stream, a random player, strategies.

The reference stream and Merkle functions here are written from FAIRNESS.md and RFC 9162, not
from ``fairness``, so the two check each other.
"""

import hashlib
import hmac
import random

from hypothesis import strategies as st

from fairness import RULESETS, DiceStream, Game

DATE = "2026-12-01"
SEED = bytes(range(32))

seeds = st.binary(min_size=32, max_size=32)
dates = st.dates().map(lambda day: day.isoformat())
ruleset_ids = st.sampled_from(sorted(RULESETS))


def reference_dice(seed: bytes, date: str, ruleset_id: str, count: int) -> list[int]:
    """The first ``count`` dice of a stream, straight from the protocol's definition."""
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        message = f"yacht-daily/dice/v1|{date}|{ruleset_id}|{block}".encode("ascii")
        digest = hmac.new(seed, message, hashlib.sha256).digest()
        dice.extend(byte % 6 + 1 for byte in digest if byte < 252)
        block += 1
    return dice[:count]


def mth(data: list[bytes]) -> bytes:
    """RFC 9162 section 2.1.1: the Merkle Tree Hash of a list of leaf data, recursively."""
    if not data:
        return hashlib.sha256(b"").digest()
    if len(data) == 1:
        return hashlib.sha256(b"\x00" + data[0]).digest()
    k = reference_split(len(data))
    return hashlib.sha256(b"\x01" + mth(data[:k]) + mth(data[k:])).digest()


def path(m: int, data: list[bytes]) -> list[bytes]:
    """RFC 9162 section 2.1.3.1: PATH(m, D[n]), the audit path of leaf m, recursively."""
    if len(data) == 1:
        return []
    k = reference_split(len(data))
    if m < k:
        return path(m, data[:k]) + [mth(data[k:])]
    return path(m - k, data[k:]) + [mth(data[:k])]


def reference_split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def random_hold(rng: random.Random) -> list[bool]:
    """Five random booleans."""
    return [rng.random() < 0.5 for _ in range(5)]


def play(game: Game, stream: DiceStream, rng: random.Random, stop_after: int | None = None) -> Game:
    """Play legal random actions until the game ends or ``stop_after`` actions were taken.

    Rolls again with a random hold or scores a random allowed box, so games vary in how many
    rolls each turn takes.
    """
    while not game.finished and (stop_after is None or game.next_action < stop_after):
        if game.dice is None:
            game = game.roll(None, stream)
        elif game.rolls_left and rng.random() < 0.6:
            game = game.roll(random_hold(rng), stream)
        else:
            game = game.score(rng.choice(game.placement().allowed))
    return game


def fresh_dice_by_roll(game: Game) -> dict[int, dict[int, int]]:
    """For each roll of the game (0-based over the game), the dice of the positions not held."""
    fresh: dict[int, dict[int, int]] = {}
    roll_number = 0
    for entry in game.transcript:
        if entry["action"] == "roll":
            fresh[roll_number] = {
                position: die
                for position, (held, die) in enumerate(
                    zip(entry["hold"], entry["dice"], strict=True)
                )
                if not held
            }
            roll_number += 1
    return fresh


def fresh_dice_by_turn_roll(game: Game) -> dict[tuple[int, int], dict[int, int]]:
    """For each (turn, roll in the turn), both 0-based, the dice of the positions not held."""
    fresh: dict[tuple[int, int], dict[int, int]] = {}
    turn, roll = 0, 0
    for entry in game.transcript:
        if entry["action"] == "score":
            turn, roll = turn + 1, 0
            continue
        fresh[turn, roll] = {position: die for position, (held, die)
                             in enumerate(zip(entry["hold"], entry["dice"], strict=True))
                             if not held}
        roll += 1
    return fresh


def subproof(m: int, data: list[bytes], whole: bool) -> list[bytes]:
    """RFC 9162 section 2.1.4.1: SUBPROOF(m, D[n], b), recursively."""
    n = len(data)
    if m == n:
        return [] if whole else [mth(data)]
    k = reference_split(n)
    if m <= k:
        return subproof(m, data[:k], whole) + [mth(data[k:])]
    return subproof(m - k, data[k:], False) + [mth(data[:k])]
