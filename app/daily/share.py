"""The share text of a finished game: plain, spoiler-free (no dice, no box names), in two styles.

``plain`` (the default), the same number format in any language:

    Yacht Daily 2026-11-29 - Yahtzee - 245 points - −6.3 vs perfect play
    13 boxes: 11 scored, 2 zeroed - upper bonus reached - five of a kind: 1
    log 2026-11-29/yahtzee 12 KQ4M-7XPA-B2CD-RT5E-W3NZ
    https://example.org/play/yahtzee/2026-11-29

``squares`` (what the play page copies): a first line a friend reads without having played,
in the language's own number format, then one mark per turn by the points that turn gave away
to perfect play (``TURN_MARKS``), then the plain text's other lines:

    Yacht Daily 2026-11-29 · Yahtzee: 245 points, 6.3 points below perfect play
    🟩🟩🟡🟩🔶🟩🟩🟩🟩🟡🟩❌🟩
    13 boxes: 11 scored, 2 zeroed - upper bonus reached - five of a kind: 1
    log 2026-11-29/yahtzee 12 KQ4M-7XPA-B2CD-RT5E-W3NZ
    https://example.org/play/yahtzee/2026-11-29

Until the coach's review is ready (its sheet's table still loading) neither style knows the
skill figure: the title stops at the points and the marks' line is left out.

The ``log …`` line (FAIRNESS.md, "Gossip: fingerprints in share texts") names the signed
checkpoint of the day's log that includes the game, once one does (within a minute of the
finish): a friend can check it against the log their own browser is shown. It says how many
games had finished, nothing about the dice.
"""

from collections.abc import Sequence

from app.boards.figures import centipoints, loss_text
from app.daily.actions import Played
from app.daily.views import five_of_a_kind_count
from fairness import get_ruleset
from fairness.gossip import gossip_line

PRODUCT = "Yacht Daily"
PLAIN = "plain"
SQUARES = "squares"
STYLES = (PLAIN, SQUARES)

# A turn's mark by the points it gave away, in hundredths as the review page shows a turn's
# figure (0.00 is its "best play"): under each bound its mark, past the last one the last mark.
# Each mark differs from the others in shape as well as in colour (a square, a circle, a diamond,
# a cross), so a reader who cannot tell green from orange or red still reads the line (four
# squares of four colours would not do: red-green colour blindness merges 🟩 and 🟥); the worse
# the turn, the warmer the colour and the sharper the shape. All four are drawn as emoji by
# default (no variation selector needed) and at full size in the common emoji fonts (the red
# triangles are drawn small, so a large loss would look the mildest).
TURN_MARKS = ((1, "🟩"), (100, "🟡"), (500, "🔶"), (None, "❌"))

_TEXTS = {
    "en": {
        "title": "{product} {date} - {sheet} - {total} points",
        "skill": "−{loss} vs perfect play",
        "boxes": "{boxes} boxes: {scored} scored, {zeroed} zeroed",
        "bonus_reached": "upper bonus reached",
        "bonus_missed": "no upper bonus",
        "five": "five of a kind: {count}",
        "headline": "{product} {date} · {sheet}: {points}",
        "below": "{points} below perfect play",
        "perfect": "perfect play",
        "point": ("{n} point", "{n} points"),
        "decimal": ".",
    },
    "fr": {
        "title": "{product} {date} - {sheet} - {total} points",
        "skill": "−{loss} face au jeu parfait",
        "boxes": "{boxes} cases : {scored} marquées, {zeroed} à zéro",
        "bonus_reached": "bonus du haut obtenu",
        "bonus_missed": "sans bonus du haut",
        "five": "cinq identiques : {count}",
        "headline": "{product} {date} · {sheet}\u202f: {points}",
        "below": "à {points} du jeu parfait",
        "perfect": "jeu parfait",
        "point": ("{n} point", "{n} points"),
        "decimal": ",",
    },
    "hu": {  # a number takes the singular noun in Hungarian: "3 pont"
        "title": "{product} {date} - {sheet} - {total} pont",
        "skill": "−{loss} a tökéletes játékhoz képest",
        "boxes": "{boxes} mező: {scored} pontozva, {zeroed} nullával",
        "bonus_reached": "felső bónusz megszerezve",
        "bonus_missed": "nincs felső bónusz",
        "five": "öt egyforma: {count}",
        "headline": "{product} {date} · {sheet}: {points}",
        "below": "{points} lemaradás a tökéletes játékhoz képest",
        "perfect": "tökéletes játék",
        "point": ("{n} pont", "{n} pont"),
        "decimal": ",",
    },
}


