"""Redis failures answer 503 with Retry-After, never a 500, and are counted.

The service renders a ``redis.RedisError`` as its 503 already; this module counts each one by
type and gives the cluster client's own exceptions (``RedisClusterException``, raised when no
node can be reached or a slot has no node, and not a ``RedisError``) the same answer.
"""

import redis
from redis.exceptions import RedisClusterException

from .metrics import REDIS_ERRORS


def init_app(app) -> None:
    """Count every Redis error the app answers, and answer cluster errors like the others."""
    render_storage_error = app.error_handler_spec[None][None][redis.RedisError]

    def handle_storage_error(error: Exception):
        """Count the error by type, then answer with the service's 503."""
        REDIS_ERRORS.labels(type(error).__name__).inc()
        return render_storage_error(error)

    app.register_error_handler(redis.RedisError, handle_storage_error)
    app.register_error_handler(RedisClusterException, handle_storage_error)
