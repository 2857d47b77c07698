"""Whole games through the API on a real Redis: dealing, resuming, retries, receipts, results."""

import random
import re

import pytest
from playkit import PLAY_DATE, app_on, call, next_move, play_to_end, start

from app.ledger.signing import verify_object
from app.services import EXTENSION
from fairness import DAILY_RULESETS, replay


def secrets_of(app):
    """The app's loaded secrets (tests may look at what players never see)."""
    return app.extensions[EXTENSION].secrets


@pytest.mark.parametrize("ruleset", DAILY_RULESETS)
def test_full_game_on_each_sheet(app, client, ruleset):
    """A whole game: the server deals the day's stream, fills every box, signs a receipt."""
    state = start(client, ruleset, PLAY_DATE)
    assert state["status"] == "playing" and state["next_action"] == 0 and state["dice"] is None
    final = play_to_end(client, state, random.Random(ruleset))

    secrets = secrets_of(app)
    replayed = replay(final["transcript"], secrets.stream(PLAY_DATE, ruleset))
    assert final["status"] == "finished"
    assert final["boxes"] == dict(replayed.boxes)
    assert final["totals"] == replayed.totals().as_dict()
    receipt = final["receipt"]
    assert receipt["total"] == final["totals"]["total"]
    assert (receipt["game"], receipt["date"]) == (final["id"], PLAY_DATE)
    assert receipt["ruleset"] == ruleset
    assert receipt["player"] == final["player"]
    assert verify_object(secrets.signer.public_key_hex, receipt)
    assert call(client, "GET", f"/games/{final['id']}") == (200, {"game": final})

    status, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/{ruleset}")
    assert status == 200
    assert board["players"] == 1
    assert board["top"] == [{"rank": 1, "player": final["player"], "name": None,
                             "total": final["totals"]["total"]}]
    assert board["you"] == {"rank": 1, "total": final["totals"]["total"]}
    assert sum(bucket["count"] for bucket in board["distribution"]) == 1


def test_every_player_gets_the_same_dice_whatever_they_hold(app):
    """Two players holding differently still draw the same stream, roll by roll."""
    first, second = app.test_client(), app.test_client()
    games = [start(player, "yahtzee", PLAY_DATE) for player in (first, second)]
    assert games[0]["id"] != games[1]["id"]
    _, a = call(first, "POST", f"/games/{games[0]['id']}/roll", {"roll": 0, "hold": None})
    _, b = call(second, "POST", f"/games/{games[1]['id']}/roll", {"roll": 0})
    assert a["game"]["dice"] == b["game"]["dice"]
    _, a = call(first, "POST", f"/games/{games[0]['id']}/roll",
                {"roll": 1, "hold": [True, True, True, True, True]})
    _, b = call(second, "POST", f"/games/{games[1]['id']}/roll", {"roll": 1, "hold": [False] * 5})
    stream = secrets_of(app).stream(PLAY_DATE, "yahtzee")
    assert a["game"]["dice"] == a["game"]["transcript"][0]["dice"]
    assert b["game"]["dice"] == list(stream.roll(1))


def test_resume_after_reload_and_restart(app, client, redis_url, data_dir, clock):
    """Starting again resumes; a new app process on the same store and secrets does too."""
    state = start(client, "yacht", PLAY_DATE)
    for number in range(2):
        _, answer = call(client, "POST", f"/games/{state['id']}/roll",
                         {"roll": number, "hold": [False] * 5})
    status, resumed = call(client, "POST", "/games", {"ruleset": "yacht", "date": PLAY_DATE})
    assert status == 200
    assert resumed["game"] == answer["game"]

    restarted = app_on(redis_url, data_dir, clock)
    other = restarted.test_client()
    other.set_cookie(key="yd_player", value=client.get_cookie("yd_player").value)
    status, again = call(other, "POST", "/games", {"ruleset": "yacht", "date": PLAY_DATE})
    assert status == 200 and again["game"] == answer["game"]
    status, after = call(other, "POST", f"/games/{state['id']}/score",
                         {"roll": 2, "category": "choice"})
    assert status == 200 and after["game"]["next_action"] == 3


