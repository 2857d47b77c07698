"""Redis failures answer 503 with Retry-After, never a 500, and are counted; so does a process
whose secrets are not the ledger's.

The service renders a ``redis.RedisError`` as its 503 already; this module counts each one by
type and gives the cluster client's own exceptions (``RedisClusterException``, raised when no
node can be reached or a slot has no node, and not a ``RedisError``) the same answer. A
``LedgerMismatch`` (this data directory lacks an epoch the ledger published, or holds other
secrets) must stop the process from dealing dice: 503 until an operator fixes it.
"""

import logging

import redis
from redis.exceptions import RedisClusterException

from app.api.errors import error_response
from app.ledger.service import LedgerMismatch
from app.observability.metrics import REDIS_ERRORS

MISCONFIGURED_RETRY_AFTER = "60"

log = logging.getLogger(__name__)


def init_app(app) -> None:
    """Count every Redis error the app answers, and answer cluster errors like the others."""
    render_storage_error = app.error_handler_spec[None][None][redis.RedisError]

    def handle_storage_error(error: Exception):
        """Count the error by type, then answer with the service's 503."""
        REDIS_ERRORS.labels(type(error).__name__).inc()
        return render_storage_error(error)

    app.register_error_handler(redis.RedisError, handle_storage_error)
    app.register_error_handler(RedisClusterException, handle_storage_error)

    @app.errorhandler(LedgerMismatch)
    def handle_ledger_mismatch(error: LedgerMismatch):
        """Refuse to serve on secrets the ledger does not vouch for."""
        log.error("not serving: %s", error)
        response = error_response(503, "misconfigured",
                                  "This server is being reconfigured; try again later.")
        response.headers["Retry-After"] = MISCONFIGURED_RETRY_AFTER
        return response
