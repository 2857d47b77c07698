"""A player at the browser: open a sheet, roll, hold, score, by mouse or by keyboard only."""

import re

from playwright.sync_api import Page, expect

PLAY_ROOT = "[data-play]"
IN_PLAY = ("ready", "playing")
CAN_ROLL = re.compile("^(ready|playing)$")


def open_game(page: Page, ruleset: str, date: str | None = None) -> None:
    """Open today's game on ``ruleset`` (or ``date``'s) and wait until the page can roll:
    ``ready`` (no game yet, the first roll starts it) or ``playing`` (a game resumed)."""
    page.goto(f"/play/{ruleset}" + (f"?date={date}" if date else ""))
    expect(page.locator(PLAY_ROOT)).to_have_attribute("data-status", CAN_ROLL)


def next_action(page: Page) -> int:
    """The action number the page believes comes next."""
    return int(page.locator(PLAY_ROOT).get_attribute("data-next-action"))


def wait_for_action(page: Page, number: int) -> None:
    """Wait until the page holds the state after action ``number - 1`` and is idle."""
    root = page.locator(PLAY_ROOT)
    expect(root).to_have_attribute("data-next-action", str(number))
    expect(root).to_have_attribute("data-busy", "false")


def api_game(page: Page) -> dict:
    """The page's game as the API tells its player (same cookie as the page)."""
    game_id = page.locator(PLAY_ROOT).get_attribute("data-game")
    response = page.request.get(f"/api/v1/games/{game_id}")
    assert response.ok, response.text()
    return response.json()["game"]


def finish_a_game(page: Page, ruleset: str, date: str | None = None) -> dict:
    """A whole game whose last turn the page plays by clicking, the others through the API;
    returns the API's final state once the page shows the end."""
    play_through_api(page, ruleset, date=date)
    open_game(page, ruleset, date)
    return play_whole_game(page)


def play_through_api(page: Page, ruleset: str, turns_left: int = 1,
                     date: str | None = None, turns: int | None = None) -> dict:
    """Start (or resume) the page's player's game on ``ruleset`` through the API (the page's
    cookie: the same player) and play it there, up to three rolls and the best preview each
    turn, until ``turns_left`` turns remain for the page to play (or, given ``turns``, until that
    many boxes are filled); returns the game as the API left it. A page opened after it resumes
    the game at that turn."""
    if date is None:  # the page's own date: the player's calendar date, as play.js takes it
        date = page.evaluate("(d => [d.getFullYear(), d.getMonth() + 1, d.getDate()]"
                             ".map(n => String(n).padStart(2, '0')).join('-'))(new Date())")
    response = page.request.post("/api/v1/games", data={"ruleset": ruleset, "date": date})
    assert response.ok, response.text()
    game = response.json()["game"]
    def more() -> bool:
        if turns is not None:
            return len(game["boxes"]) < turns
        return game["turns"] - len(game["boxes"]) > turns_left

    while more():
        while game["rolls_in_turn"] < 2:
            hold = None if game["dice"] is None else [True, True, False, False, False]
            game = api_action(page, game, "roll", {"hold": hold})
        best = max(game["allowed"], key=lambda box: game["previews"][box])
        game = api_action(page, game, "score", {"category": best})
    return game


def api_action(page: Page, game: dict, action: str, body: dict) -> dict:
    """Post ``action`` on ``game`` as its next action; the game after it."""
    response = page.request.post(f"/api/v1/games/{game['id']}/{action}",
                                 data={**body, "roll": game["next_action"]})
    assert response.ok, response.text()
    return response.json()["game"]


def best_box(page: Page):
    """The enabled box whose grey preview is highest (first in sheet order on a tie)."""
    boxes = page.locator("[data-box]:not([disabled])")
    previews = [int(text or 0) for text in boxes.locator("[data-score]").all_inner_texts()]
    assert previews, "no box can be scored"
    return boxes.nth(previews.index(max(previews)))


def play_turn_by_clicking(page: Page) -> None:
    """Roll, keep the first two dice, roll again, score the best box."""
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    page.locator('[data-die="0"]').click()
    page.locator('[data-die="1"]').click()
    expect(page.locator('[data-die="1"]')).to_have_attribute("aria-pressed", "true")
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 2)
    best_box(page).click()
    wait_for_action(page, start + 3)


def play_into_a_turn(page: Page, ruleset: str, turns: int, held: tuple[int, ...]) -> None:
    """``turns`` whole turns of the game on ``ruleset`` through the API, then on the page one
    roll and the dice ``held`` kept: a board in the middle of a turn (what the screenshots
    show)."""
    play_through_api(page, ruleset, turns=turns)
    open_game(page, ruleset)
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    for position in held:
        page.locator(f'[data-die="{position}"]').click()


def play_turn_by_keyboard(page: Page) -> None:
    """Space to roll, 1 and 2 to keep dice, Space again, then Tab to the sheet and Enter."""
    start = next_action(page)
    page.keyboard.press("Space")
    wait_for_action(page, start + 1)
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(page.locator('[data-die="1"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    wait_for_action(page, start + 2)
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.box !== undefined"):
            break
    else:
        raise AssertionError("Tab never reached a box of the score sheet")
    page.keyboard.press("Enter")
    wait_for_action(page, start + 3)


def play_whole_game(page: Page, by_keyboard: bool = False) -> dict:
    """Play turns until the game ends; returns the API's final state."""
    turn = play_turn_by_keyboard if by_keyboard else play_turn_by_clicking
    root = page.locator(PLAY_ROOT)
    while root.get_attribute("data-status") in IN_PLAY:
        turn(page)
    expect(page.locator("[data-endgame]")).to_be_visible()
    return api_game(page)
