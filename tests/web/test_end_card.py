"""The daily end card in a real Chromium, on a server whose clock the test moves: a player who
played yesterday finishes today's game and the card says a streak of 2 days, 2 games, where
this game stands among their own (a chart with it marked), the day's skill rank and the
countdown to their next local midnight, ticking each minute; "Copy result" copies the text
with a friend's first line and one mark per turn, from the coach's review of the game."""

import datetime as dt
import re

from playwright.sync_api import expect

from app.daily.share import turn_marks

from .conftest import SCREENSHOTS, watch_errors
from .player import PLAY_ROOT, best_box

OWN_SERVER = True  # it moves its server's clock to the next day

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 768}
DAY_ONE, DAY_TWO = "2026-03-10", "2026-03-11"
NOON_DAY_TWO = "2026-03-11T12:00:00Z"


def api(page, method: str, path: str, body=None) -> dict:
    """Call the API with the page's own cookie; the JSON answer (asserting success)."""
    response = page.request.fetch(f"/api/v1{path}", method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def play_by_api(page, ruleset: str, date: str, leave_last_box: bool = False) -> dict:
    """The page's player's game of (``date``, ``ruleset``) played through the API: three rolls
    holding nothing, then the box worth most; with ``leave_last_box``, up to the last box's
    dice, rolled and not scored. Returns the state."""
    game = api(page, "POST", "/games", {"ruleset": ruleset, "date": date})["game"]
    while game["status"] == "playing":
        if game["dice"] is None or game["rolls_left"] > 0:
            body = {"roll": game["next_action"], "hold": None}
            game = api(page, "POST", f"/games/{game['id']}/roll", body)["game"]
            continue
        if leave_last_box and len(game["allowed"]) == 1 and game["turn"] == game["turns"]:
            return game
        best = max(game["allowed"], key=lambda box: game["previews"][box])
        body = {"roll": game["next_action"], "category": best}
        game = api(page, "POST", f"/games/{game['id']}/score", body)["game"]
    return game


def move_to_day_two(web_server, context) -> None:
    """The server's clock and the browser's both at noon (UTC) on the second day."""
    web_server.set_clock(NOON_DAY_TWO)
    context.clock.set_fixed_time(dt.datetime.fromisoformat(NOON_DAY_TWO.replace("Z", "+00:00")))


def review_marks(page, game_id: str) -> str:
    """The marks' line the coach's review of the game makes (app.daily.share.turn_marks)."""
    review = api(page, "GET", f"/games/{game_id}/review")
    return turn_marks([turn["loss"] for turn in review["turns"]])


def test_the_streak_after_two_days_and_the_copied_share_line(new_context, web_server):
    context = new_context(locale="fr-FR", viewport=PHONE,
                          permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/")
    first = play_by_api(page, "yahtzee", DAY_ONE)
    move_to_day_two(web_server, context)
    last_turn = play_by_api(page, "yahtzee", DAY_TWO, leave_last_box=True)
    page.goto("/play/yahtzee")
    expect(page.locator(PLAY_ROOT)).to_have_attribute("data-game", last_turn["id"])
    best_box(page).click()
    card = page.locator("[data-endgame]")
    expect(card).to_be_visible()
    final = api(page, "GET", f"/games/{last_turn['id']}")["game"]
    assert final["status"] == "finished" and final["date"] == DAY_TWO

    expect(card.locator('[data-end-stat="streak"]')).to_have_text("2 jours")
    expect(card.locator('[data-end-stat="finished"]')).to_have_text("2")
    better = int(first["totals"]["total"] > final["totals"]["total"])
    caption = ("Votre 2e meilleur score en 2 parties sur cette feuille."
               if better else "Votre meilleur score en 2 parties sur cette feuille\u202f!")
    expect(card.locator("[data-own-totals-caption]")).to_have_text(caption)
    chart = card.locator("[data-own-chart] svg")
    expect(chart.locator("rect.bar-rect.you")).to_have_count(1)
    expect(chart.locator("text.this-game")).to_have_text("cette partie")
    expect(card.locator('[data-end-stat="skill-rank"]')).to_have_text("1er sur 1")
    expect(card.locator("[data-end-next]")).to_have_text(
        re.compile(r"^Le prochain défi commence dans 12\sh$"))

    marks = review_marks(page, final["id"])
    share = page.request.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=fr").text()
    expect(card.locator("[data-share-preview]")).to_have_text(share)
    expect(card.locator("[data-turn-legend]")).to_be_visible()
    page.locator("[data-copy]").click()
    expect(page.locator("[data-copy-status]")).to_contain_text("Copié")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == share
    lines = copied.splitlines()
    assert re.fullmatch(rf"Yacht Daily {DAY_TWO} · Yahtzee\u202f: {final['totals']['total']} "
                        r"points, (à \d+,\d points? du jeu parfait|jeu parfait)", lines[0])
    assert lines[1] == marks and len(marks) == 13
    assert lines[2].startswith("13 cases : ")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    card.screenshot(path=str(SCREENSHOTS / "end-card-fr-390.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == [], errors


def test_the_countdown_ticks_each_minute(browser, web_server):
    """The next challenge is the player's next local midnight (here UTC−5), counted down to the
    minute; a minute later the card says a minute less."""
    context = browser.new_context(base_url=web_server.url, locale="en-GB", viewport=WIDE,
                                  timezone_id="America/Bogota")
    try:
        # 17:00 in Bogotá on the second day: 7 hours to its midnight.
        context.clock.install(time=dt.datetime(2026, 3, 11, 22, 0, 0, tzinfo=dt.UTC))
        page = context.new_page()
        errors = watch_errors(page)
        page.goto("/")
        last_turn = play_by_api(page, "yacht", DAY_TWO, leave_last_box=True)
        page.goto("/play/yacht")
        expect(page.locator(PLAY_ROOT)).to_have_attribute("data-game", last_turn["id"])
        best_box(page).click()
        next_line = page.locator("[data-end-next]")
        expect(next_line).to_have_text(re.compile(r"^The next challenge starts in 7\shr$|"
                                                  r"^The next challenge starts in 6\shr"
                                                  r"\s59\smin$"))
        before = next_line.inner_text()
        page.clock.fast_forward("01:00")
        expect(next_line).not_to_have_text(before)
        expect(next_line).to_have_text(re.compile(r"starts in 6\shr\s5[89]\smin$"))
        expect(page.locator('[data-end-stat="streak"]')).to_have_text("1 day")
        expect(page.locator("[data-own-totals-caption]")).to_have_text(
            "Your first game on this sheet.")
        expect(page.locator("[data-own-chart]")).to_be_hidden()
        expect(page.locator('[data-end-stat="skill-rank"]')).to_have_text(
            re.compile(r"^\d+(st|nd|rd|th) of \d+$"))
        page.locator("[data-endgame]").scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "end-card-en-1366.png"), full_page=True)
        assert errors == [], errors
    finally:
        context.close()
