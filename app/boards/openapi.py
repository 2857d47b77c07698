"""The boards' part of the OpenAPI document (docs/api.md): the leaderboard by points or by
skill, joined to it by ``app.api.openapi.add_part``."""

from app.api.openapi import DATE, RULESET, answer, errors, path_param, ref

_SKILL_ORDER = "Fewest points lost first; equal losses in the order their games finished."
_SKILL_RANK = ("Competition rank by loss to the hundredth alone: equal losses share a rank "
               "(1, 2, 2, 4); the total never breaks a tie.")

SCHEMAS = {
    "PointsBoard": {"type": "object", "required": [
        "date", "ruleset", "players", "top", "you", "distribution"], "properties": {
        "date": DATE, "ruleset": RULESET, "players": {"type": "integer"},
        "top": {"type": "array", "items": {"type": "object", "properties": {
            "rank": {"type": "integer"}, "player": {"type": "string"},
            "name": {"type": ["string", "null"]}, "total": {"type": "integer"}}}},
        "you": {"oneOf": [{"type": "object", "properties": {
            "rank": {"type": "integer"}, "total": {"type": "integer"}}},
            {"type": "null"}]},
        "distribution": {"type": "array", "items": {"type": "object", "properties": {
            "from": {"type": "integer"}, "to": {"type": "integer"},
            "count": {"type": "integer"}}}}}},
    "SkillBoard": {"type": "object", "required": [
        "date", "ruleset", "by", "players", "top", "you"], "properties": {
        "date": DATE, "ruleset": RULESET, "by": {"const": "skill"},
        "players": {"type": "integer"},
        "top": {"type": "array", "description": _SKILL_ORDER, "items": {
            "type": "object", "required": ["rank", "player", "name", "loss", "total"],
            "properties": {
            "rank": {"type": "integer", "description": _SKILL_RANK},
            "player": {"type": "string"},
            "name": {"type": ["string", "null"]}, "loss": {"type": "number", "minimum": 0},
            "total": {"type": "integer"}}}},
        "you": {"oneOf": [{"type": "object", "required": ["rank", "loss", "total"],
                           "properties": {"rank": {"type": "integer",
                                                   "description": _SKILL_RANK},
                                          "loss": {"type": "number"},
                                          "total": {"type": "integer"}}},
                          {"type": "null"}]}}},
}


def paths() -> dict:
    """The boards' routes."""
    date_param = path_param("date", DATE)
    ruleset_param = path_param("ruleset", RULESET)
    return {
        "/leaderboard/{date}/{ruleset}": {"get": {
            "summary": "Top totals (or, by=skill, the fewest points lost to perfect play), the "
                       "caller's rank and the distribution",
            "parameters": [date_param, ruleset_param,
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                           {"name": "by", "in": "query", "required": False,
                            "schema": {"type": "string", "enum": ["points", "skill"]},
                            "description": "points (default) or skill."}],
            "responses": {"200": answer({"anyOf": [ref("PointsBoard"), ref("SkillBoard")]},
                                        "The leaderboard."),
                **errors(400)}}},
    }
