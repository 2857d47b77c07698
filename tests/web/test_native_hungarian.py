"""Hungarian as a native writes it, in a real Chromium: every page in Hungarian (390×844) holds
none of the English page's strings (1366×768) and no English word the Hungarian catalogue never
uses, writes decimals with a comma, never puts a plural noun after a number ("3 pont", not
"3 pontok") and never writes "(s)"; no French typographic space. The language switch leads to
Hungarian and back, and a browser that prefers Hungarian gets it. Also, over HTTP: the scripts'
catalogue gives every plural message Hungarian forms, and the printed sheets set ő and ű.
What a page says, and the pages: native_pages.py.
"""

import io
import json
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from .native_pages import (
    DESKTOP_1366,
    HYPHEN_AS_MINUS,
    PAGE_IDS,
    PAGES,
    PHONE_390,
    PROPER_NAMES,
    close_readers,
    english_words,
    open_readers,
    page_helpers,
    page_messages,
    pinned_context,
    said_as_english_says,
    what_the_page_says,
)

# Words a Hungarian page may share with the English one besides proper names: the names of
# boxes Hungarian players keep in English, as the Hungarian rules document does.
SAME_IN_BOTH = PROPER_NAMES | {"Full", "House", "Generala", "Joker", "Merkle"}
DECIMAL_POINT = re.compile(r"(?<!Python )(?<![\d.])\d+\.\d+(?![\d.])")
# Hungarian counts with a singular noun: "3 pont", never "3 pontok".
PLURAL_AFTER_NUMBER = re.compile(
    r"\b\d+ (?:pontok|dobások|játszmák|napok|játékosok|ellenőrzések|körök|mezők)\b")
NARROW_NO_BREAK_SPACE = "\u202f"


@pytest.fixture(scope="module")
def readers(browser, web_server):
    """A Hungarian reader on a phone and an English one on a desktop, each with its page."""
    pages = open_readers(browser, web_server, (("hu", "hu-HU", PHONE_390),
                                               ("en", "en-GB", DESKTOP_1366)))
    yield pages
    close_readers(pages)


@pytest.mark.parametrize(("path", "reach"), PAGES, ids=PAGE_IDS)
def test_the_hungarian_page_says_nothing_of_the_english_one(readers, path, reach):
    said = {lang: what_the_page_says(page, path, reach) for lang, page in readers.items()}
    assert readers["hu"].locator("html").get_attribute("lang") == "hu"
    shared = said_as_english_says(said, "hu", SAME_IN_BOTH)
    assert shared == [], f"the Hungarian page says these as the English one does: {shared}"
    stray = english_words(said, "hu", SAME_IN_BOTH)
    assert stray == [], f"English words on the Hungarian page: {stray}"
    texts = said["hu"]
    assert [item for item in texts if "(s)" in item[1]] == []
    assert [item for item in texts if DECIMAL_POINT.search(item[1])] == []
    assert [item for item in texts if HYPHEN_AS_MINUS.search(item[1])] == []
    assert [item for item in texts if PLURAL_AFTER_NUMBER.search(item[1])] == []
    assert [item for item in texts if NARROW_NO_BREAK_SPACE in item[1]] == []


def test_the_scripts_write_numbers_ranks_and_lists_as_a_hungarian_does(readers):
    """The pages' helpers (static/js/i18n.js) in Hungarian: a decimal comma, a no-break space
    between thousands, the true minus sign, ranks "1.", lists with "és", no French spaces."""
    said = page_helpers(
        readers["hu"],
        "[i.formatNumber(-28.87), i.formatNumber(12345), i.formatDecimal(42.2, 1),"
        " i.lossText(42.25), i.plural('reviewLoss', 1, {}, { digits: 1 }),"
        " i.plural('seatPoints', 1), i.plural('seatPoints', 3), i.plural('rollsLeft', 2),"
        " i.ordinal(1), i.ordinal(2), i.listText([2, 3, 5]), i.levelName('easy'),"
        " i.typeset('Joker-szabály: a Hatosok mező')]")
    assert said == [
        "−28,87", "12\u00a0345", "42,2", "42,3",
        "A tökéletes játékhoz képest 1,0 várható pontot engedtél el.",
        "1 pont", "3 pont", "2 dobás maradt", "1.", "2.", "2, 3 és 5", "Könnyű",
        "Joker-szabály: a Hatosok mező"]


def test_the_language_switch_leads_to_hungarian_and_back(browser, web_server):
    context = pinned_context(browser, web_server, "en-GB", PHONE_390)
    page = context.new_page()
    page.goto("/rules")
    assert page.locator("html").get_attribute("lang") == "en"
    switch = page.locator(".lang-switch a[hreflang='hu']")
    expect(switch).to_have_text("HU")
    switch.click()
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator("h1")).to_have_text("Játékszabályok")
    expect(page.locator(".lang-switch a[aria-current='true']")).to_have_text("HU")
    page.goto("/ledger")  # the choice sticks
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    page.locator(".lang-switch a[hreflang='en']").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    context.close()


def test_a_browser_that_prefers_hungarian_gets_it(browser, web_server):
    context = pinned_context(browser, web_server, "hu-HU", PHONE_390)
    page = context.new_page()
    page.goto("/play/yacht")
    expect(page.locator("html")).to_have_attribute("lang", "hu")
    expect(page.locator("[data-roll]")).to_contain_text("Dobás")
    expect(page.get_by_text("Egyesek").first).to_be_visible()
    context.close()


def test_every_plural_message_of_the_scripts_has_hungarian_forms(client):
    english, hungarian = page_messages(client, "en"), page_messages(client, "hu")
    assert "(s)" not in json.dumps(hungarian, ensure_ascii=False)
    plurals = {key for key, value in english.items() if isinstance(value, dict)} - {"levels"}
    for key in plurals - {"ordinal"}:
        assert set(hungarian[key]) == {"one", "other"}, key
        assert hungarian[key] != english[key], key
    assert hungarian["seatPoints"] == {"one": "{n} pont", "other": "{n} pont"}
    assert set(hungarian["ordinal"].values()) == {"{n}."}  # every rank category: "1.", "2."


@pytest.mark.parametrize("ruleset", ["yacht", "yahtzee", "generala", "yahtzee-triple"])
def test_the_printed_sheet_sets_hungarian_letters(client, ruleset):
    answer = client.get(f"/sheets/{ruleset}.pdf?paper=a4&lang=hu")
    assert answer.status_code == 200
    text = PdfReader(io.BytesIO(answer.data)).pages[0].extract_text()
    assert "Ötösök" in text and "Hatosok" in text
    assert "Összesen" in text and "Szabály" in text
    assert "ő" in text or "ű" in text  # letters Latin-1 lacks
    assert "?" not in text
