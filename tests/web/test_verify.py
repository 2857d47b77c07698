"""The Verify page recomputes a game in the browser (fairness.js, WebCrypto): all ✓ for an
honest game once its date is revealed, and the precise ✗ for a tampered transcript or receipt
kept on the device. What it cannot verify (no id, not an id, an id the server does not know, a
date not revealed yet) it says next to the field, in the reader's language; the history's
Verify link verifies its game; and it counts a game's checks as verify.py does. The dates are
v2 here, as the service starts them: a game is also checked in its day's log."""

import copy
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.verify.conftest import VERIFY_PY

from .conftest import DESKTOP, SCREENSHOTS

DAY_FORMAT = "2"  # the web_server fixture starts this module's dates in v2 (the day's log)
PLAY_DATE = "2026-03-10"
AFTER_REVEAL = "2026-03-11T14:00:00Z"
GAMES_KEY = "yacht-daily:games"


def play_through_the_api(player, ruleset: str) -> dict:
    """A whole game: roll once each turn and score the first box allowed."""
    status, _, body = player.post("/api/v1/games", {"ruleset": ruleset, "date": PLAY_DATE})
    assert status in (200, 201), body
    game = body["game"]
    while game["status"] == "playing":
        _, _, body = player.post(f"/api/v1/games/{game['id']}/roll",
                                 {"hold": [False] * 5, "roll": game["next_action"]})
        game = body["game"]
        _, _, body = player.post(f"/api/v1/games/{game['id']}/score",
                                 {"category": game["allowed"][0], "roll": game["next_action"]})
        game = body["game"]
    assert game["receipt"] is not None
    return game


@pytest.fixture(scope="module")
def player(web_server):
    """The player of ``finished_game``, talking to the API."""
    return web_server.client()


@pytest.fixture(scope="module")
def finished_game(player):
    """A finished Yahtzee game of PLAY_DATE, before its reveal."""
    return play_through_the_api(player, "yahtzee")


@pytest.fixture(scope="module")
def revealed_game(web_server, finished_game):
    """The same game once the server's clock has passed its date's reveal."""
    web_server.set_clock(AFTER_REVEAL)
    web_server.wait_for_reveal(PLAY_DATE)
    return finished_game


def keep_on_device(page, game: dict) -> None:
    """Store the game as the play page does at the end of a game."""
    page.goto("/verify")
    record = {key: game[key] for key in ("id", "date", "ruleset", "name", "boxes", "transcript",
                                         "receipt", "totals")}
    record["total"] = game["totals"]["total"]
    page.evaluate(
        "([key, record]) => localStorage.setItem(key, JSON.stringify({[record.id]: record}))",
        [GAMES_KEY, record],
    )


def verify(page, game_id: str) -> dict:
    """Open the Verify page on a game and return {check name: passed?} once it has finished."""
    page.goto(f"/verify?game={game_id}")
    expect(page.locator("[data-check]").first).to_be_attached(timeout=30_000)
    items = page.locator("[data-check]")
    names = items.evaluate_all("items => items.map(i => [i.dataset.check, i.dataset.ok])")
    return {name: ok for name, ok in names}


def failed(checks: dict) -> set:
    """The names of the checks that failed."""
    return {name for name, ok in checks.items() if ok != "true"}


def test_before_the_reveal_the_page_says_when_to_come_back(page, finished_game):
    keep_on_device(page, finished_game)
    page.goto(f"/verify?game={finished_game['id']}")
    expect(page.locator(ID_MESSAGE)).to_contain_text(
        re.compile(r"This Yahtzee game of .+ is not revealed yet: it can be verified after"))
    expect(page.locator("#game-id")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-verify-output]")).to_be_hidden()
    expect(page.locator("[data-check]")).to_have_count(0)


def test_an_honest_game_passes_every_check_in_the_browser(page, revealed_game):
    keep_on_device(page, revealed_game)
    checks = verify(page, revealed_game["id"])
    assert failed(checks) == set()
    rolls = [entry for entry in revealed_game["transcript"] if entry["action"] == "roll"]
    expected = {"seed", "total", "receipt signature", "transcript hash", "inclusion proof"}
    assert expected <= set(checks)
    assert sum(name.startswith("roll") for name in checks) == len(rolls)
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok")
    expect(page.locator("[data-source]")).to_contain_text("saved on this device")
    expect(page.locator("[data-check].pass .mark").first).to_have_text("✓")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "verify-desktop.png"), full_page=True)


