"""The player's web pages: server-rendered Jinja templates plus small ES modules (static/js),
in English, French and Hungarian, behind strict security headers.

``init_app(app)`` wires it all: the language (Flask-Babel), the pages, the templates (the
shared ones in ``app/templates/``, each feature's in ``app/<feature>/templates/<feature>/``),
the headers, static files under content-hashed addresses with compressed responses
(``static_files``), and the installable app's manifest and service worker (``pwa``).
"""

from pathlib import Path

from flask import Flask
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader

from app.api.errors import PAGE_ERRORS
from app.boards.figures import loss_text
from app.web import rules_pages  # noqa: F401  (its routes join the pages' blueprint)
from app.web.error_pages import error_page
from app.web.headers import add_security_headers
from app.web.locale import init_locale
from app.web.pages import bp
from app.web.pwa import init_pwa
from app.web.static_files import init_static


def init_app(app: Flask) -> None:
    """Add the pages, their templates, their languages and the security headers to ``app``."""
    init_locale(app)
    app.jinja_loader = template_loader(app)
    app.register_blueprint(bp)
    app.extensions[PAGE_ERRORS] = error_page
    app.after_request(add_security_headers)
    app.add_template_filter(loss_text)
    init_static(app)
    init_pwa(app)  # the installable app: its manifest and service worker at the root


def template_loader(app: Flask) -> BaseLoader:
    """The app's own templates (``app/templates/``: what every page shares), then every
    feature's ``app/<feature>/templates/`` folder, whose templates are named
    ``<feature>/<name>.html``."""
    features = sorted(str(folder) for folder in Path(app.root_path).glob("*/templates")
                      if folder.is_dir())
    return ChoiceLoader([app.jinja_loader, FileSystemLoader(features)])
