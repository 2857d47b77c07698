"""The play page fits one phone screen (390×844): the header one row, the Roll button and every
box of the sheet on screen without scrolling, on every sheet; the desktop layout keeps the sheet
beside the dice."""

import pytest
from playwright.sync_api import expect

from .player import next_action, open_game, play_turn_by_clicking, wait_for_action

PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHEETS = ["yacht", "yacht-bonus", "yahtzee"]


def on_screen(page, selector: str, viewport: dict) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport, scrolled to the top."""
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.box || e.tagName, r.left, r.top, r.right, r.bottom]; })"
    )
    return [name for name, left, top, right, bottom in boxes
            if left < 0 or top < 0 or right > viewport["width"] or bottom > viewport["height"]]


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
@pytest.mark.parametrize("ruleset", SHEETS)
def test_on_a_phone_roll_and_every_box_are_on_one_screen(new_context, ruleset, locale):
    page = new_context(locale=locale, viewport=PHONE_390).new_page()
    open_game(page, ruleset)
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    page.evaluate("window.scrollTo(0, 0)")
    assert on_screen(page, "[data-roll]", PHONE_390) == []
    assert on_screen(page, "[data-box]", PHONE_390) == []
    assert on_screen(page, "[data-die]", PHONE_390) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
    header = page.locator(".site-header").bounding_box()
    brand = page.locator(".brand").bounding_box()
    lang = page.locator(".lang-switch").bounding_box()
    assert header["height"] < 60, "the header takes more than one row"
    assert abs(brand["y"] - lang["y"]) < 20


def test_the_dice_bar_stays_on_screen_when_the_page_scrolls(new_context):
    page = new_context(viewport=PHONE_390).new_page()
    open_game(page, "yahtzee")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.locator("[data-roll]")).to_be_in_viewport()


@pytest.mark.parametrize("ruleset", SHEETS)
def test_on_a_desktop_the_sheet_sits_beside_the_dice(new_context, ruleset):
    page = new_context(viewport=DESKTOP).new_page()
    open_game(page, ruleset)
    board = page.locator("[data-board]").bounding_box()
    sheet = page.locator("[data-sheet]").bounding_box()
    assert sheet["x"] > board["x"] + board["width"]
    assert on_screen(page, "[data-roll]", DESKTOP) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]


def test_on_a_phone_the_record_table_scrolls_inside_its_box_not_the_whole_page(new_context):
    """The games table's visually hidden "Actions" header (absolutely placed) must not widen
    the page: with a finished game in French the table is wider than a small phone."""
    phone = {"width": 320, "height": 640}
    page = new_context(locale="fr-FR", viewport=phone).new_page()
    open_game(page, "yacht")
    for _ in range(int(page.locator("[data-play]").get_attribute("data-turns"))):
        play_turn_by_clicking(page)
    expect(page.locator("[data-play]")).to_have_attribute("data-status", "finished")
    page.goto("/history")
    expect(page.locator(".table-scroll").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]
