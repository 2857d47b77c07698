"""The review's JSON text, byte for byte, is the one the review wrote before it was vectorised
(issue 14): ``review_digests.json`` holds the SHA-256 of ``Review.to_json_text`` for seeded
games of every sheet (bots of every level, random play, and unfinished cuts of some of them),
as the code of main at cf897f5 wrote them. ``test_review_reference`` compares the review with
a position-by-position reference built on the same box and keep values; this test pins those
values too.

Rewrite the file (only for a change meant to alter the figures) with
``python -m tests.strategy.test_review_stored DIR`` (DIR: a strategy tables directory).
"""

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from fairness import RULESETS
from strategy import Review, dice, load_or_build, review
from strategy.bots import LEVELS, play_bot_game, seeded_game
from tests.strategy.seeded_play import random_game

DIGESTS = Path(__file__).with_name("review_digests.json")
SEED = 2026
BOT_GAMES = 2  # per level and sheet
RANDOM_GAMES = 12  # per sheet (3 on triple Yahtzee, whose games are three times as long)


def seeded_reviews(table) -> Iterator[tuple[str, Review]]:
    """``("<game>:<cut>", review)`` of each seeded game's first ``cut`` entries."""
    ruleset = table.ruleset_id
    games = [play_bot_game(table, level, *seeded_game(SEED, index, ruleset))
             for level in LEVELS for index in range(BOT_GAMES)]
    count = RANDOM_GAMES // 4 if table.rules.boxes > 20 else RANDOM_GAMES
    games += [random_game(SEED, index, ruleset) for index in range(count)]
    for number, game in enumerate(games):
        transcript = game.transcript
        cuts = [len(transcript)]
        if number % 4 == 1:  # unfinished: with dice showing, after a score, one roll in
            cuts += [len(transcript) // 2 + 1, len(transcript) // 2, 1]
        for cut in cuts:
            yield f"{number}:{cut}", review(table, transcript[:cut], checked=True)


def review_digests(table) -> dict[str, str]:
    """``"<game>:<cut>"`` → SHA-256 of the review text of that game's first ``cut`` entries."""
    return {key: hashlib.sha256(seeded.to_json_text().encode()).hexdigest()
            for key, seeded in seeded_reviews(table)}


@pytest.fixture(scope="module")
def stored() -> dict[str, dict[str, str]]:
    """The stored digests, per sheet."""
    return json.loads(DIGESTS.read_text())


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_review_text_is_the_stored_one_byte_for_byte(ruleset, stored, strategy_tables_dir):
    table = load_or_build(strategy_tables_dir, ruleset)
    got = review_digests(table)
    assert len(got) >= len(LEVELS) * BOT_GAMES
    assert got == stored[ruleset]


@pytest.mark.parametrize("columns", [1, 13, dice.GATHER_COLUMNS])
def test_keep_values_read_in_one_take_are_the_layer_loops_to_the_last_bit(columns, monkeypatch):
    """The review's few columns take ``keep_values_from``'s and ``best_sub_keep``'s gathered
    path; the solver's many columns the loop over rows: both give the same bits."""
    hand_values = np.random.default_rng(columns).random((len(dice.HANDS), columns)) * 300
    gathered = dice.keep_values_from(hand_values)
    best = dice.best_sub_keep(gathered)
    monkeypatch.setattr(dice, "GATHER_COLUMNS", 0)
    looped = dice.keep_values_from(hand_values)
    assert gathered.tobytes() == looped.tobytes()
    assert best.tobytes() == dice.best_sub_keep(looped).tobytes()


if __name__ == "__main__":
    tables = Path(sys.argv[1])
    DIGESTS.write_text(json.dumps({ruleset: review_digests(load_or_build(tables, ruleset))
                                   for ruleset in RULESETS}, indent=1, sort_keys=True) + "\n")
