"""A transcript entry as the store writes it (``_entry_text``, orjson) is exactly its canonical
JSON (FAIRNESS.md), byte for byte, on every sheet: the transcript hash and every verifier read
these bytes."""

import random

import pytest

from app.daily.store import _entry_text
from fairness import DiceStream, Game
from fairness.canonical import canonical_json
from fairness.sheets import ANY_DAILY_RULESETS

DATE = "2026-12-02"
SEED = bytes(range(32))


@pytest.mark.parametrize("ruleset", ANY_DAILY_RULESETS)
def test_every_entry_of_a_played_game_is_written_as_its_canonical_json(ruleset):
    """Random holds and boxes until the game ends: each entry's text is its canonical JSON."""
    rng = random.Random(ruleset)
    stream = DiceStream(SEED, DATE, ruleset)
    game = Game.new(ruleset, DATE)
    while not game.finished:
        if game.rolls_left and (game.dice is None or rng.random() < 0.6):
            game = game.roll(tuple(rng.random() < 0.4 for _ in range(5)) if game.dice else
                             (False,) * 5, stream)
        else:
            open_boxes = [box for box in game.placement().allowed]
            game = game.score(rng.choice(open_boxes))
    assert len(game.transcript) > 10
    for entry in game.transcript:
        assert _entry_text(entry) == canonical_json(dict(entry)).decode()
