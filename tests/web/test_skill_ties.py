"""The skill board's ties in a real Chromium: two perfect games of different totals share rank
1 on the results page, listed in the order they finished, and a careless game ranks 3; the
page says so beside the board, and the points board says points depend on the luck of the
dice. At 1366×768 in English and on a 390×844 phone in French."""

import datetime as dt
import time

import pytest
from coachkit import day_of_two_perfect_totals, first_free_box, loaded_tables, play_with_policy
from playkit import PLAY_DATE
from playwright.sync_api import expect
from processes import short_temp_dir

from tests.conftest import EPOCH_DAYS, EPOCH_START, PLAY_TIME

from .conftest import SCREENSHOTS, watch_errors

OWN_SERVER = True  # it moves its server's clock

DESKTOP_1366 = {"width": 1366, "height": 768}
PHONE_390 = {"width": 390, "height": 844}
RANKING_TIMEOUT = 120
FIRST_NAME, SECOND_NAME = "Ada", "Grace"


@pytest.fixture(scope="module")
def yacht_table(strategy_tables_dir):
    """The session's yacht table, loaded in this process."""
    return loaded_tables(strategy_tables_dir).get("yacht")


@pytest.fixture(scope="module")
def tied_day(make_live_server, yacht_table):
    """A live server whose PLAY_DATE dice give two perfect yacht games of different totals,
    and the holds (lower total's, higher total's) that play them."""
    workdir = short_temp_dir("yd-live-")
    holds = day_of_two_perfect_totals(workdir / "var", EPOCH_START, EPOCH_DAYS, yacht_table,
                                      "yacht", PLAY_DATE)
    server = make_live_server(workdir=workdir)
    yield server, holds
    server.stop()


@pytest.fixture(scope="module")
def web_server(tied_day):
    """This module's live server (the browser contexts' base URL and clock)."""
    return tied_day[0]


@pytest.fixture(scope="module")
def three_games(tied_day, yacht_table) -> dict:
    """The lower perfect total finished first, the higher one a minute later, a careless game
    a minute after that; each game's final state and the second player's client."""
    server, (lower_hold, higher_hold) = tied_day
    start = dt.datetime.fromisoformat(PLAY_TIME.replace("Z", "+00:00"))
    games = {}
    for minute, (key, options) in enumerate([
            ("first", {"hold": lower_hold, "name": FIRST_NAME}),
            ("second", {"hold": higher_hold, "name": SECOND_NAME}),
            ("careless", {"choose": first_free_box})]):
        server.set_clock((start + dt.timedelta(minutes=minute)).strftime("%Y-%m-%dT%H:%M:%SZ"))
        player = server.client()
        games[key] = play_with_policy(player, "yacht", PLAY_DATE, yacht_table, **options)
        games[key + "_player"] = player
    wait_for_skill_board(server.client(), players=3)
    return games


def wait_for_skill_board(client, players: int) -> dict:
    """The day's yacht skill board once it ranks ``players`` games (a worker whose tables were
    still loading ranks its game in its background pass)."""
    deadline = time.monotonic() + RANKING_TIMEOUT
    while True:
        status, _, board = client.get(f"/api/v1/leaderboard/{PLAY_DATE}/yacht?by=skill")
        assert status == 200, board
        if board["players"] == players:
            return board
        assert time.monotonic() < deadline, f"the skill board stayed at {board['players']}"
        time.sleep(0.2)


def as_player(context, client, base_url: str) -> None:
    """Give the browser ``context`` the identity (the player cookie) of the API ``client``."""
    context.add_cookies([{"name": cookie.name, "value": cookie.value, "url": base_url}
                         for cookie in client.cookies])


@pytest.mark.parametrize(("locale", "viewport", "name"), [
    ("en-GB", DESKTOP_1366, "results-skill-ties-desktop.png"),
    ("fr-FR", PHONE_390, "results-skill-ties-phone-fr.png"),
])
def test_equal_losses_share_a_rank_on_the_results_page(new_context, web_server, three_games,
                                                       locale, viewport, name):
    """The second perfect game's player sees rows ranked 1, 1, 3 (the lower total first: it
    finished first), their own row marked, their rank 1 of 3, the sentence about ties beside
    the board; the points board ranks the higher total first and says points are luck's."""
    first, second = three_games["first"], three_games["second"]
    assert first["totals"]["total"] < second["totals"]["total"]
    context = new_context(locale=locale, viewport=viewport)
    as_player(context, three_games["second_player"], web_server.url)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"/results/{PLAY_DATE}/yacht")

    rows = page.locator("[data-skill-board] tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(n).locator("td").first.inner_text() for n in range(3)] == ["1", "1", "3"]
    expect(rows.nth(0)).to_contain_text(FIRST_NAME)
    expect(rows.nth(0)).to_contain_text(str(first["totals"]["total"]))
    expect(rows.nth(1)).to_contain_text(SECOND_NAME)
    expect(rows.nth(1)).to_have_class("you")
    expect(page.locator("[data-your-skill-rank]")).to_contain_text("1")
    english = locale.startswith("en")
    expect(page.locator("[data-skill-ties]")).to_have_text(
        "Games that give away the same figure share a rank and are listed in the order they "
        "finished; the points scored never break a tie." if english else
        "Les parties qui cèdent autant partagent le même rang et apparaissent dans l’ordre où "
        "elles se sont terminées ; les points marqués ne départagent jamais deux parties.")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)

    page.locator('[data-board-link="points"]').click()
    expect(page.locator("[data-points-luck]")).to_have_text(
        "Points depend on the luck of the dice; the ranking by skill does not." if english else
        "Les points dépendent de la chance aux dés ; le classement à l’adresse, non.")
    expect(page.locator(".leaderboard tbody tr").first).to_contain_text(SECOND_NAME)
    page.screenshot(path=str(SCREENSHOTS / name.replace("skill-ties", "points-luck")),
                    full_page=True)
    assert errors == [], errors
