"""Yacht Daily's verifiable core: rules, dice stream, seed chain, game, ledger formats.

Pure and standard-library only: no I/O, so that anyone can audit it and every verifier
shares it.
"""

from .canonical import canonical_json, digest, sha256_hex
from .chain import Epoch, new_epoch, previous_seed, seed_for_day, verify_seed, verify_successor
from .dates import format_date, parse_date
from .dice import DiceStream
from .errors import (
    BoxFilled,
    ChainError,
    FairnessError,
    GameOver,
    HoldOnFirstRoll,
    IllegalMove,
    InvalidDate,
    InvalidDice,
    InvalidHold,
    InvalidSeed,
    JokerForbids,
    LedgerError,
    NoRollsLeft,
    NotRolled,
    ReplayMismatch,
    UnknownCategory,
    UnknownRuleset,
)
from .game import Game, replay
from .rules import Placement, Totals, extra_bonus, placement, score, totals
from .sheets import DAILY_RULESETS, PLAYABLE_RULESETS, RULESETS, Category, Ruleset, get_ruleset

__all__ = [
    "DAILY_RULESETS",
    "PLAYABLE_RULESETS",
    "RULESETS",
    "BoxFilled",
    "Category",
    "ChainError",
    "DiceStream",
    "Epoch",
    "FairnessError",
    "Game",
    "GameOver",
    "HoldOnFirstRoll",
    "IllegalMove",
    "InvalidDate",
    "InvalidDice",
    "InvalidHold",
    "InvalidSeed",
    "JokerForbids",
    "LedgerError",
    "NoRollsLeft",
    "NotRolled",
    "Placement",
    "ReplayMismatch",
    "Ruleset",
    "Totals",
    "UnknownCategory",
    "UnknownRuleset",
    "canonical_json",
    "digest",
    "extra_bonus",
    "format_date",
    "get_ruleset",
    "new_epoch",
    "parse_date",
    "placement",
    "previous_seed",
    "replay",
    "score",
    "seed_for_day",
    "sha256_hex",
    "totals",
    "verify_seed",
    "verify_successor",
]
