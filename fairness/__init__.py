"""Yacht Daily's verifiable core: rules, dice streams, seed chain, game, matches, ledger formats.

Pure and standard-library only: no I/O, so that anyone can audit it and every verifier
shares it.
"""

from .actions import Action, Roll, Score
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
    InvalidClientSeed,
    InvalidDate,
    InvalidDice,
    InvalidHold,
    InvalidMatch,
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
from .hold import parse_hold
from .match import (
    MATCH_TYPE,
    MatchStream,
    commitment,
    match_result,
    ranks,
    seat_record,
    seat_stream,
    validate_client_seed,
)
from .rules import Placement, Totals, extra_bonus, placement, score, totals
from .sheets import DAILY_RULESETS, PLAYABLE_RULESETS, RULESETS, Category, Ruleset, get_ruleset

__all__ = [
    "Action",
    "Roll",
    "Score",
    "parse_hold",
    "DAILY_RULESETS",
    "MATCH_TYPE",
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
    "InvalidClientSeed",
    "InvalidDate",
    "InvalidDice",
    "InvalidHold",
    "InvalidMatch",
    "InvalidSeed",
    "JokerForbids",
    "LedgerError",
    "MatchStream",
    "NoRollsLeft",
    "NotRolled",
    "Placement",
    "ReplayMismatch",
    "Ruleset",
    "Totals",
    "UnknownCategory",
    "UnknownRuleset",
    "canonical_json",
    "commitment",
    "digest",
    "extra_bonus",
    "format_date",
    "get_ruleset",
    "match_result",
    "new_epoch",
    "parse_date",
    "placement",
    "previous_seed",
    "ranks",
    "replay",
    "score",
    "seat_record",
    "seat_stream",
    "seed_for_day",
    "sha256_hex",
    "totals",
    "validate_client_seed",
    "verify_seed",
    "verify_successor",
]
