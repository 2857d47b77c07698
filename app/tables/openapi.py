"""The tables' part of the OpenAPI document (docs/api.md, "Tables"), joined to it by
``app.api.openapi.add_part``."""

from fairness import RULESETS
from strategy.bots import LEVELS

_TABLE_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
_CODE = {"type": "string", "pattern": "^[0-9A-Za-z]{6}$"}
_SEED = {"type": "string", "pattern": "^[A-Za-z0-9._~-]{1,64}$"}
_NAME = {"type": "string", "minLength": 1, "maxLength": 24, "pattern": r"\S"}
_ACTION = {"type": "integer", "minimum": 0, "maximum": 1000,
           "description": "The number of the action the client believes is next."}
_SEAT_SPEC = {"oneOf": [
    {"type": "object", "required": ["kind"], "properties": {
        "kind": {"const": "human"}, "here": {"const": False}}},
    {"type": "object", "required": ["kind", "here", "name", "client_seed"], "properties": {
        "kind": {"const": "human"}, "here": {"const": True}, "name": _NAME,
        "client_seed": _SEED}},
    {"type": "object", "required": ["kind", "level"], "properties": {
        "kind": {"const": "bot"}, "level": {"type": "string", "enum": list(LEVELS)}}}]}

SCHEMAS = {
    "Table": {"type": "object", "required": [
        "id", "code", "ruleset", "clock", "duplicate", "status", "created_at", "creator", "seats",
        "you", "seconds_left", "join_url", "watch_url", "match"], "properties": {
        "id": _TABLE_ID, "code": _CODE, "ruleset": {"type": "string"},
        "clock": {"type": ["integer", "null"]},
        "duplicate": {"type": "boolean",
                      "description": "Its match deals duplicate: every seat the same dice each "
                                     "turn."},
        "status": {"type": "string", "enum": ["waiting", "playing", "finished", "expired"]},
        "created_at": {"type": "string", "format": "date-time"},
        "creator": {"type": "boolean"},
        "seats": {"type": "array", "items": {"type": "object", "required": [
            "seat", "kind", "name", "bot", "taken", "here"]}},
        "you": {"type": "array", "items": {"type": "integer"}},
        "seconds_left": {"type": ["number", "null"]},
        "join_url": {"type": "string"}, "watch_url": {"type": "string"},
        "shared": {"type": "integer",
                   "description": "A duplicate table's, once started: how many of the match's "
                                  "actions every viewer sees (its complete rounds; all once it "
                                  "is over)."},
        "yours": {"type": "array",
                  "items": {"type": "object", "required": ["number", "seat", "entry"]},
                  "description": "A duplicate table's, once started: the caller's seats' "
                                 "actions after the shared ones, with their action numbers."},
        "match": {"type": ["object", "null"],
                  "description": "The engine's view of the table's match (see Matches); "
                                 "the answer to a roll or a box leaves out the seats' "
                                 "transcript and the order while the match is played. At a "
                                 "duplicate table being played, the other seats' actions of "
                                 "the round being played are withheld from the caller."}}},
    "TableAnswer": {"type": "object", "required": ["table"],
                    "properties": {"table": {"$ref": "#/components/schemas/Table"}}},
}


def _answer(description: str) -> dict:
    """A ``{"table": …}`` JSON response."""
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/TableAnswer"}}}}


def _errors(*statuses: int) -> dict:
    """Error responses with the standard error body."""
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


def _body(properties: dict, required: list[str]) -> dict:
    """A required JSON request body."""
    return {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": required, "properties": properties}}}}


def paths() -> dict:
    """The tables' routes."""
    table = {"name": "table", "in": "path", "required": True, "schema": _TABLE_ID}
    return {
        "/tables": {"post": {
            "summary": "Create a table (2 to 6 seats, bots, clock); the caller holds seat 0",
            "requestBody": _body({
                "ruleset": {"type": "string", "enum": list(RULESETS)},
                "seats": {"type": "array", "minItems": 1, "maxItems": 5, "items": _SEAT_SPEC},
                "clock": {"type": ["integer", "null", "boolean"],
                          "description": "Seconds for the three rolls together (3 to 600); 0, "
                                         "false or null: no clock; absent: 45."},
                "duplicate": {"type": "boolean", "default": False,
                              "description": "Deal every seat the same dice each turn "
                                             "(dealing duplicate)."},
                "name": _NAME, "client_seed": _SEED}, ["ruleset", "seats", "client_seed"]),
            "responses": {"201": _answer("Created."), **_errors(400, 413, 415)}}},
        "/tables/{table}": {"get": {
            "summary": "A table as it stands (anyone with its id: the spectator's view too)",
            "parameters": [table],
            "responses": {"200": _answer("The table."), **_errors(404)}}},
        "/tables/code/{code}": {"get": {
            "summary": "The table a short code joins",
            "parameters": [{"name": "code", "in": "path", "required": True, "schema": _CODE}],
            "responses": {"200": _answer("The table."), **_errors(404)}}},
        "/tables/{table}/join": {"post": {
            "summary": "Take an open seat with a name and a client seed",
            "parameters": [table],
            "requestBody": _body({"name": _NAME, "client_seed": _SEED}, ["client_seed"]),
            "responses": {"200": _answer("Seated."), **_errors(400, 404, 409, 413, 415)}}},
        "/tables/{table}/start": {"post": {
            "summary": "Start the table (its creator, every seat taken)",
            "parameters": [table],
            "responses": {"200": _answer("Started."), **_errors(403, 404, 409)}}},
        "/tables/{table}/roll": {"post": {
            "summary": "Roll the dice not held on the caller's turn",
            "parameters": [table],
            "requestBody": _body({"hold": {"type": ["array", "null"], "minItems": 5,
                                           "maxItems": 5, "items": {"type": "boolean"}},
                                  "roll": _ACTION}, ["roll"]),
            "responses": {"200": _answer("Rolled."), **_errors(400, 403, 404, 409, 413, 415)}}},
        "/tables/{table}/score": {"post": {
            "summary": "Fill a box with the caller's dice; the bots then play",
            "parameters": [table],
            "requestBody": _body({"category": {"type": "string"}, "roll": _ACTION},
                                 ["category", "roll"]),
            "responses": {"200": _answer("Scored."), **_errors(400, 403, 404, 409, 413, 415)}}},
        "/tables/{table}/again": {"post": {
            "summary": "Play again: the table that follows this one, over (the same for every "
                       "seat that asks): same sheet, clock and bots, the caller seated",
            "parameters": [table],
            "requestBody": {"required": False, "content": {"application/json": {"schema": {
                "type": "object", "properties": {"client_seed": _SEED}}}}},
            "responses": {"200": _answer("The following table."),
                          **_errors(400, 403, 404, 409, 413, 415)}}},
        "/tables/{table}/events": {"get": {
            "summary": "The table's live events (Server-Sent Events), resumed after "
                       "Last-Event-ID",
            "parameters": [table, {"name": "Last-Event-ID", "in": "header", "required": False,
                                   "schema": {"type": "string"}}],
            "responses": {"200": {"description": "snapshot, joined, started, actions, ended "
                                                 "events (docs/api.md).",
                                  "content": {"text/event-stream": {"schema": {
                                      "type": "string"}}}}, **_errors(404)}}},
    }
