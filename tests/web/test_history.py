"""The "My record" page in a real Chromium: a game played in one browser shows there, its
transfer code carries the whole record (and the game in progress) to a second browser, codes
work once, expire, and a bad code is a clear error that changes nothing; and the ledger page
tells when the epoch's first game was played."""

import pytest
from playwright.sync_api import expect

from app.platform.embedded import SOCKET_NAME
from app.platform.keys import transfer_key
from app.platform.redis import connect

from .conftest import DESKTOP, SCREENSHOTS, watch_errors

OWN_SERVER = True  # it moves its server's clock

PHONE = {"width": 390, "height": 844}
PLAY_DATE = "2026-03-10"
LAYOUTS = [("en-GB", DESKTOP), ("fr-FR", PHONE)]
TEXTS = {
    "en-GB": {"streak": "1 day", "unknown": "This code is unknown",
              "invalid": "A transfer code is 10 letters", "finished": "Finished",
              "playing": "In progress", "first_game": "none yet",
              "no_game_yet": "no game of this epoch has been played yet",
              "after": "the first game of this epoch came after the publication",
              "begun": "The first day had already begun somewhere on Earth"},
    "fr-FR": {"streak": "1 jour", "unknown": "Ce code est inconnu",
              "invalid": "Un code de transfert compte 10 lettres", "finished": "Terminée",
              "playing": "En cours", "first_game": "aucune pour l’instant",
              "no_game_yet": "aucune partie de cette époque n’a encore été jouée",
              "after": "la première partie de cette époque est venue après la publication",
              "begun": "Le premier jour avait déjà commencé quelque part sur Terre"},
}


