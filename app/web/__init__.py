"""The player's web pages: server-rendered Jinja templates plus small ES modules (static/js),
in English and French, behind strict security headers.

``init_app(app)`` wires it all: the language (Flask-Babel), the pages, the headers.
"""

from flask import Flask

from .headers import add_security_headers
from .locale import init_locale
from .pages import bp


def init_app(app: Flask) -> None:
    """Add the pages, their languages and the security headers to ``app``."""
    init_locale(app)
    app.register_blueprint(bp)
    app.after_request(add_security_headers)
