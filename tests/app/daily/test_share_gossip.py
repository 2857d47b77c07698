"""The share text's gossip line (FAIRNESS.md, "Gossip"): a finished v2 game's share text names
the checkpoint that covers it, once one does, the same line in English and French and in both
styles (plain, squares), no dice; ``GET /games/<id>`` gives the same fingerprint; a v1 game's
share text has no such line."""

import random

from logplay import run_pass
from playkit import PLAY_DATE, call, play_to_end, start

from fairness import gossip
from fairness.note import parse_note


def test_the_share_text_carries_the_covering_checkpoint(logged_app, clock):
    """No line before the minute's checkpoint; after it, the line of that checkpoint."""
    player = logged_app.test_client()
    game = play_to_end(player, start(player, "yahtzee", PLAY_DATE), random.Random(2))
    _, before = call(player, "GET", f"/games/{game['id']}/share?lang=en")
    assert "\nlog " not in before
    clock.advance(seconds=61)
    run_pass(logged_app)
    _, state = call(player, "GET", f"/games/{game['id']}")
    checkpoint = state["game"]["checkpoint"]
    body = parse_note(checkpoint["note"])[0]
    assert checkpoint["size"] == 1 and checkpoint["fingerprint"] == gossip.fingerprint(body)
    line = gossip.gossip_line(body).text()
    for lang in ("en", "fr"):
        _, text = call(player, "GET", f"/games/{game['id']}/share?lang={lang}")
        lines = text.splitlines()
        assert lines[2] == line and lines[3].startswith("http")
        assert gossip.find_gossip_line(text) == gossip.gossip_line(body)
        # The squares style (title, turn marks, details) carries the very same line.
        _, text = call(player, "GET", f"/games/{game['id']}/share?style=squares&lang={lang}")
        lines = text.splitlines()
        assert len(lines) == 5 and lines[3] == line and lines[4].startswith("http")
        assert gossip.find_gossip_line(text) == gossip.gossip_line(body)
    dice = {str(action["dice"]) for action in game["transcript"] if action["action"] == "roll"}
    assert not any(shown in text for shown in dice)


def test_a_v1_game_has_no_gossip_line(app, clock):
    """A v1 day has no log: the share text is as before."""
    player = app.test_client()
    game = play_to_end(player, start(player, "yahtzee", PLAY_DATE), random.Random(2))
    _, text = call(player, "GET", f"/games/{game['id']}/share")
    assert len(text.splitlines()) == 3 and "log " not in text
