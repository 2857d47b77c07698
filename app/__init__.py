"""Yacht Daily's web service: the Flask app factory.

``create_app(test_config)`` reads settings from the environment (``config``), lets
``test_config`` override them, loads the data directory's secrets and wires the services and
the blueprints. Extensions add themselves with their own ``init_app(app)`` here.
"""

from importlib import import_module

from flask import Flask

from app import observability, servicelog, services, tables, web
from app.api import errors
from app.config import settings_from_env
from app.players import service as players
from app.web.static_files import static_url_path

# Their routes join ``api``.
API_FEATURES = ("daily", "players", "boards", "coach", "ledger", "groups")
# Their ``pages.py`` add their pages to the pages' blueprint ``web``, before it is registered.
PAGE_FEATURES = ("daily", "boards", "players", "ledger", "coach", "matches", "groups")


# What ``create_app`` imports as it builds (the features' edges import the wiring, so the package
# cannot import them itself): a server's master imports them before forking (``preload``).
FACTORY_MODULES = (
    *(f"app.{feature}.routes" for feature in (*API_FEATURES, "daylog", "matches", "tables",
                                              "servicelog")),
    *(f"app.{feature}.openapi" for feature in (*API_FEATURES, "daylog", "matches", "tables",
                                               "servicelog")),
    *(f"app.{feature}.pages" for feature in (*PAGE_FEATURES, "tables")),
    "app.api.routes", "app.api.openapi", "app.observability.answer_hooks",
    "app.observability.health", "app.observability.limits", "app.observability.logs",
    "app.observability.metrics", "app.observability.proxy", "app.observability.storage_errors",
)


def preload() -> None:
    """What each worker of a server would otherwise do for itself, done once in its master
    before the fork (gunicorn's ``on_starting`` hook, once the metrics directory is set):
    import ``FACTORY_MODULES`` and read the saved strategy tables of the daily sheets. The
    workers start with both, and share the tables' memory. Builds nothing, opens no connection
    and starts no thread; a table not saved yet is left to the workers."""
    from app.coach.tables import preload_tables
    from app.config import strategy_dir

    for name in FACTORY_MODULES:
        import_module(name)
    preload_tables(strategy_dir(settings_from_env()))


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; ``test_config`` overrides the environment's settings."""
    app = Flask(__name__, static_url_path=static_url_path())
    app.config.from_mapping(settings_from_env())
    if test_config:
        app.config.from_mapping(test_config)
    services.init_app(app)
    errors.init_app(app)
    players.init_app(app)

    _add_api(app)
    for feature in PAGE_FEATURES:
        import_module(f"app.{feature}.pages")
    from app.daylog.routes import bp as logs_blueprint
    from app.matches.routes import bp as matches_blueprint

    app.register_blueprint(logs_blueprint)
    app.register_blueprint(matches_blueprint)
    tables.init_app(app)
    servicelog.init_app(app)
    web.init_app(app)
    observability.init_app(app)
    return app


def _add_api(app: Flask) -> None:
    """Register the API's shared blueprint once every feature has added its routes to it (their
    modules imported in ``API_FEATURES``' order, the order of its URL rules, ``/openapi.json``
    last), and join the features' parts of the OpenAPI document."""
    from app.api.blueprint import bp
    from app.api.openapi import add_part
    from app.matches.openapi import MATCH_SCHEMAS, match_paths

    for feature in API_FEATURES:
        import_module(f"app.{feature}.routes")
    import_module("app.api.routes")
    app.register_blueprint(bp)
    for feature in (*API_FEATURES, "daylog"):
        part = import_module(f"app.{feature}.openapi")
        add_part(app, part.paths, part.SCHEMAS)
    add_part(app, match_paths, MATCH_SCHEMAS)
