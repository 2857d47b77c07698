"""Verification: what a ledger, a game and a whole day prove, check by check.

Every function returns ``Check``s whose ``detail`` says what was compared with what, so that a
tampered field is identifiable from the failing line alone. ``ok`` is None for a check that
could not be made (no Ed25519 library, no proof given): never a silent pass.

Signatures are checked through a ``SignatureCheck`` the caller supplies (the core stays
standard-library only); without one every signature check is reported as not checked.

checks.py holds what every check shares; ledger_view.py and ledger_checks.py the ledger;
game_checks.py one game;
match_checks.py one match (practice, against the computer, a table); replay.py and
fast_replay.py the replays; day.py a whole day, with fast_receipt.py writing its receipts'
signed bytes and published.py reading its pages with their transcripts' text kept, each replayed
as it is cut (entry_text.py reading an entry from its canonical text).
"""

from .checks import (
    MAX_LISTED,
    NOT_CHECKED,
    Check,
    SignatureCheck,
    compared,
    dice_text,
    hold_text,
    safe_canonical,
    short,
)
from .day import DayAudit, Progress, audit_day, check_leaderboard, read_pages
from .fast_replay import FastReplay, FastReplayed
from .game_checks import check_game, computed_root
from .ledger_checks import check_ledger, check_recorded_keys
from .ledger_view import LedgerView
from .match_checks import answer_parts, check_match, check_match_in_ledger, match_epoch_check
from .published import PageReader, PublishedTranscript
from .replay import CachedRules, Replayed, SharedStream, replay_checks

__all__ = [
    "MAX_LISTED",
    "NOT_CHECKED",
    "CachedRules",
    "Check",
    "DayAudit",
    "FastReplay",
    "FastReplayed",
    "LedgerView",
    "PageReader",
    "Progress",
    "PublishedTranscript",
    "Replayed",
    "SharedStream",
    "SignatureCheck",
    "answer_parts",
    "audit_day",
    "check_game",
    "check_leaderboard",
    "check_ledger",
    "check_recorded_keys",
    "check_match",
    "check_match_in_ledger",
    "compared",
    "computed_root",
    "dice_text",
    "hold_text",
    "match_epoch_check",
    "read_pages",
    "replay_checks",
    "safe_canonical",
    "short",
]
