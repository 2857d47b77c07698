"""What a new player meets first: no game until the first roll, a closed date's
results, the end card's rank, share text and times, plurals, the Joker message, error pages,
and static files cached and compressed."""

import re
import urllib.request

import pytest
from playwright.sync_api import expect

from app.web.messages import plural_samples

from .conftest import DESKTOP, server_time
from .player import (
    api_game,
    finish_a_game,
    next_action,
    open_game,
    wait_for_action,
)

PHONE_390 = {"width": 390, "height": 844}
PLAY_DATE = "2026-03-10"
PAST_DATE = "2026-03-05"
SETTINGS = [("en-GB", DESKTOP), ("fr-FR", PHONE_390)]
NBSP = "\u202f"  # French narrow no-break space before : ; ! ?
HEADER_LINKS = 10  # the main menu of app/web/pages.py nav_items(), "My record" included


def player_page(new_context, locale="en-GB", viewport=DESKTOP):
    """A new player's page."""
    return new_context(locale=locale, viewport=viewport).new_page()


@pytest.mark.parametrize(("locale", "viewport"), SETTINGS)
def test_opening_the_play_page_creates_no_game_until_the_first_roll(new_context, locale, viewport):
    page = player_page(new_context, locale, viewport)
    open_game(page, "yacht")
    expect(page.locator("[data-play]")).to_have_attribute("data-status", "ready")
    challenges = page.request.get(f"/api/v1/challenges?date={PLAY_DATE}").json()["challenges"]
    assert [c["game"] for c in challenges] == [None, None, None]
    assert page.context.cookies() == [] or all(c["name"] != "yd_player"
                                               for c in page.context.cookies())
    page.locator("[data-roll]").click()
    wait_for_action(page, 1)
    assert api_game(page)["rolls_in_turn"] == 1
    page.reload()
    wait_for_action(page, 1)
    expect(page.locator("[data-play]")).to_have_attribute("data-status", "playing")


@pytest.mark.parametrize(("locale", "viewport"), SETTINGS)
def test_a_past_date_shows_its_results_and_the_way_to_today(new_context, web_server, locale,
                                                            viewport):
    page = player_page(new_context, locale, viewport)
    page.goto(f"/play/yahtzee?date={PAST_DATE}")
    card = page.locator("[data-day-over]")
    expect(card).to_be_visible()
    expect(page.locator("[data-board]")).to_be_hidden()
    title = "Le défi du" if locale == "fr-FR" else "The challenge of"
    expect(card.locator("[data-day-over-title]")).to_contain_text(title)
    expect(card.locator("[data-today-link]")).to_have_attribute("href", "/play/yahtzee")
    expect(card.locator("[data-day-results-link]")).to_have_attribute(
        "href", f"/results/{PAST_DATE}/yahtzee")
    expect(card.locator("[data-day-over-top] li")).to_have_count(1)
    expect(page.locator("[data-status-line]")).not_to_contain_text("nulle part")
    expect(page.locator("[data-status-line]")).not_to_contain_text("anywhere on Earth")


@pytest.mark.parametrize(("locale", "viewport"), SETTINGS)
def test_the_end_card_shows_rank_share_text_times_and_the_other_sheets(new_context, locale,
                                                                       viewport):
    page = player_page(new_context, locale, viewport)
    final = finish_a_game(page, "yacht")
    lang = locale[:2]
    share = page.request.get(f"/api/v1/games/{final['id']}/share?style=squares&lang={lang}").text()
    expect(page.locator("[data-share-preview]")).to_have_text(share)
    rank = "Votre rang pour l’instant" if lang == "fr" else "Your rank so far"
    expect(page.locator("[data-end-rank]")).to_contain_text(re.compile(rf"{rank}.*: \d+ "))
    reveal = page.locator("[data-end-reveal]")
    expect(reveal).to_contain_text("UTC")
    expect(reveal).to_contain_text("révélés" if lang == "fr" else "revealed")
    expect(page.locator("[data-end-next]")).to_contain_text(
        "Le prochain défi" if lang == "fr" else "The next challenge")
    expect(page.locator("[data-other-sheet]")).to_have_count(2)
    expect(page.locator('[data-other-sheet="yahtzee"]')).to_have_attribute("href", "/play/yahtzee")
    expect(page.locator("[data-results-link]")).to_have_attribute(
        "href", f"/results/{PLAY_DATE}/yacht")