def test_a_retried_action_is_not_applied_twice(client):
    """The same action number and request gives the same answer; nothing is applied again."""
    game_id = start(client, "yahtzee", PLAY_DATE)["id"]
    roll = {"roll": 0, "hold": [False] * 5}
    first = call(client, "POST", f"/games/{game_id}/roll", roll)
    assert first[0] == 200
    assert call(client, "POST", f"/games/{game_id}/roll", roll) == first
    hold = {"roll": 1, "hold": [True, False, True, False, False]}
    second = call(client, "POST", f"/games/{game_id}/roll", hold)
    assert second[1]["game"]["next_action"] == 2

    # A late retry of action 0 gets action 0's answer again: nothing moves.
    assert call(client, "POST", f"/games/{game_id}/roll", roll) == first
    assert call(client, "GET", f"/games/{game_id}")[1]["game"]["next_action"] == 2
    # Same number, different request: stale, with the current game to resync.
    status, stale = call(client, "POST", f"/games/{game_id}/roll",
                         {"roll": 1, "hold": [False] * 5})
    assert status == 409 and stale["error"]["code"] == "stale-action"
    assert stale["game"] == second[1]["game"]
    # A number from the future is stale too.
    status, future = call(client, "POST", f"/games/{game_id}/score",
                          {"roll": 7, "category": "chance"})
    assert status == 409 and future["error"]["code"] == "stale-action"
    assert call(client, "GET", f"/games/{game_id}")[1]["game"] == second[1]["game"]


def test_a_retried_final_action_returns_the_receipt_again(client):
    """Retrying the action that finished a game returns the same signed receipt."""
    state = start(client, "yacht", PLAY_DATE)
    rng = random.Random(3)
    while True:
        action, body = next_move(state, rng)
        status, answer = call(client, "POST", f"/games/{state['id']}/{action}", body)
        if answer["game"]["status"] == "finished":
            break
        state = answer["game"]
    assert call(client, "POST", f"/games/{state['id']}/{action}", body) == (status, answer)


SHARE_PATTERN = re.compile(
    r"Yacht Daily (\d{4}-\d\d-\d\d) - (.+) - (\d+) points - −\d+\.\d vs perfect play\n"
    r"(\d+) boxes: (\d+) scored, (\d+) zeroed( - (upper bonus reached|no upper bonus))?"
    r" - five of a kind: (\d+)\n"
    r"(https://\S+)\n"
)


@pytest.mark.parametrize("ruleset", DAILY_RULESETS)
def test_share_text(client, ruleset):
    """Plain text: title with date, sheet and total; compact counts; the link; no dice."""
    state = start(client, ruleset, PLAY_DATE)
    status, body = call(client, "GET", f"/games/{state['id']}/share")
    assert status == 409 and body["error"]["code"] == "not-finished"
    final = play_to_end(client, state, random.Random(7))
    response = client.get(f"/api/v1/games/{final['id']}/share")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    match = SHARE_PATTERN.fullmatch(response.text)
    assert match, response.text
    date, _, total, boxes, scored, zeroed, bonus_part, _, _, link = match.groups()
    assert (date, int(total)) == (PLAY_DATE, final["totals"]["total"])
    assert int(boxes) == final["turns"] == int(scored) + int(zeroed)
    assert int(zeroed) == sum(1 for points in final["boxes"].values() if points == 0)
    assert (bonus_part is None) == (ruleset == "yacht")
    assert link == "https://yacht.example/"
    french = client.get(f"/api/v1/games/{final['id']}/share?lang=fr").text
    assert french.startswith(f"Yacht Daily {PLAY_DATE} - ") and "cases" in french


def test_display_name_is_kept_and_shown(client):
    """A chosen name goes on the game, on the player's next games and on the leaderboard."""
    state = start(client, "yacht", PLAY_DATE, name="  <b>Zoé</b> ")
    assert state["name"] == "<b>Zoé</b>"
    assert start(client, "yahtzee", PLAY_DATE)["name"] == "<b>Zoé</b>"
    final = play_to_end(client, state, random.Random(1))
    _, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/yacht")
    assert board["top"][0]["name"] == "<b>Zoé</b>"
    assert final["name"] == "<b>Zoé</b>"


