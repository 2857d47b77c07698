"""Gossip in a real browser: a friend finishes a game on a live v2 date, its minute's checkpoint
is cut, and their share text carries the checkpoint's gossip line. Another player pastes that
text on the Verify page: match, in English and in French. A tampered fingerprint (the same
size: read as a fork) and a size the log never served are mismatches. The play page's end
card copies the line once a checkpoint covers the game, in a text a friend's check reads as is."""

import re
import time

import pytest
from playwright.sync_api import expect

from fairness import gossip
from fairness.note import parse_note
from tests.web.player import finish_a_game
from tests.web.test_verify import play_through_the_api

DAY_FORMAT = "2"  # the web_server fixture starts this module's dates in v2
PLAY_DATE = "2026-03-10"
AFTER_MINUTE = "2026-03-10T12:01:00Z"
WAIT_SECONDS = 60
LINE = re.compile(r"^log 2026-03-10/yahtzee 1 (?:[A-Z2-7]{4}-){4}[A-Z2-7]{4}$", re.M)


@pytest.fixture(scope="module")
def friend_share(web_server) -> str:
    """A friend's share text (French), once the checkpoint that includes their game is cut."""
    friend = web_server.client()
    game = play_through_the_api(friend, "yahtzee")
    web_server.set_clock(AFTER_MINUTE)
    deadline = time.monotonic() + WAIT_SECONDS
    while friend.get(f"/api/v1/games/{game['id']}")[2]["game"]["checkpoint"] is None:
        assert time.monotonic() < deadline, "no checkpoint covers the game"
        time.sleep(0.2)
    status, _, text = friend.get(f"/api/v1/games/{game['id']}/share?lang=fr")
    assert status == 200
    state = friend.get(f"/api/v1/games/{game['id']}")[2]["game"]
    body = parse_note(state["checkpoint"]["note"])[0]
    assert state["checkpoint"]["fingerprint"] == gossip.fingerprint(body)
    assert LINE.search(text) and gossip.gossip_line(body).text() in text
    return text


def compare(page, text: str) -> str:
    """Paste ``text`` into "Check a friend's result" and compare: the verdict's mark."""
    page.goto("/verify#friend")
    page.locator("[data-friend-text]").fill(text)
    page.locator("[data-friend-form] button").click()
    verdict = page.locator("[data-friend-verdict]")
    expect(verdict).to_have_attribute("data-friend-verdict", re.compile(r"^(match|mismatch|"
                                                                        r"unverified)$"))
    return verdict.get_attribute("data-friend-verdict")


@pytest.mark.parametrize(("locale", "word"), [("en-GB", "Match:"), ("fr-FR", "Concordance :")])
def test_a_friends_share_text_matches(new_context, friend_share, locale, word):
    """The checkpoint in the friend's text is one this browser is served: match."""
    page = new_context(locale=locale).new_page()
    assert compare(page, friend_share) == "match"
    expect(page.locator("[data-friend-verdict]")).to_contain_text(word)
    expect(page.locator("[data-friend-verdict]")).to_have_class("verdict ok")


def tampered(text: str) -> str:
    """The friend's text with the last character of its fingerprint changed."""
    line = LINE.search(text).group()
    last = line[-1]
    return text.replace(line, line[:-1] + ("A" if last != "A" else "B"))


def test_a_tampered_share_text_is_a_mismatch(new_context, friend_share):
    """Another fingerprint of the same size: a fork in plain words, in French too."""
    for locale, words in (("en-GB", "two different histories"),
                          ("fr-FR", "deux historiques différents")):
        page = new_context(locale=locale).new_page()
        assert compare(page, tampered(friend_share)) == "mismatch"
        expect(page.locator("[data-friend-verdict]")).to_contain_text(words)
        expect(page.locator("[data-friend-verdict]")).to_have_class("verdict fail")


def test_a_size_never_served_and_a_text_without_a_line(new_context, friend_share):
    """A size the log has no checkpoint of is a mismatch; a text without a gossip line says
    what to paste."""
    page = new_context().new_page()
    line = LINE.search(friend_share).group()
    other_size = friend_share.replace(line, line.replace("/yahtzee 1 ", "/yahtzee 7 "))
    assert compare(page, other_size) == "mismatch"
    expect(page.locator("[data-friend-verdict]")).to_contain_text("no list of 7 games")
    assert compare(page, "Yacht Daily 2026-03-10 - Yahtzee - 100 points") == "unverified"
    expect(page.locator("[data-friend-verdict]")).to_contain_text("paste the whole result")


def copy_result(page) -> str:
    """Click "Copy result" on the end card: the text copied (or, where the browser refused the
    clipboard, put in the selected text box)."""
    page.bring_to_front()
    page.evaluate("document.querySelector('[data-copy-status]').textContent = ''")
    page.locator("[data-copy]").click()
    expect(page.locator("[data-copy-status]")).not_to_be_empty()
    if page.locator("[data-fallback]").is_visible():
        return page.locator("[data-share-text]").input_value()
    return page.evaluate("navigator.clipboard.readText()")


def test_the_end_card_copies_the_log_line_once_a_checkpoint_covers_the_game(
        new_context, web_server, friend_share):
    """Copied at once, the result has no log line yet; copied again after the minute's
    checkpoint, it carries that checkpoint's line."""
    page = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    final = finish_a_game(page, "yacht")
    assert "\nlog " not in copy_result(page)
    web_server.set_clock("2026-03-10T12:02:00Z")
    deadline = time.monotonic() + WAIT_SECONDS
    while page.request.get(f"/api/v1/games/{final['id']}").json()["game"]["checkpoint"] is None:
        assert time.monotonic() < deadline, "no checkpoint covers the game"
        time.sleep(0.2)
    copied = copy_result(page)
    assert gossip.find_gossip_line(copied).text().startswith("log 2026-03-10/yacht 1 ")
    # The copied text (its turn marks' style) is one a friend pastes on the Verify page as is.
    assert re.search(r"^[🟩🟡🔶❌]{12}$", copied, re.M)
    assert compare(new_context(locale="fr-FR").new_page(), copied) == "match"
