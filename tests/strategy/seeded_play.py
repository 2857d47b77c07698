"""Seeded random play for the review's reference test and its benchmark (bench/bench_review.py):
the same games in both, so the bench times what the test proves exact."""

import random

from fairness import Game
from fairness.game import NO_HOLD
from strategy.bots import seeded_game

RANDOM_INDEX_FROM = 1000  # the random games' dice: seeded games from here, apart from the bots'


def random_game(seed: int, index: int, ruleset: str) -> Game:
    """Random game ``index`` of run ``seed``, finished: on the dice of ``seeded_game(seed,
    RANDOM_INDEX_FROM + index)``, rerolls a random half of the dice (held or not at random) or
    fills a random allowed box, as a ``random.Random`` seeded with ``<ruleset>|<index>`` picks."""
    stream, _ = seeded_game(seed, RANDOM_INDEX_FROM + index, ruleset)
    rng = random.Random(f"{ruleset}|{index}")
    game = Game.new(ruleset, stream.date)
    while not game.finished:
        if game.dice is None:
            game = game.roll(NO_HOLD, stream)
        elif game.rolls_left > 0 and rng.random() < 0.6:
            game = game.roll([rng.random() < 0.5 for _ in range(5)], stream)
        else:
            game = game.score(rng.choice(sorted(game.previews())))
    return game
