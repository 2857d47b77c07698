"""Yacht Daily's strategy engine: optimal play on every sheet, evaluation, hints and reviews.

Pure apart from reading and writing table files at paths it is given. See docs/strategy.md
for every figure's definition.
"""

from .columns import ColumnsTable
from .errors import (
    InvalidPosition,
    InvalidTranscript,
    StrategyError,
    TableFileError,
    ValueTablesNotReady,
)
from .evaluate import Evaluation, evaluate, expected_from_turn_start
from .foresight import ForesightResult, foresight_for_day, foresight_maximum
from .hints import Hint, hint
from .odds import odds_table, target_odds
from .policy import Choice, hold_for, perfect_choice, play_game, ranked_choices
from .position import Position
from .review import Decision, Review, RollLuck, Turn, review
from .sheetrules import JOKER_MODES, SheetRules, sheet_rules
from .solver import solve
from .tables import (
    Table,
    TableCache,
    build_table,
    load_or_build,
    load_table,
    save_table,
    table_file,
    table_path,
)

__all__ = [
    "JOKER_MODES",
    "Choice",
    "ColumnsTable",
    "Decision",
    "Evaluation",
    "ForesightResult",
    "Hint",
    "InvalidPosition",
    "InvalidTranscript",
    "Position",
    "Review",
    "RollLuck",
    "SheetRules",
    "StrategyError",
    "Table",
    "TableCache",
    "TableFileError",
    "ValueTablesNotReady",
    "Turn",
    "build_table",
    "evaluate",
    "expected_from_turn_start",
    "foresight_for_day",
    "foresight_maximum",
    "hint",
    "hold_for",
    "load_or_build",
    "load_table",
    "odds_table",
    "perfect_choice",
    "play_game",
    "ranked_choices",
    "review",
    "save_table",
    "sheet_rules",
    "solve",
    "table_file",
    "table_path",
    "target_odds",
]
