"""A player at a table's pages in the browser: a live server for tables, the new-table form,
joining by the code, a quick human's turns, the results and "Verify the rolls" per seat."""

import re
import urllib.request

from playwright.sync_api import expect

VERIFY_MS = 60_000  # loading the verifier's modules and checking every seat on a busy machine


def start_table_server(make_live_server):
    """A live server of the caller's own (gevent workers: the event streams wait in them),
    returned once it serves the new-table form. Its workers load their strategy tables
    meanwhile (the session built the files): a bot's turn waits until its worker has them."""
    live = make_live_server(workers=2)
    with urllib.request.urlopen(live.url + "/tables/new", timeout=120) as response:
        assert response.status == 200
    return live


def open_page(browser, server, path: str):
    """A new player (browser context) on ``path``."""
    context = browser.new_context(base_url=server.url, locale="en-GB", timezone_id="UTC")
    context.set_default_timeout(30_000)  # a busy machine
    page = context.new_page()
    page.goto(path)
    return context, page


def create_table(page, ruleset: str, kinds: list[str], clock: int, name: str = "Ann") -> None:
    """The creator's form on /tables/new: ``name``, the sheet, one other seat per entry of
    ``kinds`` ("human", "here" — named "Hand <row>" — or "bot:<level>"), the turn clock in
    seconds (0: none)."""
    expect(page.locator("[data-client-seed]")).not_to_have_value("")  # the script runs
    page.fill("[data-name]", name)
    page.select_option("[data-ruleset]", ruleset)
    for _ in kinds[1:]:
        page.click("[data-add-seat]")
    for row, kind in enumerate(kinds, start=1):
        page.select_option(f"[data-seat-row='{row}'] [data-seat-kind]", kind)
        if kind == "here":
            page.fill(f"[data-seat-row='{row}'] [data-seat-name]", f"Hand {row}")
    page.fill("[data-clock]", str(clock))
    page.click("[data-create]")
    page.wait_for_url(re.compile(r"/tables/[0-9a-f]{32}$"))
    page.wait_for_selector("[data-code]:not(:empty)")


def join(page, name: str) -> None:
    """A friend's page: name, then sit at the table (once the page's script is running)."""
    expect(page.locator("[data-join-seed]")).not_to_have_value("")
    page.fill("[data-join-name]", name)
    with page.expect_response(lambda response: "/join" in response.url) as joined:
        page.click("[data-join]")
    assert joined.value.status == 200, joined.value.text()
    page.wait_for_selector("[data-join-form]", state="hidden")


def play_if_my_turn(page) -> bool:
    """If the page offers its Roll button (its turn): roll once, then fill the first box
    offered on the shared sheet."""
    if page.is_visible("[data-skip]"):
        page.keyboard.press("s")  # the bots' moves at once
    if not page.is_visible("[data-roll]"):
        return False
    try:
        if page.locator("[data-pick]").count() == 0:
            page.click("[data-roll]", timeout=2000)
        page.locator("[data-pick]").first.click(timeout=2000)
    except Exception:  # the clock or a push changed the board under the click: look again
        return False
    return True


def table_id_of(page) -> str:
    """The id of the table the page shows."""
    return re.search(r"/tables/([0-9a-f]{32})", page.url).group(1)


def ranks_text(page) -> list[str]:
    """The results list as the page writes it (rank, name, points), best first."""
    return page.locator("[data-rank-line]").all_inner_texts()


def verify_every_seat(page, seats: int) -> None:
    """Click "Verify the rolls" on the results and expect ✓ for each of the ``seats`` seats."""
    page.click("[data-verify]")
    expect(page.locator("[data-verify-seat]")).to_have_count(seats, timeout=VERIFY_MS)
    assert page.locator("[data-verify-seat][data-ok='true']").count() == seats, \
        page.locator("[data-verify-seat]").all_inner_texts()


def player(browser, server, viewport, path, locale):
    """A player's page (its own browser context) at ``path``."""
    context = browser.new_context(base_url=server.url, viewport=viewport, locale=locale,
                                  timezone_id="UTC")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(path)
    return context, page


def faces(page) -> list[str]:
    """The five dice's faces as the board shows them."""
    return [die.get_attribute("data-face") for die in page.locator("[data-die]").all()]
