"""The results pages: a date's boards on one sheet (points and skill), the reader's rank, the
score distribution, the day's references and the reader's own record on the sheet, read from
the same services as the JSON API; the templates are ``templates/boards/``."""

import datetime as dt

from flask import abort, current_app, redirect, render_template, request, url_for

from app.boards.histogram import histogram
from app.daily.service import FINISHED
from app.ledger.days import service_date
from app.platform.clock import format_timestamp
from app.players import history as record
from app.players import service as players
from app.services import services
from app.web.pages import bp, require_daily_sheet, status_label
from app.web.sheets_view import daily_sheets
from fairness import InvalidDate, parse_date


def today() -> str:
    """The current UTC date on the service's clock."""
    return services().now().date().isoformat()


def require_date(date: str) -> str:
    """``date`` if it is a YYYY-MM-DD date the service knows (``service_date``), else a 404."""
    try:
        return service_date(date)
    except InvalidDate:
        abort(404)


def standings(date: str, ruleset: str) -> dict:
    """The API's leaderboard of (date, sheet), plus the reader's own pseudonym to mark their row.

    The leaderboard is the API's own answer (same ranks, same buckets), rendered server-side.
    """
    view = current_app.view_functions["api.leaderboard"]
    board = view(date=date, ruleset=ruleset).get_json()
    player = players.current_player()
    board["you_player"] = services().secrets.pseudonym(player) if player else None
    return board


def skill_standings(date: str, ruleset: str) -> dict:
    """The API's skill board of (date, sheet), with the reader's pseudonym."""
    from app.boards.routes import DEFAULT_BOARD_SIZE, skill_board

    player = players.current_player()
    own = services().games.game_id(player, date, ruleset) if player else None
    board = skill_board(date, ruleset, DEFAULT_BOARD_SIZE, own)
    board["you_player"] = services().secrets.pseudonym(player) if player else None
    return board


def references(date: str, ruleset: str, revealed: bool) -> dict | None:
    """A revealed day's references on one sheet (None before the reveal); ``{"computing":
    True}`` while the background computes them."""
    if not revealed:
        return None
    found = services().coach.references(date, ruleset)
    if found is None:
        return {"computing": True}
    return {"computing": False, "foresight": found["foresight"]["total"],
            "perfect": found["perfect"]["total"], "scouting": found.get("scouting")}


def day_summary(date: str) -> dict:
    """A date's status, reveal time and neighbours, for the results page."""
    svc = services()
    svc.prepare()
    window = svc.games.window(date)
    status = window.status(svc.now(), svc.ledger.is_revealed(date))
    day = parse_date(date)
    return {
        "status": status,
        "status_label": status_label(status),
        "reveal_at": format_timestamp(window.reveal_at),
        "previous": (None if date <= svc.secrets.first_date
                     else (day - dt.timedelta(days=1)).isoformat()),
        "next": (day + dt.timedelta(days=1)).isoformat(),
    }


def sheet_record(kept: dict, ruleset: str) -> dict:
    """The part of a player's record (``record.player_history``) about one sheet: its
    ``summary`` (streaks, best total) and its finished ``games``, newest date first."""
    summary = next((sheet for sheet in kept["sheets"] if sheet["ruleset"] == ruleset),
                   {"current_streak": 0, "best_streak": 0, "best_total": None})
    games = [game for game in kept["games"]
             if game["ruleset"] == ruleset and game["status"] == FINISHED]
    return {"summary": summary, "games": games}


@bp.get("/results")
def results_latest():
    """The results of the current UTC date on the first sheet."""
    return redirect(url_for("web.results_today", ruleset=daily_sheets()[0].id))


@bp.get("/results/<ruleset>")
def results_today(ruleset: str):
    """The results of the current UTC date on one sheet."""
    require_daily_sheet(ruleset)
    return redirect(url_for("web.results", date=today(), ruleset=ruleset))


@bp.get("/results/<date>/<ruleset>")
def results(date: str, ruleset: str):
    """Leaderboard, the reader's rank, the score distribution and their own history on the
    sheet, from the server's record (the one that counts, whatever this device saved)."""
    sheet = require_daily_sheet(ruleset)
    date = require_date(date)
    svc = services()
    svc.prepare()
    if date < svc.secrets.first_date:
        abort(404)  # before the first epoch: no dice were ever dealt, no reveal will come
    board = standings(date, ruleset)
    you = board["you"]
    day = day_summary(date)
    return render_template(
        "boards/results.html",
        page="results",
        sheet=sheet,
        sheets=daily_sheets(),
        date=date,
        day=day,
        standings=board,
        skill=skill_standings(date, ruleset),
        by_points=request.args.get("board") == "points",
        references=references(date, ruleset, day["status"] == "revealed"),
        chart=histogram(board["distribution"], you["total"] if you else None),
        own=sheet_record(record.player_history(svc, players.current_player()), ruleset),
    )
