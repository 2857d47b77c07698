"""The page language: ``?lang=`` (which then sticks in a cookie), else the cookie, else the
browser's Accept-Language, else English."""

from flask import Flask, request
from flask_babel import Babel

LANGUAGES = ("en", "fr", "hu")
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "yd_lang"
LANG_COOKIE_SECONDS = 400 * 24 * 3600


def requested_language() -> str | None:
    """The language the query string asks for (``?lang=fr``, ``?lang=hu``), if it is one we
    speak."""
    asked = request.args.get("lang", "").strip().lower()
    return asked if asked in LANGUAGES else None


def select_locale() -> str:
    """The language of this request: query string, then cookie, then Accept-Language."""
    remembered = request.cookies.get(LANG_COOKIE)
    return (
        requested_language()
        or (remembered if remembered in LANGUAGES else None)
        or request.accept_languages.best_match(LANGUAGES)
        or DEFAULT_LANGUAGE
    )


VARY_ON_LANGUAGE = "Accept-Language, Cookie"


def remember_language(response):
    """Keep a language chosen with ``?lang=`` in a cookie so that it sticks across pages; an
    answer in the language the browser or the cookie picked varies on both."""
    chosen = requested_language() if request.query_string else None
    if chosen:
        if request.cookies.get(LANG_COOKIE) != chosen:
            response.set_cookie(
                LANG_COOKIE, chosen, max_age=LANG_COOKIE_SECONDS, samesite="Lax", httponly=True
            )
    elif "Vary" not in response.headers:
        response.headers["Vary"] = VARY_ON_LANGUAGE
    else:
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def init_locale(app: Flask) -> None:
    """Set up Flask-Babel with our locale selector and the sticky language cookie."""
    Babel(app, locale_selector=select_locale)
    app.after_request(remember_language)
