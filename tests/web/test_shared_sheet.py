"""The shared score sheet of a game against the computer, in a real Chromium: a column per seat,
the computer's columns filling as its moves play back, the seat playing highlighted, a whole
turn on one phone screen, and the end's ranks, each seat's review and "Play again" with the
same seats. The human's later turns are played through the API (the page's own cookie); what
the page shows is checked on the page."""

import re

import pytest
from playwright.sync_api import Page, expect

from .test_practice import (
    MATCH_ROOT,
    SLOW_MS,
    api_match,
    finish_through_api,
    roll_first_by_clicking,
    start_from_practice_page,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
LEVELS = ["easy", "hard"]
SCREENS = [("fr-FR", PHONE), ("en-GB", DESKTOP)]
NAMES = {"fr-FR": ["Vous", "Ordinateur 1 (Facile)", "Ordinateur 2 (Difficile)"],
         "en-GB": ["You", "Computer 1 (Easy)", "Computer 2 (Hard)"]}


def outside(page: Page, selector: str, viewport: dict) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport."""
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.box || e.tagName, r.left, r.top, r.right, r.bottom]; })")
    return [name for name, left, top, right, bottom in boxes
            if left < 0 or top < 0 or right > viewport["width"] or bottom > viewport["height"]]


def filled(page: Page, seat: int):
    """Seat ``seat``'s filled boxes in its column of the sheet."""
    return page.locator(f'.seat-cell.filled[data-seat="{seat}"][data-seat-box]')


# In the page: each box that fills, in order, with the seat highlighted as playing right then
# (a mutation observer's note, after the render that filled it), whatever this test's pace.
RECORD_FILLS = """() => {
  window.recordedFills = [];
  const seen = new Set();
  const note = () => {
    for (const cell of document.querySelectorAll(".seat-cell.filled[data-seat][data-seat-box]")) {
      const key = `${cell.dataset.seat}/${cell.dataset.seatBox}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const head = document.querySelector('[data-seat-head][aria-current="true"]');
      window.recordedFills.push({ seat: cell.dataset.seat, playing: head?.dataset.seat ?? null });
    }
  };
  note();
  new MutationObserver(note).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class", "aria-current"],
  });
}"""


def playing(page: Page):
    """The head of the column highlighted as playing."""
    return page.locator('[data-seat-head][aria-current="true"]')


@pytest.mark.parametrize(("locale", "viewport"), SCREENS, ids=["phone-fr", "desktop-en"])
def test_two_bots_fill_their_columns_and_the_end_plays_again(new_context, locale, viewport):
    page = new_context(locale=locale, viewport=viewport).new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match_id = start_from_practice_page(page, "yahtzee", levels=LEVELS)

    heads = page.locator("[data-seat-head]")
    for part in page.locator(".seat-heads").all():
        expect(part.locator("[data-seat-head]")).to_have_count(3)
    assert [heads.nth(i).get_attribute("title") for i in range(3)] == NAMES[locale]
    expect(playing(page).first).to_have_attribute("data-seat", "0")
    expect(page.locator("[data-opponents-panel]")).to_be_hidden()

    roll_first_by_clicking(page)
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ("[data-die]", "[data-roll]", "[data-box]"):
        assert outside(page, selector, viewport) == [], selector
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    page.evaluate(RECORD_FILLS)
    page.locator("[data-box]:not([disabled])").first.click()
    # The computer's moves play back: the first computer's column fills while it is
    # highlighted, before the second's turn; then the second's.
    expect(page.locator("[data-skip]")).to_be_visible()
    expect(playing(page).first).to_have_attribute("data-seat", "1")
    expect(filled(page, 1)).to_have_count(1, timeout=SLOW_MS)
    expect(filled(page, 2)).to_have_count(1, timeout=SLOW_MS)
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-busy", "false", timeout=SLOW_MS)
    fills = [fill for fill in page.evaluate("window.recordedFills") if fill["seat"] != "0"]
    assert fills == [{"seat": "1", "playing": "1"}, {"seat": "2", "playing": "2"}], fills
    expect(playing(page).first).to_have_attribute("data-seat", "0")
    expect(page.locator("[data-skip]")).to_be_hidden()
    expect(page.locator("[data-bot-status] li").first).to_contain_text(NAMES[locale][1])

    state = api_match(page, match_id)
    for seat in (1, 2):
        (box, points), = state["seats"][seat]["boxes"].items()
        cell = page.locator(f'[data-seat="{seat}"][data-seat-box="{box}"] [data-points]')
        expect(cell).to_have_text(str(points))
        total = page.locator(f'[data-seat="{seat}"][data-seat-total="total"] [data-points]')
        expect(total).to_have_text(str(state["seats"][seat]["totals"]["total"]))
        progress = page.locator(f'[data-seat="{seat}"][data-seat-total="progress"] [data-points]')
        expect(progress).to_have_text(re.compile(r"^\d+/63$"))

    final = finish_through_api(page, match_id, seed=5)
    page.reload()
    ranks = page.locator("[data-end-ranks] li")
    expect(ranks).to_have_count(3, timeout=SLOW_MS)
    for item in ranks.all():
        seat = int(item.get_attribute("data-seat"))
        assert int(item.get_attribute("value")) == final["ranks"][seat]
        expect(item).to_contain_text(str(final["seats"][seat]["totals"]["total"]))
    expect(playing(page)).to_have_count(0)
    expect(page.locator("[data-verify]")).to_be_visible()

    review_buttons = page.locator("[data-review-seat]")
    expect(review_buttons).to_have_count(3)
    review_buttons.nth(2).click()
    expect(page.locator("[data-review-headline]")).to_contain_text(NAMES[locale][2],
                                                                   timeout=SLOW_MS)
    expect(review_buttons.nth(2)).to_have_attribute("aria-pressed", "true")

    page.locator("[data-play-again]").click()
    page.wait_for_url(lambda url: "/practice/" in url and match_id not in url)
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-status", "playing", timeout=SLOW_MS)
    again = api_match(page, page.url.rsplit("/", 1)[1])
    assert again["ruleset"] == "yahtzee" and again["dealing"] == final["dealing"]
    assert [seat["bot"] for seat in again["seats"]] == [None, *LEVELS]
    expect(page.locator(".seat-heads").first.locator("[data-seat-head]")).to_have_count(3)
    assert errors == [], errors


def test_a_practice_game_keeps_one_column(page):
    start_from_practice_page(page, "yahtzee")
    expect(page.locator("[data-sheet]")).to_be_visible()
    expect(page.locator("[data-seat-sheet]")).to_have_count(0)
    expect(page.locator("[data-seat-head]")).to_have_count(0)
    expect(page.locator("[data-opponents-panel]")).to_have_count(0)
    expect(page.locator("[data-skip]")).to_have_count(0)


def test_a_reader_without_a_seat_sees_every_seat_as_a_column(new_context):
    """Someone else opening the game's address: no buttons, a plain column per seat."""
    player = new_context().new_page()
    match_id = start_from_practice_page(player, "yacht", levels=["easy"])
    roll_first_by_clicking(player)
    player.locator("[data-box]:not([disabled])").first.click()
    expect(player.locator(MATCH_ROOT)).to_have_attribute("data-busy", "false", timeout=SLOW_MS)
    (box, points), = api_match(player, match_id)["seats"][0]["boxes"].items()

    reader = new_context().new_page()
    reader.goto(f"/practice/{match_id}")
    sheet = reader.locator("[data-seat-sheet]")
    expect(sheet).to_have_attribute("data-you", "")
    expect(reader.locator(".seat-heads").first.locator("[data-seat-head]")).to_have_count(2)
    expect(reader.locator("[data-box]")).to_have_count(0)
    cell = reader.locator(f'[data-seat="0"][data-seat-box="{box}"] [data-points]')
    expect(cell).to_have_text(str(points))
    expect(playing(reader).first).to_have_attribute("data-seat", "0")

    # A seat sitting down later: setSeats draws the columns again, showSeatColumn fills them.
    reader.evaluate("""async (points) => {
        const src = document.querySelector('script[src*="practice-match.js"]').src;
        const sheet = await import(src.replace("practice-match.js", "seat-sheet.js"));
        const root = document.querySelector("[data-match]");
        sheet.setSeats(root, [{ name: "Ann" }, { name: "Bob", short: "B" }, { name: "Cy" }]);
        sheet.showSeatColumn(root, 2, { boxes: { choice: points }, totals: { total: points } });
    }""", points)
    heads = reader.locator(".seat-heads").first.locator("[data-seat-head]")
    expect(heads).to_have_count(3)
    expect(heads.nth(1)).to_have_text("BBob")  # the short name shown, the full name spoken
    expect(reader.locator('[data-seat="2"][data-seat-box="choice"] [data-points]')).to_have_text(
        str(points))
    expect(reader.locator('[data-seat="2"][data-seat-total="total"]')).to_have_text(
        f"Cy, Total {points}")


def test_play_again_keeps_a_duplicate_game_duplicate(page):
    created = page.request.post("/api/v1/matches", data={"ruleset": "yacht", "bots": ["medium"],
                                                         "duplicate": True})
    assert created.ok, created.text()
    match_id = created.json()["match"]["id"]
    page.goto(f"/practice/{match_id}")
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-status", "playing", timeout=SLOW_MS)
    finish_through_api(page, match_id, seed=6)
    page.reload()
    page.locator("[data-play-again]").click()
    page.wait_for_url(lambda url: "/practice/" in url and match_id not in url)
    again = api_match(page, page.url.rsplit("/", 1)[1])
    assert again["dealing"] == "duplicate"
    assert [seat["bot"] for seat in again["seats"]] == [None, "medium"]
