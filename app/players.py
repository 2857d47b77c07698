"""Players: an anonymous id in the signed session cookie, and an optional display name.

The cookie is ``Secure`` whenever the site is served over https: its public URL
(``PUBLIC_URL``) is https, or the request came over https (directly, or through a trusted proxy's
``X-Forwarded-Proto``). No separate switch to forget.
"""

import secrets

from flask import Flask, request, session
from flask.sessions import SecureCookieSessionInterface

from .errors import ApiError

NAME_MAX_LENGTH = 24


class PlayerCookie(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure whenever the site is on https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure if configured so, if the public URL is https, or if this request is."""
        public_url = app.config.get("PUBLIC_URL") or ""
        return (super().get_cookie_secure(app) or public_url.lower().startswith("https://")
                or request.is_secure)


def init_app(app: Flask) -> None:
    """Keep the players' ids in the PlayerCookie session."""
    app.session_interface = PlayerCookie()


def current_player() -> str | None:
    """The player id of this request's cookie, or None before the first visit."""
    player = session.get("player")
    return player if isinstance(player, str) else None


def ensure_player() -> str:
    """The player id of this request, making one (and its long-lived cookie) if it has none."""
    player = current_player()
    if player is None:
        player = secrets.token_hex(16)
        session["player"] = player
        session.permanent = True
    return player


def remembered_name() -> str | None:
    """The display name this player last chose, if any."""
    name = session.get("name")
    return name if isinstance(name, str) else None


def remember_name(name: str) -> None:
    """Keep ``name`` in the player's cookie for their next games."""
    session["name"] = name


def validate_name(value) -> str:
    """A display name: at most 24 printable characters, not all spaces, surrounding spaces
    removed; else a 400."""
    if not isinstance(value, str):
        raise ApiError(400, "invalid-name", "The name must be text.")
    name = value.strip()
    if not name or len(value) > NAME_MAX_LENGTH or not value.isprintable():
        raise ApiError(400, "invalid-name",
                       f"The name must be 1 to {NAME_MAX_LENGTH} printable characters.")
    return name
