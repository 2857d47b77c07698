"""The pages tell API errors in the reader's language: a sentence for every error code the API
can answer (rendered into the page as JSON), and in a real Chromium, French refusals of the
real API shown in French."""

import json
import re
from pathlib import Path

from playwright.sync_api import expect
from werkzeug.exceptions import default_exceptions

from fairness.errors import FairnessError

from .player import next_action, open_game, wait_for_action

OWN_SERVER = True  # it moves its server's clock

ROOT = Path(__file__).resolve().parents[2]
ERROR_TABLE = re.compile(r'<script type="application/json" id="api-errors">(.*?)</script>', re.S)
# A code the shell answers: an ApiError's, an error response's, or a DomainError subclass's (its
# constructor passing the code on, or a raise of one that takes its code first).
RAISED_CODE = re.compile(r'(?:ApiError\(\d+,|error_response\(\d+,|super\(\)\.__init__\(|'
                         r'raise (?:GameConflict|InvalidMatch|InvalidTable|MatchConflict|NotAllowed'
                         r'|TableConflict)\()\s*"([a-z]+(?:-[a-z]+)*)"')
HTTP_STATUSES = (400, 404, 405, 413, 429)  # what Flask, Werkzeug and the rate limits may answer
WORDED_BY_THE_API = {"joker-forbids"}  # its message follows the request's language already
NOT_A_DATE = "2026-13-01"  # shaped like a date, on no calendar
AFTER_THE_DAY_CLOSED = "2026-03-11T13:00:30Z"  # the play date is closed, not revealed yet
DAY_CLOSED = {
    "en-GB": "This day’s challenge is closed: no more moves can be played.",
    "fr-FR": "Le défi de ce jour est clos\u00a0: plus aucun coup ne peut être joué.",
}


def api_error_codes() -> set[str]:
    """Every error code the API can answer: the core's errors, the ones the service raises,
    and the HTTP errors it renders as JSON (named as app/api/errors.py names them)."""
    codes, pending = set(), [FairnessError]
    while pending:
        error_type = pending.pop()
        codes.add(error_type.code)
        pending += error_type.__subclasses__()
    for path in (ROOT / "app").rglob("*.py"):
        if "static" not in path.parts:
            codes |= set(RAISED_CODE.findall(path.read_text()))
    codes |= {default_exceptions[status]().name.lower().replace(" ", "-")
              for status in HTTP_STATUSES}
    return codes


def error_table(client, lang: str) -> dict:
    """The page's table of API error messages, in ``lang``."""
    html = client.get("/", query_string={"lang": lang}).get_data(as_text=True)
    return json.loads(ERROR_TABLE.search(html).group(1))


def test_every_api_error_code_has_a_translated_sentence(client):
    codes = api_error_codes()
    assert {"date-not-today", "day-closed", "stale-action", "too-many-requests",
            "storage-unavailable", "box-filled"} <= codes
    english, french = error_table(client, "en"), error_table(client, "fr")
    assert set(english) == set(french)
    missing = codes - WORDED_BY_THE_API - set(french)
    assert missing == set(), f"no page sentence for {sorted(missing)}"
    untranslated = [code for code in codes & set(french) if french[code] == english[code]]
    assert untranslated == []
    assert WORDED_BY_THE_API.isdisjoint(french)


def test_a_french_page_shows_the_api_refusal_of_a_date_that_is_none_in_french(new_context):
    page = new_context(locale="fr-FR").new_page()
    page.goto(f"/play/yacht?date={NOT_A_DATE}")
    expect(page.locator("[data-status-line]")).to_have_text(
        "Ce n’est pas une date du calendrier (AAAA-MM-JJ).")


def test_a_move_after_the_day_closed_is_refused_in_the_page_language(new_context, web_server):
    """Last in this module: it moves the module's server past the day's close for good."""
    pages = {locale: new_context(locale=locale).new_page() for locale in DAY_CLOSED}
    for page in pages.values():
        open_game(page, "yacht")
        page.locator("[data-roll]").click()  # the first roll starts the game
        wait_for_action(page, 1)
    web_server.set_clock(AFTER_THE_DAY_CLOSED)
    for locale, page in pages.items():
        start = next_action(page)
        page.locator("[data-roll]").click()
        expect(page.locator("[data-status-line]")).to_have_text(DAY_CLOSED[locale])
        wait_for_action(page, start)
