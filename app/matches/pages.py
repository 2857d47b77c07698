"""The practice pages: choosing a practice game or a game against the computer, and
the match page, which plays it through ``/api/v1/matches`` (``static/js/practice*.js``); the
templates are ``templates/matches/``."""

import re

from flask import abort, render_template
from flask_babel import gettext as _

from app.matches.errors import MatchError
from app.services import services
from app.web.pages import bp
from app.web.sheets_view import sheet_view
from fairness import DAILY_RULESETS, RULESETS
from strategy.bots import LEVELS

MATCH_ID = re.compile(r"[0-9a-f]{32}")
MAX_OPPONENTS = 5


def level_names() -> dict[str, str]:
    """Every bot level's name in the reader's language (its id if it has no translation)."""
    names = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard"),
             "perfect": _("Perfect")}
    return {level: names.get(level, level) for level in LEVELS}


@bp.get("/practice")
def practice():
    """Choose a sheet and 0 to 5 computer opponents with their levels, and start."""
    return render_template("matches/practice.html", page="practice",
                           sheets=[sheet_view(ruleset) for ruleset in RULESETS],
                           daily=DAILY_RULESETS, levels=level_names(),
                           max_opponents=MAX_OPPONENTS)


@bp.get("/practice/<match_id>")
def practice_match(match_id: str):
    """A practice game or a game against the computer: the page reads and plays it through the
    API (a page creates nothing)."""
    if not MATCH_ID.fullmatch(match_id):
        abort(404)
    try:
        match = services().matches.get(match_id)
    except MatchError as error:  # no such match (or removed after its retention)
        abort(error.status)
    sheet = sheet_view(match.ruleset)
    return render_template("matches/practice_match.html", page="practice", sheet=sheet,
                           match_id=match_id, levels=level_names(),
                           box_names={box.id: box.name for box in sheet.boxes})
