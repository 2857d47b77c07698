"""The HTML pages: thin routes that gather what a template shows.

The pages read the same services as the JSON API; everything a player does happens in the
browser through the API (``static/js/``), so these routes only render.
"""

import datetime as dt
from pathlib import Path
from urllib.parse import urlencode

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    send_from_directory,
    url_for,
)
from flask_babel import format_date, format_datetime
from flask_babel import gettext as _

from app.boards import pages as board
from app.boards.histogram import histogram
from app.daily.service import FINISHED
from app.ledger.days import service_date
from app.players import history as record
from app.players import service as players
from app.services import services
from app.web.error_messages import api_error_messages
from app.web.locale import LANGUAGES
from app.web.messages import script_messages
from app.web.sheets_view import daily_sheets, is_daily, language, sheet_view
from fairness import RULESETS, InvalidDate, parse_date
from fairness.sheets import ANY_DAILY_RULESETS

bp = Blueprint("web", __name__)


def nav_items() -> list[tuple[str, str, str]]:
    """The main menu: (page name, endpoint, label)."""
    return [
        ("home", "web.home", _("Today")),
        ("practice", "web.practice", _("Practice")),
        ("tables", "table_pages.new_table", _("Tables")),
        ("results", "web.results_latest", _("Results")),
        ("rules", "web.rules_index", _("Rules")),
        ("fairness", "web.fairness", _("Fairness")),
        ("verify", "web.verify", _("Verify")),
        ("ledger", "web.ledger", _("Ledger")),
        ("history", "web.history", _("My record")),
    ]


def lang_url(code: str) -> str:
    """This page's address with ``?lang=code``, keeping the other query parameters."""
    params = {key: value for key, value in request.args.items() if key != "lang"}
    params["lang"] = code
    return f"{request.path}?{urlencode(params)}"


def long_date(date: str) -> str:
    """A YYYY-MM-DD date written out in the reader's language."""
    return format_date(parse_date(date), format="full")


def moment(timestamp: str) -> str:
    """A UTC timestamp of the API (``…Z``) written out in the reader's language."""
    parsed = dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    return f"{format_datetime(parsed, format='medium')} UTC"


@bp.app_context_processor
def page_context() -> dict:
    """What every page's template may use (the site's pages and their error pages, not the
    API): the language, the menu, the script messages and the API error messages."""
    if request.path.startswith("/api/"):
        return {}
    return {
        "lang": language(),
        "languages": LANGUAGES,
        "lang_url": lang_url,
        "nav_items": nav_items(),
        "messages": script_messages(),
        "api_errors": api_error_messages(),
        "long_date": long_date,
        "moment": moment,
    }


def require_daily_sheet(ruleset: str):
    """The daily sheet ``ruleset`` in the reader's language, or a 404."""
    if not is_daily(ruleset):
        abort(404)
    return sheet_view(ruleset)


def require_date(date: str) -> str:
    """``date`` if it is a YYYY-MM-DD date the service knows (``service_date``), else a 404."""
    try:
        return service_date(date)
    except InvalidDate:
        abort(404)


@bp.get("/")
def home():
    """Today's challenge for each sheet, with countdowns and the player's streak."""
    return render_template("home.html", page="home", sheets=daily_sheets())


@bp.get("/play/<ruleset>")
def play(ruleset: str):
    """The game of the day on one sheet: dice, Roll button, score sheet."""
    return render_template(
        "play.html", page="play", sheet=require_daily_sheet(ruleset), sheets=daily_sheets()
    )


@bp.get("/results")
def results_latest():
    """The results of the current UTC date on the first sheet."""
    return redirect(url_for("web.results_today", ruleset=daily_sheets()[0].id))


@bp.get("/results/<ruleset>")
def results_today(ruleset: str):
    """The results of the current UTC date on one sheet."""
    require_daily_sheet(ruleset)
    return redirect(url_for("web.results", date=board.today(), ruleset=ruleset))


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
    standings = board.standings(date, ruleset)
    you = standings["you"]
    day = board.day_summary(date)
    return render_template(
        "results.html",
        page="results",
        sheet=sheet,
        sheets=daily_sheets(),
        date=date,
        day=day,
        standings=standings,
        skill=board.skill_standings(date, ruleset),
        by_points=request.args.get("board") == "points",
        references=board.references(date, ruleset, day["status"] == "revealed"),
        chart=histogram(standings["distribution"], you["total"] if you else None),
        own=sheet_record(record.player_history(svc, players.current_player()), ruleset),
    )


def sheet_record(kept: dict, ruleset: str) -> dict:
    """The part of a player's record (``record.player_history``) about one sheet: its
    ``summary`` (streaks, best total) and its finished ``games``, newest date first."""
    summary = next((sheet for sheet in kept["sheets"] if sheet["ruleset"] == ruleset),
                   {"current_streak": 0, "best_streak": 0, "best_total": None})
    games = [game for game in kept["games"]
             if game["ruleset"] == ruleset and game["status"] == FINISHED]
    return {"summary": summary, "games": games}


@bp.get("/history")
def history():
    """The player's own record: streaks, best scores, distribution of totals, every game, and
    the transfer code that carries it all to another device."""
    svc = services()
    svc.prepare()
    kept = record.player_history(svc, players.current_player())
    return render_template(
        "history.html",
        page="history",
        record=kept,
        sheets=[(sheet, summary, histogram(summary["distribution"]))
                for sheet, summary in zip(daily_sheets(), kept["sheets"], strict=True)],
        sheet_names={ruleset: sheet_view(ruleset).name for ruleset in RULESETS},
    )


@bp.get("/ledger")
def ledger():
    """The public ledger: epoch anchor and key, each date's status, seed and roots."""
    return render_template("ledger.html", page="ledger", ledger=board.ledger_overview())


@bp.get("/verify")
def verify():
    """Recompute a game in the browser from published data only (fairness.js)."""
    sheets = [sheet_view(ruleset) for ruleset in ANY_DAILY_RULESETS]  # any day's, past ones too
    return render_template(
        "verify.html",
        page="verify",
        sheet_names={sheet.id: sheet.name for sheet in sheets},
        box_names={box.id: box.name for sheet in sheets for box in sheet.boxes},
    )


def fairness_doc_path() -> Path:
    """Where the protocol's reference document sits in a source checkout."""
    return Path(current_app.root_path).parent / "FAIRNESS.md"


@bp.get("/fairness")
def fairness():
    """What is promised and how anyone can check it, in plain words."""
    return render_template(
        "fairness.html", page="fairness", fairness_doc=fairness_doc_path().is_file()
    )


@bp.get("/FAIRNESS.md")
def fairness_doc():
    """The protocol's exact formats and test vectors, as Markdown text."""
    path = fairness_doc_path()
    if not path.is_file():
        abort(404)
    return send_file(path, mimetype="text/markdown")


@bp.get("/verify.py")
def verify_script():
    """The standalone verifier: one file Python runs, a zip archive of the core's sources and
    the verifier's (scripts/build_verify.py), downloaded as verify.py."""
    return send_from_directory(current_app.static_folder, "verify.py", mimetype="application/zip",
                               as_attachment=True, download_name="verify.py")
