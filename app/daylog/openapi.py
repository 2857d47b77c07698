"""The day's log in the OpenAPI document (docs/api.md, FAIRNESS.md "The day's log"): the
logs, their checkpoints, consistency proofs and cosignatures, joined to it by
``app.api.openapi.add_part``."""

from app.api.openapi import DATE, HEX64, RULESET, answer, body, errors, path_param, ref, size_param

SCHEMAS = {
    "Log": {
        "type": "object", "required": ["checkpoints"],
        "description": "A (date, sheet)'s published log (FAIRNESS.md, \"The day's log\").",
        "properties": {"checkpoints": {"type": "array", "items": {
            "type": "object", "required": ["note", "consistency"],
            "properties": {"note": {"type": "string", "description": "The signed checkpoint "
                                                                     "note, cosignatures "
                                                                     "included."},
                           "consistency": {"type": "array", "items": HEX64}}}}},
    },
}


def paths() -> dict:
    """The log's routes."""
    date_param = path_param("date", DATE)
    sheet_param = path_param("sheet", RULESET)
    return {
        "/logs": {"get": {
            "summary": "Every log with a checkpoint of the open dates and of those closed in "
                       "the last 3 days",
            "responses": {"200": answer({"type": "object", "required": ["logs"], "properties": {
                "logs": {"type": "array", "items": {
                    "type": "object", "required": ["date", "sheet", "origin", "size", "closed"],
                    "properties": {"date": DATE, "sheet": RULESET,
                                   "origin": {"type": "string"}, "size": {"type": "integer"},
                                   "closed": {"type": "boolean"}}}}}}, "The logs.")}}},
        "/logs/{date}/{sheet}": {"get": {
            "summary": "The published log so far (before the reveal too)",
            "parameters": [date_param, sheet_param],
            "responses": {"200": answer(ref("Log"), "The log."), **errors(400, 404)}}},
        "/logs/{date}/{sheet}/checkpoint": {"get": {
            "summary": "The log's latest signed checkpoint, with its cosignatures",
            "parameters": [date_param, sheet_param],
            "responses": {"200": answer({"type": "object", "required": ["note"], "properties": {
                "note": {"type": "string"}}}, "The checkpoint."), **errors(400, 404)}}},
        "/logs/{date}/{sheet}/consistency": {"get": {
            "summary": "The consistency proof between two checkpoint sizes of the log",
            "parameters": [date_param, sheet_param, size_param("from", True),
                           size_param("to", True)],
            "responses": {"200": answer({"type": "object", "required": ["from", "to", "proof"],
                                         "properties": {"from": {"type": "integer"},
                                                        "to": {"type": "integer"},
                                                        "proof": {"type": "array",
                                                                  "items": HEX64}}},
                                        "The proof."), **errors(400, 404)}}},
        "/logs/{date}/{sheet}/cosignatures": {"post": {
            "summary": "A configured witness's cosignature of one of the log's checkpoints",
            "parameters": [date_param, sheet_param],
            "requestBody": body({"type": "object", "required": ["body", "signature"],
                                 "properties": {
                                     "body": {"type": "string",
                                              "description": "The checkpoint body."},
                                     "signature": {"type": "string",
                                                   "description": "One C2SP tlog-cosignature "
                                                                  "signature line."}}}),
            "responses": {"201": answer({"type": "object", "required": ["ok"], "properties": {
                "ok": {"const": True}}}, "Kept (again: idempotent)."),
                **errors(400, 403, 404, 409, 413, 415)}}},
    }