def api(page, method: str, path: str, body=None) -> dict:
    """Call the API with the page's own cookie; returns the JSON answer (asserting success)."""
    response = page.request.fetch(f"/api/v1{path}", method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def play_to_end(page, ruleset: str) -> dict:
    """Play the page's player's game of ``ruleset`` to its end through the API: roll three times,
    score the best box. Returns the final state."""
    game = api(page, "POST", "/games", {"ruleset": ruleset, "date": PLAY_DATE})["game"]
    while game["status"] == "playing":
        if game["dice"] is None or game["rolls_left"] > 0:
            body = {"roll": game["next_action"], "hold": None}
            game = api(page, "POST", f"/games/{game['id']}/roll", body)["game"]
        else:
            best = max(game["allowed"], key=lambda box: game["previews"][box])
            body = {"roll": game["next_action"], "category": best}
            game = api(page, "POST", f"/games/{game['id']}/score", body)["game"]
    return game


def new_player(new_context, locale: str, viewport: dict):
    """A fresh player's page, failing the test on any script error."""
    page = new_context(locale=locale, viewport=viewport).new_page()
    page.errors = watch_errors(page)
    return page


def rows(page) -> list[tuple[str, str, str]]:
    """The games table of the record page: (game id, status, points) per row."""
    table = page.locator("[data-games] tbody tr")
    return [(row.get_attribute("data-game"), row.get_attribute("data-status"),
             row.locator("[data-total]").inner_text()) for row in table.all()]


def make_code(page) -> str:
    """Make a transfer code on the record page; returns it as shown."""
    page.locator("[data-make-code]").click()
    expect(page.locator("[data-code-box]")).to_be_visible()
    return page.locator("[data-code]").inner_text()


def redeem(page, code: str) -> None:
    """Type ``code`` in the record page's form and send it."""
    page.locator("#transfer-code").fill(code)
    page.locator("[data-redeem-form] button[type=submit]").click()


@pytest.mark.parametrize(("locale", "viewport"), LAYOUTS)
def test_a_transfer_code_carries_the_record_to_a_second_browser(new_context, locale, viewport):
    text = TEXTS[locale]
    old = new_player(new_context, locale, viewport)
    finished = play_to_end(old, "yacht")
    in_progress = api(old, "POST", "/games", {"ruleset": "yahtzee", "date": PLAY_DATE})["game"]
    api(old, "POST", f"/games/{in_progress['id']}/roll", {"roll": 0})
    old.goto("/history")
    expect(old.locator("[data-record] [data-stat=current]")).to_have_text(text["streak"])
    yacht = old.locator('[data-sheet-record="yacht"]')
    expect(yacht.locator("[data-stat=best-score]")).to_have_text(str(finished["totals"]["total"]))
    expect(yacht.locator("svg.histogram rect.bar-rect")).not_to_have_count(0)
    expected_rows = sorted([(finished["id"], "finished", str(finished["totals"]["total"])),
                            (in_progress["id"], "playing", "—")])
    assert sorted(rows(old)) == expected_rows
    expect(old.locator(f'[data-game="{in_progress["id"]}"]')).to_contain_text(text["playing"])
    code = make_code(old)
    assert len(code) == 11 and code[5] == "-"

    new = new_player(new_context, locale, viewport)
    new.goto("/history")
    expect(new.locator("[data-no-games]")).to_be_visible()
    expect(new.locator("[data-make-code]")).to_be_disabled()
    redeem(new, code.lower().replace("-", " "))
    expect(new.locator("[data-games]")).to_be_visible()
    assert sorted(rows(new)) == expected_rows
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    new.screenshot(path=SCREENSHOTS / f"history-{locale}-{viewport['width']}.png", full_page=True)
    expect(new.locator("[data-record] [data-stat=current]")).to_have_text(text["streak"])
    expect(new.locator('[data-sheet-record="yacht"] [data-stat=best-score]')).to_have_text(
        str(finished["totals"]["total"]))
    expect(new.locator(f'[data-game="{finished["id"]}"]')).to_contain_text(text["finished"])
    new.goto("/")
    expect(new.locator('[data-history-summary] [data-stat="current"]')).to_have_text(text["streak"])
    expect(new.locator('[data-history-summary] [data-stat="played"]')).to_have_text("1")
    new.locator("[data-record-link]").click()
    # The day's game in progress is the same game here, one roll in.
    new.locator(f'[data-game="{in_progress["id"]}"] a').click()
    root = new.locator("[data-play]")
    expect(root).to_have_attribute("data-game", in_progress["id"])
    expect(root).to_have_attribute("data-next-action", "1")

    # The code works once: a third browser gets a clear error and keeps its own (empty) record.
    third = new_player(new_context, locale, viewport)
    third.goto("/history")
    redeem(third, code)
    expect(third.locator("[data-redeem-status]")).to_contain_text(text["unknown"])
    expect(third.locator("#transfer-code")).to_have_attribute("aria-invalid", "true")
    third.reload()
    expect(third.locator("[data-no-games]")).to_be_visible()
    assert api(third, "GET", "/me/history")["player"] is None
    for page in (old, new, third):
        assert page.errors == [], page.errors


def test_malformed_and_expired_codes_are_refused_and_change_nothing(new_context, web_server):
    text = TEXTS["en-GB"]
    old = new_player(new_context, "en-GB", PHONE)
    play_to_end(old, "yacht-bonus")
    old.goto("/history")
    code = make_code(old)
    other = new_player(new_context, "en-GB", PHONE)
    own = play_to_end(other, "yacht")
    other.goto("/history")
    redeem(other, "hello")
    expect(other.locator("[data-redeem-status]")).to_contain_text(text["invalid"])
    client = connect(f"unix://{web_server.data_dir.resolve() / SOCKET_NAME}")
    try:
        assert client.pexpire(transfer_key(code.replace("-", "")), 1)
    finally:
        client.close()
    other.wait_for_timeout(50)
    redeem(other, code)
    expect(other.locator("[data-redeem-status]")).to_contain_text(text["unknown"])
    other.reload()
    assert rows(other) == [(own["id"], "finished", str(own["totals"]["total"]))]
    assert other.errors == [] and old.errors == []


def test_games_only_this_device_saved_are_named_not_counted(new_context):
    page = new_player(new_context, "en-GB", DESKTOP)
    page.goto("/history")
    saved = {"f" * 32: {"id": "f" * 32, "date": "2026-03-09", "ruleset": "yacht", "total": 180}}
    page.evaluate("g => localStorage.setItem('yacht-daily:games', JSON.stringify(g))", saved)
    page.reload()
    expect(page.locator("[data-local-notice]")).to_contain_text(
        "from now on the server’s record is the one that counts")
    expect(page.locator("[data-record] [data-stat=finished]")).to_have_text("0")
    assert page.errors == []


@pytest.mark.parametrize(("locale", "viewport"), LAYOUTS)
def test_the_header_links_to_the_record(new_context, locale, viewport):
    page = new_player(new_context, locale, viewport)
    page.goto("/")
    link = page.locator('.site-nav a[href="/history"]')
    expect(link).to_have_count(1)
    page.goto("/history")
    expect(page.locator('.site-nav a[href="/history"]')).to_have_attribute("aria-current", "page")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    assert page.errors == []


def test_the_ledger_tells_when_the_first_game_was_played(browser, make_live_server):
    """On a fresh server the epoch began (Mar 1) long before its entry was published (Mar 10,
    the first request): the page says why that is sound, and when the first game came."""
    server = make_live_server()
    try:
        pages = {}
        for locale, viewport in LAYOUTS:
            context = browser.new_context(base_url=server.url, locale=locale, timezone_id="UTC",
                                          viewport=viewport)
            pages[locale] = context.new_page()
            pages[locale].errors = watch_errors(pages[locale])
        for locale, page in pages.items():
            text = TEXTS[locale]
            page.goto("/ledger")
            epoch = page.locator("section.card").first
            note = epoch.locator("[data-commitment-note]")
            expect(note).to_contain_text(text["begun"])
            expect(note).to_contain_text(text["no_game_yet"])
            expect(epoch.locator("[data-first-game]")).to_have_text(text["first_game"])
        play_to_end(pages["en-GB"], "yacht")
        for locale, page in pages.items():
            text = TEXTS[locale]
            page.reload()
            epoch = page.locator("section.card").first
            expect(epoch.locator("[data-first-game]")).to_have_text(
                epoch.locator("[data-published]").inner_text())
            expect(epoch.locator("[data-first-game]")).to_contain_text("UTC")
            expect(epoch.locator("[data-commitment-note]")).to_contain_text(text["after"])
            assert page.errors == []
            page.context.close()
    finally:
        server.stop()
