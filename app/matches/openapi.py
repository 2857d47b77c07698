"""The matches' part of the OpenAPI document (docs/api.md, "Matches"): practice games and games
against the computer, joined into ``openapi_document`` by ``app.api.openapi``."""

from fairness import RULESETS
from fairness.match import MATCH_TYPES
from strategy.bots import LEVELS

_MATCH_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
_HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_TIME = {"type": "string", "format": "date-time"}
_CLIENT_SEED = {"type": "string", "pattern": "^[A-Za-z0-9._~-]{1,64}$"}
_SHEET = {"type": "string", "enum": list(RULESETS)}
_STATUS = {"type": "string", "enum": ["playing", "finished", "expired"]}
_HOLD = {"type": ["array", "null"], "items": {"type": "boolean"}, "minItems": 5, "maxItems": 5}
_NUMBER = {"type": "integer", "minimum": 0, "maximum": 1000,
           "description": "The number of the match's action the client believes is next "
                          "(next_action: every seat's actions counted)."}
_NULLABLE_INT = {"type": ["integer", "null"]}


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


MATCH_SCHEMAS = {
    "MatchSeat": {"type": "object", "required": [
        "seat", "kind", "player", "bot", "name", "client_seed", "finished", "dice",
        "rolls_in_turn", "rolls_left", "boxes", "totals", "transcript"], "properties": {
        "seat": {"type": "integer", "minimum": 0}, "kind": {"enum": ["human", "bot"]},
        "player": {"type": ["string", "null"]},
        "bot": {"oneOf": [{"enum": list(LEVELS)}, {"type": "null"}]},
        "name": {"type": "string"}, "client_seed": {"oneOf": [_CLIENT_SEED, {"type": "null"}]},
        "finished": {"type": "boolean"},
        "dice": {"type": ["array", "null"], "items": {"type": "integer"}},
        "rolls_in_turn": {"type": "integer"}, "rolls_left": {"type": "integer"},
        "boxes": {"type": "object", "additionalProperties": {"type": "integer"}},
        "totals": {"type": "object"},
        "transcript": {"type": "array", "items": _ref("Action")}}},
    "Match": {"type": "object", "required": [
        "id", "kind", "ruleset", "status", "epoch", "created_at", "updated_at", "ended_at",
        "expires_at", "commitment", "dealing", "next_action", "turn", "round", "rounds", "you",
        "hints", "seats", "order", "play", "ranks", "result", "server_seed"], "properties": {
        "id": _MATCH_ID, "kind": {"enum": ["practice", "computer", "table"]}, "ruleset": _SHEET,
        "status": _STATUS, "epoch": {"type": "integer"}, "created_at": _TIME,
        "updated_at": _TIME, "ended_at": {"oneOf": [_TIME, {"type": "null"}]},
        "expires_at": {"oneOf": [_TIME, {"type": "null"}],
                       "description": "When the match expires unless someone acts (24 h idle)."},
        "commitment": _HEX64,
        "dealing": {"enum": ["per-turn", "duplicate", "sequential"],
                    "description": "How each seat takes its rolls from its stream, bound by the "
                                   "commitment (FAIRNESS.md, \"Dealing\"); duplicate: every "
                                   "seat reads seat 0's stream, the same dice each turn."},
        "next_action": {"type": "integer"},
        "turn": {**_NULLABLE_INT, "description": "The seat to act (null once over)."},
        "round": _NULLABLE_INT, "rounds": {"type": "integer"},
        "you": {**_NULLABLE_INT, "description": "The caller's seat, if any."},
        "hints": {"type": "boolean"},
        "seats": {"type": "array", "items": _ref("MatchSeat")},
        "order": {"type": "array", "items": {"type": "integer"},
                  "description": "The seat of each action, in play order (of a duplicate "
                                 "table's match being played, the actions the caller may see: "
                                 "the other seats' of the round in play are withheld, and "
                                 "their seats shown as they stood before it)."},
        "play": {"oneOf": [{"type": "object", "required": ["allowed", "previews", "restriction"],
                            "properties": {"allowed": {"type": "array",
                                                       "items": {"type": "string"}},
                                           "previews": {"type": "object"},
                                           "restriction": {"type": ["object", "null"]}}},
                           {"type": "null"}]},
        "ranks": {"type": ["array", "null"], "items": {"type": "integer"}},
        "result": {"oneOf": [_ref("MatchResult"), {"type": "null"}]},
        "server_seed": {"oneOf": [_HEX64, {"type": "null"}]}}},
    "MatchResult": {"type": "object", "description": "FAIRNESS.md, \"Games on their own\".",
                    "required": ["type", "match", "kind", "ruleset", "epoch", "created_at",
                                 "ended_at", "commitment", "server_seed", "client_seeds",
                                 "seats", "winners", "finished", "sig"], "properties": {
                        "type": {"enum": list(MATCH_TYPES)}, "match": _MATCH_ID,
                        "dealing": {"enum": ["per-turn", "duplicate"],
                                    "description": "A v2 result's only (v1: none)."},
                        "client_seeds": {"type": "array", "items": _CLIENT_SEED},
                        "winners": {"type": "array", "items": {"type": "integer"}},
                        "finished": {"type": "boolean"}, "sig": {"type": "string"}}},
    "MatchAnswer": {"type": "object", "required": ["match"],
                    "properties": {"match": _ref("Match")}},
    "Hint": {"type": "object", "required": ["best", "runner_up"], "properties": {
        "best": _ref("Choice"), "runner_up": {"oneOf": [_ref("Choice"), {"type": "null"}]}},
        "description": "A keep's choice also carries ``hold``: the five dice to hold."},
}