def test_leaderboard_ranks_ties_and_distribution(app):
    """Competition ranking (equal totals share a rank), the caller's rank, 25-point buckets."""
    finals = []
    for seed in range(4):
        player = app.test_client()
        finals.append((player, play_to_end(player, start(player, "yacht-bonus", PLAY_DATE),
                                           random.Random(seed))))
    totals = sorted((f["totals"]["total"] for _, f in finals), reverse=True)
    player, own = finals[0]
    status, board = call(player, "GET", f"/leaderboard/{PLAY_DATE}/yacht-bonus?limit=3")
    assert status == 200 and board["players"] == 4
    assert [row["total"] for row in board["top"]] == totals[:3]
    for row in board["top"]:
        assert row["rank"] == 1 + sum(1 for t in totals if t > row["total"])
    assert board["you"] == {"rank": 1 + sum(1 for t in totals if t > own["totals"]["total"]),
                            "total": own["totals"]["total"]}
    assert sum(b["count"] for b in board["distribution"]) == 4
    for bucket in board["distribution"]:
        assert bucket["to"] - bucket["from"] == 24 and bucket["from"] % 25 == 0
        assert bucket["count"] == sum(1 for t in totals if bucket["from"] <= t <= bucket["to"])


def test_challenges_show_status_and_the_players_games(client, clock):
    """Each sheet's window, chain position and anchor; the player's game once started."""
    status, body = call(client, "GET", f"/challenges?date={PLAY_DATE}")
    assert status == 200
    assert [c["ruleset"] for c in body["challenges"]] == list(DAILY_RULESETS)
    yacht = body["challenges"][0]
    assert yacht["status"] == "open" and yacht["game"] is None and yacht["day"] == 10
    assert yacht["opens_at"] == "2026-03-09T10:00:00Z"
    assert yacht["ends_at"] == "2026-03-11T12:00:00Z"
    assert yacht["closes_at"] == "2026-03-11T13:00:00Z"
    assert yacht["reveal_at"] == "2026-03-11T13:01:00Z"
    game_id = start(client, "yacht", PLAY_DATE)["id"]
    _, body = call(client, "GET", f"/challenges?date={PLAY_DATE}")
    assert [c["game"] for c in body["challenges"]] == [game_id, None, None]
    _, body = call(client, "GET", "/challenges")
    assert body["date"] == PLAY_DATE and body["now"] == "2026-03-10T12:00:00Z"
    _, body = call(client, "GET", "/challenges?date=2026-03-12")
    assert body["challenges"][0]["status"] == "upcoming"
    clock.set("2026-03-11T12:30:00Z")
    _, body = call(client, "GET", f"/challenges?date={PLAY_DATE}")
    assert body["challenges"][0]["status"] == "closed"


def test_rulesets_list_the_daily_sheets(client):
    """The three daily sheets with their boxes and names."""
    status, body = call(client, "GET", "/rulesets")
    assert status == 200
    assert [r["id"] for r in body["rulesets"]] == list(DAILY_RULESETS)
    yahtzee = body["rulesets"][2]
    assert yahtzee["joker"] is True and yahtzee["extra_bonus"] == 100
    assert len(yahtzee["categories"]) == 13
    assert yahtzee["categories"][0]["names"] == {"en": "Ones", "fr": "As"}


def test_openapi_describes_every_route(app, client):
    """Every /api/v1 route is in the OpenAPI document, and nothing else is."""
    status, document = call(client, "GET", "/openapi.json")
    assert status == 200 and document["openapi"].startswith("3.1")
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)[len("/api/v1"):]
        for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/v1/")
    }
    assert routes == set(document["paths"])


def test_workers_with_stale_caches_stay_consistent(client, redis_url, data_dir, clock):
    """Two app processes (as two workers) serving one player in turns never fork the game."""
    other_app = app_on(redis_url, data_dir, clock)
    other = other_app.test_client()
    game_id = start(client, "yahtzee", PLAY_DATE)["id"]
    other.set_cookie(key="yd_player", value=client.get_cookie("yd_player").value)
    assert call(other, "GET", f"/games/{game_id}")[0] == 200  # both processes cache version 0
    assert call(client, "POST", f"/games/{game_id}/roll", {"roll": 0})[0] == 200
    # The other process still holds version 0: its compare-and-set fails and it catches up.
    status, answer = call(other, "POST", f"/games/{game_id}/roll", {"roll": 0, "hold": [True] * 5})
    assert (status, answer["error"]["code"]) == (409, "stale-action")
    assert answer["game"]["next_action"] == 1
    assert call(other, "POST", f"/games/{game_id}/roll", {"roll": 1})[0] == 200
    status, answer = call(client, "POST", f"/games/{game_id}/score",
                          {"roll": 2, "category": "chance"})
    assert status == 200 and answer["game"]["next_action"] == 3
    assert call(other, "GET", f"/games/{game_id}")[1] == answer
