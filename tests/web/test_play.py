"""Playing in a real Chromium: whole games by mouse and by keyboard, double clicks, reloads,
copying the result, and screenshots of the play page."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, SCREENSHOTS, watch_errors
from .player import (
    api_game,
    finish_a_game,
    next_action,
    open_game,
    play_into_a_turn,
    play_through_api,
    play_turn_by_clicking,
    play_whole_game,
    wait_for_action,
)


@pytest.mark.parametrize(("ruleset", "clicked_turns"),
                         [("yacht", 3), ("yacht-bonus", 3), ("yahtzee", 13)])
def test_a_game_by_clicking_ends_on_the_api_total(page, ruleset, clicked_turns):
    """Yahtzee played whole by clicking; the other sheets' first turns through the API, the
    page resuming the game and clicking its last turns."""
    play_through_api(page, ruleset, turns_left=clicked_turns)
    open_game(page, ruleset)
    final = play_whole_game(page)
    assert final["status"] == "finished"
    total = final["totals"]["total"]
    expect(page.locator("[data-end-total]")).to_have_text(str(total))
    for element in page.locator('.sheet [data-total="total"]').all():
        expect(element).to_have_text(str(total))
    expect(page.locator('[data-end="upper"]')).to_have_text(str(final["totals"]["upper"]))
    for box, points in final["boxes"].items():
        expect(page.locator(f'[data-box="{box}"] [data-score]')).to_have_text(str(points))


def test_a_game_by_keyboard_only(page):
    """The last four turns by keyboard alone (the first through the API)."""
    play_through_api(page, "yahtzee", turns_left=4)
    open_game(page, "yahtzee")
    final = play_whole_game(page, by_keyboard=True)
    assert final["status"] == "finished"
    expect(page.locator("[data-end-total]")).to_have_text(str(final["totals"]["total"]))
    expect(page.locator("#end-title")).to_be_focused()


def test_a_double_click_on_roll_costs_one_roll(page):
    open_game(page, "yacht")
    start = next_action(page)
    page.locator("[data-roll]").dblclick()
    wait_for_action(page, start + 1)
    page.wait_for_timeout(300)
    state = api_game(page)
    assert state["next_action"] == start + 1
    assert state["rolls_in_turn"] == 1
    assert state["rolls_left"] == 2


def test_reloading_mid_turn_resumes_dice_holds_and_sheet(page):
    open_game(page, "yacht-bonus")
    play_turn_by_clicking(page)
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    page.locator('[data-die="2"]').click()
    page.locator('[data-die="4"]').click()
    before = page.locator("[data-die]").evaluate_all(
        "dice => dice.map(d => [d.dataset.face, d.getAttribute('aria-pressed')])")
    sheet_before = page.locator("[data-box] [data-score]").all_inner_texts()

    page.reload()
    wait_for_action(page, start + 1)
    after = page.locator("[data-die]").evaluate_all(
        "dice => dice.map(d => [d.dataset.face, d.getAttribute('aria-pressed')])")
    assert after == before
    assert page.locator("[data-box] [data-score]").all_inner_texts() == sheet_before
    assert api_game(page)["rolls_left"] == 2
    expect(page.locator("[data-roll]")).to_have_attribute("aria-disabled", "false")


def test_a_retried_roll_after_a_lost_answer_costs_nothing(page):
    open_game(page, "yacht")
    start = next_action(page)
    dropped = []

    def lose_first_answer(route):
        """Let the first roll reach the server but drop its answer, as a flaky network would."""
        response = route.fetch()
        if not dropped:
            dropped.append(response.status)
            route.abort("connectionreset")
        else:
            route.fulfill(response=response)

    page.route("**/api/v1/games/*/roll*", lose_first_answer)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    assert dropped == [200]
    assert api_game(page)["rolls_in_turn"] == 1


def test_copy_result_puts_the_share_text_on_the_clipboard(new_context):
    page = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    errors = watch_errors(page)
    final = finish_a_game(page, "yacht")
    share = page.request.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=en").text()
    page.locator("[data-copy]").click()
    expect(page.locator("[data-copy-status]")).to_contain_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share
    assert share.startswith(f"Yacht Daily {final['date']} · Yacht (traditional): "
                            f"{final['totals']['total']} points, ")
    assert re.fullmatch("[🟩🟡🔶❌]{12}", share.splitlines()[1])
    expect(page.locator("[data-fallback]")).to_be_hidden()
    saved = page.evaluate("JSON.parse(localStorage.getItem('yacht-daily:games'))")
    assert saved[final["id"]]["receipt"] == final["receipt"]
    assert saved[final["id"]]["transcript"] == final["transcript"]
    assert errors == []


def test_copy_result_falls_back_to_a_selected_text_box_when_refused(new_context):
    context = new_context()
    context.add_init_script(
        "navigator.clipboard.writeText = () => "
        "Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));"
    )
    page = context.new_page()
    final = finish_a_game(page, "yacht")
    page.locator("[data-copy]").click()
    box = page.locator("[data-share-text]")
    expect(box).to_be_visible()
    expect(box).to_be_focused()
    share = page.request.get(f"/api/v1/games/{final['id']}/share?style=squares&lang=en").text()
    assert box.input_value() == share
    selected = page.evaluate(
        "(() => { const t = document.querySelector('[data-share-text]');"
        " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == share
    expect(page.locator("[data-copy-status]")).to_contain_text("did not allow copying")


@pytest.mark.parametrize("name, viewport", [("desktop", DESKTOP), ("phone", PHONE)])
def test_screenshots_of_the_play_page(new_context, name, viewport):
    page = new_context(locale="fr-FR", viewport=viewport).new_page()
    play_into_a_turn(page, "yahtzee", turns=3, held=(0, 3))
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(500)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"play-{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], "the page scrolls sideways"


def test_boxes_the_joker_rule_forbids_are_disabled_and_the_status_line_says_why(page):
    open_game(page, "yahtzee")
    reason = "Joker rule: five 6s must go in the Sixes box while it is free."

    def five_sixes(route):
        """Answer the roll as the API does for a further Yahtzee under the Joker rule."""
        game = route.fetch().json()["game"]
        game.update(dice=[6] * 5, allowed=["sixes"], previews={"sixes": 30},
                    restriction={"code": "joker-upper", "message": reason})
        route.fulfill(json={"game": game})

    page.route("**/api/v1/games/*/roll*", five_sixes)
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    expect(page.locator("[data-status-line]")).to_have_text(reason)
    expect(page.locator("[data-status-line]")).to_have_class("status-line restriction")
    expect(page.locator("[data-box]:not([disabled])")).to_have_count(1)
    sixes = page.locator('[data-box="sixes"]')
    expect(sixes).to_be_enabled()
    expect(sixes).to_have_attribute("aria-label", "Sixes: 30 points if you score it now")
    chance = page.locator('[data-box="chance"]')
    expect(chance).to_be_disabled()
    expect(chance).to_have_class("box free forbidden")
    expect(chance).to_have_attribute("aria-label", "Chance: not allowed now (Joker rule)")


def test_dice_and_boxes_are_labelled_for_screen_readers_in_french(new_context):
    # French typography: a no-break space (U+00A0) before the colon.
    page = new_context(locale="fr-FR").new_page()
    open_game(page, "yacht")
    die = page.locator('[data-die="0"]')
    expect(die).to_have_attribute("aria-label", "Dé 1\u202f: pas encore lancé")
    expect(page.locator("[data-status-line]")).to_have_text("Tour 1 sur 12\u202f: lancez les dés.")
    start = next_action(page)
    page.locator("[data-roll]").click()
    wait_for_action(page, start + 1)
    die.click()
    face = die.get_attribute("data-face")
    expect(die).to_have_attribute("aria-label", f"Dé 1\u202f: {face}, gardé")
    expect(die).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#rolls-left-text")).to_have_text("Encore 2 lancers")
    preview = page.locator('[data-box="choice"] [data-score]').inner_text()
    expect(page.locator('[data-box="choice"]')).to_have_attribute(
        "aria-label", f"Choix\u202f: {preview} points si vous l’inscrivez maintenant")
