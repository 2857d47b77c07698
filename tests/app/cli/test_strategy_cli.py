"""``yacht-daily strategy play``: seeded bot games through fairness.Game, one JSON line."""

import json

import pytest
from click.testing import CliRunner

from app.cli.main import main
from strategy import load_or_build
from strategy.bots import LEVELS, play_bot_game, seeded_game

FIGURES = {"sheet", "level", "games", "mean", "stdev", "upper_bonus_rate",
           "five_of_a_kind_50_rate"}


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """A table directory holding the yacht table (the quickest to build)."""
    directory = tmp_path_factory.mktemp("tables")
    load_or_build(directory, "yacht")
    return directory


def play(tables, *arguments):
    """Run ``strategy play`` with ``arguments``; the result."""
    return CliRunner().invoke(main, ["strategy", "play", "--tables", str(tables), *arguments])


def last_json(result) -> dict:
    """The JSON object on the output's last line."""
    return json.loads(result.output.strip().splitlines()[-1])


def test_play_prints_the_figures_of_the_seeded_games(tables):
    result = play(tables, "--sheet", "yacht", "--level", "medium", "--games", "6",
                  "--seed", "4")
    assert result.exit_code == 0, result.output
    figures = last_json(result)
    assert set(figures) >= FIGURES
    assert (figures["sheet"], figures["level"], figures["games"]) == ("yacht", "medium", 6)
    table = load_or_build(tables, "yacht")
    scores = [play_bot_game(table, LEVELS["medium"], *seeded_game(4, index, "yacht"))
              .totals().total for index in range(6)]
    assert figures["mean"] == pytest.approx(sum(scores) / 6)
    assert figures["upper_bonus_rate"] == 0.0  # yacht has no upper bonus
    assert 0.0 <= figures["five_of_a_kind_50_rate"] <= 1.0


def test_play_is_deterministic_for_a_seed(tables):
    arguments = ("--sheet", "yacht", "--level", "easy", "--games", "4")
    first, again = play(tables, *arguments, "--seed", "9"), play(tables, *arguments, "--seed", "9")
    other = play(tables, *arguments, "--seed", "10")
    assert last_json(first) == last_json(again)
    assert last_json(first)["mean"] != last_json(other)["mean"] or \
        last_json(first)["stdev"] != last_json(other)["stdev"]


@pytest.mark.parametrize("arguments, message", [
    (("--sheet", "yacht", "--level", "expert", "--games", "2"), "'--level'"),
    (("--sheet", "nope", "--level", "easy", "--games", "2"), "'--sheet'"),
    (("--sheet", "yacht", "--level", "easy", "--games", "0"), "'--games'"),
])
def test_play_refuses_bad_options(tables, arguments, message):
    result = play(tables, *arguments)
    assert result.exit_code == 2
    assert message in result.output