def test_a_changed_die_in_the_saved_transcript_fails_that_roll(page, revealed_game):
    game = copy.deepcopy(revealed_game)
    first_roll = game["transcript"][0]
    first_roll["dice"][2] = first_roll["dice"][2] % 6 + 1
    keep_on_device(page, game)
    checks = verify(page, game["id"])
    broken = failed(checks)
    assert any(name.startswith("roll") for name in broken)
    assert "transcript hash" in broken
    assert {"seed", "receipt signature", "inclusion proof"}.isdisjoint(broken)
    expect(page.locator("[data-verdict]")).to_have_class("verdict fail")
    expect(page.locator("[data-check].fail .mark").first).to_have_text("✗")


def test_a_raised_total_in_the_saved_receipt_fails_total_signature_and_proof(page, revealed_game):
    game = copy.deepcopy(revealed_game)
    game["receipt"]["total"] += 10
    keep_on_device(page, game)
    broken = failed(verify(page, game["id"]))
    assert {"total", "receipt signature"} <= broken
    assert not any(name.startswith(("roll", "box")) for name in broken)
    assert {"seed", "transcript hash"}.isdisjoint(broken)


def test_anyone_can_verify_a_revealed_game_by_its_link(page, revealed_game):
    page.goto("/verify")
    page.locator("[data-game-input]").fill(f"http://example.test/verify?game={revealed_game['id']}")
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    expect(page.locator("[data-source]")).to_contain_text("published after the reveal")


ID_MESSAGE = "#game-id-message"
PHONE_390 = {"width": 390, "height": 844}
READERS = [  # (language, screen, the page's words for: a malformed id, an unknown one)
    ("en", DESKTOP, "is not a game’s id or link", "No game on this site has the id"),
    ("fr", PHONE_390, "n’est ni l’identifiant ni le lien d’une partie",
     "Aucune partie de ce site n’a l’identifiant"),
]
VERIFY_BUTTON = {"en": "Verify", "fr": "Vérifier"}


def reader(new_context, lang: str, viewport: dict):
    """A page in ``lang`` (``?lang=`` sticks in a cookie) at ``viewport``, failing on script
    errors."""
    page = new_context(locale={"en": "en-GB", "fr": "fr-FR"}[lang], viewport=viewport).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/verify?lang={lang}")
    return page, errors


def submit_id(page, lang: str, text: str) -> None:
    """Type ``text`` in the id field and press the Verify button."""
    page.locator("#game-id").fill(text)
    page.get_by_role("button", name=VERIFY_BUTTON[lang], exact=True).click()


def expect_said_at_the_field(page, words: str) -> None:
    """The id field's message says ``words``, the field is marked invalid and keeps the focus;
    nothing else on the page changed: no verdict, no checks, the same address."""
    message = page.locator(ID_MESSAGE)
    expect(message).to_be_visible()
    expect(message).to_contain_text(words)
    field = page.locator("#game-id")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", "game-id-message")
    expect(field).to_be_focused()
    expect(page.locator("[data-verify-output]")).to_be_hidden()
    field_box, message_box = field.bounding_box(), message.bounding_box()
    assert 0 <= message_box["y"] - (field_box["y"] + field_box["height"]) < 40  # right under it


