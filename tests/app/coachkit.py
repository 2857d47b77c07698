"""Playing whole games through the API with a strategy policy; the session's solved tables;
a day whose dice give two perfect games of different totals."""

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path

from playkit import call, start

from app.coach.tables import table_source
from app.ledger import secrets as keys
from app.services import EXTENSION
from fairness import DiceStream, Game
from strategy import Choice, Position, evaluate, hold_for, perfect_choice

TABLES_TIMEOUT = 600
SEED_ATTEMPTS = 20  # a day's dice give two perfect totals about 9 times in 10

Hold = Callable[[tuple[int, ...], tuple[int, ...]], list[bool]]


def coach_of(app):
    """The app's Coach."""
    return app.extensions[EXTENSION].coach


def loaded_tables(directory):
    """The session's TableSource on ``directory``, every daily table loaded (built the first
    time a session's directory is empty)."""
    source = table_source(directory)
    assert source.wait(TABLES_TIMEOUT), "the strategy tables did not load"
    return source


def play_with_policy(client, ruleset: str, date: str, table, choose=perfect_choice,
                     hold: Hold = hold_for, **extra) -> dict:
    """Play the client's game on (ruleset, date) to the end, each decision by ``choose(table,
    position)`` (a strategy.Choice), its kept values held by ``hold(dice, keep)``; returns the
    final state."""
    state = start(client, ruleset, date, **extra)
    while state["status"] == "playing":
        number = state["next_action"]
        if state["dice"] is None:
            path, body = "roll", {"hold": [False] * 5, "roll": number}
        else:
            game = Game.from_transcript(ruleset, date, state["transcript"])
            choice = choose(table, Position.from_game(game))
            if choice.box is not None:
                path, body = "score", {"category": choice.box, "roll": number}
            else:
                path, body = "roll", {"hold": hold(game.dice, choice.keep), "roll": number}
        status, answer = call(client, "POST", f"/games/{state['id']}/{path}", body)
        assert status == 200, answer
        state = answer["game"]
    return state


def first_free_box(table, position) -> Choice:
    """Score the first box the dice may go in, right after the first roll: a careless player."""
    boxes = evaluate(table, position).boxes
    box = next(box for box in table.rules.box_ids if box in boxes)
    return Choice(boxes[box], box=box)


def hold_rightmost(dice: tuple[int, ...], keep: tuple[int, ...]) -> list[bool]:
    """The hold keeping the values ``keep`` from the rightmost matching dice: the same
    decision as ``hold_for``'s, whose rerolled positions, and so whose fresh dice, may differ."""
    return hold_for(dice[::-1], keep)[::-1]


def perfect_game(table, stream: DiceStream, hold: Hold) -> Game:
    """The perfect policy's game on ``stream``, its kept values held by ``hold``."""
    game = Game.new(stream.ruleset, stream.date)
    while not game.finished:
        if game.dice is None:
            game = game.roll([False] * 5, stream)
            continue
        choice = perfect_choice(table, Position.from_game(game))
        game = (game.score(choice.box) if choice.box is not None
                else game.roll(hold(game.dice, choice.keep), stream))
    return game


def day_of_two_perfect_totals(data_dir: Path, start_date: dt.date, days: int, table,
                              ruleset: str, date: str) -> tuple[Hold, Hold]:
    """Initialise ``data_dir`` (an epoch of ``days`` days from ``start_date``) with a secret
    whose dice on (``date``, ``ruleset``) give the perfect policy two totals, as it holds
    its kept values from the leftmost or the rightmost dice; (the lower total's hold, the
    higher's). Both games lose 0 points to perfect play."""
    holds = (hold_for, hold_rightmost)
    for _ in range(SEED_ATTEMPTS):
        shutil.rmtree(data_dir, ignore_errors=True)
        keys.initialise(data_dir, start_date, days)
        secrets = keys.load(data_dir)
        stream = DiceStream(secrets.seed(date), date, ruleset, secrets.dealing_for(date))
        totals = [perfect_game(table, stream, hold).totals().total for hold in holds]
        if totals[0] != totals[1]:
            return holds if totals[0] < totals[1] else holds[::-1]
    raise AssertionError(f"no secret of {SEED_ATTEMPTS} gave two perfect totals")
