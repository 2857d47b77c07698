"""The friend groups' pages: ``/groups`` (your groups, create one, join one by code, which an
invite link fills in) and ``/groups/<id>`` (a group's board of the day, its week and month
tables, its invite link and code, rename, leave), which act through ``/api/v1/groups``
(``static/js/groups-page.js``); the templates are ``templates/groups/``."""

import datetime as dt

from flask import abort, render_template, request, url_for
from flask_babel import format_date

from app.api.request import site_url
from app.boards.figures import loss_text
from app.groups import service as groups
from app.groups.errors import GroupNotFound
from app.players import service as players
from app.services import services
from app.web.pages import bp
from app.web.sheets_view import sheet_view
from fairness import RULESETS
from fairness.errors import FairnessError


def invite_url(code: str) -> str:
    """The link that opens the join form with ``code`` filled in."""
    path = url_for("web.groups_index", join=code)
    base = site_url()
    return base.rstrip("/") + path if base else path


def short_date(date: str) -> str:
    """A date as a table cell says it: ``10 Mar``, ``10 mars``."""
    return format_date(dt.date.fromisoformat(date), "d MMM")


@bp.get("/groups")
def groups_index():
    """The player's groups, and the forms to create one or join one by code."""
    svc = services()
    svc.prepare()
    return render_template(
        "groups/index.html", page="groups",
        groups=svc.groups.my_groups(players.current_player()),
        group_limit=groups.GROUP_LIMIT, member_limit=groups.MEMBER_LIMIT,
        join_code=(request.args.get("join") or "")[:40],
        member_name=players.remembered_name() or "")


@bp.get("/groups/<group_id>")
def group_page(group_id: str):
    """A group's board of the day, with its week and month tables."""
    svc = services()
    svc.prepare()
    try:
        board = svc.groups.board(players.current_player(), group_id, request.args.get("date"))
    except (GroupNotFound, FairnessError):  # no group of yours, or no such date
        abort(404)
    return render_template(
        "groups/board.html", page="groups", board=board, group=board["group"],
        sheet_names={sheet: sheet_view(sheet).name
                     for sheet in RULESETS},
        invite=invite_url(board["group"]["code"]), loss_text=loss_text,
        short_date=short_date)
