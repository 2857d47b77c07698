"""The installable app: the web app manifest (``/manifest.webmanifest``), the service worker
(``/sw.js``, served at the site's root so that its scope is the whole site) and the offline page
it keeps (``/offline``); ``init_pwa`` adds them and the pages' link previews.

The service worker (``templates/sw.js``) names the static folder's digest: a deploy that
changes any static file changes its bytes, so browsers install the new one, which drops the
previous cache. It keeps the offline page and the shell that page loads (its styles, icons and
scripts, with the modules those import, under their immutable digest addresses), and answers a
static address from that cache when it holds it; any other static file a page loads comes from
the network and the browser's own cache (it is immutable too), so a first visit downloads only
what the pages it opens need. It never answers ``/api/`` (network only: no game state is ever
kept), and a page navigation goes to the network, falling back to the offline page only when
the network fails. Both files are answered ``no-cache``: a browser checks them on every visit,
and the manifest's icons are digest addresses too.
"""

import json
import re
from pathlib import Path

from flask import (
    Blueprint,
    Flask,
    current_app,
    make_response,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _

from app.web.link_preview import SITE_NAME, link_preview
from app.web.sheets_view import language

bp = Blueprint("pwa", __name__)

THEME_COLOUR = "#1c523c"  # the felt (site.css's --felt-2), as base.html's theme-color
OFFLINE_PATH = "/offline"
# A static file's name in a page (an address ``/static/<digest>/<name>``), and a module's
# static import of a sibling (``import … from "./name.js"``, ``import "./name.js"``).
_STATIC_NAME = r'="{prefix}/([^"?#]+)"'
_SIBLING_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;"]*?(?:\bfrom\s*)?"\./([\w.-]+\.js)"',
                             re.MULTILINE)
_shells: dict[str, list[str]] = {}  # static digest -> the offline page's shell
MANIFEST_ICONS = (
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
)


@bp.app_context_processor
def preview_context() -> dict:
    """``link_preview()`` for every page's head (computed only when a template calls it)."""
    return {"link_preview": link_preview}


def static_digest() -> str:
    """The static folder's digest, the last part of its address ``/static/<digest>``."""
    return current_app.static_url_path.rsplit("/", 1)[-1]


def shell_files() -> list[str]:
    """The static addresses the service worker keeps: what the offline page loads (read from
    the page as rendered) and every module those scripts import, directly or not."""
    digest = static_digest()
    if digest not in _shells:
        page = render_template("offline.html", page="offline")
        pattern = _STATIC_NAME.format(prefix=re.escape(current_app.static_url_path))
        _shells[digest] = [url_for("static", filename=name)
                           for name in sorted(with_imports(re.findall(pattern, page)))]
    return _shells[digest]


def with_imports(names: list[str]) -> set[str]:
    """The static files ``names`` and, for the scripts among them, the sibling modules they
    import, recursively."""
    folder, found, waiting = Path(current_app.static_folder), set(), list(names)
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        if name.endswith(".js"):
            script = (folder / name).read_text(encoding="utf-8")
            base = name.rpartition("/")[0]
            waiting += [f"{base}/{module}" if base else module
                        for module in _SIBLING_IMPORT.findall(script)]
    return found


def no_cache(response):
    """Let a browser keep ``response`` only if it asks the server again before using it."""
    response.cache_control.no_cache = True
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: what a phone or a desktop browser needs to install the site."""
    document = {
        "id": "/",
        "name": SITE_NAME,
        "short_name": SITE_NAME,
        "description": _("A daily dice challenge: the same dice for everyone, and every roll "
                         "checkable in your browser."),
        "lang": language(),
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": [{"src": url_for("static", filename=path), "sizes": sizes, "type": "image/png",
                   "purpose": purpose} for path, sizes, purpose in MANIFEST_ICONS],
    }
    body = json.dumps(document, ensure_ascii=False, indent=1)
    return no_cache(current_app.response_class(body, mimetype="application/manifest+json"))


@bp.get("/sw.js")
def service_worker():
    """The service worker's script, for the scope ``/``."""
    script = render_template("sw.js", version=static_digest(), shell=shell_files(),
                             offline=OFFLINE_PATH, static_prefix=f"{current_app.static_url_path}/")
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    response.add_etag()  # a browser checks it on every visit: unchanged, a 304 answers
    return no_cache(response.make_conditional(request))


@bp.get(OFFLINE_PATH)
def offline():
    """What the service worker shows for a page it cannot fetch, in the reader's language
    (``Content-Language`` tells the worker which it holds)."""
    response = make_response(render_template("offline.html", page="offline"))
    response.headers["Content-Language"] = language()
    response.headers["X-Robots-Tag"] = "noindex"
    return no_cache(response)


def init_pwa(app: Flask) -> None:
    """Serve the manifest, the service worker and the offline page; preview every page."""
    app.register_blueprint(bp)
