"""A revealed day made on the core, without the service: random legal games, signed receipts.

The ledger holds one epoch entry and the reveals of days 1..``day``; only the last revealed
date has games, dealt as that epoch deals (sequentially unless told otherwise). Games are played
by a random strategy that keeps the most common face more often than not, so five-of-a-kinds,
extra bonuses and Joker placements all occur.
"""

import datetime as dt
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairness import ledger, rules
from fairness.audit import CachedRules, SharedStream
from fairness.chain import new_epoch, seed_for_day
from fairness.dice import SEQUENTIAL, DiceStream
from fairness.sheets import DAILY_RULESETS, get_ruleset

START = "2026-11-27"
NO_HOLD = [False] * 5


@dataclass
class DayFixture:
    """A ledger whose last reveal covers the games of ``date``, and those games as published."""

    ledger: list
    date: str
    games: dict  # ruleset -> [{"id", "player", "name", "status", "transcript", "receipt"}]
    private_key: Ed25519PrivateKey

    def game(self, ruleset: str, index: int = 0) -> dict:
        """The ``index``-th finished game of ``ruleset``."""
        return [g for g in self.games[ruleset] if g["receipt"]][index]

    def proof(self, ruleset: str, game_id: str) -> dict:
        """The inclusion proof of a finished game's receipt."""
        receipts = [g["receipt"] for g in self.games[ruleset] if g["receipt"]]
        return ledger.inclusion_proof(receipts, game_id)

    def sign(self, obj: Mapping) -> dict:
        """``obj`` with a fresh signature by the epoch's key (to forge consistent tampering)."""
        return _signed(self.private_key, ledger.unsigned(obj))


def make_day(counts: Mapping[str, int], *, day: int = 3, unfinished: int = 0,
             rng_seed: int = 1, earlier_epoch_days: int = 0,
             dealing: str = SEQUENTIAL) -> DayFixture:
    """Play ``counts[ruleset]`` finished games (+ ``unfinished`` abandoned ones per sheet) on
    day ``day`` of the ledger's last epoch, which deals ``dealing`` (a v2 entry when per
    turn). With ``earlier_epoch_days``, an epoch of that many days, dealt sequentially, with
    its own key and all its days revealed, comes before it."""
    rng = random.Random(rng_seed)
    entries: list = []
    start = dt.date.fromisoformat(START)
    if earlier_epoch_days:
        _publish_epoch(rng, entries, 1, start, earlier_epoch_days, earlier_epoch_days)
        start += dt.timedelta(days=earlier_epoch_days)
    number = 2 if earlier_epoch_days else 1
    key, secret, epoch = _publish_epoch(rng, entries, number, start, 30, 0, dealing)
    date = epoch.date_of(day)
    seed = seed_for_day(secret, epoch, day)
    games = {ruleset: _play_games(rng, key, number, seed, date, ruleset, epoch.dealing,
                                  counts.get(ruleset, 0), unfinished)
             for ruleset in DAILY_RULESETS}
    for index in range(1, day + 1):
        receipts = {r: [g["receipt"] for g in games[r] if g["receipt"]] if index == day else []
                    for r in DAILY_RULESETS}
        _reveal(entries, key, number, secret, epoch, index, receipts)
    return DayFixture(entries, date, games, key)


def _publish_epoch(rng: random.Random, entries: list, number: int, start: dt.date, length: int,
                   revealed_days: int, dealing: str = SEQUENTIAL) -> tuple:
    """Append an epoch entry dealing ``dealing`` with a fresh key and secret, and its first
    reveals (no games); returns (key, secret, epoch)."""
    key = Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    public_key = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    secret = rng.randbytes(32)
    epoch = new_epoch(secret, start, length, dealing)
    entries.append(_signed(key, ledger.epoch_entry(
        seq=len(entries), prev=_prev(entries), number=number, epoch=epoch,
        public_key=public_key, rulesets=DAILY_RULESETS,
        published_at=f"{start - dt.timedelta(days=1)}T09:00:00Z")))
    for index in range(1, revealed_days + 1):
        _reveal(entries, key, number, secret, epoch, index, {r: [] for r in DAILY_RULESETS})
    return key, secret, epoch


def _reveal(entries: list, key, number: int, secret: bytes, epoch, index: int,
            receipts: Mapping[str, list]) -> None:
    """Append the signed reveal of day ``index`` of an epoch, with these receipts per sheet."""
    entries.append(_signed(key, ledger.reveal_entry(
        seq=len(entries), prev=_prev(entries), epoch=number, date=epoch.date_of(index),
        day=index, seed=seed_for_day(secret, epoch, index),
        games={r: len(receipts[r]) for r in DAILY_RULESETS},
        roots={r: ledger.day_root(receipts[r]) for r in DAILY_RULESETS},
        revealed_at=_reveal_time(epoch.date_of(index)))))