@pytest.mark.parametrize(("lang", "viewport", "malformed", "unknown"), READERS)
def test_a_malformed_id_is_said_next_to_the_field(new_context, finished_game, lang, viewport,
                                                  malformed, unknown):
    page, errors = reader(new_context, lang, viewport)
    for text in ("abc", finished_game["id"][:31], finished_game["id"] + "0"):
        submit_id(page, lang, text)
        expect_said_at_the_field(page, malformed)
        expect(page.locator(ID_MESSAGE)).to_contain_text(text[:40])
        assert page.url.endswith(f"/verify?lang={lang}")
    page.screenshot(path=str(SCREENSHOTS / f"verify-malformed-{lang}.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize(("lang", "viewport", "malformed", "unknown"), READERS)
def test_an_unknown_id_is_said_next_to_the_field(new_context, web_server, lang, viewport,
                                                 malformed, unknown):
    page, errors = reader(new_context, lang, viewport)
    submit_id(page, lang, f"{web_server.url}/verify?game={'0' * 32}")
    expect_said_at_the_field(page, f"{unknown} {'0' * 32}")
    assert errors == []


@pytest.mark.parametrize(("lang", "viewport", "malformed", "unknown"), READERS)
def test_a_malformed_id_in_the_address_is_said_on_load(new_context, lang, viewport, malformed,
                                                       unknown):
    page, errors = reader(new_context, lang, viewport)
    page.goto(f"/verify?game=abc&lang={lang}")
    message = page.locator(ID_MESSAGE)
    expect(message).to_contain_text(malformed)
    expect(message).to_contain_text("abc")
    expect(page.locator("#game-id")).to_have_value("abc")
    expect(page.locator("#game-id")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-verify-output]")).to_be_hidden()
    assert errors == []


def test_an_empty_field_and_a_log_line_say_what_to_do(page):
    page.goto("/verify")
    page.get_by_role("button", name="Verify", exact=True).click()
    expect_said_at_the_field(page, "Type a game’s id or link")
    submit_id(page, "en", "log 2026-03-10/yahtzee 3 KQ4M-7XPA-B2CD-RT5E-W3NZ")
    expect_said_at_the_field(page, "paste the whole result under “Check a friend’s result”")


def test_a_match_id_says_where_the_match_is_checked(page, web_server):
    status, _, body = web_server.client().post("/api/v1/matches", {"ruleset": "yacht"})
    assert status == 201, body
    match_id = body["match"]["id"]
    page.goto("/verify")
    submit_id(page, "en", f"{web_server.url}/practice/{match_id}")
    expect_said_at_the_field(page, "This is a practice game or a game against the computer")
    message = page.locator(ID_MESSAGE)
    expect(message.get_by_role("link", name="Open this game")).to_have_attribute(
        "href", f"/practice/{match_id}")
    expect(message.locator("code")).to_have_text(
        f"python3 verify.py match {web_server.url}/api/v1/matches/{match_id}")


def with_identity(context, client, base_url: str) -> None:
    """Give the browser ``context`` the identity (the player cookie) of the API ``client``."""
    context.add_cookies([{"name": cookie.name, "value": cookie.value, "url": base_url}
                         for cookie in client.cookies])


@pytest.mark.parametrize(("lang", "viewport"), [("en", DESKTOP), ("fr", PHONE_390)])
def test_the_history_verify_link_verifies_its_game(new_context, web_server, player,
                                                   revealed_game, lang, viewport):
    page, errors = reader(new_context, lang, viewport)
    with_identity(page.context, player, web_server.url)
    page.goto("/history")
    page.locator(f'a[href="/verify?game={revealed_game["id"]}"]:visible').first.click()
    expect(page).to_have_url(re.compile(rf"/verify\?game={revealed_game['id']}$"))
    expect(page.locator("#game-id")).to_have_value(revealed_game["id"])
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    expect(page.locator("[data-verify-title]")).to_contain_text("Yahtzee")
    expect(page.locator(ID_MESSAGE)).to_be_hidden()
    assert errors == []


def verify_py_count(url: str, game_id: str) -> int:
    """The number of checks ``verify.py game`` makes on the game, as a player runs it."""
    done = subprocess.run([sys.executable, str(VERIFY_PY), "game", url, game_id],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return int(re.fullmatch(r"All (\d+) checks hold\.", done.stdout.splitlines()[-1])[1])


def test_the_page_counts_the_checks_verify_py_counts(page, web_server, revealed_game):
    """The same count on the page as verify.py's game mode prints; the game's place in its
    day's log, which only the log mode checks, is counted apart and said so."""
    expected = verify_py_count(web_server.url, revealed_game["id"])
    page.goto(f"/verify?game={revealed_game['id']}")
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok", timeout=30_000)
    label = page.locator("[data-all-checks-label]")
    expect(label).to_have_text(f"All {expected} checks in detail")
    assert page.locator("[data-all-checks] [data-check]").count() == expected
    page.locator("[data-all-checks] > summary").click()
    expect(page.locator("[data-script-count]")).to_have_text(
        f"verify.py makes the same {expected} checks for this game: python3 verify.py game "
        f"{web_server.url} {revealed_game['id']}")
    log = page.locator("[data-log-checks]")
    expect(log.locator("[data-log-checks-label]")).to_have_text(
        "And 2 checks of the day’s log: this game is in it")
    names = log.locator("[data-check]").evaluate_all("items => items.map(i => i.dataset.check)")
    assert names == ["receipt in log", "receipt time"]
    log.locator("summary").click()
    expect(log.locator("[data-log-script] code")).to_have_text(
        f"python3 verify.py log --url {web_server.url} --date {PLAY_DATE} --sheet yahtzee "
        f"--game {revealed_game['id']}")
