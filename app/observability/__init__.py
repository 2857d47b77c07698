"""What operators need around the service: logs, metrics, health checks, rate limits.

``init_app(app)`` runs last in the app factory, once the API's routes and error handlers exist.
The modules are imported there, not here: the gunicorn master imports this package (for its
hooks and JSON logger) and must not import prometheus_client before it has set
``PROMETHEUS_MULTIPROC_DIR`` for its workers.
"""


def init_app(app) -> None:
    """Add structured logs, metrics, /healthz and /readyz, Redis error counting, rate limits,
    then fold the after-request hooks into one (``answer_hooks``)."""
    from app.observability import (
        answer_hooks,
        health,
        limits,
        logs,
        metrics,
        proxy,
        storage_errors,
    )

    logs.init_app(app)
    metrics.init_app(app)
    health.init_app(app)
    storage_errors.init_app(app)
    limits.init_app(app)
    proxy.init_app(app)
    answer_hooks.init_app(app)  # last: it folds every after-request hook registered so far