def _prev(entries: list) -> str:
    """The ``prev`` of the next entry."""
    return ledger.entry_hash(entries[-1]) if entries else ledger.GENESIS_PREV


def _signed(key: Ed25519PrivateKey, obj: dict) -> dict:
    """``obj`` with its Ed25519 signature."""
    return {**obj, "sig": key.sign(ledger.signed_bytes(obj)).hex()}


def _reveal_time(date: str) -> str:
    """When a date's reveal happens: next day 13:01Z (closing + 1 min: app/ledger/days.py)."""
    return f"{dt.date.fromisoformat(date) + dt.timedelta(days=1)}T13:01:00Z"


def _play_games(rng: random.Random, key, epoch: int, seed: bytes, date: str, ruleset: str,
                dealing: str, finished: int, unfinished: int) -> list:
    """Published games of one sheet, dealt ``dealing``: ``finished`` with receipts,
    ``unfinished`` abandoned."""
    stream = SharedStream(DiceStream(seed, date, ruleset, dealing))
    scorer = CachedRules(ruleset)
    games = []
    for number in range(finished + unfinished):
        game_id = f"{rng.getrandbits(128):032x}"
        player = f"p-{rng.getrandbits(48):012x}"
        transcript, totals = play_game(rng, stream, scorer)
        game = {"id": game_id, "player": player, "name": f"Player {number}" if number % 3 else None,
                "status": "finished", "transcript": transcript, "receipt": None}
        if number >= finished:
            game.update(status="abandoned", transcript=transcript[: rng.randrange(len(transcript))])
        else:
            game["receipt"] = _signed(key, ledger.receipt(
                game=game_id, epoch=epoch, date=date, ruleset=ruleset, player=player,
                transcript=transcript, total=totals.total))
        games.append(game)
    return games


def play_game(rng: random.Random, stream: SharedStream, scorer: CachedRules) -> tuple:
    """One random legal game on ``stream``, each roll dealt by the stream's dealing: its
    transcript and totals."""
    ruleset = get_ruleset(stream.ruleset)
    boxes, extra, rolls, transcript = {}, 0, 0, []
    for turn in range(len(ruleset.categories)):
        dice = None
        turn_rolls = rng.choice((1, 2, 3, 3, 3))
        for roll_in_turn in range(turn_rolls):
            hold = NO_HOLD if dice is None else _choose_hold(rng, dice)
            drawn = stream.deal(turn, roll_in_turn, rolls)
            rolls += 1
            dice = tuple(dice[p] if hold[p] else drawn[p] for p in range(5))
            transcript.append({"action": "roll", "hold": list(hold), "dice": list(dice)})
        first_roll = turn_rolls == 1
        category = _choose_box(rng, ruleset, scorer, dice, boxes, first_roll)
        points = scorer.points(category, dice, boxes, first_roll)
        bonus = scorer.bonus(dice, boxes, category)
        transcript.append({"action": "score", "category": category, "points": points,
                           "bonus": bonus})
        boxes[category] = points
        extra += bonus
    return transcript, rules.totals(ruleset.id, boxes, extra)


def _choose_hold(rng: random.Random, dice: tuple) -> list:
    """Mostly keep the most common face; otherwise keep a random subset."""
    if rng.random() < 0.7:
        face = Counter(dice).most_common(1)[0][0]
        return [die == face for die in dice]
    return [rng.random() < 0.5 for _ in dice]


def _choose_box(rng: random.Random, ruleset, scorer: CachedRules, dice: tuple, boxes: dict,
                first_roll: bool) -> str:
    """A box the rules allow: five of a kind in its box when free, else often the best one."""
    if scorer.joker(dice, boxes):
        allowed = rules.placement(ruleset.id, dice, boxes).allowed
    else:
        allowed = [c.id for c in ruleset.categories if c.id not in boxes]
    five_boxes = [c for c in ruleset.boxes_of_kind(ruleset.five_of_a_kind_box) if c in allowed]
    if five_boxes and len(set(dice)) == 1:
        return five_boxes[0]
    if rng.random() < 0.6:
        return max(allowed, key=lambda c: scorer.points(c, dice, boxes, first_roll))
    return rng.choice(allowed)
