"""Friend groups in Chromium: three players in three browser contexts make and join a group
(by its invite link, by its typed code), play the day, and each sees the group's board fill in
only once they have finished their own game; the pages at 390×844 in French and 1366×768 in
English, every control a finger tall."""

import random
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.app.playkit import next_move

from .conftest import server_time, watch_errors
from .test_phone_menu import DESKTOP_1366, PHONE_390, small_targets

SHOTS = Path("/tmp/shots-G")
SHEET = "yacht"


def shot(page: Page, name: str) -> None:
    """A full-page screenshot to look at."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def play_the_day(page: Page, date: str, seed: str) -> int:
    """Play this player's game of (date, SHEET) to its end through the API (the page's cookie);
    returns its total."""
    api = page.context.request
    answer = api.post("/api/v1/games", data={"ruleset": SHEET, "date": date})
    assert answer.ok, answer.text()
    state, rng = answer.json()["game"], random.Random(seed)
    while state["status"] == "playing":
        action, body = next_move(state, rng)
        answer = api.post(f"/api/v1/games/{state['id']}/{action}", data=body)
        assert answer.ok, answer.text()
        state = answer.json()["game"]
    return state["totals"]["total"]


def member_row(page: Page, name: str):
    """A member's row on the board of SHEET."""
    return page.locator(f'[data-group-sheet="{SHEET}"] tr[data-member="{name}"]')


def test_three_friends_see_the_board_fill_in_as_each_finishes(new_context, web_server):
    date = server_time(web_server).date().isoformat()
    ann = new_context(locale="fr-FR", viewport=PHONE_390).new_page()
    bob = new_context(viewport=DESKTOP_1366).new_page()
    cleo = new_context(viewport=DESKTOP_1366).new_page()
    errors = [watch_errors(page) for page in (ann, bob, cleo)]

    ann.goto("/groups?lang=fr")
    expect(ann.locator("main h1")).to_have_text("Groupes d’amis")
    assert small_targets(ann) == []
    ann.get_by_label("Le nom du groupe").fill("Les dés du soir")
    ann.locator("[data-create-form]").get_by_label("Votre nom dans le groupe").fill("Ann")
    ann.get_by_role("button", name="Créer le groupe").click()
    expect(ann.locator("[data-group-name]")).to_have_text("Les dés du soir")
    code = ann.locator("[data-invite-code]").text_content().strip()
    invite = ann.locator("[data-invite-link]").get_attribute("href")
    assert code.replace("-", "") in invite.replace("-", "")

    bob.goto(invite + "&lang=en")
    expect(bob.get_by_label("The group’s code")).to_have_value(code)
    bob.locator("[data-join-form]").get_by_label("Your name in the group").fill("Bob")
    bob.get_by_role("button", name="Join").click()
    expect(bob.locator("[data-group-name]")).to_have_text("Les dés du soir")

    cleo.goto("/groups?lang=en")
    cleo.get_by_label("The group’s code").fill(code.lower().replace("-", " "))
    cleo.locator("[data-join-form]").get_by_label("Your name in the group").fill("Cleo")
    cleo.get_by_role("button", name="Join").click()
    expect(cleo.locator("[data-group-name]")).to_have_text("Les dés du soir")
    for name in ("Ann", "Bob", "Cleo"):
        expect(member_row(cleo, name)).to_have_attribute("data-status", "not-played")
    shot(cleo, "board-empty-en-1366")

    ann_total = play_the_day(ann, date, "ann")
    ann.reload()
    expect(member_row(ann, "Ann").locator("[data-total]")).to_have_text(str(ann_total))
    bob.reload()
    expect(member_row(bob, "Ann")).to_contain_text("played ✓ — finish yours to see")
    expect(member_row(bob, "Ann").locator("[data-total]")).to_have_count(0)
    shot(bob, "board-hidden-en-1366")

    bob_total = play_the_day(bob, date, "bob")
    bob.reload()
    expect(member_row(bob, "Ann").locator("[data-total]")).to_have_text(str(ann_total))
    expect(member_row(bob, "Bob").locator("[data-total]")).to_have_text(str(bob_total))
    expect(bob.locator('[data-group-table="week"] tr[data-member="Ann"] [data-games]')
           ).to_have_text("1")
    cleo.reload()
    for name in ("Ann", "Bob"):
        expect(member_row(cleo, name)).to_contain_text("played ✓ — finish yours to see")
    expect(member_row(cleo, "Cleo")).to_have_attribute("data-status", "not-played")
    expect(cleo.locator('[data-group-table="week"] tr[data-member="Ann"] [data-games]')
           ).to_have_text("0")

    cleo_total = play_the_day(cleo, date, "cleo")
    cleo.reload()
    for name, total in (("Ann", ann_total), ("Bob", bob_total), ("Cleo", cleo_total)):
        expect(member_row(cleo, name).locator("[data-total]")).to_have_text(str(total))
    shot(cleo, "board-full-en-1366")

    ann.reload()
    expect(member_row(ann, "Cleo").locator("[data-total]")).to_have_text(str(cleo_total))
    expect(ann.locator("main")).to_contain_text("Les 30 derniers jours")
    assert small_targets(ann) == []
    shot(ann, "board-full-fr-390")
    assert errors == [[], [], []]


def test_copy_rename_leave_and_a_bad_code_on_the_pages(new_context):
    page = new_context(locale="fr-FR", viewport=PHONE_390,
                       permissions=["clipboard-read", "clipboard-write"]).new_page()
    errors = watch_errors(page)
    page.goto("/groups?lang=fr")
    page.get_by_label("Le code du groupe").fill("ABCDE")
    page.get_by_role("button", name="Rejoindre").click()
    expect(page.locator("[data-join-form] [data-form-status]")).to_have_text(
        "Le code d’un groupe compte 10 lettres et chiffres, comme ABCDE-23456.")
    page.get_by_label("Le nom du groupe").fill("Avant")
    page.get_by_role("button", name="Créer le groupe").click()
    expect(page.locator("[data-group-name]")).to_have_text("Avant")
    page.get_by_role("button", name="Copier le code").click()
    expect(page.locator("[data-copy-status]")).to_have_text("Copié\u00a0: envoyez-le à vos amis.")
    code = page.locator("[data-invite-code]").text_content().strip()
    assert page.evaluate("navigator.clipboard.readText()") == code
    page.locator("[data-rename-form]").get_by_label("Le nom du groupe").fill("Après")
    page.get_by_role("button", name="Renommer").click()
    expect(page.locator("[data-group-name]")).to_have_text("Après")
    page.get_by_role("button", name="Quitter le groupe").click()
    expect(page).to_have_url(f"{page.url.split('/groups')[0]}/groups")
    expect(page.locator("[data-my-groups]")).to_contain_text("aucun groupe")
    shot(page, "index-fr-390")
    assert errors == []
