"""The practice pages: choosing a practice game or a game against the computer, and
the match page, which plays it through ``/api/v1/matches`` (``static/js/practice*.js``); the
templates are ``templates/matches/``."""

import re

from flask import abort, render_template
from flask_babel import gettext as _

from app.matches.errors import MatchError
from app.matches.model import Match
from app.players import service as players
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


def sheet_seats(match: Match, levels: dict[str, str]) -> tuple[list[dict] | None, int | None]:
    """The shared sheet's columns of ``match`` (each seat's ``name`` and its head's ``short``
    name) and the reader's seat among them; no columns for a game of one seat."""
    player = players.current_player()
    you = match.seat_of(services().secrets.pseudonym(player) if player else None)
    if len(match.seats) == 1:
        return None, you
    bots = [seat.bot for seat in match.seats if seat.bot]
    columns = []
    for seat in match.seats:
        if seat.bot:
            level = levels.get(seat.bot, seat.bot)
            name = _("Computer {n} ({level})").format(n=seat.index, level=level)
            short = level if bots.count(seat.bot) == 1 else f"{level} {seat.index}"
        else:
            name = _("You") if seat.index == you else (seat.name or _("Player"))
            short = name
        columns.append({"name": name, "short": short})
    return columns, you


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
    levels = level_names()
    seats, you = sheet_seats(match, levels)
    return render_template("matches/practice_match.html", page="practice", sheet=sheet,
                           match_id=match_id, levels=levels, seats=seats, you=you,
                           box_names={box.id: box.name for box in sheet.boxes})
