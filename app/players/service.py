"""Players: an anonymous id in the signed session cookie, an optional display name, and the
one-time transfer codes that carry both to another device.

The cookie is ``Secure`` whenever the site is served over https: its public URL
(``PUBLIC_URL``) is https, or the request came over https (directly, or through a trusted proxy's
``X-Forwarded-Proto``). No separate switch to forget.

A transfer code is 10 characters of Crockford's base32 (50 random bits), shown as two groups of
five, valid for TRANSFER_SECONDS and used at most once: redeeming it gives this browser the
other device's identity, hence its history and its games in progress.

The cookie is verified once per process (a bounded cache of the Cookie headers whose player
cookie was verified, its age still checked on every request) and signed again only when its
content changes or when it was signed more than a day ago, which keeps its 400-day expiry
sliding as before.
"""

import datetime as dt
import secrets
import threading
import time
from collections import OrderedDict

from flask import Flask, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

from app.platform import codes
from app.platform.clock import format_timestamp
from app.players.errors import InvalidCode, InvalidName, NoIdentity, UnknownCode
from app.players.store import PlayerStore

NAME_MAX_LENGTH = 24
TRANSFER_SECONDS = 600
CODE_LENGTH = 10  # 50 random bits
VERIFIED_CACHE_SIZE = 4096
# A longer Cookie header (other cookies beside ours) is verified on each request, not kept: the
# cache stays within VERIFIED_CACHE_SIZE × this many characters.
MAX_KEPT_HEADER = 1024
RESIGN_AFTER_SECONDS = 24 * 3600


class PlayerSession(SecureCookieSession):
    """The session of one request, with when its cookie was signed (None: no valid cookie)."""

    signed_at: float | None = None


class PlayerCookie(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked Secure whenever the site is on https, verified once
    per process and re-signed only when it changes or is a day old."""

    session_class = PlayerSession

    def __init__(self):
        """Start with no serializer and no verified cookie."""
        self._serializer = None
        self._serializer_keys = None
        self._verified: OrderedDict[str, tuple[dict, float]] = OrderedDict()  # by Cookie header
        self._lock = threading.Lock()

    def get_signing_serializer(self, app: Flask):
        """Flask's serializer, built once for as long as the app's keys stay the same."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        if self._serializer_keys != keys:
            self._serializer = super().get_signing_serializer(app)
            self._serializer_keys = keys
            with self._lock:
                self._verified.clear()
        return self._serializer

    def open_session(self, app: Flask, request) -> PlayerSession | None:
        """The session of the request's cookie: verified (signature and age) unless this
        process verified it already in this very Cookie header, its age then checked again."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        header = request.environ.get("HTTP_COOKIE")
        if not header:
            return self.session_class()
        max_age = app.permanent_session_lifetime.total_seconds()
        with self._lock:  # keyed by the whole Cookie header: a known one is not even parsed
            known = self._verified.get(header)
        if known is None:
            value = request.cookies.get(self.get_cookie_name(app))
            if not value:
                return self.session_class()
            try:
                data, signed = serializer.loads(value, max_age=int(max_age),
                                                return_timestamp=True)
            except BadSignature:
                return self.session_class()
            known = (data, signed.timestamp())
            if len(header) <= MAX_KEPT_HEADER:
                with self._lock:
                    self._verified[header] = known
                    while len(self._verified) > VERIFIED_CACHE_SIZE:
                        self._verified.popitem(last=False)
        data, signed_at = known
        if time.time() - signed_at > max_age:
            return self.session_class()
        opened = self.session_class(data)
        opened.signed_at = signed_at
        return opened

    def should_set_cookie(self, app: Flask, session) -> bool:
        """Sign it again when it changed, or when a permanent one is more than a day old."""
        if session.modified:
            return True
        signed_at = getattr(session, "signed_at", None)
        return bool(session.permanent and (
            signed_at is None or time.time() - signed_at > RESIGN_AFTER_SECONDS))

    def save_session(self, app: Flask, session, response) -> None:
        """Flask's, but for the usual answer — a session neither changed nor due for signing
        again — which only needs ``Vary: Cookie``, added to the header's text as werkzeug's
        header set would write it (not parsed into one and written back: 5 µs → 1 µs)."""
        if session and not self.should_set_cookie(app, session):
            vary = response.headers.get("Vary")
            if session.accessed and (not vary or "cookie" not in vary.lower()):
                response.headers["Vary"] = f"{vary}, Cookie" if vary else "Cookie"
            return
        super().save_session(app, session, response)

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
        raise InvalidName("The name must be text.")
    name = value.strip()
    if not name or len(value) > NAME_MAX_LENGTH or not value.isprintable():
        raise InvalidName(f"The name must be 1 to {NAME_MAX_LENGTH} printable characters.")
    return name


def new_code() -> str:
    """A fresh random transfer code, in its canonical form (no separator)."""
    return codes.new_code(CODE_LENGTH)


def canonical_code(value) -> str:
    """The canonical form of a typed code (``app.platform.codes``); a 400 ``invalid-code`` if it
    cannot be one."""
    if not codes.is_typed_text(value, CODE_LENGTH):
        raise InvalidCode("The code must be text: 10 letters and digits.")
    code = codes.canonical_code(value, CODE_LENGTH)
    if code is None:
        raise InvalidCode("A transfer code is 10 letters and digits, like ABCDE-23456.")
    return code


def create_transfer(store: PlayerStore, now: dt.datetime) -> dict:
    """A one-time code carrying this browser's identity (and display name) to another device;
    a 409 ``no-identity`` when this browser has none yet."""
    player = current_player()
    if player is None:
        raise NoIdentity()
    carried = {"player": player, "name": remembered_name()}
    for _ in range(codes.ATTEMPTS):
        code = new_code()
        if store.save_transfer(code, carried, TRANSFER_SECONDS):
            expires_at = now + dt.timedelta(seconds=TRANSFER_SECONDS)
            return {"code": codes.shown_code(code), "expires_at": format_timestamp(expires_at),
                    "expires_in": TRANSFER_SECONDS}
    raise RuntimeError("no free transfer code after several draws")


def redeem_transfer(store: PlayerStore, value) -> None:
    """Give this browser the identity that the code ``value`` carries, using the code up.

    A malformed code is a 400 ``invalid-code``, an unknown, used or expired one a 404
    ``unknown-code``; either way this browser keeps its own identity.
    """
    carried = store.take_transfer(canonical_code(value))
    if carried is None:
        raise UnknownCode()
    session["player"] = carried["player"]
    session.permanent = True
    if carried.get("name"):
        remember_name(carried["name"])
    else:
        session.pop("name", None)
