"""A past day played again as practice (``POST /days/<date>/<sheet>/replay``): the game is
replayed on the revealed day's own dice, reviewed by the coach and ranked against that day's
boards as it would have been, and nothing is written; an unrevealed date, a sheet that was no
daily challenge then and a wrong or unfinished transcript are refused."""

import random

import pytest
from playkit import PLAY_DATE, call, play_to_end, redis_snapshot, start

from app.services import EXTENSION
from fairness import Game

REVEALED_AT = "2026-03-11T13:05:00Z"  # PLAY_DATE's reveal time (grace 3600 s) has passed
RULESET = "yacht"


def replay_path(date: str = PLAY_DATE, ruleset: str = RULESET) -> str:
    """The endpoint of (date, sheet)."""
    return f"/days/{date}/{ruleset}/replay"


def greedy_game(app, date: str, ruleset: str) -> Game:
    """A whole game on the day's stream that rolls once a turn and takes the best box."""
    stream = app.extensions[EXTENSION].secrets.stream(date, ruleset)
    game = Game.new(ruleset, date)
    while not game.finished:
        game = game.roll([False] * 5, stream)
        previews = game.previews()
        game = game.score(max(previews, key=lambda box: (previews[box], box)))
    return game


@pytest.fixture
def played_day(app, clock, reveal):
    """Three players' finished games of PLAY_DATE on yacht, then its reveal: their final
    states, and each one's skill board entry."""
    finals = []
    for seed in range(3):
        player = app.test_client()
        finals.append(play_to_end(player, start(player, RULESET, PLAY_DATE),
                                  random.Random(seed)))
    clock.set(REVEALED_AT)
    assert PLAY_DATE in reveal()
    _, skill = call(app.test_client(), "GET", f"/leaderboard/{PLAY_DATE}/{RULESET}?by=skill")
    assert skill["players"] == 3
    return finals, skill["top"]


def test_a_replayed_game_ranks_as_it_would_have_on_the_day(app, client, played_day):
    """Replaying one player's own transcript: the same total and skill figure, and the rank it
    has on each board, among the day's players and this game."""
    finals, skill_top = played_day
    mine = finals[1]
    status, answer = call(client, "POST", replay_path(), {"transcript": mine["transcript"]})
    assert status == 200, answer
    assert (answer["date"], answer["ruleset"], answer["total"]) == (
        PLAY_DATE, RULESET, mine["totals"]["total"])
    assert answer["totals"] == mine["totals"]
    totals = [final["totals"]["total"] for final in finals]
    assert answer["points"] == {"rank": 1 + sum(total > answer["total"] for total in totals),
                                "players": 4}
    own = next(row for row in skill_top if row["player"] == mine["player"])
    assert answer["loss"] == own["loss"]
    assert answer["skill"] == {"rank": 1 + sum(row["loss"] < own["loss"] for row in skill_top),
                               "players": 4}
    review = answer["review"]
    assert review["loss"] == pytest.approx(own["loss"], abs=0.006)
    assert review["value"] == answer["total"] and review["finished"] is True
    assert sum(1 for d in review["decisions"] if d["chosen"]["kind"] == "box") == 12
    assert (answer["epoch"], answer["day"]) == (1, 10)


def test_a_past_day_writes_nothing(app, client, redis_client, played_day):
    """No game, history, streak, board or kept review: Redis is the same key for key."""
    game = greedy_game(app, PLAY_DATE, "yahtzee")
    body = {"transcript": list(game.transcript)}
    assert call(client, "POST", replay_path(ruleset="yahtzee"), body)[0] == 200
    before = redis_snapshot(redis_client)
    status, answer = call(client, "POST", replay_path(ruleset="yahtzee"), body)
    assert status == 200, answer
    assert answer["total"] == game.totals().total
    assert answer["points"] == {"rank": 1, "players": 1}
    assert answer["skill"] == {"rank": 1, "players": 1}
    assert redis_snapshot(redis_client) == before
    _, board = call(client, "GET", f"/leaderboard/{PLAY_DATE}/yahtzee")
    assert board["players"] == 0
    _, mine = call(client, "GET", "/me/history")
    assert mine["games"] == []


