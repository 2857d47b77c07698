"""A duplicate table in a real Chromium: Ann on a 390×844 phone in French creates it (every seat
the same dice each turn) with Bob, on a 1366×768 desktop in English, and a bot. While Ann plays
her turn of a round, Bob's page shows no die of it (the board says Ann is playing and why no
dice show) and her box stays empty in his sheet; Bob then rolls Ann's first roll; once Bob has
played the round it shows whole on both pages. Two rounds are played through the pages, the
rest through the API; at the end every seat's first roll of each turn is the same and every
seat verifies."""

import re

from playwright.sync_api import expect

from .conftest import SCREENSHOTS
from .table_page import (
    create_table,
    faces,
    join,
    player,
    table_id_of,
    verify_every_seat,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
CLOCK_SECONDS = 90  # the clock never plays for the test's players
# Every face a die of the page shows, recorded as it is drawn (a MutationObserver), so that a
# face shown for a moment between two checks is caught too.
RECORD_FACES = """() => {
  window.facesSeen = [];
  new MutationObserver((records) => {
    for (const record of records) window.facesSeen.push(record.target.dataset.face);
  }).observe(document.querySelector("[data-board]"),
    { subtree: true, attributes: true, attributeFilter: ["data-face"] });
}"""


def cell(page, box: str, seat: int):
    """A seat's points in a box on the shared sheet."""
    return page.locator(f"[data-seat='{seat}'][data-seat-box='{box}'] [data-points]")


def shoot(page, name: str) -> None:
    """A screenshot to look at (not compared)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"duplicate-table-{name}.png"))


def play_hidden_turn(actor, watcher, seat: int, name_pattern: str, shot: str = "") -> tuple:
    """``actor`` (seat ``seat``) rolls, holds the first die, rolls again and fills the first box
    offered, its dice showing on its own page at once; ``watcher`` shows no die meanwhile, its
    caption naming the seat playing (``name_pattern``), and the box stays empty in its sheet.
    The actor's first roll's faces, the box and its points."""
    expect(actor.locator("[data-roll]")).to_be_visible()
    watcher.evaluate(RECORD_FACES)
    actor.click("[data-roll]")
    expect(actor.locator("[data-pick]").first).to_be_visible()
    expect(actor.locator("[data-die]").first).not_to_have_attribute("data-face", "0")
    first = faces(actor)
    expect(watcher.locator("[data-board-seat]")).to_have_text(re.compile(name_pattern))
    actor.click("[data-die] >> nth=0")
    actor.click("[data-roll]")
    expect(actor.locator("[data-roll]")).to_have_attribute("aria-disabled", "false")
    if shot:
        shoot(watcher, shot)
    pick = actor.locator("[data-pick]").first
    box, points = pick.get_attribute("data-pick"), pick.inner_text()
    pick.click()
    expect(cell(actor, box, seat)).to_have_text(points)
    assert faces(watcher) == ["0"] * 5
    assert set(watcher.evaluate("window.facesSeen")) <= {"0"}
    expect(cell(watcher, box, seat)).to_have_text("")
    return first, box, points


def api_play_to_the_end(pages) -> None:
    """Play every human turn through the API (roll once, the first box allowed) until the
    table ends: the pages only follow."""
    table_id = table_id_of(pages[0])
    held = {index: page.request.get(f"/api/v1/tables/{table_id}").json()["table"]["you"]
            for index, page in enumerate(pages)}
    for _ in range(200):
        match = pages[0].request.get(f"/api/v1/tables/{table_id}").json()["table"]["match"]
        if match["status"] != "playing":
            return
        actor = next(pages[index] for index, seats in held.items() if match["turn"] in seats)
        answer = actor.request.post(f"/api/v1/tables/{table_id}/roll",
                                    data={"hold": None, "roll": match["next_action"]}).json()
        played = answer["table"]["match"]
        actor.request.post(f"/api/v1/tables/{table_id}/score", data={
            "category": played["play"]["allowed"][0], "roll": played["next_action"]})
    raise AssertionError("the table did not end")


def first_rolls(transcript: list[dict]) -> list[list[int]]:
    """A seat's first roll of each turn."""
    rolls, fresh = [], True
    for entry in transcript:
        if entry["action"] == "roll" and fresh:
            rolls.append(entry["dice"])
        fresh = entry["action"] == "score"
    return rolls


def test_a_duplicate_table_shows_a_round_once_every_seat_has_played_it(browser, table_server):
    ann_context, ann = player(browser, table_server, PHONE, "/tables/new?lang=fr", "fr-FR")
    ann.check("[data-duplicate]")
    create_table(ann, "yacht", ["human", "bot:easy"], CLOCK_SECONDS)
    code = ann.inner_text("[data-code]")
    bob_context, bob = player(browser, table_server, DESKTOP, f"/t/{code}", "en-GB")
    join(bob, "Bob")
    ann.click("[data-start]")
    expect(ann.locator("[data-duplicate]")).to_have_text(
        "Duplicate\u202f: mêmes dés pour tout le monde")
    expect(bob.locator("[data-duplicate]")).to_have_text("Duplicate: same dice for everyone")

    table_reads = []  # Ann's reads of the whole table: none, her own turn shows from answers
    ann.on("request", lambda request: table_reads.append(request.url) if request.method == "GET"
           and re.search(r"/api/v1/tables/[0-9a-f]{32}$", request.url) else None)
    for round_ in (1, 2):
        ann_first, ann_box, ann_points = play_hidden_turn(
            ann, bob, 0, r"^Dice of Ann: shown once everyone has played this round",
            "desktop-en-ann-hidden" if round_ == 1 else "")
        expect(bob.locator("[data-roll]")).to_be_visible()
        bob.click("[data-roll]")
        expect(bob.locator("[data-pick]").first).to_be_visible()
        assert faces(bob) == ann_first  # the same dice, shown to Bob only now
        if round_ == 1:
            shoot(bob, "desktop-en-bob-turn")
        else:  # Bob's page loaded again mid-turn shows his dice; a spectator sees none
            bob.reload()
            expect(bob.locator("[data-pick]").first).to_be_visible()
            assert faces(bob) == ann_first
            spectator_context, spectator = player(
                browser, table_server, DESKTOP, f"/tables/{table_id_of(ann)}/watch", "en-GB")
            expect(spectator.locator("[data-board-seat]")).to_have_text(
                re.compile(r"^Dice of Bob: shown once"))
            assert faces(spectator) == ["0"] * 5
            expect(cell(spectator, ann_box, 0)).to_have_text("")
            shoot(spectator, "desktop-en-spectator")
        expect(ann.locator("[data-board-seat]")).to_have_text(
            re.compile(r"^Dés de Bob\u202f: visibles"))
        expect(cell(bob, ann_box, 0)).to_have_text("")
        if round_ == 1:
            shoot(ann, "phone-fr-bob-hidden")
        pick = bob.locator("[data-pick]").first
        bob_box, bob_points = pick.get_attribute("data-pick"), pick.inner_text()
        pick.click()
        # The round is complete: each page shows the other's box (and the bot's turn, skipped).
        expect(bob.locator(f"[data-seat='0'][data-seat-box='{ann_box}'] [data-points]"))\
            .to_have_text(ann_points)
        expect(cell(ann, bob_box, 1)).to_have_text(bob_points)
        for page in (ann, bob):
            if page.is_visible("[data-skip]"):
                page.keyboard.press("s")
        expect(ann.locator("[data-roll]")).to_be_visible()
        expect(bob.locator("[data-seat='2'][data-seat-box].filled")).to_have_count(round_)
        if round_ == 2:
            expect(cell(spectator, bob_box, 1)).to_have_text(bob_points)
            expect(cell(spectator, ann_box, 0)).to_have_text(ann_points)
            spectator_context.close()
        if round_ == 1:
            shoot(bob, "desktop-en-round-shown")
            shoot(ann, "phone-fr-round-shown")

    assert table_reads == []
    api_play_to_the_end([ann, bob])
    for page in (ann, bob):
        page.keyboard.press("s")
        expect(page.locator("[data-end]")).to_be_visible(timeout=30_000)
    table = bob.request.get(f"/api/v1/tables/{table_id_of(bob)}").json()["table"]
    seats = bob.request.get(f"/api/v1/matches/{table['match']['id']}").json()["match"]["seats"]
    rolls = [first_rolls(seat["transcript"]) for seat in seats]
    assert len(rolls[0]) == 12 and rolls[0] == rolls[1] == rolls[2]
    shoot(ann, "phone-fr-end")
    verify_every_seat(bob, 3)
    for context in (ann_context, bob_context):
        context.close()
