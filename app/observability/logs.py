"""Structured logs: one JSON object per line, each request tagged with a request id.

The request id comes from the proxy's ``X-Request-ID`` when it looks sane, else a fresh one; it
is echoed in the response and stamped on every log line written while the request runs, the
access log line included (gunicorn reads it back from the response header).
"""

import datetime as dt
import json
import logging
import random
import re
import sys

from flask import g, has_request_context, request
from gunicorn.glogging import Logger as GunicornLogger

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_LOWER = REQUEST_ID_HEADER.lower()
REQUEST_ID_ENVIRON = "HTTP_X_REQUEST_ID"
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._:-]{1,64}")
APP_LOGGER = "app"
APP_HANDLER_MARK = "yacht_daily_handler"
TEXT_FORMAT = "[%(asctime)s] [%(process)d] [%(levelname)s] %(name)s: %(message)s"
_STANDARD_RECORD_KEYS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """Format a log record as one line of JSON with the time, level, logger, message and extras."""

    def format(self, record: logging.LogRecord) -> str:
        """Return ``record`` as a JSON line; ``extra={...}`` keys become top-level fields."""
        line = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            line["request_id"] = request_id
        for key, value in vars(record).items():
            if key not in _STANDARD_RECORD_KEYS and key not in line:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


def current_request_id() -> str | None:
    """The id of the request being handled, or None outside a request."""
    if has_request_context():
        return g.get("request_id")
    return None


def incoming_request_id() -> str:
    """The proxy's request id when it is well formed, else a new random one: 128 bits of the
    ``random`` module (reseeded in every forked worker), which tags log lines and needs no
    secrecy, without a system call per request."""
    given = request.environ.get(REQUEST_ID_ENVIRON)  # no headers object built for it
    if given and REQUEST_ID_PATTERN.fullmatch(given):
        return given
    return f"{random.getrandbits(128):032x}"


def init_app(app) -> None:
    """Log the app's records on stderr (JSON, or plain text when ``LOG_FORMAT`` is ``text``) and
    tag requests and responses with their id."""
    configure_app_logger(app.config.get("LOG_LEVEL", "INFO"), app.config.get("LOG_FORMAT"))

    @app.before_request
    def assign_request_id():
        """Remember this request's id for log lines and the response."""
        g.request_id = incoming_request_id()

    @app.after_request
    def echo_request_id(response):
        """Return the request id to the client and the proxy."""
        if "request_id" in g:
            response.headers[REQUEST_ID_HEADER] = g.request_id
        return response


def configure_app_logger(level: str, log_format: str | None = None) -> logging.Logger:
    """Give the ``app`` logger one stderr handler (once per process) and ``level``: JSON lines,
    or plain text ones for a person at a terminal when ``log_format`` is ``text``."""
    logger = logging.getLogger(APP_LOGGER)
    logger.setLevel(level.upper())
    if not any(getattr(h, APP_HANDLER_MARK, False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(TEXT_FORMAT) if log_format == "text"
                             else JsonFormatter())
        setattr(handler, APP_HANDLER_MARK, True)
        logger.addHandler(handler)
    return logger


class GunicornJsonLogger(GunicornLogger):
    """Gunicorn's logger writing its error log and access log as JSON lines."""

    def setup(self, cfg) -> None:
        """Set gunicorn's handlers up as usual, then make every one of them write JSON."""
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(JsonFormatter())

    def access(self, resp, req, environ, request_time) -> None:
        """Write one JSON access line: method, path, status, bytes, duration, client, request id."""
        if not self.cfg.accesslog:
            return
        request_id = next((value for name, value in resp.headers
                           if name.lower() == REQUEST_ID_LOWER), None)
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        duration_ms = request_time.total_seconds() * 1000
        self.access_log.info(
            "%s %s %s", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), status,
            extra={
                "request_id": request_id,
                "method": environ.get("REQUEST_METHOD"),
                "path": environ.get("PATH_INFO"),
                "query": environ.get("QUERY_STRING") or None,
                "status": int(status),
                "bytes": getattr(resp, "sent", None),
                "duration_ms": round(duration_ms, 3),
                "remote_addr": environ.get("REMOTE_ADDR"),
                "forwarded_for": environ.get("HTTP_X_FORWARDED_FOR"),
                "user_agent": environ.get("HTTP_USER_AGENT"),
            },
        )
