"""An action's minimal answer (``Prefer: return=minimal``): the game without what an action does
not change and without the transcript but for its last entry; merged into the game the client
holds, it is the game the server holds, action after action."""

import random

import pytest
from playkit import PLAY_DATE, call, next_move, start

from app.daily.views import NOT_IN_MINIMAL
from fairness import DAILY_RULESETS

MINIMAL = {"Prefer": "return=minimal"}


def act(client, state: dict, rng: random.Random, headers: dict):
    """The next action of a simple player: (status, answer, Preference-Applied)."""
    kind, body = next_move(state, rng)
    answer = client.post(f"/api/v1/games/{state['id']}/{kind}",
                         json={**body, "token": state["token"]}, headers=headers)
    return answer.status_code, answer.get_json(), answer.headers.get("Preference-Applied")


def merged(held: dict, change: dict) -> dict:
    """What a client holds after a minimal answer: its fields over the held game's, the
    transcript grown by ``last``."""
    fields = {name: value for name, value in change.items() if name != "last"}
    return {**held, **fields, "transcript": [*held["transcript"], change["last"]]}


@pytest.mark.parametrize("ruleset", DAILY_RULESETS)
def test_merged_minimal_answers_are_the_stored_game_after_every_action(client, ruleset):
    held = start(client, ruleset, PLAY_DATE)
    rng = random.Random(ruleset)
    while held["status"] == "playing":
        status, answer, applied = act(client, held, rng, MINIMAL)
        assert status == 200 and applied == "return=minimal"
        change = answer["game"]
        assert not set(NOT_IN_MINIMAL) & set(change)
        held = merged(held, change)
        stored = call(client, "GET", f"/games/{held['id']}")[1]["game"]
        stored.pop("checkpoint", None)  # a finished v2 game's, which the GET adds
        assert held == stored
    assert held["receipt"] is not None and held["receipt"]["total"] == held["totals"]["total"]


def test_without_the_preference_the_answer_is_the_whole_game(client):
    held = start(client, "yacht", PLAY_DATE)
    status, answer, applied = act(client, held, random.Random(1), {})
    assert status == 200 and applied is None
    assert answer["game"] == call(client, "GET", f"/games/{held['id']}")[1]["game"]


@pytest.mark.parametrize("prefer, minimal", [
    ("return=minimal", True),
    ('respond-async, RETURN="minimal"; strict', True),
    ("wait=10,return=minimal", True),
    ("return=representation", False),
    ("return=minimalist", False),
    ("minimal", False),
    ("", False),
])
def test_the_prefer_header_is_read_as_rfc_7240_writes_it(client, prefer, minimal):
    held = start(client, "yacht", PLAY_DATE)
    status, answer, applied = act(client, held, random.Random(2), {"Prefer": prefer})
    assert status == 200
    assert (applied == "return=minimal") is minimal
    assert ("transcript" in answer["game"]) is not minimal


def test_a_refused_action_carries_the_whole_game_either_way(client):
    held = start(client, "yacht", PLAY_DATE)
    answer = client.post(f"/api/v1/games/{held['id']}/roll",
                         json={"roll": 5, "token": held["token"]}, headers=MINIMAL)
    assert answer.status_code == 409
    assert answer.get_json()["game"] == held
    assert "Preference-Applied" not in answer.headers


def test_a_retried_action_answers_minimal_as_that_action_left_the_game(client):
    held = start(client, "yacht", PLAY_DATE)
    body = {"roll": 0, "hold": None, "token": held["token"]}
    first = client.post(f"/api/v1/games/{held['id']}/roll", json=body, headers=MINIMAL)
    second = client.post(f"/api/v1/games/{held['id']}/roll", json=body, headers=MINIMAL)
    assert first.status_code == second.status_code == 200
    assert first.get_json() == second.get_json()
    assert merged(held, second.get_json()["game"])["next_action"] == 1
