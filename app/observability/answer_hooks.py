"""The after-request work of every answer in one hook, a short one for the JSON API;
the before-request work in one hook too.

Flask calls each after-request function through ``ensure_sync`` (an ``inspect`` check per
function per request) and a JSON API answer ran them all: the static files' cache headers, the
page language's ``Vary`` parsed as a set, Flask-Compress's checks on an answer too small to
compress. Folded into one hook, a page still gets every hook in Flask's order; an API answer
(under ``/api/``) gets those it needs — the rate limits' Retry-After and refunds, its count and
latency in the metrics, its request id, the security headers (``nosniff`` and the framing rules
matter for JSON too), its ``Vary`` and the ``?lang=`` cookie — called directly, and compression
only from ``API_MIN_SIZE`` bytes (1 KB: a mid-game answer is about 2.5 KB) and only when the
client names an encoding Flask-Compress offers (else only its ``Vary``); a streamed answer
(a table's events) goes as it is, as its ``Cache-Control: no-transform`` asks.
"""

from flask import Flask, request
from flask_compress import Compress

from app.web.static_files import cache_forever

API_PREFIX = "/api/"
API_MIN_SIZE = 1024
# Page hooks an API answer skips: the static files' cache headers (never an API answer) and
# compression (applied by size below).
_NOT_FOR_API = (cache_forever,)


def is_compression(hook) -> bool:
    """True for Flask-Compress's after-request hook."""
    return isinstance(getattr(hook, "__self__", None), Compress)


def offered_encoding_named(algorithms) -> bool:
    """True when the request's Accept-Encoding names one of ``algorithms`` at all: without one,
    Flask-Compress chooses none and only adds ``Accept-Encoding`` to ``Vary`` (an HTTP library
    asking for ``identity`` or nothing; its checks cost ~10 µs an answer)."""
    accepted = request.environ.get("HTTP_ACCEPT_ENCODING", "")
    return bool(accepted) and any(name in accepted for name in algorithms)


def vary_on_encoding(response) -> None:
    """Add ``Accept-Encoding`` to the response's ``Vary``, as Flask-Compress does."""
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "Accept-Encoding"
    elif "accept-encoding" not in vary.lower():
        response.headers["Vary"] = f"{vary}, Accept-Encoding"


def init_app(app: Flask) -> None:
    """Replace the app's after-request functions (registered by then) with one that runs them
    all for a page and the API's short list for an API answer; the before-request ones with
    one too."""
    hooks = app.after_request_funcs.setdefault(None, [])
    in_order = tuple(reversed(hooks))  # Flask runs the last registered first
    compress = next((hook for hook in in_order if is_compression(hook)), None)
    algorithms = compress.__self__.enabled_algorithms if compress is not None else ()
    for_api = tuple(hook for hook in in_order
                    if hook not in _NOT_FOR_API and not is_compression(hook))

    def after_request(response):
        """Every hook for a page; the API's, then compression if the answer is large."""
        if not request.path.startswith(API_PREFIX):
            for hook in in_order:
                response = hook(response)
            return response
        for hook in for_api:
            response = hook(response)
        if compress is not None and (response.content_length or 0) >= API_MIN_SIZE:
            if offered_encoding_named(algorithms):
                return compress(response)
            vary_on_encoding(response)  # what Flask-Compress does when it can choose none
        return response

    hooks[:] = [after_request]
    fold_before_request(app)


def fold_before_request(app: Flask) -> None:
    """Replace the app's own before-request functions (the request id, the metrics' timer) with
    one that calls them in order, stopping at the first that answers, as Flask does."""
    hooks = app.before_request_funcs.setdefault(None, [])
    in_order = tuple(hooks)

    def before_request():
        """Each hook in turn; the first answer stops the request."""
        for hook in in_order:
            answer = hook()
            if answer is not None:
                return answer
        return None

    hooks[:] = [before_request]
