"""Playing whole games through the API with a strategy policy; the session's solved tables."""

from playkit import call, start

from app.play.coach import table_source
from app.services import EXTENSION
from fairness import Game
from strategy import Position, hold_for, perfect_choice

TABLES_TIMEOUT = 600


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
                     **extra) -> dict:
    """Play the client's game on (ruleset, date) to the end, each decision by ``choose(table,
    position)`` (a strategy.Choice); returns the final state."""
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
                path, body = "roll", {"hold": hold_for(game.dice, choice.keep), "roll": number}
        status, answer = call(client, "POST", f"/games/{state['id']}/{path}", body)
        assert status == 200, answer
        state = answer["game"]
    return state
