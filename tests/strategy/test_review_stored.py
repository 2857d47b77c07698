"""The review's JSON text is the one the review wrote before it was vectorised:
``review_digests.json`` holds, for seeded games of every sheet (bots of every level, random
play, and unfinished cuts of some of them), the SHA-256 of ``Review.to_json_text`` with every
float rounded to FLOAT_DECIMALS decimals, as the code of main at cf897f5 wrote them.

Rounded, because the strategy tables' last bits depend on the CPU: their keep values are matrix
products, and OpenBLAS sums them in another order with another kernel (its Haswell kernel, on
AMD and older Intel processors, and its SkylakeX one on AVX-512 Intel processors give tables a
few units in the last place apart). Everything else in the text — every choice, box, die and
the order of the fields — is compared exactly. ``test_review_reference`` compares the review,
to the last bit, with a position-by-position reference built on the same box and keep values.

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
FLOAT_DECIMALS = 6  # the figures are expected scores of at most a few hundred points


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
    """``"<game>:<cut>"`` → ``rounded_digest`` of the review text of that game's first ``cut``
    entries."""
    return {key: rounded_digest(seeded.to_json_text()) for key, seeded in seeded_reviews(table)}


def rounded_digest(text: str) -> str:
    """The SHA-256 of a JSON text written again with every float rounded to FLOAT_DECIMALS
    decimals (a rounded zero without its sign), everything else as it was, in its order."""
    value = json.loads(text, parse_float=lambda digits: round(float(digits), FLOAT_DECIMALS) + 0.0)
    return hashlib.sha256(json.dumps(value).encode()).hexdigest()


@pytest.fixture(scope="module")
def stored() -> dict[str, dict[str, str]]:
    """The stored digests, per sheet."""
    return json.loads(DIGESTS.read_text())


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_review_text_is_the_stored_one_floats_rounded(ruleset, stored, strategy_tables_dir):
    """Every seeded review of the sheet has its stored rounded digest."""
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