def test_a_date_not_revealed_yet_is_refused(app, client, clock):
    """Before its reveal (even once closed), in the future or before the first epoch: a 409
    that says so."""
    game = greedy_game(app, PLAY_DATE, RULESET)
    body = {"transcript": list(game.transcript)}
    for date in (PLAY_DATE, "2026-03-20", "2025-01-01"):
        status, answer = call(client, "POST", replay_path(date), body)
        assert (status, answer["error"]["code"]) == (409, "not-revealed"), date
        assert "not revealed yet" in answer["error"]["message"]
    clock.set("2026-03-11T12:30:00Z")  # closed, not revealed
    status, answer = call(client, "POST", replay_path(), body)
    assert (status, answer["error"]["code"]) == (409, "not-revealed")


def test_wrong_transcripts_are_refused_naming_the_first_bad_action(app, client, clock, reveal):
    clock.set(REVEALED_AT)
    reveal()
    game = greedy_game(app, PLAY_DATE, RULESET)
    transcript = [dict(entry) for entry in game.transcript]
    wrong_dice = [*transcript[:2], {**transcript[2], "dice": [7 - d for d in
                                                              transcript[2]["dice"]]},
                  *transcript[3:]]
    wrong_points = [*transcript[:5], {**transcript[5], "points": transcript[5]["points"] + 1},
                    *transcript[6:]]
    cases = [
        (wrong_dice, "action 2:"),
        (wrong_points, "action 5:"),
        (transcript[:-1], "unfinished: 11 of 12 boxes"),
        ([*transcript, transcript[0]], "action 24:"),
        ("roll", "must be a list"),
        (None, "must be a list"),
    ]
    for given, said in cases:
        status, answer = call(client, "POST", replay_path(), {"transcript": given})
        assert (status, answer["error"]["code"]) == (400, "invalid-transcript"), said
        assert said in answer["error"]["message"]
    assert call(client, "POST", replay_path(), {"transcript": transcript})[0] == 200
    status, answer = call(client, "POST", replay_path(ruleset="chess"), {"transcript": []})
    assert (status, answer["error"]["code"]) == (400, "unknown-ruleset")
    status, answer = call(client, "POST", replay_path("2026-02-30"), {"transcript": []})
    assert (status, answer["error"]["code"]) == (400, "invalid-date")


def test_a_sheet_that_was_no_daily_challenge_that_day_is_refused(app, client, clock, reveal):
    clock.set(REVEALED_AT)
    reveal()
    status, answer = call(client, "POST", replay_path(ruleset="yatzy"), {"transcript": []})
    assert (status, answer["error"]["code"]) == (404, "not-a-daily-sheet")


def test_the_archive_pages_and_their_links(app, client, clock, reveal):
    """The archive lists the revealed dates with their sheets, newest first; a past day's page
    deals from the revealed seed; an unrevealed date goes back to the archive, which says so;
    the practice, results and record pages link to past days."""
    finished = play_to_end(client, start(client, RULESET, PLAY_DATE), random.Random(5))
    clock.set(REVEALED_AT)
    assert PLAY_DATE in reveal()
    page = client.get("/archive").get_data(as_text=True)
    dates = [line.split('"')[1] for line in page.split("data-archive-day=")[1:]]
    assert dates[:2] == [PLAY_DATE, "2026-03-09"] and dates[-1] == "2026-03-01"
    assert f'href="/archive/{PLAY_DATE}/yahtzee"' in page

    played = client.get(f"/archive/{PLAY_DATE}/{RULESET}")
    assert played.status_code == 200
    seed = app.extensions[EXTENSION].secrets.seed(PLAY_DATE).hex()
    assert seed in played.get_data(as_text=True)
    later = client.get(f"/archive/2026-03-11/{RULESET}")
    assert (later.status_code, later.headers["Location"]) == (302, "/archive?date=2026-03-11")
    assert "data-archive-refused" in client.get("/archive?date=2026-03-11").get_data(as_text=True)
    assert client.get(f"/archive/{PLAY_DATE}/yatzy").status_code == 404
    assert client.get(f"/archive/2026-02-31/{RULESET}").status_code == 404

    assert 'href="/archive"' in client.get("/practice").get_data(as_text=True)
    results = client.get(f"/results/{PLAY_DATE}/{RULESET}").get_data(as_text=True)
    assert f'href="/archive/{PLAY_DATE}/{RULESET}" data-play-this-day' in results
    record = client.get("/history").get_data(as_text=True)
    assert f'href="/archive/{PLAY_DATE}/{RULESET}" data-play-again' in record
    assert finished["status"] == "finished"