def test_the_end_card_gives_the_reveal_in_the_readers_time_zone(new_context, browser, web_server):
    context = browser.new_context(base_url=web_server.url, locale="en-US",
                                  timezone_id="America/New_York", viewport=DESKTOP)
    context.clock.set_fixed_time(server_time(web_server))
    page = context.new_page()
    finish_a_game(page, "yacht", PLAY_DATE)
    expect(page.locator("[data-end-reveal]")).to_contain_text(re.compile(r"EDT|EST|GMT-[45]"))
    context.close()


def test_plural_forms_come_from_the_catalogue_per_language():
    assert plural_samples("en") == {"other": 0, "one": 1}
    assert plural_samples("fr") == {"one": 0, "other": 2}


def fake_roll(previews: dict):
    """A route answering the roll as the API would, with these previews on offer."""

    def answer(route):
        """The real roll, with the chosen previews."""
        game = route.fetch().json()["game"]
        game.update(allowed=list(previews), previews=previews)
        route.fulfill(json={"game": game})

    return answer


@pytest.mark.parametrize(("locale", "labels"), [
    ("en-GB", {"ones": "Ones: 1 point if you score it now",
               "twos": "Twos: 2 points if you score it now",
               "fours": "Fours: 0 points if you score it now"}),
    ("fr-FR", {"ones": f"As{NBSP}: 1 point si vous l’inscrivez maintenant",
               "twos": f"Deux{NBSP}: 2 points si vous l’inscrivez maintenant",
               "fours": f"Quatre{NBSP}: 0 point si vous l’inscrivez maintenant"}),
])
def test_screen_reader_labels_use_the_plural_form_of_each_number(new_context, locale, labels):
    page = player_page(new_context, locale, PHONE_390)
    open_game(page, "yacht")
    page.route("**/api/v1/games/*/roll*", fake_roll({"ones": 1, "twos": 2, "fours": 0}))
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    for box, label in labels.items():
        expect(page.locator(f'[data-box="{box}"]')).to_have_attribute("aria-label", label)
    expect(page.locator("#rolls-left-text")).to_have_text(
        "Encore 2 lancers" if locale == "fr-FR" else "2 rolls left")
    page.unroute("**/api/v1/games/*/roll*")
    page.locator('[data-box="ones"]').click()
    wait_for_action(page, start + 2)
    points = api_game(page)["boxes"]["ones"]
    word = "point" if points == 1 or (points == 0 and locale == "fr-FR") else "points"
    expect(page.locator("[data-status-line]")).to_contain_text(f"{points} {word} ")


@pytest.mark.parametrize(("locale", "viewport", "title"), [
    ("en-GB", DESKTOP, "Page not found"), ("fr-FR", PHONE_390, "Page introuvable")])
@pytest.mark.parametrize("path", ["/play/generala", "/results/2026-13-01/yacht", "/no-such-page"])
def test_unknown_pages_get_a_translated_page_with_the_header_and_a_way_on(
        new_context, locale, viewport, title, path):
    page = player_page(new_context, locale, viewport)
    response = page.goto(path)
    assert response.status == 404
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator(".site-header .site-nav a")).to_have_count(HEADER_LINKS)
    expect(page.locator(".error-ways a").first).to_have_attribute("href", "/")


def test_error_pages_in_french_by_query_and_the_api_stays_json(web_server):
    player = web_server.client()
    status, headers, body = player.get("/play/generala?lang=fr")
    assert status == 404 and "text/html" in headers["Content-Type"]
    assert "Page introuvable" in body and '<html lang="fr">' in body
    status, headers, body = player.post("/rules", {})
    assert status == 405 and "Impossible ici" in body, "the chosen language sticks"
    assert headers["Allow"]
    status, headers, body = player.get("/api/v1/no-such-thing")
    assert status == 404 and body["error"]["code"] == "not-found"


def raw_headers(url: str, encoding: str):
    """The status and headers of a GET asking for ``encoding`` (the body left undecoded)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers


def test_static_files_have_hashed_names_a_year_of_cache_and_compression(web_server):
    player = web_server.client()
    _, _, html = player.get("/rules", headers={"Accept-Encoding": "identity"})
    css = re.search(r'href="(/static/[0-9a-f]{16}/css/site\.css)"', html)
    script = re.search(r'src="(/static/[0-9a-f]{16}/js/[a-z-]+\.js)"', html) or css
    assert css, "the stylesheet's address carries no content digest"
    for address in (css.group(1), script.group(1)):
        status, headers = raw_headers(web_server.url + address, "br")
        assert status == 200
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert headers["Content-Encoding"] == "br"
        assert "Accept-Encoding" in headers["Vary"]
    status, headers = raw_headers(web_server.url + "/rules", "gzip")
    assert headers["Content-Encoding"] == "gzip"
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
