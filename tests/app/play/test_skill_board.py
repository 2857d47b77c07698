"""The day's skill board: ranked by expected points lost to perfect play, then total; the
share text carries the figure; and a scouting cheater's perfect-foresight game ranks below an
honest optimal game although it scores more. On a real Redis with the session's tables."""

import pytest
from coachkit import loaded_tables, play_with_policy
from playkit import PLAY_DATE, call, start

from app.play.figures import centipoints, loss_text
from app.storage.store import SkillStore
from strategy import Choice, evaluate, foresight_maximum

SCOUT_TURNS = 13


@pytest.fixture
def tables(strategy_tables_dir):
    """The session's tables, loaded in this process."""
    return loaded_tables(strategy_tables_dir)


def test_the_board_orders_by_loss_then_by_total(redis_client):
    """Fewest centipoints lost first; equal losses by the higher total; equal both, one rank."""
    skill = SkillStore(redis_client)
    for game, lost, total in [("a", 630, 245), ("b", 0, 180), ("c", 630, 250), ("d", 12, 300),
                              ("e", 630, 250)]:
        skill.rank(PLAY_DATE, "yacht", game, lost, total)
    board = skill.board(PLAY_DATE, "yacht", 10, "a")
    assert [(lost, total) for _, lost, total in board.top] == [
        (0, 180), (12, 300), (630, 250), (630, 250), (630, 245)]
    assert (board.players, board.own, board.own_rank) == (5, (630, 245), 5)


def test_the_skill_board_and_share_text_through_the_api(app, client, tables):
    """A perfect game and a sloppy one: the skill board puts the perfect one first with
    0.00 lost, the points board stays the default, the share text carries the figure."""
    perfect = play_with_policy(client, "yacht", PLAY_DATE, tables.get("yacht"), name="Ada")
    sloppy_player = app.test_client()
    sloppy = play_with_policy(sloppy_player, "yacht", PLAY_DATE, tables.get("yacht"),
                              choose=first_free_box)
    status, board = call(sloppy_player, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=skill")
    assert status == 200, board
    assert [row["total"] for row in board["top"]] == [perfect["totals"]["total"],
                                                      sloppy["totals"]["total"]]
    assert board["top"][0]["loss"] == 0 and board["top"][0]["name"] == "Ada"
    _, review = call(sloppy_player, "GET", f"/games/{sloppy['id']}/review")
    assert board["you"] == {"rank": 2, "loss": centipoints(review["loss"]) / 100,
                            "total": sloppy["totals"]["total"]}
    _, points = call(sloppy_player, "GET", f"/leaderboard/{PLAY_DATE}/yacht")
    assert "distribution" in points and "loss" not in points["top"][0]
    status, body = call(client, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=luck")
    assert (status, body["error"]["code"]) == (400, "invalid-order")
    _, text = call(sloppy_player, "GET", f"/games/{sloppy['id']}/share")
    assert f"−{loss_text(review['loss'])} vs perfect play" in text.splitlines()[0]
    _, text = call(sloppy_player, "GET", f"/games/{sloppy['id']}/share?lang=fr")
    assert f"−{loss_text(review['loss'])} face au jeu parfait" in text.splitlines()[0]


def first_free_box(table, position) -> Choice:
    """Score the first box the dice may go in, right after the first roll: a careless player."""
    boxes = evaluate(table, position).boxes
    box = next(box for box in table.rules.box_ids if box in boxes)
    return Choice(boxes[box], box=box)


def test_a_scouting_cheater_ranks_below_an_honest_optimal_game(app, tables):
    """On Yahtzee: a throwaway identity reads the day's whole stream by rolling three times
    every turn without holding (about 50 requests, never finishing); a second identity plays
    the perfect-foresight line on those dice; an honest one plays the perfect policy. The
    cheater scores more points but ranks below the honest game on the skill board."""
    scout = app.test_client()
    state = start(scout, "yahtzee", PLAY_DATE)
    dice, requests = [], 1
    for turn in range(SCOUT_TURNS):
        for _ in range(3):
            _, answer = call(scout, "POST", f"/games/{state['id']}/roll",
                             {"hold": [False] * 5, "roll": state["next_action"]})
            state = answer["game"]
            dice.extend(state["dice"])
            requests += 1
        if turn < SCOUT_TURNS - 1:
            _, answer = call(scout, "POST", f"/games/{state['id']}/score",
                             {"category": state["allowed"][0], "roll": state["next_action"]})
            state = answer["game"]
            requests += 1
    assert state["status"] == "playing" and requests == 52

    line = foresight_maximum("yahtzee", dice).line
    cheater = app.test_client()
    game = start(cheater, "yahtzee", PLAY_DATE)
    for entry in line:
        if entry["action"] == "roll":
            path, body = "roll", {"hold": entry["hold"], "roll": game["next_action"]}
        else:
            path, body = "score", {"category": entry["category"], "roll": game["next_action"]}
        status, answer = call(cheater, "POST", f"/games/{game['id']}/{path}", body)
        assert status == 200, answer
        game = answer["game"]
    honest_player = app.test_client()
    honest = play_with_policy(honest_player, "yahtzee", PLAY_DATE, tables.get("yahtzee"))

    assert game["status"] == "finished"
    assert game["totals"]["total"] > honest["totals"]["total"]
    _, skill = call(honest_player, "GET", f"/leaderboard/{PLAY_DATE}/yahtzee?by=skill")
    ranked = [row["total"] for row in skill["top"]]
    assert ranked == [honest["totals"]["total"], game["totals"]["total"]]
    assert skill["top"][0]["loss"] == 0 < skill["top"][1]["loss"]
    _, points = call(honest_player, "GET", f"/leaderboard/{PLAY_DATE}/yahtzee")
    assert [row["total"] for row in points["top"]] == ranked[::-1]
