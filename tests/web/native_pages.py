"""What the pages say, for the tests that hold a translated page to the English one
(test_native_french.py, test_native_hungarian.py): the pages and how to reach them, the readers'
browser contexts, what a page says, the words a catalogue uses, and the comparison itself.

What a page "says" here: its text nodes (template contents included, code, keys and the share
text's preformatted block left out: they are not sentences), its ``aria-label``, ``title``,
``placeholder`` and ``alt`` attributes, its title, and every string of the JSON blocks the
scripts read their sentences from (``#messages``, ``#table-texts``…).
"""

import json
import re

from babel.messages.pofile import read_po
from playwright.sync_api import expect

from app.web.sheets_view import box_name, box_rule, sheet_name
from fairness import RULESETS

from .conftest import server_time, watch_errors
from .player import CAN_ROLL, wait_for_action
from .table_page import create_table
from .test_i18n import TRANSLATIONS

PHONE_390 = {"width": 390, "height": 844}
DESKTOP_1366 = {"width": 1366, "height": 768}
PLAY_DATE = "2026-03-10"
PLAYER = "Alice"
# Words every page may share with the English one: proper names (the site's, the sheets', the
# player's the tests type, each language's own name on the language switch).
PROPER_NAMES = {"Yacht", "Daily", "Yahtzee", "Yatzy", PLAYER, "EN", "FR", "HU", "English",
                "Français", "Magyar", "PDF"}
WORD = re.compile(r"(?<!\w)[^\W\d_]{2,}(?!\w)")
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
FILE_NAME = re.compile(r"[\w-]+\.(?:py|json|pdf)\b")
# A sheet's id ("yacht-bonus", as the ledger lists the day's roots) is a code, not words.
SHEET_ID = re.compile(r"\b(?:" + "|".join(sorted((re.escape(ruleset) for ruleset in RULESETS
                                                 if "-" in ruleset), key=len, reverse=True))
                      + r")\b")
HYPHEN_AS_MINUS = re.compile(r"(?:^|[\s(])-\d")
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
    """The words of ``text``: placeholders, file names, sheet ids and tokens holding digits
    left out."""
    return WORD.findall(SHEET_ID.sub(" ", FILE_NAME.sub(" ", PLACEHOLDER.sub(" ", text))))


def catalog(lang: str):
    """The .po catalogue of ``lang``."""
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po)


def translations(lang: str) -> list[str]:
    """Every translated string of the catalogue of ``lang`` (each plural form)."""
    return [string for message in catalog(lang) if message.id
            for string in (message.string if isinstance(message.string, tuple)
                           else (message.string,))]


def vocabulary(lang: str) -> set[str]:
    """Every word (lowercase) the catalogue of ``lang`` and the sheets' texts in it use."""
    texts = translations(lang)
    for sheet in RULESETS.values():
        texts += [sheet_name(sheet, lang), *(f"{box_name(box, lang)} {box_rule(box, lang)}"
                                             for box in sheet.column_boxes or sheet.categories)]
    return {word.lower() for text in texts for word in words(text)}


def pinned_context(browser, server, locale: str, viewport: dict):
    """A player's browser context on ``server``: its language, its screen, the server's time."""
    context = browser.new_context(base_url=server.url, locale=locale, timezone_id="UTC",
                                  viewport=viewport)
    context.clock.set_fixed_time(server_time(server))
    context.set_default_timeout(30_000)
    return context


def open_readers(browser, server, readers) -> dict:
    """A page for each reader ``(lang, locale, viewport)``, its language chosen with ``?lang=``
    (which sticks), its script errors watched (``page.errors``)."""
    pages = {}
    for lang, locale, viewport in readers:
        context = pinned_context(browser, server, locale, viewport)
        page = context.new_page()
        page.errors = watch_errors(page)
        page.goto(f"/?lang={lang}")
        pages[lang] = page
    return pages


def close_readers(pages: dict) -> None:
    """Close the readers' contexts, once none of their pages reported a script error."""
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
PAGE_IDS = [path for path, _ in PAGES]


def what_the_page_says(page, path: str, reach) -> list[tuple[str, str]]:
    """Open the page (``reach`` plays its way there, else ``path`` is its address) once its
    scripts have spoken, and collect what it says as (where, text) pairs."""
    if reach is None:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    else:
        reach(page)
    return [tuple(item) for item in page.evaluate(COLLECT)]


def said_as_english_says(said: dict, lang: str, same_in_both: set[str]) -> list:
    """What the page in ``lang`` says exactly as the English one does (``said`` holds both
    pages' (where, text) pairs by language), a text of proper names and ``same_in_both``
    words alone left out."""
    translated = {text for _, text in said[lang]}
    shared = {word.lower() for word in same_in_both}
    return sorted({(where, text) for where, text in said["en"]
                   if text in translated and {word.lower() for word in words(text)} - shared})


def english_words(said: dict, lang: str, same_in_both: set[str]) -> list:
    """The words of the English page on the page in ``lang`` that neither its catalogue nor its
    sheets' texts use (``same_in_both`` left out)."""
    english = {word for _, text in said["en"] for word in words(text)}
    known = vocabulary(lang) | {word.lower() for word in same_in_both}
    return sorted({(where, word, text[:80]) for where, text in said[lang]
                   for word in words(text) if word in english and word.lower() not in known})


def page_messages(client, lang: str) -> dict:
    """The scripts' catalogue (``script_messages``) a page hands over in ``lang``."""
    html = client.get("/", query_string={"lang": lang}).get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="messages">(.*?)</script>', html,
                      re.DOTALL)
    return json.loads(block.group(1))


def page_helpers(page, calls: str) -> list:
    """The results of ``calls`` (a JavaScript array expression over ``i``, the page's
    static/js/i18n.js module) on the page's current language."""
    page.goto("/practice")
    i18n = page.locator("script[type=module]").first.get_attribute("src").rsplit("/", 1)[0]
    return page.evaluate(f"async (url) => {{ const i = await import(url); return {calls}; }}",
                         f"{i18n}/i18n.js")
