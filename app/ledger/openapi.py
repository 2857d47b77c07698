"""The ledger's part of the OpenAPI document (docs/api.md, FAIRNESS.md): its entries, a
revealed day's games, inclusion proofs and the verification of a game, joined to it by
``app.api.openapi.add_part``."""

from app.api.openapi import DATE, GAME_ID, HEX64, RULESET, answer, body, errors, path_param, ref

_DAY_GAME = {"type": "object", "properties": {
    "id": GAME_ID, "player": {"type": "string"}, "name": {"type": ["string", "null"]},
    "status": {"type": "string"},
    "scouting": {"type": "boolean", "description": "An abandoned game that looks like scouting "
                 "(docs/api.md): three unheld rolls every turn, never finished."},
    "transcript": {"type": "array", "items": ref("Action")},
    "receipt": {"oneOf": [ref("Receipt"), {"type": "null"}]}}}

SCHEMAS = {
    "LedgerEntry": {
        "type": "object",
        "required": ["type", "seq", "prev", "sig"],
        "description": "An epoch or reveal entry; formats in FAIRNESS.md.",
        "properties": {
            "type": {"type": "string",
                     "enum": ["yacht-daily/epoch/v1", "yacht-daily/epoch/v2",
                              "yacht-daily/reveal/v1", "yacht-daily/reveal/v2"]},
            "seq": {"type": "integer"}, "prev": HEX64, "sig": {"type": "string"},
        },
    },
    "Proof": {
        "type": "object", "required": ["index", "size", "path"],
        "properties": {"index": {"type": "integer"}, "size": {"type": "integer"},
                       "path": {"type": "array", "items": HEX64}},
    },
    "Check": {
        "type": "object", "required": ["name", "ok", "detail"],
        "properties": {"name": {"type": "string"}, "ok": {"type": ["boolean", "null"]},
                       "detail": {"type": "string"}},
    },
}


def paths() -> dict:
    """The ledger's and the audit's routes."""
    date_param = path_param("date", DATE)
    ruleset_param = path_param("ruleset", RULESET)
    return {
        "/ledger": {"get": {
            "summary": "Every ledger entry",
            "responses": {"200": answer({"type": "object", "required": ["entries"], "properties": {
                "entries": {"type": "array", "items": ref("LedgerEntry")}}}, "The ledger.")}}},
        "/ledger/{date}": {"get": {
            "summary": "A date's reveal entry", "parameters": [date_param],
            "responses": {"200": answer({"type": "object", "required": ["entry"], "properties": {
                "entry": ref("LedgerEntry")}}, "The reveal."), **errors(400, 404)}}},
        "/days/{date}/{ruleset}/games": {"get": {
            "summary": "A page of the games of a revealed date in id order, for a public audit",
            "parameters": [date_param, ruleset_param,
                           {"name": "limit", "in": "query", "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
                           {"name": "after", "in": "query", "required": False,
                            "schema": GAME_ID},
                           {"name": "If-None-Match", "in": "header", "required": False,
                            "schema": {"type": "string"},
                            "description": "The ETag of a page already held: 304 if unchanged."}],
            "responses": {"200": answer({"type": "object",
                                         "required": ["date", "ruleset", "total", "games", "next"],
                                         "properties": {"date": DATE, "ruleset": RULESET,
                                                        "total": {"type": "integer"},
                                                        "games": {"type": "array",
                                                                  "items": _DAY_GAME},
                                                        "next": {"oneOf": [GAME_ID,
                                                                           {"type": "null"}]}}},
                                        "A page of the day's games (Cache-Control: public, "
                                        "immutable; ETag)."),
                          "304": {"description": "Not modified: the If-None-Match page."},
                          **errors(400, 404, 429)}}},
        "/verify": {"post": {
            "summary": "Recompute a game against the ledger, check by check",
            "requestBody": body({"oneOf": [
                {"type": "object", "required": ["game"], "properties": {"game": GAME_ID}},
                {"type": "object", "required": ["receipt", "transcript"], "properties": {
                    "receipt": {"type": "object"}, "transcript": {"type": "array"},
                    "proof": {"oneOf": [ref("Proof"), {"type": "null"}]}}}]}),
            "responses": {"200": answer({"type": "object", "required": ["ok", "checks"],
                                         "properties": {"ok": {"type": "boolean"},
                                                        "checks": {"type": "array",
                                                                   "items": ref("Check")}}},
                                        "The checks."), **errors(400, 403, 404, 409, 413, 415)}}},
    }
