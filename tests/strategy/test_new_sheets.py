"""Generala (first-roll bonus, Doble Generala) and triple Yahtzee (the approximation) through
the whole engine: evaluation, bots, the batch simulator, hints and reviews.

Lean on purpose: Generala's table takes a fraction of a second, the triple sheet's values come
from the Yahtzee table the session builds anyway. Yatzy's table (about 45 s of CPU) is only
checked on its last boxes (test_solver.py) and by bench/bench_bots.py.
"""

import math

import numpy as np
import pytest

from fairness import DiceStream, Game, replay
from fairness.dice import DEALINGS
from strategy import (
    ColumnsTable,
    Position,
    TableCache,
    evaluate,
    hint,
    review,
    save_table,
    table_file,
    table_path,
)
from strategy.bots import GREEDY, LEVELS, Bot, play_bot_game, point_scale, seeded_game
from strategy.botsim import play_seeded, seeded_games, simulate, summary

SEED = 16
SHEETS = ["generala", "yahtzee-triple"]


@pytest.fixture(scope="module", params=SHEETS)
def table(request, solved):
    """The table of Generala, and the approximation of triple Yahtzee."""
    return solved(request.param)


def test_the_triple_estimate_of_the_empty_sheet_is_six_single_column_optima(solved):
    triple = solved("yahtzee-triple")
    assert isinstance(triple, ColumnsTable) and not triple.exact
    assert triple.optimum == pytest.approx(6 * solved("yahtzee").optimum, abs=1e-9)


def test_servida_is_worth_its_bonus_only_on_the_turns_first_roll(solved):
    """Five 3s: Generala 100 on the first roll, 50 after a reroll, into the same next state;
    a straight 25 against 20."""
    table = solved("generala")
    for dice, box, bonus in (((3, 3, 3, 3, 3), "generala", 50), ((2, 3, 4, 5, 6), "escalera", 5)):
        first = evaluate(table, Position("generala", {}, dice, rolls_left=2))
        later = evaluate(table, Position("generala", {}, dice, rolls_left=1))
        assert first.boxes[box] - later.boxes[box] == pytest.approx(bonus, abs=1e-9)
        assert first.boxes["ones"] == pytest.approx(later.boxes["ones"], abs=1e-12)


def test_doble_generala_counts_only_while_the_generala_box_holds_points(solved):
    table = solved("generala")
    five = (4, 4, 4, 4, 4)
    held = evaluate(table, Position("generala", {"generala": 50}, five, rolls_left=1))
    crossed = evaluate(table, Position("generala", {"generala": 0}, five, rolls_left=1))
    assert held.boxes["doble-generala"] - crossed.boxes["doble-generala"] > 99


@pytest.mark.parametrize("dealing", DEALINGS)
@pytest.mark.parametrize("level", ["perfect", "easy"])
def test_bots_play_legal_games_and_the_simulator_plays_the_same(table, level, dealing):
    """Game for game through fairness.Game: the turn-by-turn Bot's transcript, the batch
    simulator's (played again by fairness), the same scores, under either dealing."""
    games = list(play_seeded(table, LEVELS[level], SEED, 3, dealing))
    simulated = simulate(table, LEVELS[level], seeded_games(SEED, 3, table.ruleset_id,
                                                            table.rules.boxes, dealing=dealing))
    for index, game in enumerate(games):
        stream, rng = seeded_game(SEED, index, table.ruleset_id, dealing)
        assert game.finished
        assert play_bot_game(table, level, stream, rng).transcript == game.transcript
        assert replay(game.transcript, stream).totals().total == simulated.scores[index]
    figures = summary(games)
    assert figures["mean"] == pytest.approx(simulated.scores.mean())
    assert figures["upper_bonus_rate"] == pytest.approx(simulated.upper_bonus.mean())
    assert figures["five_of_a_kind_50_rate"] == pytest.approx(simulated.fifty.mean())


def test_the_perfect_game_reviews_as_nothing_lost_and_the_identity_holds(table):
    stream = DiceStream("16" * 32, "2026-03-10", table.ruleset_id)
    game = play_bot_game(table, "perfect", stream, np.random.default_rng(0))
    result = review(table, game.transcript)
    assert result.finished and result.loss == 0.0
    assert result.start == pytest.approx(table.optimum)
    assert result.start + result.luck - result.loss == pytest.approx(result.value, abs=1e-9)
    assert result.value == game.totals().total


def test_a_hint_names_an_allowed_box_and_its_runner_up(table):
    game = Game.new(table.ruleset_id, "2026-03-10")
    game = game.roll(None, DiceStream("07" * 32, "2026-03-10", table.ruleset_id))
    advice = hint(table, Position.from_game(game))
    assert advice.best.expected >= advice.runner_up.expected
    if advice.best.box is not None:
        assert advice.best.box in game.placement().allowed


def test_the_triple_bot_beats_the_greedy_player(solved):
    """20 games on the same dice, at 4 standard errors of the paired difference (about 220
    points apart over 20,000 games, a standard error near 35 on 20)."""
    table = solved("yahtzee-triple")
    games = seeded_games(SEED, 20, table.ruleset_id, table.rules.boxes)
    perfect = simulate(table, LEVELS["perfect"], games).scores.astype(float)
    greedy = simulate(table, GREEDY, games).scores.astype(float)
    difference = perfect - greedy
    assert difference.mean() > 4 * difference.std(ddof=1) / math.sqrt(len(difference))


def test_a_level_errs_in_points_of_one_column_box_on_every_sheet(solved):
    """The temperature and the stop bias are points of a one-column box: triple Yahtzee's
    boxes score ×1, ×2, ×3 (2 on average), so its bots play them doubled; the weights, and
    every level on a one-column sheet, stay as defined."""
    assert point_scale("yahtzee-triple") == 2
    assert point_scale("yatzy") == point_scale("generala") == point_scale("yahtzee") == 1
    for name, level in LEVELS.items():
        triple = Bot(solved("yahtzee-triple"), name, np.random.default_rng(0)).level
        assert (triple.temperature, triple.stop_bias) == (2 * level.temperature,
                                                          2 * level.stop_bias)
        assert (triple.future_weight, triple.bonus_weight) == (level.future_weight,
                                                               level.bonus_weight)
        assert Bot(solved("generala"), name, np.random.default_rng(0)).level is level


def test_the_cache_serves_the_triple_sheet_from_its_columns_file(tmp_path, solved):
    """No file of its own: the Yahtzee table's file (saved here, so nothing is rebuilt)."""
    column = solved("yahtzee")
    assert table_file(tmp_path, "yahtzee-triple") == table_path(tmp_path, column.rules)
    save_table(column, table_file(tmp_path, "yahtzee-triple"))
    cache = TableCache(tmp_path)
    triple = cache.get("yahtzee-triple")
    assert triple.optimum == pytest.approx(solved("yahtzee-triple").optimum)
    assert cache.get("yahtzee-triple") is triple
    assert cache.get("yahtzee").values is triple.column_table.values