def turn_mark(loss: float) -> str:
    """The mark of a turn that gave away ``loss`` points of expectation (TURN_MARKS)."""
    lost = centipoints(loss)
    return next(mark for bound, mark in TURN_MARKS if bound is None or lost < bound)


def turn_marks(losses: Sequence[float]) -> str:
    """One mark per turn, in turn order."""
    return "".join(turn_mark(loss) for loss in losses)


def _points(texts: dict, written: str, singular: bool) -> str:
    """``written`` (a number as the text writes it) with "point" or "points"."""
    one, other = texts["point"]
    return (one if singular else other).format(n=written)


def _headline(texts: dict, language: str, title: dict, loss: float | None) -> str:
    """The ``squares`` style's first line: the points, then how far from perfect play."""
    total = title["total"]
    # French puts 0 and 1 (and every figure under 2) in the singular, English only 1 itself.
    points = _points(texts, str(total), total < 2 if language == "fr" else total == 1)
    headline = texts["headline"].format(**title, points=points)
    if loss is None:
        return headline
    figure = loss_text(loss)
    if figure == "0.0":
        return f"{headline}, {texts['perfect']}"
    lost = _points(texts, figure.replace(".", texts["decimal"]),
                   language == "fr" and float(figure) < 2)
    return f"{headline}, {texts['below'].format(points=lost)}"


def share_text(played: Played, link: str, language: str, loss: float | None = None,
               checkpoint_body: str | None = None, style: str = PLAIN,
               turn_losses: Sequence[float] | None = None) -> str:
    """The share text of a finished game, in ``language`` (``en``, ``fr`` or ``hu``) and ``style``
    (STYLES), with its skill figure (expected points lost to perfect play, one decimal) when
    ``loss`` is known, the marks of ``turn_losses`` (each turn's loss, from the coach's review)
    in the ``squares`` style when they are known too, and the gossip line of
    ``checkpoint_body``, the log's checkpoint that includes it, when one does."""
    language = language if language in _TEXTS else "en"
    texts = _TEXTS[language]
    game = played.game
    ruleset = get_ruleset(game.ruleset)
    totals = game.totals()
    zeroed = sum(1 for points in game.boxes.values() if points == 0)
    details = [texts["boxes"].format(boxes=len(ruleset.categories),
                                     scored=len(game.boxes) - zeroed, zeroed=zeroed)]
    if ruleset.upper_bonus:
        details.append(texts["bonus_reached" if totals.upper_bonus else "bonus_missed"])
    details.append(texts["five"].format(count=five_of_a_kind_count(played)))
    title = {"product": PRODUCT, "date": game.date,
             "sheet": ruleset.names.get(language, ruleset.names["en"]), "total": totals.total}
    if style == SQUARES:
        lines = [_headline(texts, language, title, loss)]
        if loss is not None and turn_losses:
            lines.append(turn_marks(turn_losses))
    else:
        heading = texts["title"].format(**title)
        if loss is not None:
            heading += " - " + texts["skill"].format(loss=loss_text(loss))
        lines = [heading]
    lines.append(" - ".join(details))
    if checkpoint_body is not None:
        lines.append(gossip_line(checkpoint_body).text())
    return "\n".join([*lines, link]) + "\n"
