"""Friend groups in the JSON API (docs/api.md, "Groups"): a player's groups, creating, joining
by code, renaming and leaving one, and a group's board. Routes on the API's blueprint
(``app.api.blueprint``)."""

from flask import jsonify, request

from app.api.blueprint import bp
from app.api.request import json_body
from app.groups import service as groups
from app.players import service as players
from app.services import services


def member_name(body: dict) -> str | None:
    """The optional ``member_name`` of the body (a display name), else the one this player last
    chose, if any."""
    value = body.get("member_name")
    return players.validate_name(value) if value is not None else players.remembered_name()


@bp.get("/groups")
def my_groups():
    """This player's friend groups."""
    return jsonify({"groups": services().groups.my_groups(players.current_player()),
                    "group_limit": groups.GROUP_LIMIT})


@bp.post("/groups")
def create_group():
    """A new friend group with this player as its first member."""
    body = json_body()
    name, member = groups.group_name(body.get("name")), member_name(body)
    response = jsonify(services().groups.create(players.ensure_player(), name, member))
    response.status_code = 201
    return response


@bp.post("/groups/join")
def join_group():
    """Join the friend group of an invite code."""
    body = json_body()
    code, member = groups.canonical_code(body.get("code")), member_name(body)
    return jsonify(services().groups.join(players.ensure_player(), code, member))


@bp.get("/groups/<group_id>")
def group_board(group_id: str):
    """A group's board of a date (``?date=``, the UTC date by default)."""
    return jsonify(services().groups.board(players.current_player(), group_id,
                                           request.args.get("date")))


@bp.post("/groups/<group_id>/rename")
def rename_group(group_id: str):
    """Give a group a new name."""
    return jsonify(services().groups.rename(players.current_player(), group_id,
                                            json_body().get("name")))


@bp.post("/groups/<group_id>/leave")
def leave_group(group_id: str):
    """Leave a group (the last member's leaving deletes it)."""
    services().groups.leave(players.current_player(), group_id)
    return "", 204
