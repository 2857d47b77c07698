"""The menu on a phone (390×844, French): folded behind one button in the header, it reaches
each of the ten destinations in one tap, by keyboard too and without script, the browser
reporting the button expanded or collapsed; on a desktop (1366×768, English) every destination
shows in the header. Every control of the main pages is at least 44 px tall on a phone."""

import re

import pytest
from playwright.sync_api import Page, expect

from .player import next_action, open_game, wait_for_action
from .test_practice import start_from_practice_page

PHONE_390 = {"width": 390, "height": 844}
DESKTOP_1366 = {"width": 1366, "height": 768}
DESTINATIONS = 10
FINGER = 44  # CSS px: the smallest target a finger taps reliably
MENU = "#site-nav"


def menu_button(page: Page):
    """The header's menu button (named "Menu principal" in French)."""
    return page.get_by_role("button", name="Menu principal")


def reported_expanded(page: Page) -> bool | None:
    """Whether the browser's accessibility tree reports the menu button expanded: what a screen
    reader announces, computed by Chromium itself rather than read from an attribute."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    for node in nodes:
        if node.get("role", {}).get("value") == "button" and \
                node.get("name", {}).get("value") == "Menu principal":
            states = node.get("properties", [])
            return {item["name"]: item["value"].get("value") for item in states}.get("expanded")
    raise AssertionError("no menu button in the accessibility tree")


def current_item(page: Page) -> str:
    """The label of the menu item the page marks as the current one."""
    return page.locator(f'{MENU} a[aria-current="page"]').text_content().strip()


def test_on_a_phone_each_menu_destination_is_one_tap_away(new_context):
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    page.goto("/?lang=fr")
    links = page.locator(f"{MENU} a")
    expect(links).to_have_count(DESTINATIONS)
    labels = [label.strip() for label in links.all_text_contents()]
    for label in labels:
        expect(links.first).to_be_hidden()  # folded: the header keeps one row
        header = page.locator(".site-header").bounding_box()
        assert header["height"] < 60, "the folded header takes more than one row"
        expect(page.locator(".lang-switch a").first).to_be_visible()
        assert reported_expanded(page) is False
        menu_button(page).click()
        assert reported_expanded(page) is True
        link = page.locator(MENU).get_by_role("link", name=label, exact=True)
        expect(link).to_be_in_viewport()
        assert link.bounding_box()["height"] >= FINGER
        link.click()
        expect(page.locator(f'{MENU} a[aria-current="page"]')).to_have_text(label)
        expect(page.locator("main h1").first).to_be_visible()


def test_on_a_phone_the_menu_opens_and_closes_by_keyboard(new_context):
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    page.goto("/practice?lang=fr")
    page.locator(".brand").focus()
    page.keyboard.press("Tab")
    expect(menu_button(page)).to_be_focused()
    page.keyboard.press("Enter")
    assert reported_expanded(page) is True
    page.keyboard.press("Tab")  # into the open menu, its first item next
    expect(page.locator(f"{MENU} a").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(f"{MENU} a").first).to_be_hidden()
    expect(menu_button(page)).to_be_focused()
    assert reported_expanded(page) is False
    menu_button(page).press("Space")
    page.locator(MENU).get_by_role("link", name="Règles").press("Enter")
    expect(page).to_have_url(re.compile(r"/rules\b"))


def test_on_a_phone_the_menu_works_without_script(browser, web_server):
    context = browser.new_context(base_url=web_server.url, locale="fr-FR", timezone_id="UTC",
                                  viewport=PHONE_390, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/?lang=fr")
        expect(page.locator(f"{MENU} a").first).to_be_hidden()
        menu_button(page).click()
        page.locator(MENU).get_by_role("link", name="Mon historique").click()
        expect(page).to_have_url(re.compile(r"/history$"))
        assert current_item(page) == "Mon historique"
    finally:
        context.close()


def test_on_a_desktop_the_menu_shows_every_destination(new_context):
    page = new_context(viewport=DESKTOP_1366).new_page()
    page.goto("/?lang=en")
    expect(page.locator(".menu-toggle")).to_be_hidden()
    header = page.locator(".site-header").bounding_box()
    links = page.locator(f"{MENU} a")
    expect(links).to_have_count(DESTINATIONS)
    for index in range(DESTINATIONS):
        expect(links.nth(index)).to_be_visible()
        box = links.nth(index).bounding_box()
        assert header["y"] <= box["y"] <= box["y"] + box["height"] <= header["y"] + header["height"]
    assert header["height"] < 80, "the desktop menu takes more than one row"
    assert current_item(page) == "Today"


def small_targets(page: Page) -> list[list]:
    """Every visible link, button and field of the page, open menu included, whose tappable
    area (the element, or the label wrapping it) is less than a finger tall."""
    return page.evaluate(
        """finger => [...document.querySelectorAll('a, button, input, select, textarea, summary')]
        .filter(element => element.checkVisibility({ visibilityProperty: true }))
        .map(element => {
            const own = element.getBoundingClientRect();
            const label = element.closest('label');
            const area = label ? label.getBoundingClientRect() : own;
            const text = (element.textContent || element.name || '').trim().slice(0, 30);
            return [element.tagName, text, Math.round(Math.max(own.height, area.height)),
                    own.bottom];
        })
        .filter(([, , height, bottom]) => bottom > 0 && height < finger)""",
        FINGER,
    )


def start_a_daily_game_and_a_match(page: Page) -> None:
    """A daily game in progress and a game against the computer: the record lists both."""
    open_game(page, "yacht")
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    start_from_practice_page(page, "yacht", levels=["easy"])


@pytest.mark.parametrize("path", ["/", "/practice", "/history", "/tables/new", "/groups"])
def test_on_a_phone_every_control_is_a_finger_tall(new_context, path):
    page = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    page.goto("/?lang=fr")
    if path == "/history":
        start_a_daily_game_and_a_match(page)
    page.goto(path)
    if path == "/practice":
        page.locator("[data-add-opponent]").click()  # a level menu and a Remove button
    if path == "/tables/new":
        page.locator("[data-seat-kind]").first.select_option("here")  # the seat's name field
    page.wait_for_load_state("networkidle")
    assert small_targets(page) == []
    menu_button(page).click()
    assert small_targets(page) == []
