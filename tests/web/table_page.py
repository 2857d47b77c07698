"""A player at a table's pages in the browser: a live server for tables, the new-table form,
joining by the code, a quick human's turns, the results and "Verify the rolls" per seat."""

import re
import time
import urllib.request

from playwright.sync_api import expect

VERIFY_MS = 60_000  # loading the verifier's modules and checking every seat on a busy machine
API_PLAY_SECONDS = 240  # a table's turns on a busy machine, the bots' included


def start_table_server(make_live_server):
    """A live server of the caller's own (gevent workers: the event streams wait in them),
    returned once it serves the new-table form. Its master reads the daily sheets' strategy
    tables before the fork, its workers the other sheets' on first use (the session built the
    files): a bot's turn waits until its worker has them."""
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


def play_through_api(pages: list, table_id: str, turns_left: int) -> None:
    """Play the seat of each of ``pages`` through the API (each page's cookie: its player), one
    roll and the first box allowed a turn, until ``turns_left`` turns remain to each; the pages
    follow by their events. The other seats' turns are the server's (bots, the clock)."""
    deadline = time.monotonic() + API_PLAY_SECONDS
    waiting = list(pages)
    while waiting:
        assert time.monotonic() < deadline, "the seats' turns did not come"
        acted = False
        for page in list(waiting):
            match = api_table(page, table_id)["match"]
            if match is None:  # the table is starting
                continue
            own = match["seats"][match["you"]]
            if match["status"] != "playing" or match["rounds"] - len(own["boxes"]) <= turns_left:
                waiting.remove(page)
            elif match["turn"] == match["you"]:
                if match["play"] is None:
                    match = table_action(page, table_id, "roll", {"hold": None}, match)
                table_action(page, table_id, "score", {"category": match["play"]["allowed"][0]},
                             match)
                acted = True
        if not acted:
            time.sleep(0.05)


def table_action(page, table_id: str, action: str, body: dict, match: dict) -> dict:
    """Post ``action`` as the match's next action; the match after it."""
    response = page.request.post(f"/api/v1/tables/{table_id}/{action}",
                                 data={**body, "roll": match["next_action"]})
    assert response.ok, response.text()
    return response.json()["table"]["match"]


def api_table(page, table_id: str) -> dict:
    """The table as the API tells the page's player (same cookie as the page)."""
    response = page.request.get(f"/api/v1/tables/{table_id}")
    assert response.ok, response.text()
    return response.json()["table"]


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


def player(browser, server, viewport, path, locale, *, clock=False):
    """A player's page (its own browser context) at ``path``; with ``clock``, the page's timers
    run on Playwright's clock (flowing as real time until a test pauses it)."""
    context = browser.new_context(base_url=server.url, viewport=viewport, locale=locale,
                                  timezone_id="UTC")
    context.set_default_timeout(30_000)
    if clock:
        context.clock.install()
    page = context.new_page()
    page.goto(path)
    return context, page


def faces(page) -> list[str]:
    """The five dice's faces as the board shows them."""
    return [die.get_attribute("data-face") for die in page.locator("[data-die]").all()]
