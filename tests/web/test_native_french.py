"""French and English as natives write them, in a real Chromium: every page in French (390×844)
holds none of the English page's strings (1366×768), no English word the French catalogue never
uses, French spaces before ``: ; ! ?``, the reader's number format, one minus sign, and no
"(s)" in either language. Also, over HTTP: the scripts' catalogue gives every plural message
French forms, every French message sets its typographic spaces, and the printed Generala sheet
names no bonus Generala does not have.

What a page "says" here: its text nodes (template contents included, code, keys and the share
text's preformatted block left out: they are not sentences), its ``aria-label``, ``title``,
``placeholder`` and ``alt`` attributes, its title, and every string of the JSON blocks the
scripts read their sentences from (``#messages``, ``#table-texts``…).
"""

import io
import json
import re

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import expect
from pypdf import PdfReader

from fairness import RULESETS

from .conftest import server_time, watch_errors
from .player import CAN_ROLL, wait_for_action
from .table_page import create_table
from .test_i18n import CATALOG

PHONE_390 = {"width": 390, "height": 844}
DESKTOP_1366 = {"width": 1366, "height": 768}
PLAY_DATE = "2026-03-10"
PLAYER = "Alice"
NARROW_NO_BREAK_SPACE = "\u202f"
# Words a French page may share with the English one: proper names (the site's, the sheets',
# the player's this test types, each language's own name on the language switch) and words
# French writes the same way.
SAME_IN_BOTH = {
    "Yacht", "Daily", "Yahtzee", "Yatzy", PLAYER, "EN", "FR", "English", "Français",
    "Total", "Point", "Points", "Table", "Tables", "Code", "Date", "Dates", "Chance", "Action",
    "Actions", "Bonus", "PDF",
}
SAME_IN_BOTH_LOWER = {word.lower() for word in SAME_IN_BOTH}
WORD = re.compile(r"(?<!\w)[^\W\d_]{2,}(?!\w)")
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
FILE_NAME = re.compile(r"[\w-]+\.(?:py|json|pdf)\b")
COLLECT = """() => {
  const said = [];
  const skipped = 'script, style, code, kbd, pre, samp';
  const tidy = (text) => text.replace(/[ \\t\\r\\n]+/g, ' ').trim();
  const roots = [document.body,
    ...[...document.querySelectorAll('template')].map((template) => template.content)];
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest(skipped)) continue;
      if (tidy(node.textContent)) said.push(['text', tidy(node.textContent)]);
    }
    for (const element of root.querySelectorAll('*')) {
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value && tidy(value)) said.push([name, tidy(value)]);
      }
    }
  }
  const leaves = (value) => typeof value === 'string' ? [value]
    : value && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [];
  for (const block of document.querySelectorAll('script[type="application/json"]')) {
    for (const leaf of leaves(JSON.parse(block.textContent))) {
      said.push([`#${block.id}`, leaf]);
    }
  }
  said.push(['document.title', document.title]);
  return said;
}"""


def words(text: str) -> list[str]:
    """The words of ``text``: placeholders, file names and tokens holding digits left out."""
    return WORD.findall(FILE_NAME.sub(" ", PLACEHOLDER.sub(" ", text)))


def french_vocabulary() -> set[str]:
    """Every word (lowercase) the French catalogue and the sheets' French texts use."""
    with (CATALOG / "messages.po").open("rb") as po:
        catalog = read_po(po)
    texts = [string for message in catalog if message.id
             for string in (message.string if isinstance(message.string, tuple)
                            else (message.string,))]
    for sheet in RULESETS.values():
        texts += [sheet.names["fr"], *(f"{box.names['fr']} {box.rule['fr']}"
                                       for box in sheet.column_boxes or sheet.categories)]
    return {word.lower() for text in texts for word in words(text)}


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
HYPHEN_AS_MINUS = re.compile(r"(?:^|[\s(])-\d")
WRONG_PLURAL = {
    "en": re.compile(r"(?<![\d.,])\b1 (?:points|rolls|games|days|players|checks|seconds)\b"),
    "fr": re.compile(r"(?<![\d.,\u202f])\b[01] (?:points|lancers|parties|jours|joueurs)\b"),
}


def pinned_context(browser, server, locale: str, viewport: dict):
    """A player's browser context on ``server``: its language, its screen, the server's time."""
    context = browser.new_context(base_url=server.url, locale=locale, timezone_id="UTC",
                                  viewport=viewport)
    context.clock.set_fixed_time(server_time(server))
    context.set_default_timeout(30_000)
    return context


@pytest.fixture(scope="module")
def readers(browser, web_server):
    """A French reader on a phone and an English one on a desktop, each with its page."""
    pages = {}
    for lang, locale, viewport in (("fr", "fr-FR", PHONE_390), ("en", "en-GB", DESKTOP_1366)):
        context = pinned_context(browser, web_server, locale, viewport)
        page = context.new_page()
        page.errors = watch_errors(page)
        page.goto(f"/?lang={lang}")
        pages[lang] = page
    yield pages
    for page in pages.values():
        assert page.errors == [], page.errors
        page.context.close()


