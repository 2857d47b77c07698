"""The coach in a real Chromium: finish a daily game, read the headline figure on the end card
and the review turn by turn on a phone; after a test-clock reveal, the results page shows the
day's perfect game, the foresight maximum and the skill board."""

import re
import time

from playwright.sync_api import expect

from app.boards.figures import loss_text

from .coach_wait import TablesLoading
from .conftest import SCREENSHOTS, watch_errors
from .player import finish_a_game

OWN_SERVER = True  # it moves its server's clock

PHONE_390 = {"width": 390, "height": 844}
REVEALED_AT = "2026-03-11T13:05:00Z"  # PLAY_DATE's reveal time (grace 3600 s) has passed
REFERENCES_TIMEOUT = 180


def test_finish_see_the_figure_and_the_review_then_the_days_references(new_context,
                                                                     web_server):
    """A whole yacht game on a phone: the end card's figure links to a review of its 12 turns
    that fits 390 px; after the reveal the results page says what the dice allowed, what
    perfect play made and what the player gave away, beside the skill board."""
    context = new_context(viewport=PHONE_390)
    page = context.new_page()
    errors = watch_errors(page)
    game = finish_a_game(page, "yacht")
    headline = page.locator("[data-skill]")
    expect(headline).to_have_text(re.compile(r"^You gave away \d+\.\d points of expectation"))
    loss = re.search(r"\d+\.\d", headline.inner_text()).group()

    page.locator("[data-review-link]").click()
    expect(page).to_have_url(re.compile(rf"/games/{game['id']}/review$"))
    expect(page.locator("[data-review-turn]")).to_have_count(12)
    expect(page.locator("[data-review-total]")).to_have_text(str(game["totals"]["total"]))
    expect(page.locator("[data-review-loss]")).to_contain_text(loss)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE_390["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "review-phone.png"), full_page=True)

    web_server.set_clock(REVEALED_AT)
    web_server.wait_for_reveal(game["date"])
    references = wait_for_references(page, game["date"])
    page.goto(f"/results/{game['date']}/yacht")
    expect(page.locator("[data-references]")).to_have_text(
        f"The dice allowed {references['foresight']['total']}; perfect play made "
        f"{references['perfect']['total']}; you made {game['totals']['total']}, giving away "
        f"{loss}.")
    row = page.locator("[data-skill-board] tr.you")
    expect(row).to_contain_text(str(game["totals"]["total"]))
    page.screenshot(path=str(SCREENSHOTS / "results-skill-phone.png"), full_page=True)
    page.locator('[data-board-link="points"]').click()
    expect(page.locator("[data-your-rank]")).to_contain_text(str(game["totals"]["total"]))
    assert errors == [], errors


def test_the_end_card_waits_for_tables_still_loading(new_context, web_server):
    """A game that ends while the coach's tables load (a worker just started): the end card
    says the figure is being computed, asks again as the server's Retry-After says, and shows
    the figure once the tables answer, without a reload."""
    page = new_context().new_page()
    errors = watch_errors(page)
    tables = TablesLoading(page)
    finish_a_game(page, "yacht-bonus")
    headline = page.locator("[data-skill]")
    expect(headline).to_have_text(re.compile(r"^Your skill figure is being computed"))
    tables.wait_until_asked(2)
    tables.ready()
    expect(headline).to_have_text(re.compile(r"^You gave away \d+\.\d points of expectation"))
    assert errors == [], errors


def test_the_pages_round_a_loss_as_the_server_does(new_context, web_server):
    """The pages' scripts say a loss to the tenth exactly as the templates and the share text
    do (app/boards/figures.py), ties and values just under a hundredth's tie included: the end
    card and the results page can never disagree."""
    page = new_context().new_page()
    page.goto("/")
    home = page.locator("script[type=module]").first.get_attribute("src")
    i18n = home.rsplit("/", 1)[0] + "/i18n.js"
    losses = [0, 0.04, 0.05, 0.049999, 0.25, 0.35, 1.95, 12.25, 123.449, 123.45, 123.4449,
              99.995, 99.94999, 250.0, -0.000001, *[n / 1000 for n in range(0, 3000, 7)]]
    shown = page.evaluate(
        "async ([url, losses]) => {"
        " const { lossText } = await import(url); return losses.map((loss) => lossText(loss)); }",
        [i18n, losses])
    assert shown == [loss_text(loss) for loss in losses]


def wait_for_references(page, date: str) -> dict:
    """The day's yacht references once the server's background pass has stored them."""
    deadline = time.monotonic() + REFERENCES_TIMEOUT
    while True:
        response = page.request.get(f"/api/v1/days/{date}/yacht/references")
        if response.ok:
            return response.json()
        assert response.status == 404, response.text()
        assert response.json()["error"]["code"] in ("references-not-ready", "not-revealed")
        assert time.monotonic() < deadline, "the day's references never came"
        time.sleep(0.5)