def match_paths() -> dict:
    """The routes of matches."""
    match = {"name": "match_id", "in": "path", "required": True, "schema": _MATCH_ID}
    lang = {"name": "lang", "in": "query", "required": False,
            "schema": {"type": "string", "enum": ["en", "fr", "hu"]}}
    answer = _ref("MatchAnswer")
    return {
        "/matches": {"post": {
            "summary": "A new practice game (no bots) or game against 1 to 5 bots",
            "requestBody": _body({"type": "object", "required": ["ruleset"], "properties": {
                "ruleset": _SHEET,
                "bots": {"type": "array", "maxItems": 5, "items": {"enum": list(LEVELS)}},
                "name": {"type": "string", "minLength": 1, "maxLength": 24},
                "duplicate": {"type": "boolean", "default": False,
                              "description": "Deal every seat the same dice each turn "
                                             "(dealing duplicate)."}}}),
            "responses": {"201": _json(answer, "Created: the commitment, no seed yet."),
                          **_errors(400, 413, 415)}}},
        "/matches/{match_id}": {"get": {
            "summary": "A match (anyone with its id); at the end its signed result and seed",
            "parameters": [match, lang],
            "responses": {"200": _json(answer, "The match."), **_errors(404)}}},
        "/matches/{match_id}/roll": {"post": {
            "summary": "Roll the caller's dice not held (client_seed on the seat's first roll)",
            "parameters": [match, lang],
            "requestBody": _body({"type": "object", "required": ["roll"], "properties": {
                "roll": _NUMBER, "hold": _HOLD, "client_seed": _CLIENT_SEED}}),
            "responses": {"200": _json(answer, "The match after the roll."),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/matches/{match_id}/score": {"post": {
            "summary": "Fill a box of the caller's sheet; the bots then play their turns",
            "parameters": [match, lang],
            "requestBody": _body({"type": "object", "required": ["roll", "category"],
                                  "properties": {"roll": _NUMBER,
                                                 "category": {"type": "string"}}}),
            "responses": {"200": _json(answer, "The match after the scoring and the bots."),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/matches/{match_id}/advance": {"post": {
            "summary": "Play the bots' turns still due (left while the tables were loading; "
                       "a table's match: 409 table-match)",
            "parameters": [match, lang],
            "responses": {"200": _json(answer, "The match."), **_errors(404, 409)}}},
        "/matches/{match_id}/hint": {"get": {
            "summary": "The best keep or box for the caller's dice and the runner-up (one "
                       "human only)",
            "parameters": [match],
            "responses": {"200": _json({"type": "object", "required": ["hint"],
                                        "properties": {"hint": _ref("Hint")}}, "The hint."),
                          **_errors(403, 404, 409)}}},
        "/matches/{match_id}/review": {"get": {
            "summary": "The coach's review of one seat's game, once the match is over",
            "parameters": [match, {"name": "seat", "in": "query", "required": False,
                                   "schema": {"type": "integer", "minimum": 0}}],
            "responses": {"200": _json({"type": "object"}, "The review (docs/strategy.md), "
                                                           "with match and seat."),
                          **_errors(400, 404, 409)}}},
    }
