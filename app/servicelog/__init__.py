"""The service log: one long-lived C2SP tiled log per service whose entries are the day logs'
signed checkpoints, signed by its own log key and submitted to standard C2SP witnesses.

In layers: its refusals (``errors.py``), its Redis store under ``{slog}`` (``store.py``), its key
(``key.py``), its witnesses' client (``witnesses.py``), the service and its pass
(``service.py``); then its edge: the tlog-tiles resources and the JSON (``routes.py``) and its
OpenAPI part (``openapi.py``), added to an app by ``init_app``.
"""

from flask import Flask


def init_app(app: Flask) -> None:
    """Add the service log's routes and its part of the OpenAPI document (once)."""
    # Imported here: importing the package for its store or its service (as the services'
    # wiring does) must not load its edge, which imports that wiring.
    from app.api.openapi import add_part
    from app.servicelog import openapi, routes

    if routes.api.name in app.blueprints:
        return
    app.register_blueprint(routes.tiles)
    app.register_blueprint(routes.api)
    add_part(app, openapi.paths, openapi.SCHEMAS)
