"""A game's compact state (``compact.state_text``, the ``token``) is exactly the canonical JSON
of its fields, byte for byte, on every sheet and at every action: the compare-and-set compares
it as text with what any worker (of this version or an older one) stored."""

import random

import pytest

from app.daily.compact import game_from_state, state_text
from fairness import DiceStream, Game
from fairness.canonical import canonical_json
from fairness.sheets import ANY_DAILY_RULESETS

DATE = "2026-12-02"
SEED = bytes(range(32, 64))


def fields(game: Game, version: int) -> dict:
    """The compact state's fields, as the module documents them."""
    return {"boxes": dict(game.boxes), "date": game.date,
            "dice": list(game.dice) if game.dice is not None else None,
            "extra_bonus": game.extra_bonus, "rolls_in_turn": game.rolls_in_turn,
            "rolls_taken": game.rolls_taken, "ruleset": game.ruleset, "version": version}


@pytest.mark.parametrize("ruleset", ANY_DAILY_RULESETS)
def test_every_state_of_a_played_game_is_its_canonical_json_and_reads_back(ruleset):
    """At each action of a random game: the text is canonical JSON, and it reads back as the
    same state (a token the client echoes serves)."""
    rng = random.Random(ruleset)
    stream = DiceStream(SEED, DATE, ruleset)
    game = Game.new(ruleset, DATE)
    while True:
        version = len(game.transcript)
        text = state_text(game, version)
        assert text == canonical_json(fields(game, version)).decode()
        number, again = game_from_state(text)
        assert number == version and state_text(again, version) == text
        if game.finished:
            break
        if game.rolls_left and (game.dice is None or rng.random() < 0.6):
            hold = tuple(rng.random() < 0.4 for _ in range(5)) if game.dice else (False,) * 5
            game = game.roll(hold, stream)
        else:
            game = game.score(rng.choice(list(game.placement().allowed)))


@pytest.mark.parametrize("text", ['{"version": NaN}', "[1, 2", '{"boxes":{}}', "1e999"])
def test_text_that_is_no_state_is_refused(text):
    """Malformed, non-standard or incomplete JSON is no token."""
    assert game_from_state(text) is None
