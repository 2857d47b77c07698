"""The daily game's page: the game of the day on one sheet, which the browser plays through
``/api/v1/games`` (``static/js/play.js``); the template is ``templates/daily/play.html``."""

from flask import render_template

from app.web.pages import bp, require_daily_sheet
from app.web.sheets_view import daily_sheets


@bp.get("/play/<ruleset>")
def play(ruleset: str):
    """The game of the day on one sheet: dice, Roll button, score sheet."""
    return render_template(
        "daily/play.html", page="play", sheet=require_daily_sheet(ruleset), sheets=daily_sheets()
    )