def daily_game_rolled(page) -> None:
    """Today's Yacht with its first roll made (a game in progress on the player's record)."""
    page.goto("/play/yacht")
    expect(page.locator("[data-play]")).to_have_attribute("data-status", CAN_ROLL)
    page.locator("[data-roll]").click()
    wait_for_action(page, 1)


def match_against_the_computer(page) -> None:
    """A game against one computer opponent: one turn played and the computer's moves shown."""
    page.goto("/practice")
    page.locator("[data-add-opponent]").click()
    page.locator("[data-start]").click()
    page.wait_for_url(re.compile(r"/practice/[0-9a-f]{32}$"))
    root = page.locator("[data-match]")
    expect(root).to_have_attribute("data-status", "playing")
    page.locator("[data-roll]").click()
    expect(root).to_have_attribute("data-next-action", "1")
    expect(root).to_have_attribute("data-busy", "false")
    page.locator("[data-box]:not([disabled])").first.click()
    expect(page.locator("[data-bot-status]")).not_to_be_empty()
    expect(root).to_have_attribute("data-busy", "false")


def table_with_a_bot(page) -> None:
    """A Yahtzee table of the player and a bot, started, the player's first roll made."""
    page.goto("/tables/new")
    create_table(page, "yahtzee", ["bot:easy"], clock=0, name=PLAYER)
    page.locator("[data-start]").click()
    expect(page.locator("[data-roll]")).to_be_enabled()
    page.locator("[data-roll]").click()
    expect(page.locator("[data-seat-head][aria-current='true']").first).to_contain_text(PLAYER)
    expect(page.locator("[data-pick]").first).to_be_visible()


PAGES = [
    ("/", None), ("/play/yacht", daily_game_rolled), ("/practice", None),
    ("a game against the computer", match_against_the_computer), ("/tables/new", None),
    ("a table with a bot", table_with_a_bot), ("/history", None),
    (f"/results/{PLAY_DATE}/yacht", None), ("/ledger", None), ("/verify", None),
    ("/rules", None), ("/rules/generala", None), ("/rules/yahtzee-triple", None),
    ("/fairness", None),
]


def what_the_page_says(page, path: str, reach) -> list[tuple[str, str]]:
    """Open the page (``reach`` plays its way there, else ``path`` is its address) once its
    scripts have spoken, and collect what it says as (where, text) pairs."""
    if reach is None:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    else:
        reach(page)
    return [tuple(item) for item in page.evaluate(COLLECT)]


@pytest.mark.parametrize(("path", "reach"), PAGES, ids=[path for path, _ in PAGES])
def test_the_french_page_says_nothing_of_the_english_one(readers, path, reach):
    said = {lang: what_the_page_says(page, path, reach) for lang, page in readers.items()}
    french = {text for _, text in said["fr"]}
    shared = sorted({(where, text) for where, text in said["en"]
                     if text in french and {word.lower() for word in words(text)}
                     - SAME_IN_BOTH_LOWER})
    assert shared == [], f"the French page says these as the English one does: {shared}"

    english_words = {word for _, text in said["en"] for word in words(text)}
    known = french_vocabulary() | SAME_IN_BOTH_LOWER
    stray = sorted({(where, word, text[:80]) for where, text in said["fr"]
                    for word in words(text) if word in english_words
                    and word.lower() not in known})
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
    page = readers["fr"]
    page.goto("/practice")
    i18n = page.locator("script[type=module]").first.get_attribute("src").rsplit("/", 1)[0]
    said = page.evaluate(
        "async (url) => { const i = await import(url);"
        " return [i.formatNumber(-28.87), i.formatNumber(12345), i.formatDecimal(42.2, 1),"
        " i.lossText(42.25), i.plural('reviewLoss', 1.5, {}, { digits: 1 }),"
        " i.plural('reviewLoss', 2, {}, { digits: 1 }), i.plural('seatPoints', 0),"
        " i.ordinal(1), i.ordinal(2), i.listText([2, 3, 5]), i.levelName('easy'),"
        " i.typeset('Règle du joker : la case Six')]; }",
        f"{i18n}/i18n.js")
    assert said == [
        "−28,87", "12\u202f345", "42,2", "42,3",
        "Vous avez cédé 1,5 point d’espérance au jeu parfait.",
        "Vous avez cédé 2,0 points d’espérance au jeu parfait.",
        "0 point", "1er", "2e", "2, 3 et 5", "Facile", "Règle du joker\u202f: la case Six"]


def page_messages(client, lang: str) -> dict:
    """The scripts' catalogue (``script_messages``) a page hands over in ``lang``."""
    html = client.get("/", query_string={"lang": lang}).get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html,
                      re.DOTALL)
    return json.loads(block.group(1))


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
    with (CATALOG / "messages.po").open("rb") as po:
        catalog = read_po(po)
    faults = [(message.id, fault) for message in catalog if message.id
              for string in (message.string if isinstance(message.string, tuple)
                             else (message.string,))
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

