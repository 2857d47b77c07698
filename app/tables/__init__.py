"""Tables: 2 to 6 seats, friends and bots, a turn clock, live for every seat.

The feature whole, in layers each importing only those below it: its refusals (``errors.py``),
its Redis store of lobbies and codes (``store.py``), its events in a Redis stream served as
Server-Sent Events (``events.py``, ``sse.py``) under caps on open streams (``stream_caps.py``),
the server's turn clock and its move (``turn_clock.py``, ``clock_move.py``), the service on the
match engine of ``app/matches/service.py`` (``service.py``); then its edge: the JSON API and its
OpenAPI part (``routes.py``, ``openapi.py``) and its pages (``pages.py``, ``templates/tables/``;
their scripts are ``app/static/js/table*.js``). Nothing below the edge imports ``app.api``, and
the match engine imports nothing of the tables.
"""

from flask import Flask

from app.tables.turn_clock import ClockRunner


def init_app(app: Flask) -> None:
    """Add the tables' API routes, their part of the OpenAPI document and their pages."""
    # Imported here: importing the package for its store or its service (as the services'
    # wiring does) must not load its edge, which imports that wiring.
    from app.api.openapi import add_part
    from app.tables import openapi, pages, routes

    app.register_blueprint(routes.bp)
    app.register_blueprint(pages.bp)
    add_part(app, openapi.paths, openapi.SCHEMAS)


def start_turn_clock(app) -> ClockRunner | None:
    """Start the turn clock's thread of a Yacht Daily app (a bare WSGI app gets none)."""
    from app.services import EXTENSION  # the wiring imports the service: loaded when called

    extensions = getattr(app, "extensions", {})
    if EXTENSION not in extensions:
        return None
    tables = extensions[EXTENSION].tables
    runner = ClockRunner(tables.clock, tables.expire)
    runner.start()
    return runner
