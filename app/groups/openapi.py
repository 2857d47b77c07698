"""The friend groups' part of the OpenAPI document (docs/api.md, "Groups"), joined to it by
``app.api.openapi.add_part``."""

from app.api.openapi import DATE, RULESET, TIME, answer, body, errors, path_param, ref
from app.groups.service import (
    CODE_LENGTH,
    GROUP_LIMIT,
    MEMBER_LIMIT,
    MEMBER_NAME_MAX_LENGTH,
    NAME_MAX_LENGTH,
)

_CODE = {"type": "string", "pattern": "^[0-9A-Z]{5}-[0-9A-Z]{5}$"}
_GROUP_ID = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
_PSEUDONYM = {"type": "string", "description": "The member's public pseudonym (p-…)."}
_LOSS = {"type": ["number", "null"], "minimum": 0,
         "description": "Points lost to perfect play, to the hundredth (the skill figure)."}
_NAME = {"type": "string", "maxLength": NAME_MAX_LENGTH}
_MEMBER_NAME = {"type": "string", "maxLength": MEMBER_NAME_MAX_LENGTH,
                "description": "This player's name in the group; by default the name they last "
                               "played under."}

_TABLE = {"type": "object", "required": ["from", "to", "members"], "properties": {
    "from": DATE, "to": DATE,
    "members": {"type": "array", "description": "Lowest mean loss first; members without a "
                                                "game last.",
                "items": {"type": "object",
                          "required": ["player", "name", "you", "games", "mean_loss", "best"],
                          "properties": {
                              "player": _PSEUDONYM, "name": {"type": "string"},
                              "you": {"type": "boolean"}, "games": {"type": "integer"},
                              "mean_loss": _LOSS,
                              "best": {"oneOf": [{"type": "null"}, {
                                  "type": "object", "description": "The game that lost fewest "
                                                                   "points.",
                                  "properties": {"date": DATE, "ruleset": RULESET,
                                                 "total": {"type": "integer"},
                                                 "loss": _LOSS}}]}}}}}}

SCHEMAS = {
    "Group": {"type": "object",
              "required": ["id", "name", "code", "created_at", "member_count", "member_limit"],
              "properties": {
                  "id": _GROUP_ID, "name": _NAME, "code": _CODE, "created_at": TIME,
                  "member_count": {"type": "integer"},
                  "member_limit": {"type": "integer", "const": MEMBER_LIMIT},
                  "members": {"type": "array", "items": {
                      "type": "object", "required": ["player", "name", "you", "joined_at"],
                      "properties": {"player": _PSEUDONYM, "name": {"type": "string"},
                                     "you": {"type": "boolean"}, "joined_at": TIME}}}}},
    "GroupBoard": {"type": "object",
                   "required": ["group", "date", "sheets", "week", "month"],
                   "properties": {
                       "group": ref("Group"), "date": DATE,
                       "sheets": {"type": "array", "items": {
                           "type": "object", "required": ["ruleset", "finished", "members"],
                           "properties": {
                               "ruleset": RULESET,
                               "finished": {"type": "boolean",
                                            "description": "Whether you have finished your "
                                                           "own game of the sheet."},
                               "members": {"type": "array", "items": {
                                   "type": "object",
                                   "required": ["player", "name", "you", "status", "hidden",
                                                "total", "loss"],
                                   "properties": {
                                       "player": _PSEUDONYM, "name": {"type": "string"},
                                       "you": {"type": "boolean"},
                                       "status": {"type": "string", "enum": [
                                           "finished", "playing", "not-played"]},
                                       "hidden": {"type": "boolean", "description":
                                                  "Figures withheld until you finish your own "
                                                  "game of the sheet (or the date is over)."},
                                       "total": {"type": ["integer", "null"]},
                                       "loss": _LOSS}}}}}},
                       "week": _TABLE, "month": _TABLE}},
}


def paths() -> dict:
    """The friend groups' routes."""
    group = path_param("group_id", _GROUP_ID)
    code = {"type": "string", "maxLength": 4 * CODE_LENGTH,
            "description": "Any case; spaces and dashes ignored; O reads as 0, I and L as 1."}
    return {
        "/groups": {
            "get": {"summary": "This player's friend groups",
                    "responses": {"200": answer({"type": "object", "properties": {
                        "groups": {"type": "array", "items": ref("Group")},
                        "group_limit": {"type": "integer", "const": GROUP_LIMIT}}},
                        "The groups, by name (none without a player cookie).")}},
            "post": {"summary": "Create a friend group, this player its first member",
                     "requestBody": body({"type": "object", "required": ["name"], "properties": {
                         "name": _NAME, "member_name": _MEMBER_NAME}}),
                     "responses": {"201": answer(ref("Group"), "The new group."),
                                   **errors(400, 409, 413, 415)}}},
        "/groups/join": {"post": {
            "summary": "Join a friend group by its invite code (rate limited per address with "
                       "the transfer codes; every attempt counts)",
            "requestBody": body({"type": "object", "required": ["code"], "properties": {
                "code": code, "member_name": _MEMBER_NAME}}),
            "responses": {"200": answer(ref("Group"), "The group joined (or already a "
                                                      "member's)."),
                          **errors(400, 404, 409, 413, 415)}}},
        "/groups/{group_id}": {"get": {
            "summary": "A group's board of a date: its members' games, the week and the month",
            "parameters": [group, {"name": "date", "in": "query", "required": False,
                                   "schema": DATE, "description": "The UTC date by default."}],
            "responses": {"200": answer(ref("GroupBoard"), "The board."),
                          **errors(400, 404)}}},
        "/groups/{group_id}/rename": {"post": {
            "summary": "Rename a group (any member may)",
            "parameters": [group],
            "requestBody": body({"type": "object", "required": ["name"],
                                 "properties": {"name": _NAME}}),
            "responses": {"200": answer(ref("Group"), "The renamed group."),
                          **errors(400, 404, 413, 415)}}},
        "/groups/{group_id}/leave": {"post": {
            "summary": "Leave a group; the last member's leaving deletes it",
            "parameters": [group],
            "responses": {"204": {"description": "Left."}, **errors(404)}}},
    }
