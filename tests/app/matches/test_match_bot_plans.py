"""The bots' turn plans are shared through a cache (strategy/bots.py ``planned_turn``): a plan is a
pure function of the table, the level and the turn-start state, so a bot plays exactly the same
game whether its plans come from the cache or are computed afresh, and no bot can change a
shared plan."""

import random

import numpy as np
import pytest

from fairness import Game
from strategy import bots, load_or_build


@pytest.fixture(scope="module")
def yacht_table(strategy_tables_dir):
    """The Yacht sheet's strategy table."""
    return load_or_build(strategy_tables_dir, "yacht")


def bot_game(table, level: str, index: int, fresh: bool) -> Game:
    """Seeded bot game ``index``, its plans computed afresh for each turn when ``fresh`` (the
    cache emptied before every decision), else taken from the cache."""
    stream, _ = bots.seeded_game(21, index, "yacht")
    rng = random.Random(index)
    bot, game = bots.Bot(table, level, rng), Game.new(stream.ruleset, stream.date)
    while not game.finished:
        if fresh:
            bots.planned_turn.cache_clear()
            bot = bots.Bot(table, level, rng)
        game = bots.apply(game, bot.choose(game), stream)
    return game


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_bot_plays_the_same_game_with_cached_plans_and_fresh_ones(yacht_table, level):
    bots.planned_turn.cache_clear()
    cached = [bot_game(yacht_table, level, index, fresh=False) for index in range(3)]
    assert bots.planned_turn.cache_info().hits > 0  # the later games met states planned
    fresh = [bot_game(yacht_table, level, index, fresh=True) for index in range(3)]
    assert [game.transcript for game in cached] == [game.transcript for game in fresh]


def test_a_shared_plan_cannot_be_changed(yacht_table):
    level = bots.on_sheet(bots.get_level("medium"), "yacht")
    plan = bots.planned_turn(yacht_table, level, (0, 0, 0))
    assert bots.planned_turn(yacht_table, level, (0, 0, 0)) is plan
    with pytest.raises(ValueError):
        plan.boxes[0, 0, 0] = np.inf
