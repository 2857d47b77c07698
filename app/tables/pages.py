"""The tables' pages: create a table, its page (lobby, play, end) and its spectator view, and
the short link ``/t/<code>``. Everything happens in the browser through the API
(``app/static/js/table.js``, ``table-new.js``: the static files share one content digest, so
the scripts stay in the app's static folder); these routes only render the templates of this
feature's own folder (``templates/tables/``)."""

from flask import Blueprint, abort, redirect, render_template, url_for
from flask_babel import gettext as _

from app.matches.model import BOT
from app.services import services
from app.tables.errors import TableNotFound
from app.tables.service import DEFAULT_CLOCK, MAX_SEATS, checked_id
from app.web.messages import level_names
from app.web.sheets_view import sheet_view
from fairness import RULESETS
from strategy.bots import LEVELS

bp = Blueprint("table_pages", __name__, template_folder="templates")


@bp.get("/tables/new")
def new_table():
    """The form that creates a table: sheet, seats, bots and their level, clock."""
    sheets = [sheet_view(ruleset) for ruleset in RULESETS]
    return render_template("tables/new.html", page="tables", sheets=sheets, levels=LEVELS,
                           max_seats=MAX_SEATS, default_clock=DEFAULT_CLOCK)


@bp.get("/tables/<table_id>")
def table(table_id: str):
    """A table's page: the lobby (join, start), the play, the end (ranks, Verify the rolls)."""
    return _table_page(table_id, watching=False)


@bp.get("/tables/<table_id>/watch")
def watch_table(table_id: str):
    """A table's spectator view: the same page, read-only."""
    return _table_page(table_id, watching=True)


@bp.get("/t/<code>")
def table_by_code(code: str):
    """The short join link: on to the table's page."""
    try:
        found = services().tables.find(code)
    except TableNotFound:
        abort(404)
    return redirect(url_for("table_pages.table", table_id=found.id))


def _table_page(table_id: str, watching: bool):
    """Render the table page for ``table_id`` (a 404 page for an unknown table)."""
    try:
        found = services().tables.get(checked_id(table_id))
    except TableNotFound:
        abort(404)
    sheet = sheet_view(found.fields["ruleset"])
    return render_template("tables/table.html", page="tables", table_id=found.id, sheet=sheet,
                           watching=watching, seats=sheet_columns(found.seats),
                           texts={"boxes": {box.id: box.name for box in sheet.boxes}})


def sheet_columns(seats: list[dict]) -> list[dict]:
    """The shared sheet's columns, a seat each: its ``name`` and its head's ``short`` name (a
    bot's level); the page names them again as seats are taken."""
    levels = level_names()
    columns = []
    for index, seat in enumerate(seats):
        if seat["kind"] == BOT:
            level = levels.get(seat["bot"], seat["bot"])
            columns.append({"name": _("Computer {n} ({level})").format(n=index, level=level),
                            "short": level})
        else:
            columns.append({"name": seat["name"] or _("open seat"), "short": None})
    return columns
