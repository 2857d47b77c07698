"""The pages' blueprint ``bp`` ("web"), what every page's template may use, the helpers several
features' pages share, and the pages of the whole site: home, fairness, verify.

Each feature adds its own pages to ``bp`` from its ``pages.py`` (``create_app`` imports them);
the pages read the same services as the JSON API, and everything a player does happens in the
browser through the API (``static/js/``), so these routes only render.
"""

import datetime as dt
from pathlib import Path
from urllib.parse import urlencode

from flask import (
    Blueprint,
    abort,
    current_app,
    render_template,
    request,
    send_file,
    send_from_directory,
)
from flask_babel import format_date, format_datetime, ngettext
from flask_babel import gettext as _

from app.ledger.days import CLOSED, OPEN, REVEALED, UPCOMING
from app.services import services
from app.web.error_messages import api_error_messages
from app.web.locale import LANGUAGES
from app.web.messages import plural_forms, script_messages
from app.web.sheets_view import daily_sheets, is_daily, language, sheet_view
from fairness import parse_date
from fairness.sheets import ANY_DAILY_RULESETS

bp = Blueprint("web", __name__)


def nav_items() -> list[tuple[str, str, str]]:
    """The main menu: (page name, endpoint, label)."""
    return [
        ("home", "web.home", _("Today")),
        ("practice", "web.practice", _("Practice")),
        ("tables", "table_pages.new_table", _("Tables")),
        ("groups", "web.groups_index", _("Groups")),
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


def status_label(status: str) -> str:
    """A date's status (``app.ledger.days``) in the reader's language."""
    return {
        UPCOMING: _("Coming up"),
        OPEN: _("Open"),
        CLOSED: _("Closed, reveal soon"),
        REVEALED: _("Revealed"),
    }[status]


@bp.get("/")
def home():
    """Today's challenge for each sheet, with countdowns and the player's streak."""
    return render_template("home.html", page="home", sheets=daily_sheets())


def verify_messages() -> dict[str, str | dict[str, str]]:
    """The Verify page's own sentences (verify-page.js adds them to the script messages):
    what it says about an id it cannot verify, and how its counts compare with verify.py's."""
    return {
        "idMissing": _("Type a game’s id or link, or choose a game saved on this device."),
        "idMalformed": _(
            "“{text}” is not a game’s id or link. A game’s id is 32 characters, digits 0–9 and "
            "letters a–f, as in the address its Verify link opens."
        ),
        "idUnknown": _("No game on this site has the id {id}. Check that it was copied whole."),
        "idMatch": _(
            "This is a practice game or a game against the computer, not a daily game: its own "
            "page checks its dice once it ends."
        ),
        "idTable": _(
            "This is a game at a table, not a daily game: the table’s page checks every seat’s "
            "dice once the game ends."
        ),
        "idMatchScript": _("Outside the browser: {command}"),
        "openMatch": _("Open this game"),
        "idLogLine": _(
            "This is the log line of a shared result, not a game’s id: paste the whole result "
            "under “Check a friend’s result”, below."
        ),
        "idNotRevealed": _(
            "This {sheet} game of {date} is not revealed yet: it can be verified after {time}."
        ),
        "sameAsScript": plural_forms(lambda n: ngettext(
            "verify.py makes the same {n} check for this game: {command}",
            "verify.py makes the same {n} checks for this game: {command}", n,
        )),
        "logChecks": plural_forms(lambda n: ngettext(
            "And {n} check of the day’s log: this game is in it",
            "And {n} checks of the day’s log: this game is in it", n,
        )),
        "logScript": _(
            "verify.py makes these in its log mode, with the checks of the whole log: {command}"
        ),
        "sumLogOk": _("Your game is in the day’s signed log of finished games."),
        "sumLogBad": _("Your game is not where it should be in the day’s signed log."),
    }


@bp.get("/verify")
def verify():
    """Recompute a game in the browser from published data only (fairness.js)."""
    sheets = [sheet_view(ruleset) for ruleset in ANY_DAILY_RULESETS]  # any day's, past ones too
    return render_template(
        "verify.html",
        page="verify",
        sheet_names={sheet.id: sheet.name for sheet in sheets},
        box_names={box.id: box.name for sheet in sheets for box in sheet.boxes},
        page_messages=verify_messages(),
    )


def fairness_doc_path() -> Path:
    """Where the protocol's reference document sits in a source checkout."""
    return Path(current_app.root_path).parent / "FAIRNESS.md"


@bp.get("/fairness")
def fairness():
    """What is promised and how anyone can check it, in plain words."""
    return render_template(
        "fairness.html", page="fairness", fairness_doc=fairness_doc_path().is_file(),
        log_vkey=services().service_log.key.vkey,
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
