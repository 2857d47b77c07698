"""French and English as natives write them, in a real Chromium: every page in French (390×844)
holds none of the English page's strings (1366×768), no English word the French catalogue never
uses, French spaces before ``: ; ! ?``, the reader's number format, one minus sign, and no
"(s)" in either language. Also, over HTTP: the scripts' catalogue gives every plural message
French forms, every French message sets its typographic spaces, and the printed Generala sheet
names no bonus Generala does not have. What a page says, and the pages: native_pages.py.
"""

import io
import json
import re

import pytest
from pypdf import PdfReader

from .native_pages import (
    DESKTOP_1366,
    HYPHEN_AS_MINUS,
    PAGE_IDS,
    PAGES,
    PHONE_390,
    PLACEHOLDER,
    PROPER_NAMES,
    close_readers,
    english_words,
    open_readers,
    page_helpers,
    page_messages,
    said_as_english_says,
    translations,
    what_the_page_says,
)

NARROW_NO_BREAK_SPACE = "\u202f"
# Words a French page may share with the English one besides proper names: words French writes
# the same way.
SAME_IN_BOTH = PROPER_NAMES | {
    "Total", "Point", "Points", "Table", "Tables", "Code", "Date", "Dates", "Chance", "Action",
    "Actions", "Bonus",
}


def typography_faults(text: str) -> list[str]:
    """Where ``text`` (French) lacks the narrow no-break space before ``: ; ! ? »`` or after
    ``«`` (a colon in a time or an address is followed by no space: it is no punctuation)."""
    faults = [text[max(0, found.start() - 20):found.end() + 10]
              for found in re.finditer(r"(.)([:;!?»])(?=\s|$|[).,])", text)
              if found.group(1) != NARROW_NO_BREAK_SPACE]
    faults += [text[found.start():found.end() + 20]
               for found in re.finditer(r"«(?!\u202f)", text)]
    return faults


NUMBER_FAULTS = {
    # a decimal point in French (Python's version is a name: "Python 3.11")
    "fr": re.compile(r"(?<!Python )(?<![\d.])\d+\.\d+(?![\d.])"),
    "en": re.compile(r"(?!)"),
}
WRONG_PLURAL = {
    "en": re.compile(r"(?<![\d.,])\b1 (?:points|rolls|games|days|players|checks|seconds)\b"),
    "fr": re.compile(r"(?<![\d.,\u202f])\b[01] (?:points|lancers|parties|jours|joueurs)\b"),
}


@pytest.fixture(scope="module")
def readers(browser, web_server):
    """A French reader on a phone and an English one on a desktop, each with its page."""
    pages = open_readers(browser, web_server, (("fr", "fr-FR", PHONE_390),
                                               ("en", "en-GB", DESKTOP_1366)))
    yield pages
    close_readers(pages)


@pytest.mark.parametrize(("path", "reach"), PAGES, ids=PAGE_IDS)
def test_the_french_page_says_nothing_of_the_english_one(readers, path, reach):
    said = {lang: what_the_page_says(page, path, reach) for lang, page in readers.items()}
    shared = said_as_english_says(said, "fr", SAME_IN_BOTH)
    assert shared == [], f"the French page says these as the English one does: {shared}"
    stray = english_words(said, "fr", SAME_IN_BOTH)
    assert stray == [], f"English words on the French page: {stray}"

    faults = [(where, fault) for where, text in said["fr"] for fault in typography_faults(text)]
    assert faults == [], f"no narrow no-break space: {faults}"
    for lang in ("fr", "en"):
        texts = [(where, text) for where, text in said[lang]]
        assert [item for item in texts if "(s)" in item[1]] == [], lang
        assert [item for item in texts if NUMBER_FAULTS[lang].search(item[1])] == [], lang
        assert [item for item in texts if HYPHEN_AS_MINUS.search(item[1])] == [], lang
        assert [item for item in texts if WRONG_PLURAL[lang].search(item[1])] == [], lang


def test_the_scripts_write_numbers_ranks_and_lists_as_the_reader_does(readers):
    """The pages' helpers (static/js/i18n.js): the reader's decimal sign and grouping, the true
    minus sign, the plural form of a decimal figure, ranks and lists."""
    said = page_helpers(
        readers["fr"],
        "[i.formatNumber(-28.87), i.formatNumber(12345), i.formatDecimal(42.2, 1),"
        " i.lossText(42.25), i.plural('reviewLoss', 1.5, {}, { digits: 1 }),"
        " i.plural('reviewLoss', 2, {}, { digits: 1 }), i.plural('seatPoints', 0),"
        " i.ordinal(1), i.ordinal(2), i.listText([2, 3, 5]), i.levelName('easy'),"
        " i.typeset('Règle du joker : la case Six')]")
    assert said == [
        "−28,87", "12\u202f345", "42,2", "42,3",
        "Vous avez cédé 1,5 point d’espérance au jeu parfait.",
        "Vous avez cédé 2,0 points d’espérance au jeu parfait.",
        "0 point", "1er", "2e", "2, 3 et 5", "Facile", "Règle du joker\u202f: la case Six"]


def test_every_plural_message_of_the_scripts_has_french_forms(client):
    english, french = page_messages(client, "en"), page_messages(client, "fr")
    assert "(s)" not in json.dumps(french, ensure_ascii=False)
    assert "(s)" not in json.dumps(english, ensure_ascii=False)
    plurals = {key for key, value in english.items() if isinstance(value, dict)} - {"levels"}
    assert plurals >= {"rollsLeft", "seatPoints", "reviewLoss", "tableWinners", "ordinal"}
    for key in plurals:
        assert isinstance(french[key], dict), key
        assert {"one", "other"} <= set(french[key]), key
    translated = plurals - {"seatPoints"}  # "{n} point", "{n} points": French as it is
    assert [key for key in translated if french[key] == english[key]] == []
    assert french["seatPoints"] == {"one": "{n} point", "other": "{n} points"}


def test_every_french_message_sets_its_typographic_spaces():
    faults = [(string, fault) for string in translations("fr")
              for fault in typography_faults(PLACEHOLDER.sub("x", string))]
    assert faults == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_printed_generala_sheet_names_no_bonus(client, lang):
    answer = client.get(f"/sheets/generala.pdf?paper=a4&lang={lang}")
    assert answer.status_code == 200
    text = PdfReader(io.BytesIO(answer.data)).pages[0].extract_text()
    assert "bonus" not in text.lower()
    yahtzee = client.get(f"/sheets/yahtzee.pdf?paper=a4&lang={lang}")
    assert "bonus" in PdfReader(io.BytesIO(yahtzee.data)).pages[0].extract_text().lower()

