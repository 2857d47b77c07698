"""How a game's skill figure (its review's ``loss``) is rounded wherever a player sees it: to
the hundredth on the skill board, and to the tenth in sentences, from that hundredth, so
that a game's end card, its review, its share text and the day's results page all say the same
number. ``lossText`` in static/js/i18n.js is the same rule for the pages' scripts."""

import math


def centipoints(loss: float) -> int:
    """A loss in hundredths of a point, half up, as the skill board ranks it."""
    return max(0, math.floor(loss * 100 + 0.5))


def loss_text(loss: float) -> str:
    """A loss to the tenth, half up from its hundredths: ``123.45`` and ``123.449`` both give
    ``"123.5"``."""
    tenths = (centipoints(loss) + 5) // 10
    return f"{tenths // 10}.{tenths % 10}"
