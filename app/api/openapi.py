"""The OpenAPI 3.1 document of ``/api/v1``, kept true to docs/api.md.

A feature package adds its own part (``add_part``, from its ``init_app``: the tables' is
``app/tables/openapi.py``), so that this module imports no feature that builds on the API.
"""

from collections.abc import Callable, Iterable, Mapping

from flask import Flask

from app.matches.openapi import MATCH_SCHEMAS, match_paths
from fairness.sheets import ANY_DAILY_RULESETS

VERSION = "1.0.0"
OPENAPI_PARTS = "openapi-parts"


def _ref(name: str) -> dict:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str) -> dict:
    """A JSON response."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict:
    """Error responses with the standard error body."""
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


def _body(schema: dict) -> dict:
    """A required JSON request body."""
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _path_param(name: str, schema: dict) -> dict:
    """A path parameter."""
    return {"name": name, "in": "path", "required": True, "schema": schema}


_DATE = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
_TIME = {"type": "string", "format": "date-time"}
_HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_GAME_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
_RULESET = {"type": "string", "enum": list(ANY_DAILY_RULESETS)}
_LANG = {"name": "lang", "in": "query", "required": False,
         "schema": {"type": "string", "enum": ["en", "fr"]},
         "description": "Language of messages (else Accept-Language)."}
_DAY_GAME = {"type": "object", "properties": {
    "id": _GAME_ID, "player": {"type": "string"}, "name": {"type": ["string", "null"]},
    "status": {"type": "string"},
    "scouting": {"type": "boolean", "description": "An abandoned game that looks like scouting "
                 "(docs/api.md): three unheld rolls every turn, never finished."},
    "transcript": {"type": "array", "items": _ref("Action")},
    "receipt": {"oneOf": [_ref("Receipt"), {"type": "null"}]}}}
_NAMES = {"type": "object", "properties": {"en": {"type": "string"}, "fr": {"type": "string"}},
          "required": ["en", "fr"]}

_SKILL_ORDER = "Fewest points lost first; equal losses in the order their games finished."
_SKILL_RANK = ("Competition rank by loss to the hundredth alone: equal losses share a rank "
               "(1, 2, 2, 4); the total never breaks a tie.")

_SCHEMAS = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "object", "required": ["code", "message"],
                      "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
            "game": _ref("Game"),
        },
    },
    "Ruleset": {
        "type": "object",
        "required": ["id", "names", "upper_bonus", "extra_bonus", "joker", "categories"],
        "properties": {
            "id": {"type": "string"},
            "names": _NAMES,
            "upper_bonus": {"type": "integer"},
            "extra_bonus": {"type": "integer"},
            "joker": {"type": "boolean"},
            "categories": {"type": "array", "items": {
                "type": "object", "required": ["id", "section", "names", "rule"],
                "properties": {"id": {"type": "string"},
                               "section": {"type": "string", "enum": ["upper", "lower"]},
                               "names": _NAMES, "rule": _NAMES}}},
        },
    },
    "Challenge": {
        "type": "object",
        "required": ["date", "ruleset", "epoch", "day", "anchor", "status", "opens_at", "ends_at",
                     "closes_at", "reveal_at", "game"],
        "properties": {
            "date": _DATE, "ruleset": _RULESET, "epoch": {"type": "integer"},
            "day": {"type": "integer", "minimum": 1}, "anchor": _HEX64,
            "status": {"type": "string", "enum": ["upcoming", "open", "closed", "revealed"]},
            "opens_at": _TIME, "ends_at": _TIME, "closes_at": _TIME, "reveal_at": _TIME,
            "game": {"oneOf": [_GAME_ID, {"type": "null"}]},
        },
    },
    "Action": {
        "oneOf": [
            {"type": "object", "required": ["action", "hold", "dice"], "properties": {
                "action": {"const": "roll"},
                "hold": {"type": "array", "items": {"type": "boolean"}, "minItems": 5,
                         "maxItems": 5},
                "dice": {"type": "array", "items": {"type": "integer", "minimum": 1,
                                                    "maximum": 6}, "minItems": 5, "maxItems": 5}}},
            {"type": "object", "required": ["action", "category", "points", "bonus"],
             "properties": {"action": {"const": "score"}, "category": {"type": "string"},
                            "points": {"type": "integer"}, "bonus": {"type": "integer"}}},
        ],
    },
    "Receipt": {
        "type": "object",
        "required": ["type", "game", "epoch", "date", "ruleset", "player", "transcript_sha256",
                     "total", "sig"],
        "description": "v1, or on a day of the log (v2) with its leaf index and finish time.",
        "properties": {
            "type": {"enum": ["yacht-daily/receipt/v1", "yacht-daily/receipt/v2"]},
            "game": _GAME_ID,
            "epoch": {"type": "integer"}, "date": _DATE, "ruleset": _RULESET,
            "player": {"type": "string"}, "transcript_sha256": _HEX64,
            "total": {"type": "integer"}, "sig": {"type": "string", "pattern": "^[0-9a-f]{128}$"},
            "index": {"type": "integer", "description": "v2: the game's leaf in its log."},
            "finished_at": _TIME,
        },
    },
    "Log": {
        "type": "object", "required": ["checkpoints"],
        "description": "A (date, sheet)'s published log (FAIRNESS.md, \"The day's log\").",
        "properties": {"checkpoints": {"type": "array", "items": {
            "type": "object", "required": ["note", "consistency"],
            "properties": {"note": {"type": "string", "description": "The signed checkpoint "
                                                                     "note, cosignatures "
                                                                     "included."},
                           "consistency": {"type": "array", "items": _HEX64}}}}},
    },
    "GameCheckpoint": {
        "type": "object", "required": ["size", "fingerprint", "note"],
        "description": "The latest checkpoint of the game's log that covers it.",
        "properties": {"size": {"type": "integer"},
                       "fingerprint": {"type": "string", "description": "FAIRNESS.md, "
                                       "\"Gossip\": size and 20 base32 characters."},
                       "note": {"type": "string"}},
    },
    "Game": {
        "type": "object",
        "required": ["id", "date", "ruleset", "player", "name", "status", "next_action", "turn",
                     "turns", "dice", "rolls_in_turn", "rolls_left", "boxes", "allowed",
                     "previews", "restriction", "totals", "transcript", "receipt", "token"],
        "properties": {
            "id": _GAME_ID, "date": _DATE, "ruleset": _RULESET, "player": {"type": "string"},
            "name": {"type": ["string", "null"]},
            "status": {"type": "string", "enum": ["playing", "finished", "abandoned"]},
            "next_action": {"type": "integer"}, "turn": {"type": "integer"},
            "turns": {"type": "integer"},
            "dice": {"oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
            "rolls_in_turn": {"type": "integer"}, "rolls_left": {"type": "integer"},
            "boxes": {"type": "object", "additionalProperties": {"type": "integer"}},
            "allowed": {"type": "array", "items": {"type": "string"}},
            "previews": {"type": "object", "additionalProperties": {"type": "integer"}},
            "restriction": {"oneOf": [
                {"type": "object", "required": ["code", "message"],
                 "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
                {"type": "null"}]},
            "totals": {"type": "object", "required": ["upper", "upper_bonus", "lower",
                                                      "extra_bonus", "total"],
                       "additionalProperties": {"type": "integer"}},
            "transcript": {"type": "array", "items": _ref("Action")},
            "receipt": {"oneOf": [_ref("Receipt"), {"type": "null"}]},
            "checkpoint": {"oneOf": [_ref("GameCheckpoint"), {"type": "null"}],
                           "description": "A finished game of a v2 day only."},
            "token": {"type": "string", "description": "The game's compact state: echo it as "
                                                      "the next action's `token`."},
        },
    },
    "GameAnswer": {"type": "object", "required": ["game"], "properties": {"game": _ref("Game")}},
    "LedgerEntry": {
        "type": "object",
        "required": ["type", "seq", "prev", "sig"],
        "description": "An epoch or reveal entry; formats in FAIRNESS.md.",
        "properties": {
            "type": {"type": "string",
                     "enum": ["yacht-daily/epoch/v1", "yacht-daily/epoch/v2",
                              "yacht-daily/reveal/v1", "yacht-daily/reveal/v2"]},
            "seq": {"type": "integer"}, "prev": _HEX64, "sig": {"type": "string"},
        },
    },
    "Proof": {
        "type": "object", "required": ["index", "size", "path"],
        "properties": {"index": {"type": "integer"}, "size": {"type": "integer"},
                       "path": {"type": "array", "items": _HEX64}},
    },
    "HistoryGame": {
        "type": "object",
        "required": ["kind", "game", "date", "ruleset", "started_at", "finished", "total",
                     "finished_at", "status"],
        "properties": {
            "kind": {"type": "string", "enum": ["daily"]}, "game": _GAME_ID, "date": _DATE,
            "ruleset": _RULESET, "started_at": {"oneOf": [_TIME, {"type": "null"}]},
            "finished": {"type": "boolean"}, "total": {"type": ["integer", "null"]},
            "finished_at": {"oneOf": [_TIME, {"type": "null"}]},
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
                    "ruleset": _RULESET, "finished": {"type": "integer"},
                    "current_streak": {"type": "integer"}, "best_streak": {"type": "integer"},
                    "best_total": {"type": ["integer", "null"]},
                    "distribution": {"type": "array", "items": {"type": "object", "properties": {
                        "from": {"type": "integer"}, "to": {"type": "integer"},
                        "count": {"type": "integer"}}}}}}},
            "games": {"type": "array", "items": _ref("HistoryGame")},
            "matches": {"type": "array", "items": {"type": "object"},
                        "description": "Practice games and games against the computer, the "
                                       "latest first (docs/api.md, \"Matches\")."},
        },
    },
    "PointsBoard": {"type": "object", "required": [
        "date", "ruleset", "players", "top", "you", "distribution"], "properties": {
        "date": _DATE, "ruleset": _RULESET, "players": {"type": "integer"},
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
        "date": _DATE, "ruleset": _RULESET, "by": {"const": "skill"},
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
    "Choice": {"type": "object", "required": ["kind", "expected"], "properties": {
        "kind": {"type": "string", "enum": ["keep", "box"]},
        "keep": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6}},
        "box": {"type": "string"}, "expected": {"type": "number"}}},
    "Review": {"type": "object", "required": [
        "game", "date", "ruleset", "player", "name", "total", "finished", "start", "value",
        "loss", "luck", "decisions", "rolls", "turns"], "properties": {
        "game": _GAME_ID, "date": _DATE, "ruleset": _RULESET, "player": {"type": "string"},
        "name": {"type": ["string", "null"]}, "total": {"type": "integer"},
        "finished": {"type": "boolean"}, "start": {"type": "number"},
        "value": {"type": "number"}, "loss": {"type": "number"}, "luck": {"type": "number"},
        "decisions": {"type": "array", "items": {"type": "object", "required": [
            "turn", "action", "dice", "rolls_left", "best", "chosen", "loss"], "properties": {
            "turn": {"type": "integer"}, "action": {"type": "integer"},
            "dice": {"type": "array", "items": {"type": "integer"}},
            "rolls_left": {"type": "integer"}, "best": _ref("Choice"),
            "chosen": _ref("Choice"), "loss": {"type": "number"}}}},
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
        "date": _DATE, "ruleset": _RULESET, "optimum": {"type": "number"},
        "perfect": {"type": "object", "required": ["total", "transcript"], "properties": {
            "total": {"type": "integer"},
            "transcript": {"type": "array", "items": _ref("Action")}}},
        "foresight": {"type": "object", "required": ["total", "line"], "properties": {
            "total": {"type": "integer"},
            "line": {"type": "array", "items": _ref("Action")}}}}},
    "Check": {
        "type": "object", "required": ["name", "ok", "detail"],
        "properties": {"name": {"type": "string"}, "ok": {"type": ["boolean", "null"]},
                       "detail": {"type": "string"}},
    },
}

_ERROR_TEXTS = {
    400: "Malformed or invalid input.",
    403: "The game belongs to another player and its date is not revealed.",
    404: "Not found (or not revealed yet).",
    409: "Conflict with the game's or the day's state; carries the game when there is one.",
    413: "Body larger than 16 KiB.",
    415: "POST body not sent as application/json.",
    429: "Too many requests from this client or on this game; retry after Retry-After seconds.",
    503: "The store is unreachable, or (code tables-not-ready) the strategy tables are being "
         "computed; retry after Retry-After seconds.",
}


def _size_param(name: str, required: bool) -> dict:
    """A tree size in the query."""
    return {"name": name, "in": "query", "required": required,
            "schema": {"type": "integer", "minimum": 0}}


def _paths() -> dict:
    """Every route of the API."""
    date_param = _path_param("date", _DATE)
    ruleset_param = _path_param("ruleset", _RULESET)
    game_param = _path_param("game_id", _GAME_ID)
    sheet_param = _path_param("sheet", _RULESET)
    action = {"roll": {"type": "integer", "minimum": 0, "maximum": 1000,
                       "description": "The number of the action the client believes is next."},
              "token": {"type": "string", "maxLength": 1000,
                        "description": "The token of the game answer the action follows "
                                       "(optional): any server applies the action in one "
                                       "Redis round trip if the game is still in that state."}}
    return {
        "/rulesets": {"get": {
            "summary": "The daily sheets and their boxes",
            "responses": {"200": _json({"type": "object", "required": ["rulesets"], "properties": {
                "rulesets": {"type": "array", "items": _ref("Ruleset")}}}, "The sheets.")}}},
        "/challenges": {"get": {
            "summary": "Each sheet's challenge on a date and this player's game",
            "parameters": [{"name": "date", "in": "query", "required": False, "schema": _DATE}],
            "responses": {"200": _json({"type": "object", "required": ["date", "now", "challenges"],
                                        "properties": {"date": _DATE, "now": _TIME,
                                                       "challenges": {"type": "array",
                                                                      "items": _ref("Challenge")}}},
                                       "The challenges."), **_errors(400, 404)}}},
        "/games": {"post": {
            "summary": "Create or resume this player's game",
            "requestBody": _body({"type": "object", "required": ["ruleset", "date"], "properties": {
                "ruleset": _RULESET, "date": _DATE,
                "name": {"type": "string", "minLength": 1, "maxLength": 24, "pattern": r"\S",
                         "description": "Printable characters only; surrounding spaces are "
                                        "removed."}}}),
            "responses": {"200": _json(_ref("GameAnswer"), "Resumed."),
                          "201": _json(_ref("GameAnswer"), "Created."),
                          **_errors(400, 404, 409, 413, 415)}}},
        "/games/{game_id}": {"get": {
            "summary": "A game (own, or anyone's once revealed)", "parameters": [game_param, _LANG],
            "responses": {"200": _json(_ref("GameAnswer"), "The game."), **_errors(403, 404)}}},
        "/games/{game_id}/roll": {"post": {
            "summary": "Roll the dice not held", "parameters": [game_param, _LANG],
            "requestBody": _body({"type": "object", "required": ["roll"], "properties": {
                **action, "hold": {"type": ["array", "null"], "items": {"type": "boolean"},
                                   "minItems": 5, "maxItems": 5}}}),
            "responses": {"200": _json(_ref("GameAnswer"), "The game after the roll."),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/games/{game_id}/score": {"post": {
            "summary": "Fill a box with the current dice", "parameters": [game_param, _LANG],
            "requestBody": _body({"type": "object", "required": ["category", "roll"],
                                  "properties": {**action, "category": {"type": "string"}}}),
            "responses": {"200": _json(_ref("GameAnswer"), "The game after scoring."),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/games/{game_id}/share": {"get": {
            "summary": "The spoiler-free share text of a finished game",
            "parameters": [game_param, _LANG],
            "responses": {"200": {"description": "Plain text.",
                                  "content": {"text/plain": {"schema": {"type": "string"}}}},
                          **_errors(403, 404, 409)}}},
        "/games/{game_id}/proof": {"get": {
            "summary": "The receipt's inclusion proof in its revealed date's root; on a v2 day "
                       "in its log's latest checkpoint (or ?size=), before the reveal too",
            "parameters": [game_param, _size_param("size", False)],
            "responses": {"200": _json({"type": "object",
                                        "required": ["date", "ruleset", "receipt", "proof", "root",
                                                     "entry"],
                                        "properties": {"date": _DATE, "ruleset": _RULESET,
                                                       "receipt": _ref("Receipt"),
                                                       "proof": _ref("Proof"), "root": _HEX64,
                                                       "entry": {"type": ["integer", "null"]},
                                                       "checkpoint": {"type": "string"}}},
                                       "The proof (v2: checkpoint = the signed note it is "
                                       "against; entry null before the reveal)."),
                          **_errors(400, 403, 404)}}},
        "/me/history": {"get": {
            "summary": "This player's games, streaks, best totals and distribution of totals",
            "responses": {"200": _json(_ref("History"), "The player's record (empty without a "
                                                        "player cookie).")}}},
        "/me/transfer": {"post": {
            "summary": "A one-time code carrying this player's identity to another device",
            "responses": {"201": _json({"type": "object",
                                        "required": ["code", "expires_at", "expires_in"],
                                        "properties": {
                                            "code": {"type": "string",
                                                     "pattern": "^[0-9A-Z]{5}-[0-9A-Z]{5}$"},
                                            "expires_at": _TIME,
                                            "expires_in": {"type": "integer"}}},
                                       "The code."), **_errors(409)}}},
        "/me/transfer/redeem": {"post": {
            "summary": "Take on the identity a transfer code carries (the code is used up)",
            "requestBody": _body({"type": "object", "required": ["code"], "properties": {
                "code": {"type": "string", "maxLength": 40,
                         "description": "Any case; spaces and dashes ignored; O reads as 0, "
                                        "I and L as 1."}}}),
            "responses": {"200": _json(_ref("History"), "This browser now holds the player's "
                                                        "identity; their record."),
                          **_errors(400, 404, 413, 415)}}},
        "/leaderboard/{date}/{ruleset}": {"get": {
            "summary": "Top totals (or, by=skill, the fewest points lost to perfect play), the "
                       "caller's rank and the distribution",
            "parameters": [date_param, ruleset_param,
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                           {"name": "by", "in": "query", "required": False,
                            "schema": {"type": "string", "enum": ["points", "skill"]},
                            "description": "points (default) or skill."}],
            "responses": {"200": _json({"anyOf": [_ref("PointsBoard"), _ref("SkillBoard")]},
                                       "The leaderboard."),
                **_errors(400)}}},
        "/games/{game_id}/review": {"get": {
            "summary": "The review of a game against perfect play (the owner's once finished, "
                       "anyone's once its date is revealed)",
            "parameters": [game_param],
            "responses": {"200": _json(_ref("Review"), "The review (docs/strategy.md)."),
                          **_errors(403, 404, 409)}}},
        "/days/{date}/{ruleset}/references": {"get": {
            "summary": "A revealed day's perfect-policy game and perfect-foresight maximum",
            "parameters": [date_param, ruleset_param],
            "responses": {"200": _json(_ref("References"), "The references (Cache-Control: "
                                                          "public, immutable; ETag)."),
                          "304": {"description": "Not modified."},
                          **_errors(400, 404)}}},
        "/ledger": {"get": {
            "summary": "Every ledger entry",
            "responses": {"200": _json({"type": "object", "required": ["entries"], "properties": {
                "entries": {"type": "array", "items": _ref("LedgerEntry")}}}, "The ledger.")}}},
        "/ledger/{date}": {"get": {
            "summary": "A date's reveal entry", "parameters": [date_param],
            "responses": {"200": _json({"type": "object", "required": ["entry"], "properties": {
                "entry": _ref("LedgerEntry")}}, "The reveal."), **_errors(400, 404)}}},
        "/days/{date}/{ruleset}/games": {"get": {
            "summary": "A page of the games of a revealed date in id order, for a public audit",
            "parameters": [date_param, ruleset_param,
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
                           {"name": "after", "in": "query", "required": False,
                            "schema": _GAME_ID},
                           {"name": "If-None-Match", "in": "header", "required": False,
                            "schema": {"type": "string"},
                            "description": "The ETag of a page already held: 304 if unchanged."}],
            "responses": {"200": _json({"type": "object",
                                        "required": ["date", "ruleset", "total", "games", "next"],
                                        "properties": {"date": _DATE, "ruleset": _RULESET,
                                                       "total": {"type": "integer"},
                                                       "games": {"type": "array",
                                                                 "items": _DAY_GAME},
                                                       "next": {"oneOf": [_GAME_ID,
                                                                          {"type": "null"}]}}},
                                       "A page of the day's games (Cache-Control: public, "
                                       "immutable; ETag)."),
                          "304": {"description": "Not modified: the If-None-Match page."},
                          **_errors(400, 404, 429)}}},
        "/verify": {"post": {
            "summary": "Recompute a game against the ledger, check by check",
            "requestBody": _body({"oneOf": [
                {"type": "object", "required": ["game"], "properties": {"game": _GAME_ID}},
                {"type": "object", "required": ["receipt", "transcript"], "properties": {
                    "receipt": {"type": "object"}, "transcript": {"type": "array"},
                    "proof": {"oneOf": [_ref("Proof"), {"type": "null"}]}}}]}),
            "responses": {"200": _json({"type": "object", "required": ["ok", "checks"],
                                        "properties": {"ok": {"type": "boolean"},
                                                       "checks": {"type": "array",
                                                                  "items": _ref("Check")}}},
                                       "The checks."), **_errors(400, 403, 404, 409, 413, 415)}}},
        "/logs": {"get": {
            "summary": "Every log with a checkpoint of the open dates and of those closed in "
                       "the last 3 days",
            "responses": {"200": _json({"type": "object", "required": ["logs"], "properties": {
                "logs": {"type": "array", "items": {
                    "type": "object", "required": ["date", "sheet", "origin", "size", "closed"],
                    "properties": {"date": _DATE, "sheet": _RULESET,
                                   "origin": {"type": "string"}, "size": {"type": "integer"},
                                   "closed": {"type": "boolean"}}}}}}, "The logs.")}}},
        "/logs/{date}/{sheet}": {"get": {
            "summary": "The published log so far (before the reveal too)",
            "parameters": [date_param, sheet_param],
            "responses": {"200": _json(_ref("Log"), "The log."), **_errors(400, 404)}}},
        "/logs/{date}/{sheet}/checkpoint": {"get": {
            "summary": "The log's latest signed checkpoint, with its cosignatures",
            "parameters": [date_param, sheet_param],
            "responses": {"200": _json({"type": "object", "required": ["note"], "properties": {
                "note": {"type": "string"}}}, "The checkpoint."), **_errors(400, 404)}}},
        "/logs/{date}/{sheet}/consistency": {"get": {
            "summary": "The consistency proof between two checkpoint sizes of the log",
            "parameters": [date_param, sheet_param, _size_param("from", True),
                           _size_param("to", True)],
            "responses": {"200": _json({"type": "object", "required": ["from", "to", "proof"],
                                        "properties": {"from": {"type": "integer"},
                                                       "to": {"type": "integer"},
                                                       "proof": {"type": "array",
                                                                 "items": _HEX64}}},
                                       "The proof."), **_errors(400, 404)}}},
        "/logs/{date}/{sheet}/cosignatures": {"post": {
            "summary": "A configured witness's cosignature of one of the log's checkpoints",
            "parameters": [date_param, sheet_param],
            "requestBody": _body({"type": "object", "required": ["body", "signature"],
                                  "properties": {
                                      "body": {"type": "string",
                                               "description": "The checkpoint body."},
                                      "signature": {"type": "string",
                                                    "description": "One C2SP tlog-cosignature "
                                                                   "signature line."}}}),
            "responses": {"201": _json({"type": "object", "required": ["ok"], "properties": {
                "ok": {"const": True}}}, "Kept (again: idempotent)."),
                **_errors(400, 403, 404, 409, 413, 415)}}},
        "/openapi.json": {"get": {
            "summary": "This document",
            "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1.")}}},
    }


def _with_common_errors(paths: dict) -> dict:
    """Every route may answer 503 (store unreachable); every POST may be rate-limited (429)."""
    for operations in paths.values():
        for method, operation in operations.items():
            operation["responses"].update(_errors(503))
            if method == "post":
                operation["responses"].update(_errors(429))
    return paths


def add_part(app: Flask, paths: Callable[[], dict], schemas: Mapping[str, dict]) -> None:
    """Join a feature's routes (``paths()``, built afresh for each document: the common errors
    are added to them in place) and its schemas to ``app``'s document."""
    app.extensions.setdefault(OPENAPI_PARTS, []).append((paths, schemas))


def openapi_document(parts: Iterable[tuple[Callable[[], dict], Mapping[str, dict]]] = ()) -> dict:
    """The whole OpenAPI 3.1 document, with the features' ``parts`` (``add_part``)."""
    part_paths: dict = {}
    part_schemas: dict = {}
    for paths, schemas in parts:
        part_paths.update(paths())
        part_schemas.update(schemas)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Yacht Daily API", "version": VERSION,
                 "description": "The provably fair daily dice challenge. Contract: docs/api.md; "
                                "published formats: FAIRNESS.md."},
        "servers": [{"url": "/api/v1"}],
        "paths": _with_common_errors({**_paths(), **match_paths(), **part_paths}),
        "components": {
            "schemas": {**_SCHEMAS, **MATCH_SCHEMAS, **part_schemas},
            "responses": {
                f"E{status}": _json(_ref("Error"), text) for status, text in _ERROR_TEXTS.items()
            },
        },
    }
