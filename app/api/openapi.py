"""The OpenAPI 3.1 document of ``/api/v1``, kept true to docs/api.md: what every part shares
(the error body and answers, the common path parameters' schemas, the helpers that write a
route's description) and the document's assembly.

Each feature describes its own routes and schemas beside them (``app/<feature>/openapi.py``:
``paths()`` and ``SCHEMAS``) and ``create_app`` joins them (``add_part``), so that this module
imports no feature.
"""

from collections.abc import Callable, Iterable, Mapping

from flask import Flask

from fairness.sheets import ANY_DAILY_RULESETS

VERSION = "1.4.0"
OPENAPI_PARTS = "openapi-parts"


def ref(name: str) -> dict:
    """A reference to a component schema."""
    return {"$ref": f"#/components/schemas/{name}"}


def answer(schema: dict, description: str) -> dict:
    """A JSON response."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def errors(*statuses: int) -> dict:
    """Error responses with the standard error body."""
    return {str(status): {"$ref": f"#/components/responses/E{status}"} for status in statuses}


def body(schema: dict) -> dict:
    """A required JSON request body."""
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def path_param(name: str, schema: dict) -> dict:
    """A path parameter."""
    return {"name": name, "in": "path", "required": True, "schema": schema}


def size_param(name: str, required: bool) -> dict:
    """A tree size in the query."""
    return {"name": name, "in": "query", "required": required,
            "schema": {"type": "integer", "minimum": 0}}


DATE = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
TIME = {"type": "string", "format": "date-time"}
HEX64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
GAME_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
RULESET = {"type": "string", "enum": list(ANY_DAILY_RULESETS)}
LANG = {"name": "lang", "in": "query", "required": False,
        "schema": {"type": "string", "enum": ["en", "fr", "hu"]},
        "description": "Language of messages (else Accept-Language)."}

_SCHEMAS = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {"type": "object", "required": ["code", "message"],
                      "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
            "game": ref("Game"),
        },
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


def _paths() -> dict:
    """The API's own route."""
    return {
        "/openapi.json": {"get": {
            "summary": "This document",
            "responses": {"200": answer({"type": "object"}, "OpenAPI 3.1.")}}},
    }


def _with_common_errors(paths: dict) -> dict:
    """Every route may answer 503 (store unreachable); every POST may be rate-limited (429)."""
    for operations in paths.values():
        for method, operation in operations.items():
            operation["responses"].update(errors(503))
            if method == "post":
                operation["responses"].update(errors(429))
    return paths


def add_part(app: Flask, paths: Callable[[], dict], schemas: Mapping[str, dict]) -> None:
    """Join a feature's routes (``paths()``, built afresh for each document: the common errors
    are added to them in place) and its schemas to ``app``'s document."""
    app.extensions.setdefault(OPENAPI_PARTS, []).append((paths, schemas))


def openapi_document(parts: Iterable[tuple[Callable[[], dict], Mapping[str, dict]]] = ()) -> dict:
    """The whole OpenAPI 3.1 document, with the features' ``parts`` (``add_part``): the
    common errors added to every route."""
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
        "paths": _with_common_errors({**_paths(), **part_paths}),
        "components": {
            "schemas": {**_SCHEMAS, **part_schemas},
            "responses": {
                f"E{status}": answer(ref("Error"), text) for status, text in _ERROR_TEXTS.items()
            },
        },
    }
