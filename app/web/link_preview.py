"""What a link to a page shows when it is pasted into a chat or a social site: the Open Graph and
Twitter card tags of every page's head (``base.html`` calls ``link_preview()``).

Every page is previewed with its title, the site's description and the site's card image
(``static/img/og-card.png``, 1200×630, drawn by scripts/make_icons.py). A page about one finished
daily game — ``/verify?game=<id>`` or ``/games/<id>/review`` — is previewed with that game's day,
sheet and points, as its share text already says them: no dice, nothing else. The addresses are
absolute, on the site's configured address (``site_url``); when it has none, a preview carries
no address at all rather than one a crawler could not follow.
"""

import re
from dataclasses import dataclass

from flask import request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from redis.exceptions import RedisError

from app.api.request import site_url
from app.platform.errors import DomainError
from app.services import services
from app.web.sheets_view import language, sheet_view

SITE_NAME = "Yacht Daily"
CARD_IMAGE = "img/og-card.png"
CARD_SIZE = (1200, 630)
OPEN_GRAPH_LOCALES = {"en": "en_GB", "fr": "fr_FR", "hu": "hu_HU"}
GAME_ID = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class LinkPreview:
    """A page's preview. ``title`` is None for the page's own title; ``url`` and ``image`` are
    absolute, or None when the site has no configured address."""

    title: str | None
    description: str
    url: str | None
    image: str | None
    image_alt: str
    locale: str
    site_name: str = SITE_NAME
    width: int = CARD_SIZE[0]
    height: int = CARD_SIZE[1]


def link_preview() -> LinkPreview:
    """The preview of the page being rendered."""
    base = site_url().rstrip("/")
    game_title = shared_game_title(shared_game_id())
    return LinkPreview(
        title=game_title,
        description=(_("Everyone gets the same dice each day: play today’s and compare.")
                     if game_title else
                     _("A daily dice challenge: the same dice for everyone, and every roll "
                       "checkable in your browser.")),
        url=f"{base}{request.full_path.rstrip('?')}" if base else None,
        image=f"{base}{url_for('static', filename=CARD_IMAGE)}" if base else None,
        image_alt=_("A die showing five, beside the words Yacht Daily"),
        locale=OPEN_GRAPH_LOCALES.get(language(), OPEN_GRAPH_LOCALES["en"]),
    )


def shared_game_id() -> str | None:
    """The id of the daily game this page is about, if it is about one."""
    if request.endpoint == "web.verify":
        return request.args.get("game")
    if request.endpoint == "web.review":
        return (request.view_args or {}).get("game_id")
    return None


def shared_game_title(game_id: str | None) -> str | None:
    """"Yacht Daily — <date> · <sheet>: <points> points" for a finished daily game, else None
    (no such game, not finished yet, or the store unreachable: the page's own title then)."""
    if not game_id or not GAME_ID.fullmatch(game_id):
        return None
    try:
        played = services().games.get(game_id)
    except (DomainError, RedisError):
        return None
    if not played.game.finished:
        return None
    total = played.game.totals().total
    return _("%(site)s — %(date)s · %(sheet)s: %(points)s", site=SITE_NAME,
             date=played.record.date, sheet=sheet_view(played.record.ruleset).name,
             points=ngettext("%(num)s point", "%(num)s points", total))
