"""Per-turn dealing end to end, on a live ``yacht-daily serve`` with two epochs: a date of a v1
epoch (dealt sequentially, as every day before per-turn dealing) and the next date, the first of
a v2 epoch (dealt per turn). Two players a date, one rolling three times every turn and one
scoring after its first roll, through the HTTP API; after the reveal ``verify.py`` verifies
every game and both whole days from the published data alone."""

import datetime as dt

import pytest

from app.ledger import secrets as keys
from fairness.dice import PER_TURN, SEQUENTIAL
from tests.app.playkit import call, start
from tests.conftest import EPOCH_DAYS, EPOCH_START
from tests.processes import short_temp_dir
from tests.verify.conftest import run_verify_py

OLD_DATE = "2026-03-10"  # the live server's clock starts at noon UTC that day
NEW_DATE = "2026-03-11"  # open too by then (it opens at 10:00Z the day before)
AFTER_BOTH_REVEALS = "2026-03-12T14:00:00Z"


def play_game(client, date: str, rolls_per_turn: int) -> dict:
    """A whole yacht game that rolls ``rolls_per_turn`` times a turn, holding nothing, then
    scores the best preview; returns the final state."""
    state = start(client, "yacht", date)
    while state["status"] == "playing":
        for _ in range(rolls_per_turn):
            status, answer = call(client, "POST", f"/games/{state['id']}/roll",
                                  {"hold": [False] * 5, "roll": state["next_action"]})
            assert status == 200, answer
            state = answer["game"]
        best = max(state["allowed"], key=lambda box: state["previews"][box])
        status, answer = call(client, "POST", f"/games/{state['id']}/score",
                              {"category": best, "roll": state["next_action"]})
        assert status == 200, answer
        state = answer["game"]
    return state


def first_rolls(transcript: list) -> list:
    """The dice of each turn's first roll."""
    return [entry["dice"] for before, entry in zip([None, *transcript], transcript, strict=False)
            if entry["action"] == "roll" and (before is None or before["action"] == "score")]


@pytest.fixture(scope="module")
def two_dealings(make_live_server):
    """A live server on a v1 epoch (sequential) followed by a v2 epoch from NEW_DATE, with
    two games on each date, both dates revealed: (server, {date: (three-roll game, one-roll
    game)})."""
    workdir = short_temp_dir("yd-dealing-")
    data_dir = workdir / "var"
    keys.initialise(data_dir, EPOCH_START, EPOCH_DAYS, dealing=SEQUENTIAL)
    keys.add_epoch(data_dir, dt.date.fromisoformat(NEW_DATE), dealing=PER_TURN)
    server = make_live_server(workdir=workdir)
    games = {}
    for date in (OLD_DATE, NEW_DATE):
        games[date] = (play_game(server.client(), date, 3), play_game(server.client(), date, 1))
    server.set_clock(AFTER_BOTH_REVEALS)
    server.wait_for_reveal(NEW_DATE)
    return server, games


def test_the_epochs_publish_their_dealing(two_dealings):
    """The ledger says, before play, how each epoch's dates are dealt."""
    server, _ = two_dealings
    status, _, ledger = server.client().get("/api/v1/ledger")
    assert status == 200
    epochs = [entry for entry in ledger["entries"] if entry["type"].startswith(
        "yacht-daily/epoch/")]
    assert [(entry["type"], entry.get("dealing")) for entry in epochs] == [
        ("yacht-daily/epoch/v1", None), ("yacht-daily/epoch/v2", PER_TURN)]


def test_per_turn_every_turn_starts_with_the_same_dice(two_dealings):
    """On the v2 date the game that rolls three times and the one that scores after one roll
    see the same first roll in every turn; on the v1 date stopping early shifted them."""
    server, games = two_dealings
    transcripts = {}
    for date, pair in games.items():
        transcripts[date] = []
        for state in pair:
            status, answer = call(server.client(), "GET", f"/days/{date}/yacht/games")
            assert status == 200, answer
            published = {game["id"]: game for game in answer["games"]}
            transcripts[date].append(published[state["id"]]["transcript"])
    three, one = (first_rolls(t) for t in transcripts[NEW_DATE])
    assert len(three) == len(one) == 12
    assert three == one
    old_three, old_one = (first_rolls(t) for t in transcripts[OLD_DATE])
    assert old_three[0] == old_one[0] and old_three != old_one


@pytest.mark.parametrize("date", [OLD_DATE, NEW_DATE])
def test_verify_py_verifies_every_game_and_the_day(two_dealings, date):
    """``verify.py game`` for each game and ``verify.py day``: every check holds."""
    server, games = two_dealings
    for state in games[date]:
        done = run_verify_py("game", server.url, state["id"])
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[-1].endswith(" checks hold.")
    done = run_verify_py("day", server.url, date, "yacht")
    assert done.returncode == 0, done.stdout + done.stderr
