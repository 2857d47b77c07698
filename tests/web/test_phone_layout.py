"""The play page fits one phone screen (390×844): the header one row, the Roll button and every
box of the sheet on screen without scrolling, on every sheet; the desktop layout keeps the sheet
beside the dice. Practice and games against the computer hold to the same on a phone (a sheet too
long for one screen scrolls under the dice), and the record fits the phone's width."""

import pytest
from playwright.sync_api import expect

from .player import finish_a_game, next_action, open_game, wait_for_action
from .test_practice import MATCH_ROOT, start_from_practice_page

PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHEETS = ["yacht", "yacht-bonus", "yahtzee"]
MATCHES = [("yahtzee", ()), ("yahtzee", ("easy",)), ("yatzy", ("medium",)), ("generala", ("easy",))]


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
    finish_a_game(page, "yacht")
    page.goto("/history")
    expect(page.locator(".table-scroll").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= phone["width"]


def roll_in_match(page, ruleset: str, levels) -> None:
    """Start a game on ``ruleset`` against ``levels`` from /practice and roll once."""
    start_from_practice_page(page, ruleset, levels=list(levels))
    page.locator("[data-roll]").click()
    expect(page.locator(MATCH_ROOT)).to_have_attribute("data-next-action", "1")
    page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.parametrize(("ruleset", "levels"), MATCHES,
                         ids=[f"{ruleset}-{len(levels)}-bots" for ruleset, levels in MATCHES])
def test_on_a_phone_a_whole_turn_of_a_match_is_on_one_screen(new_context, ruleset, levels):
    """As on the daily page: the dice, Roll, Hint and every box on the first screen, in French,
    and against the computer every seat's column of the shared sheet beside yours; the
    fair-dice card comes after the sheet."""
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    roll_in_match(page, ruleset, levels)
    expect(page.locator("[data-hint]")).to_be_visible()
    selectors = ["[data-die]", "[data-roll]", "[data-hint]", "[data-box]"]
    if levels:
        expect(page.locator(".seat-heads").first.locator("[data-seat-head]")).to_have_count(
            1 + len(levels))
        selectors += ["[data-seat-head]", ".seat-cell[data-seat-box]"]
    for selector in selectors:
        assert on_screen(page, selector, PHONE_390) == [], selector
    sheet = page.locator("[data-sheet]").bounding_box()
    assert page.locator("[data-fairness]").bounding_box()["y"] >= sheet["y"] + sheet["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]


def test_on_a_phone_a_sheet_longer_than_the_screen_scrolls_under_the_dice(new_context):
    """Triple Yahtzee's 39 boxes cannot fit one phone screen: the dice, Roll and the sheet's
    first half do, and the dice and Roll stay on screen down to the sheet's last box."""
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    roll_in_match(page, "yahtzee-triple", ["easy"])
    assert on_screen(page, "[data-die]", PHONE_390) == []
    assert on_screen(page, "[data-roll]", PHONE_390) == []
    boxes = page.locator("[data-box]")
    assert len(on_screen(page, "[data-box]", PHONE_390)) < boxes.count() / 2
    boxes.last.scroll_into_view_if_needed()
    expect(boxes.last).to_be_in_viewport()
    expect(page.locator("[data-roll]")).to_be_in_viewport()
    assert on_screen(page, "[data-die]", PHONE_390) == []


def test_on_a_phone_the_record_fits_the_screen_width(new_context):
    """Every column of the games and of the matches, Points and Verify included, within the
    390 px screen: no cell cut off, no table scrolling sideways."""
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    finish_a_game(page, "yacht")
    roll_in_match(page, "yacht", ["easy"])
    page.goto("/history")
    rows = page.locator("[data-games] tbody tr, [data-matches] tbody tr")
    expect(rows).to_have_count(2)
    cells = rows.locator("th, td").evaluate_all(
        "cells => cells.map(c => { const r = c.getBoundingClientRect();"
        " return [c.textContent.trim(), r.left, r.right]; })"
    )
    assert len(cells) == 11
    assert [text for text, left, right in cells if left < 0 or right > PHONE_390["width"]] == []
    labels = rows.locator("[data-label]").evaluate_all(
        "cells => cells.map(c => [c.dataset.label, getComputedStyle(c, '::before').content])")
    assert [label for label, _ in labels] == ["Points", "Adversaires", "Points", "Rang"]
    assert all(shown not in ("none", "normal") for _, shown in labels), labels
    verify = page.locator("[data-games]").get_by_role("link", name="Vérifier")
    verify.scroll_into_view_if_needed()
    expect(verify).to_be_in_viewport()
    overflowing = page.locator(".table-scroll").evaluate_all(
        "boxes => boxes.filter(b => b.scrollWidth > b.clientWidth).length")
    assert overflowing == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]


def test_on_a_phone_four_computers_scroll_sideways_beside_your_column(new_context):
    """Five seats do not fit a 390 px phone: each half of the sheet scrolls sideways inside
    itself, your column staying put, and the page never widens."""
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    roll_in_match(page, "yatzy", ["easy", "medium", "hard", "perfect"])
    expect(page.locator(".seat-heads").first.locator("[data-seat-head]")).to_have_count(5)
    assert on_screen(page, "[data-box]", PHONE_390) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
    strip = page.locator(".seat-scroll").first
    assert strip.evaluate("e => e.scrollWidth > e.clientWidth")
    strip.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    last = page.locator('.seat-head[data-seat="4"]').first
    expect(last).to_be_in_viewport()
    assert on_screen(page, "[data-box]", PHONE_390) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
