"""The coach's part of the OpenAPI document (docs/api.md, docs/strategy.md): a game's review
and a day's references, joined to it by ``app.api.openapi.add_part``."""

from app.api.openapi import DATE, GAME_ID, RULESET, answer, errors, path_param, ref

SCHEMAS = {
    "Choice": {"type": "object", "required": ["kind", "expected"], "properties": {
        "kind": {"type": "string", "enum": ["keep", "box"]},
        "keep": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}},
        "box": {"type": "string"}, "expected": {"type": "number"}}},
    "Review": {"type": "object", "required": [
        "game", "date", "ruleset", "player", "name", "total", "finished", "start", "value",
        "loss", "luck", "decisions", "rolls", "turns"], "properties": {
        "game": GAME_ID, "date": DATE, "ruleset": RULESET, "player": {"type": "string"},
        "name": {"type": ["string", "null"]}, "total": {"type": "integer"},
        "finished": {"type": "boolean"}, "start": {"type": "number"},
        "value": {"type": "number"}, "loss": {"type": "number"}, "luck": {"type": "number"},
        "decisions": {"type": "array", "items": {"type": "object", "required": [
            "turn", "action", "dice", "rolls_left", "best", "chosen", "loss"], "properties": {
            "turn": {"type": "integer"}, "action": {"type": "integer"},
            "dice": {"type": "array", "items": {"type": "integer"}},
            "rolls_left": {"type": "integer"}, "best": ref("Choice"),
            "chosen": ref("Choice"), "loss": {"type": "number"}}}},
        "rolls": {"type": "array", "items": {"type": "object", "required": [
            "turn", "action", "dice", "before", "after", "luck"], "properties": {
            "turn": {"type": "integer"}, "action": {"type": "integer"},
            "dice": {"type": "array", "items": {"type": "integer"}},
            "before": {"type": "number"}, "after": {"type": "number"},
            "luck": {"type": "number"}}}},
        "turns": {"type": "array", "items": {"type": "object", "required": [
            "turn", "box", "points", "loss", "luck"], "properties": {
            "turn": {"type": "integer"}, "box": {"type": ["string", "null"]},
            "points": {"type": ["integer", "null"]}, "loss": {"type": "number"},
            "luck": {"type": "number"}}}}}},
    "References": {"type": "object", "required": [
        "date", "ruleset", "optimum", "perfect", "foresight"], "properties": {
        "date": DATE, "ruleset": RULESET, "optimum": {"type": "number"},
        "perfect": {"type": "object", "required": ["total", "transcript"], "properties": {
            "total": {"type": "integer"},
            "transcript": {"type": "array", "items": ref("Action")}}},
        "foresight": {"type": "object", "required": ["total", "line"], "properties": {
            "total": {"type": "integer"},
            "line": {"type": "array", "items": ref("Action")}}}}},
}


def paths() -> dict:
    """The coach's routes."""
    date_param = path_param("date", DATE)
    ruleset_param = path_param("ruleset", RULESET)
    game_param = path_param("game_id", GAME_ID)
    return {
        "/games/{game_id}/review": {"get": {
            "summary": "The review of a game against perfect play (the owner's once finished, "
                       "anyone's once its date is revealed)",
            "parameters": [game_param],
            "responses": {"200": answer(ref("Review"), "The review (docs/strategy.md)."),
                          **errors(403, 404, 409)}}},
        "/days/{date}/{ruleset}/references": {"get": {
            "summary": "A revealed day's perfect-policy game and perfect-foresight maximum",
            "parameters": [date_param, ruleset_param],
            "responses": {"200": answer(ref("References"), "The references (Cache-Control: "
                                                          "public, immutable; ETag)."),
                          "304": {"description": "Not modified."},
                          **errors(400, 404)}}},
    }
