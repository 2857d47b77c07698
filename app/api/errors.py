"""API errors and their JSON rendering: ``{"error": {"code", "message"}}`` with a 4xx (or 503).

Domain errors (the core's typed errors, the services' own ``DomainError``s, each carrying its
status) are answered here, once for the whole app, so that routes stay thin and bad input never
becomes a 500.
"""

import logging

import redis
from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from app.platform.clock import ClockFileError
from app.platform.errors import DomainError
from fairness import errors as core

API_PREFIX = "/api/"
PAGE_ERRORS = "page-errors"
REDIS_RETRY_AFTER = "5"
CLOCK_RETRY_AFTER = "1"
COMPUTING_RETRY_AFTER = "10"

_CORE_STATUS = {
    core.UnknownRuleset: 400,
    core.UnknownCategory: 400,
    core.InvalidHold: 400,
    core.InvalidDate: 400,
    core.ChainError: 404,
    core.LedgerError: 400,
    core.IllegalMove: 409,
}

log = logging.getLogger(__name__)


class ApiError(DomainError):
    """An error the API reports as such, its status given with it: status, stable code, human
    message, extra fields; ``headers`` for the answer (e.g. Retry-After on a 503)."""

    def __init__(self, status: int, code: str, message: str, **extra):
        """Keep what the response will show."""
        super().__init__(code, message, extra=extra)
        self.status = status


def tables_not_ready() -> ApiError:
    """The 503 of an answer that needs a strategy table still being computed."""
    error = ApiError(503, "tables-not-ready",
                     "The strategy tables are being computed; try again shortly.")
    error.headers["Retry-After"] = COMPUTING_RETRY_AFTER
    return error


def error_response(status: int, code: str, message: str, **extra):
    """The JSON error response."""
    response = jsonify({"error": {"code": code, "message": message}, **extra})
    response.status_code = status
    return response


def core_status(error: core.FairnessError) -> int:
    """The HTTP status of a core error."""
    for error_type, status in _CORE_STATUS.items():
        if isinstance(error, error_type):
            return status
    return 400


def page_error(error: HTTPException):
    """The site's own error page for ``error`` (the renderer the pages register under
    ``app.extensions[PAGE_ERRORS]``), else the bare HTTP error."""
    render = current_app.extensions.get(PAGE_ERRORS)
    return render(error) if render else error


def init_app(app: Flask) -> None:
    """Render domain errors, core errors, HTTP errors under /api/ and Redis outages as JSON."""

    @app.errorhandler(DomainError)
    def handle_domain_error(error: DomainError):
        """A refusal a route or a service raised on purpose, with the status it carries (a
        page that shows its own error page for one catches it itself)."""
        response = error_response(error.status, error.code, error.message, **error.extra)
        response.headers.update(error.headers)
        return response

    @app.errorhandler(core.FairnessError)
    def handle_core_error(error: core.FairnessError):
        """A rule or format the core refused."""
        return error_response(core_status(error), error.code, str(error))

    @app.errorhandler(HTTPException)
    def handle_http_error(error: HTTPException):
        """404, 405, 413 … as JSON under /api/, as the site's own error page elsewhere."""
        if not request.path.startswith(API_PREFIX):
            return page_error(error)
        code = (error.name or "error").lower().replace(" ", "-")
        response = error_response(error.code or 500, code, error.description or error.name)
        if error.code == 405 and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response

    @app.errorhandler(redis.RedisError)
    def handle_redis_error(error: redis.RedisError):
        """Redis unreachable or failing: 503, try again shortly."""
        log.warning("redis unavailable: %s", type(error).__name__)
        response = error_response(503, "storage-unavailable",
                                  "The game store is unavailable; try again in a few seconds.")
        response.headers["Retry-After"] = REDIS_RETRY_AFTER
        return response

    @app.errorhandler(ClockFileError)
    def handle_clock_file_error(error: ClockFileError):
        """The test clock file holds no time: 503, and the request is not served on any other
        time (the log line says which file and why)."""
        log.error("%s %s not served: %s", request.method, request.path, error)
        if not request.path.startswith(API_PREFIX):
            return page_error(ServiceUnavailable(retry_after=int(CLOCK_RETRY_AFTER)))
        response = error_response(503, "clock-unreadable", "The server's test clock cannot be "
                                  "read; try again in a moment.")
        response.headers["Retry-After"] = CLOCK_RETRY_AFTER
        return response

    @app.errorhandler(Exception)
    def handle_unexpected_error(error: Exception):
        """A bug: logged with its trace, answered as a 500 (JSON under /api/, else a page)."""
        log.exception("unhandled error on %s %s", request.method, request.path)
        if not request.path.startswith(API_PREFIX):
            return page_error(InternalServerError())
        return error_response(500, "internal-error", "Something went wrong on our side.")
