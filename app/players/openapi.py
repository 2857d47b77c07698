"""The player's record in the OpenAPI document (docs/api.md): history and transfer codes,
joined to it by ``app.api.openapi.add_part``."""

from app.api.openapi import DATE, GAME_ID, RULESET, TIME, answer, body, errors, ref

SCHEMAS = {
    "HistoryGame": {
        "type": "object",
        "required": ["kind", "game", "date", "ruleset", "started_at", "finished", "total",
                     "finished_at", "status"],
        "properties": {
            "kind": {"type": "string", "enum": ["daily"]}, "game": GAME_ID, "date": DATE,
            "ruleset": RULESET, "started_at": {"oneOf": [TIME, {"type": "null"}]},
            "finished": {"type": "boolean"}, "total": {"type": ["integer", "null"]},
            "finished_at": {"oneOf": [TIME, {"type": "null"}]},
            "status": {"type": "string", "enum": ["playing", "finished", "abandoned"]},
        },
    },
    "History": {
        "type": "object",
        "required": ["player", "limit", "finished", "current_streak", "best_streak", "sheets",
                     "games"],
        "properties": {
            "player": {"type": ["string", "null"]}, "limit": {"type": "integer"},
            "finished": {"type": "integer"}, "current_streak": {"type": "integer"},
            "best_streak": {"type": "integer"},
            "sheets": {"type": "array", "items": {
                "type": "object",
                "required": ["ruleset", "finished", "current_streak", "best_streak",
                             "best_total", "distribution"],
                "properties": {
                    "ruleset": RULESET, "finished": {"type": "integer"},
                    "current_streak": {"type": "integer"}, "best_streak": {"type": "integer"},
                    "best_total": {"type": ["integer", "null"]},
                    "distribution": {"type": "array", "items": {"type": "object", "properties": {
                        "from": {"type": "integer"}, "to": {"type": "integer"},
                        "count": {"type": "integer"}}}}}}},
            "games": {"type": "array", "items": ref("HistoryGame")},
            "matches": {"type": "array", "items": {"type": "object"},
                        "description": "Practice games and games against the computer, the "
                                       "latest first (docs/api.md, \"Matches\")."},
        },
    },
}


def paths() -> dict:
    """The player's routes."""
    return {
        "/me/history": {"get": {
            "summary": "This player's games, streaks, best totals and distribution of totals",
            "responses": {"200": answer(ref("History"), "The player's record (empty without a "
                                                        "player cookie).")}}},
        "/me/transfer": {"post": {
            "summary": "A one-time code carrying this player's identity to another device",
            "responses": {"201": answer({"type": "object",
                                         "required": ["code", "expires_at", "expires_in"],
                                         "properties": {
                                             "code": {"type": "string",
                                                      "pattern": "^[0-9A-Z]{5}-[0-9A-Z]{5}$"},
                                             "expires_at": TIME,
                                             "expires_in": {"type": "integer"}}},
                                        "The code."), **errors(409)}}},
        "/me/transfer/redeem": {"post": {
            "summary": "Take on the identity a transfer code carries (the code is used up)",
            "requestBody": body({"type": "object", "required": ["code"], "properties": {
                "code": {"type": "string", "maxLength": 40,
                         "description": "Any case; spaces and dashes ignored; O reads as 0, "
                                        "I and L as 1."}}}),
            "responses": {"200": answer(ref("History"), "This browser now holds the player's "
                                                        "identity; their record."),
                          **errors(400, 404, 413, 415)}}},
    }
