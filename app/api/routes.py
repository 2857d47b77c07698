"""The API's own route, ``GET /api/v1/openapi.json``: the OpenAPI document of every feature's
routes (``openapi.py``), on the blueprint the features share (``blueprint.py``).

The features' routes are in their packages (``app/daily/routes.py``, ``app/players/routes.py``,
``app/boards/routes.py``, ``app/coach/routes.py``, ``app/ledger/routes.py``); they read their
input with ``request.py``.
"""

from flask import current_app, jsonify

from app.api.blueprint import bp
from app.api.openapi import OPENAPI_PARTS, openapi_document


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 description of this API."""
    return jsonify(openapi_document(current_app.extensions.get(OPENAPI_PARTS, ())))
