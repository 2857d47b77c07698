"""The day's skill board: ranked by expected points lost to perfect play, in hundredths,
alone (equal losses share a rank in finish order; the total never breaks a tie), old boards
converted; the share text carries the figure; and a scouting cheater's perfect-foresight game
ranks below an honest optimal game although it scores more. On a real Redis with the
session's tables."""

import datetime as dt
import json

import pytest
from coachkit import (
    day_of_two_perfect_totals,
    first_free_box,
    loaded_tables,
    play_with_policy,
)
from playkit import PLAY_DATE, app_on, call, start

from app.boards.figures import centipoints, loss_text
from app.boards.store import SkillStore
from app.platform.keys import (
    game_key,
    history_key,
    legacy_skill_board_key,
    skill_board_key,
)
from fairness.dice import PER_TURN
from strategy import foresight_maximum
from tests.conftest import EPOCH_DAYS, EPOCH_START

SCOUT_TURNS = 13
NOON = dt.datetime(2026, 3, 10, 12, tzinfo=dt.UTC)


@pytest.fixture
def tables(strategy_tables_dir):
    """The session's tables, loaded in this process."""
    return loaded_tables(strategy_tables_dir)


def test_the_board_ranks_by_centipoints_alone_in_finish_order(redis_client):
    """Fewest centipoints lost first; equal centipoints in the order the games finished (to
    the millisecond), whatever their totals; the caller's rank is the first of its figure."""
    skill = SkillStore(redis_client)
    for millisecond, (game, lost, total) in enumerate([
            ("a", 630, 250), ("b", 0, 180), ("c", 630, 245), ("d", 12, 300), ("e", 630, 260)]):
        skill.rank(PLAY_DATE, "yacht", game, lost, total,
                   NOON + dt.timedelta(milliseconds=millisecond))
    board = skill.board(PLAY_DATE, "yacht", 10, "e")
    assert board.top == [("b", 0, 180), ("d", 12, 300), ("a", 630, 250), ("c", 630, 245),
                         ("e", 630, 260)]
    assert (board.players, board.own, board.own_rank) == (5, (630, 260), 3)
    assert skill.entry(PLAY_DATE, "yacht", "c") == (630, 245)
    skill.unrank(PLAY_DATE, "yacht", "a")
    assert skill.entry(PLAY_DATE, "yacht", "a") is None
    assert skill.board(PLAY_DATE, "yacht", 2, "c").top == [("b", 0, 180), ("d", 12, 300)]


def test_a_board_an_earlier_version_wrote_is_read_in_finish_order(redis_client):
    """A legacy board (scored ``centipoints × 10000 − total``) is converted at its first read:
    equal losses in the order their games finished, by the v2 receipt's time, else the
    player's history's, else when the game started; a game with no record last."""
    finished = {"early": "2026-03-10T09:00:00Z", "middle": "2026-03-10T10:00:00Z",
                "late": "2026-03-10T11:00:00Z"}
    redis_client.hset(game_key("late"), mapping={
        "player": "p-late", "created_at": "2026-03-10T08:00:00Z", "receipt": json.dumps(
            {"type": "yacht-daily/receipt/v2", "total": 260, "finished_at": finished["late"]})})
    redis_client.hset(game_key("early"), mapping={
        "player": "p-early", "created_at": "2026-03-10T08:30:00Z",
        "receipt": json.dumps({"type": "yacht-daily/receipt/v1", "total": 180})})
    redis_client.hset(history_key("p-early"), "early", json.dumps(
        {"game": "early", "finished_at": finished["early"]}))
    redis_client.hset(game_key("middle"), mapping={
        "player": "p-middle", "created_at": finished["middle"],
        "receipt": json.dumps({"type": "yacht-daily/receipt/v1", "total": 250})})
    redis_client.zadd(legacy_skill_board_key(PLAY_DATE, "yacht"), {
        "late": 630 * 10_000 - 260, "gone": 630 * 10_000 - 300, "middle": 630 * 10_000 - 250,
        "early": 630 * 10_000 - 180, "best": 0 * 10_000 - 120})
    board = SkillStore(redis_client).board(PLAY_DATE, "yacht", 10, "late")
    assert board.top == [("best", 0, 120), ("early", 630, 180), ("middle", 630, 250),
                         ("late", 630, 260), ("gone", 630, 300)]
    assert (board.players, board.own, board.own_rank) == (5, (630, 260), 2)
    assert not redis_client.exists(legacy_skill_board_key(PLAY_DATE, "yacht"))
    assert redis_client.zcard(skill_board_key(PLAY_DATE, "yacht")) == 5


def test_equal_losses_share_a_rank_in_finish_order_whatever_the_totals(
        redis_client, redis_url, tmp_path, clock, tables):
    """Two perfect games (0.00 lost) of different totals on one day, the lower total finished
    first, then a careless game: the skill board ranks them 1, 1, 3 in that order, and each
    player's own rank says the same; the points board, ranked by luck too, puts the higher
    total first."""
    table = tables.get("yacht")
    data_dir = tmp_path / "var"
    lower_hold, higher_hold = day_of_two_perfect_totals(data_dir, EPOCH_START, EPOCH_DAYS,
                                                        table, "yacht", PLAY_DATE)
    app = app_on(redis_url, data_dir, clock)
    first, second, careless = app.test_client(), app.test_client(), app.test_client()
    lower = play_with_policy(first, "yacht", PLAY_DATE, table, hold=lower_hold, name="First")
    clock.advance(minutes=1)
    higher = play_with_policy(second, "yacht", PLAY_DATE, table, hold=higher_hold,
                              name="Second")
    clock.advance(minutes=1)
    sloppy = play_with_policy(careless, "yacht", PLAY_DATE, table, choose=first_free_box)
    assert lower["totals"]["total"] < higher["totals"]["total"]
    _, review = call(careless, "GET", f"/games/{sloppy['id']}/review")
    sloppy_loss = centipoints(review["loss"]) / 100
    assert sloppy_loss > 0

    status, board = call(second, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=skill")
    assert status == 200, board
    assert [(row["rank"], row["name"], row["loss"], row["total"]) for row in board["top"]] == [
        (1, "First", 0, lower["totals"]["total"]), (1, "Second", 0, higher["totals"]["total"]),
        (3, None, sloppy_loss, sloppy["totals"]["total"])]
    assert board["you"] == {"rank": 1, "loss": 0, "total": higher["totals"]["total"]}
    assert call(first, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=skill")[1]["you"]["rank"] == 1
    assert call(careless, "GET", f"/leaderboard/{PLAY_DATE}/yacht?by=skill")[1]["you"] == {
        "rank": 3, "loss": sloppy_loss, "total": sloppy["totals"]["total"]}
    _, points = call(second, "GET", f"/leaderboard/{PLAY_DATE}/yacht")
    assert [row["name"] for row in points["top"]][:2] == ["Second", "First"]


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

    line = foresight_maximum("yahtzee", dice, dealing=PER_TURN).line
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
