"""What the API reads from a request and how it writes a plain answer: the reader's language,
the site's address for shared links, the JSON body and its fields (each a clear 400 when it is
not what a route takes), whether the client prefers minimal answers, and ``plain_json``, the
orjson answer of a game or a review.

Every feature's routes parse their input with these, so that the same field is refused with the
same code and message everywhere.
"""

import re
from functools import lru_cache

import orjson
from flask import Response, current_app, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from app.api.errors import ApiError
from fairness.sheets import ANY_DAILY_RULESETS

LANGUAGES = ("en", "fr", "hu")
MAX_ACTION_NUMBER = 1000
MAX_TOKEN = 1000
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def language() -> str:
    """The request's language: ``?lang=`` if it is ``en`` or ``fr``, else Accept-Language."""
    asked = request.args.get("lang") if request.query_string else None
    if asked in LANGUAGES:
        return asked
    return _best_language(request.headers.get("Accept-Language", ""))


def site_url() -> str:
    """The site's address for links players share, chosen by configuration alone: the request's
    ``Host`` only ever picks one of the allowed hosts, so a client cannot put another site in
    the links an answer carries. ``PUBLIC_URL`` when set; else the request's host when it is
    one of ``ALLOWED_HOSTS`` (by default the loopback names, where ``make serve`` listens);
    else the first host the operator allowed; else ``""``: links relative to the site (a
    page resolves them where the player is; a share text then carries no address)."""
    public_url = current_app.config.get("PUBLIC_URL")
    if public_url:
        return public_url
    configured = allowed_hosts(current_app.config.get("ALLOWED_HOSTS"))
    listed = configured or LOOPBACK_HOSTS
    asked = request.host.lower()
    name = asked if asked.endswith("]") else asked.rsplit(":", 1)[0]  # without its port
    if asked in listed or name in listed:
        return f"{request.scheme}://{asked}/"
    return f"{request.scheme}://{configured[0]}/" if configured else ""


@lru_cache(maxsize=8)
def allowed_hosts(setting: str | None) -> tuple[str, ...]:
    """The hosts ``ALLOWED_HOSTS`` lets links name, lower-cased: ``host`` (any port) or
    ``host:port``, comma or space separated."""
    return tuple(host for host in re.split(r"[\s,]+", (setting or "").lower()) if host)


@lru_cache(maxsize=256)
def _best_language(accept_language: str) -> str:
    """Our language an Accept-Language header prefers (browsers send few distinct ones)."""
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES,
                                                                          default="en")


def prefers_minimal() -> bool:
    """True when the request's ``Prefer`` header (RFC 7240) holds ``return=minimal``: the
    client wants what an action changed, not the whole resource."""
    prefer = request.environ.get("HTTP_PREFER")
    return bool(prefer) and _asks_minimal(prefer)


@lru_cache(maxsize=64)
def _asks_minimal(prefer: str) -> bool:
    """Whether a ``Prefer`` value holds the preference ``return=minimal`` (names compare
    case-insensitively, the value may be quoted, parameters after ``;`` are ignored)."""
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"') == "minimal":
            return True
    return False


def json_body() -> dict:
    """The request's JSON object: 415 without a JSON content type, 400 if malformed."""
    if not request.is_json:
        raise ApiError(415, "unsupported-media-type",
                       "Send the body as JSON with Content-Type: application/json.")
    try:  # orjson: strict JSON (no NaN or Infinity), a depth limit, a few µs for an action's
        body = orjson.loads(body_bytes())
    except orjson.JSONDecodeError:
        raise ApiError(400, "invalid-json", "The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid-body", "The body must be a JSON object.")
    return body


def body_bytes() -> bytes:
    """The request's body, read once. A body whose Content-Length is within ``MAX_CONTENT_LENGTH``
    is read straight from the WSGI input, exactly that many bytes, as werkzeug's bounded stream
    would read it (building that stream cost ~11 µs of an action's CPU); any other (none, chunked,
    too long: a 413) through werkzeug."""
    length = request.content_length
    if length is None or length > current_app.config["MAX_CONTENT_LENGTH"]:
        return request.get_data(cache=True)
    return request.environ["wsgi.input"].read(length)


def text_field(body: dict, name: str) -> str:
    """A required string field of the body."""
    value = body.get(name)
    if not isinstance(value, str):
        raise ApiError(400, "invalid-field", f"The field {name!r} must be a string.")
    return value


def action_number(body: dict) -> int:
    """The body's ``roll``: the number the client believes the next action has."""
    value = body.get("roll")
    if type(value) is float and value.is_integer():
        value = int(value)  # JSON has one number type: 3.0 is the integer 3
    if type(value) is not int or not 0 <= value <= MAX_ACTION_NUMBER:
        raise ApiError(400, "invalid-field",
                       "The field 'roll' must be the action number (an integer from 0).")
    return value


def action_token(body: dict) -> str | None:
    """The body's optional ``token``: the ``token`` of the game answer the action follows."""
    value = body.get("token")
    if value is not None and (not isinstance(value, str) or len(value) > MAX_TOKEN):
        raise ApiError(400, "invalid-field",
                       f"The field 'token' must be the game's token (a string of at most "
                       f"{MAX_TOKEN} characters).")
    return value


def daily_ruleset(ruleset: str) -> str:
    """``ruleset`` if it is a daily sheet on some date, else a 400."""
    if ruleset not in ANY_DAILY_RULESETS:
        raise ApiError(400, "unknown-ruleset",
                       f"Unknown sheet; the daily sheets are {', '.join(ANY_DAILY_RULESETS)}.")
    return ruleset


def plain_json(payload: dict, status: int = 200) -> Response:
    """The JSON answer of ``payload`` written by orjson, with sorted keys as ``jsonify`` writes
    them: about a sixth of its cost on a game's answer. Only for payloads of strings, ints,
    booleans, None, lists and string-keyed objects (a game, a review)."""
    return Response(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS), status=status,
                    mimetype="application/json")
