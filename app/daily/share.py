"""The share text: plain, spoiler-free (no dice), the same in any locale's number format.

    Yacht Daily 2026-11-29 - Yahtzee - 245 points - −6.3 vs perfect play
    13 boxes: 11 scored, 2 zeroed - upper bonus reached - five of a kind: 1
    log 2026-11-29/yahtzee 12 KQ4M-7XPA-B2CD-RT5E-W3NZ
    https://example.org/play/yahtzee/2026-11-29

The ``log …`` line (FAIRNESS.md, "Gossip: fingerprints in share texts") names the signed
checkpoint of the day's log that includes the game, once one does (within a minute of the
finish): a friend can check it against the log their own browser is shown. It says how many
games had finished, nothing about the dice.
"""

from app.boards.figures import loss_text
from app.daily.actions import Played
from app.daily.views import five_of_a_kind_count
from fairness import get_ruleset
from fairness.gossip import gossip_line

PRODUCT = "Yacht Daily"

_TEXTS = {
    "en": {
        "title": "{product} {date} - {sheet} - {total} points",
        "skill": "−{loss} vs perfect play",
        "boxes": "{boxes} boxes: {scored} scored, {zeroed} zeroed",
        "bonus_reached": "upper bonus reached",
        "bonus_missed": "no upper bonus",
        "five": "five of a kind: {count}",
    },
    "fr": {
        "title": "{product} {date} - {sheet} - {total} points",
        "skill": "−{loss} face au jeu parfait",
        "boxes": "{boxes} cases : {scored} marquées, {zeroed} à zéro",
        "bonus_reached": "bonus du haut obtenu",
        "bonus_missed": "sans bonus du haut",
        "five": "cinq identiques : {count}",
    },
}


def share_text(played: Played, link: str, language: str, loss: float | None = None,
               checkpoint_body: str | None = None) -> str:
    """The share text of a finished game, in ``language`` (``en`` or ``fr``), with its skill
    figure (expected points lost to perfect play, one decimal) when ``loss`` is known, and the
    gossip line of ``checkpoint_body``, the log's checkpoint that includes it, when one does."""
    texts = _TEXTS.get(language, _TEXTS["en"])
    game = played.game
    ruleset = get_ruleset(game.ruleset)
    totals = game.totals()
    zeroed = sum(1 for points in game.boxes.values() if points == 0)
    details = [texts["boxes"].format(boxes=len(ruleset.categories),
                                     scored=len(game.boxes) - zeroed, zeroed=zeroed)]
    if ruleset.upper_bonus:
        details.append(texts["bonus_reached" if totals.upper_bonus else "bonus_missed"])
    details.append(texts["five"].format(count=five_of_a_kind_count(played)))
    title = texts["title"].format(product=PRODUCT, date=game.date,
                                  sheet=ruleset.names.get(language, ruleset.names["en"]),
                                  total=totals.total)
    if loss is not None:
        title += " - " + texts["skill"].format(loss=loss_text(loss))
    lines = [title, " - ".join(details)]
    if checkpoint_body is not None:
        lines.append(gossip_line(checkpoint_body).text())
    return "\n".join([*lines, link]) + "\n"
