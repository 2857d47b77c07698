"""The service log's JSON in the OpenAPI document (docs/api.md, "The service log"): its
identity, consistency proofs and each day checkpoint's entry, joined to it by
``app.api.openapi.add_part``. Its C2SP tlog-tiles resources under ``/log`` are not part of the
JSON API (c2sp.org/tlog-tiles is their contract)."""

from app.api.openapi import DATE, RULESET, answer, errors, path_param, ref, size_param

BASE64_HASH = {"type": "string", "pattern": "^[A-Za-z0-9+/]{43}=$"}

SCHEMAS = {
    "ServiceLog": {
        "type": "object", "required": ["origin", "vkey", "size", "checkpoint", "witnesses"],
        "description": "The service log: one C2SP tiled log whose entries are the day logs' "
                       "signed checkpoints (served under /log: checkpoint, tile/…).",
        "properties": {
            "origin": {"type": "string"},
            "vkey": {"type": "string", "description": "The log key as a C2SP vkey."},
            "size": {"type": "integer", "minimum": 0},
            "checkpoint": {"type": ["string", "null"],
                           "description": "The latest signed checkpoint with its witnesses' "
                                          "cosignature lines (null before the first)."},
            "witnesses": {"type": "array", "items": {"type": "string"},
                          "description": "The configured witnesses' vkeys."}}},
    "ServiceLogEntry": {
        "type": "object", "required": ["index", "size", "entry", "proof"],
        "properties": {
            "index": {"type": "integer", "minimum": 0},
            "size": {"type": "integer", "minimum": 1},
            "entry": {"type": "string", "description": "The day checkpoint's signed note, "
                                                       "the entry's bytes in UTF-8."},
            "proof": {"type": "array", "items": BASE64_HASH,
                      "description": "RFC 9162 inclusion proof in the tree of size."}}},
}


def paths() -> dict:
    """The service log's JSON routes."""
    return {
        "/log": {"get": {
            "summary": "The service log's origin, key, latest checkpoint and witnesses",
            "responses": {"200": answer(ref("ServiceLog"), "The service log.")}}},
        "/log/consistency": {"get": {
            "summary": "The consistency proof between two checkpointed sizes of the service log",
            "parameters": [size_param("old", True), size_param("size", True)],
            "responses": {"200": answer({"type": "object",
                                         "required": ["old", "size", "proof", "subproof"],
                                         "properties": {"old": {"type": "integer"},
                                                        "size": {"type": "integer"},
                                                        "proof": {"type": "array",
                                                                  "items": BASE64_HASH},
                                                        "subproof": {"type": "array",
                                                                     "items": BASE64_HASH}}},
                                        "The proof."), **errors(400, 404)}}},
        "/log/entries/{date}/{sheet}/{position}": {"get": {
            "summary": "A day checkpoint's entry in the service log and its inclusion proof",
            "parameters": [path_param("date", DATE), path_param("sheet", RULESET),
                           path_param("position", {"type": "integer", "minimum": 0}),
                           size_param("size", False)],
            "responses": {"200": answer(ref("ServiceLogEntry"), "The entry."),
                          **errors(400, 404)}}},
    }
