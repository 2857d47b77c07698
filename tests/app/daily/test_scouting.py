"""Abandoned games that look like scouting (docs/api.md): marked on the day's published list,
and counted for the results page, on a real revealed day."""

import random

import pytest
from coachkit import coach_of
from playkit import PLAY_DATE, call, play_to_end, start

from app.daily.scouting import count_scouting, looks_like_scouting
from app.services import EXTENSION

AFTER_REVEAL = "2026-03-11T13:01:00Z"
UNHELD = [False] * 5


def roll(held=UNHELD):
    """A roll action with these holds (the dice do not matter here)."""
    return {"action": "roll", "hold": list(held), "dice": [1, 2, 3, 4, 5]}


SCORE = {"action": "score", "category": "chance", "points": 15, "bonus": 0}


@pytest.mark.parametrize(("transcript", "finished", "expected"), [
    ([roll(), roll(), roll()], False, True),
    ([roll(), roll(), roll(), SCORE, roll(), roll(), roll(), SCORE, roll()], False, True),
    ([roll(), roll(), roll(), SCORE], True, False),  # finished: never scouting
    ([roll(), roll()], False, False),  # fewer than three rolls: just left
    ([], False, False),
    ([roll(), roll(), roll(), SCORE, roll(), SCORE], False, False),  # a short turn
    ([roll(), roll([True, False, False, False, False]), roll()], False, False),  # kept a die
])
def test_the_definition(transcript, finished, expected):
    """Unheld rolls only, three in every completed turn, at least three, never finished."""
    assert looks_like_scouting(transcript, finished) is expected


def scout(client, ruleset: str, turns: int) -> dict:
    """Play ``turns`` turns of three unheld rolls each (filling the first open box), then leave."""
    state = start(client, ruleset, PLAY_DATE)
    for _ in range(turns):
        for _ in range(3):
            _, answer = call(client, "POST", f"/games/{state['id']}/roll",
                             {"hold": UNHELD, "roll": state["next_action"]})
            state = answer["game"]
        _, answer = call(client, "POST", f"/games/{state['id']}/score",
                         {"category": state["allowed"][0], "roll": state["next_action"]})
        state = answer["game"]
    return state


def test_scouting_games_are_marked_on_the_published_list(app, clock, reveal):
    """Two scouts, a player who kept dice and left, a finished game: only the scouts are
    marked, and the day's count says 2."""
    scouts = [scout(app.test_client(), "yahtzee", turns) for turns in (1, 4)]
    quitter = app.test_client()
    left = start(quitter, "yahtzee", PLAY_DATE)
    for hold in (UNHELD, [True] * 2 + [False] * 3, UNHELD):
        _, answer = call(quitter, "POST", f"/games/{left['id']}/roll",
                         {"hold": hold, "roll": left["next_action"]})
        left = answer["game"]
    player = app.test_client()
    finished = play_to_end(player, start(player, "yahtzee", PLAY_DATE), random.Random(3))
    clock.set(AFTER_REVEAL)
    assert PLAY_DATE in reveal()
    status, page = call(app.test_client(), "GET", f"/days/{PLAY_DATE}/yahtzee/games")
    assert status == 200
    marks = {game["id"]: game["scouting"] for game in page["games"]}
    assert marks == {scouts[0]["id"]: True, scouts[1]["id"]: True, left["id"]: False,
                     finished["id"]: False}
    store = app.extensions[EXTENSION].game_store
    assert count_scouting(store, PLAY_DATE, "yahtzee") == 2
    assert count_scouting(store, PLAY_DATE, "yacht") == 0
    coach = coach_of(app)
    assert coach.tables.wait(120)
    coach.skill.queue_references(PLAY_DATE)
    coach.run_once()
    results = app.test_client().get(f"/results/{PLAY_DATE}/yahtzee").get_data(as_text=True)
    assert "2 abandoned games look like scouting" in results
