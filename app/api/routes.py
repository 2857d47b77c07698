"""The JSON API ``/api/v1`` (docs/api.md): thin routes over the services.

Each route parses and validates its input, calls one service, and shapes the answer; errors
are raised as ApiError / core errors and rendered by ``errors``.
"""

import re
from functools import lru_cache

import orjson
from flask import Blueprint, Response, current_app, g, jsonify, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from app.api.errors import ApiError
from app.api.openapi import OPENAPI_PARTS, openapi_document
from app.api.params import bounded_int, query_limit
from app.daily.scouting import looks_like_scouting
from app.daily.service import GameConflict, Played, Roll, Score, game_not_found, parse_hold
from app.daily.share import share_text
from app.daily.views import game_state, revealed_answer, rulesets_json, window_json
from app.ledger.days import service_date
from app.ledger.signing import verify_signature
from app.platform.clock import format_timestamp
from app.players import history
from app.players import service as players
from app.services import services
from fairness import audit
from fairness.checkpoint import MAX_SIZE
from fairness.gossip import fingerprint
from fairness.note import parse_note
from fairness.sheets import ANY_DAILY_RULESETS
from strategy import TablesNotReady

bp = Blueprint("api", __name__, url_prefix="/api/v1")

GAME_ID = re.compile(r"[0-9a-f]{32}")
LANGUAGES = ("en", "fr")
MAX_ACTION_NUMBER = 1000
MAX_TOKEN = 1000
DEFAULT_BOARD_SIZE = 10
MAX_BOARD_SIZE = 100
BUCKET_WIDTH = 25
DEFAULT_DAY_PAGE = 1000
MAX_DAY_PAGE = 1000
COMPUTING_RETRY_AFTER = "10"
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


# ------------------------------------------------------------------ request helpers


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


def game_answer(played: Played, status: int = 200):
    """The ``{"game": state}`` answer."""
    return plain_json({"game": game_state(played, services().now(), language())}, status)


def plain_json(payload: dict, status: int = 200) -> Response:
    """The JSON answer of ``payload`` written by orjson, with sorted keys as ``jsonify`` writes
    them: about a sixth of its cost on a game's answer. Only for payloads of strings, ints,
    booleans, None, lists and string-keyed objects (a game, a review)."""
    return Response(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS), status=status,
                    mimetype="application/json")


def visible_game(game_id: str) -> Played:
    """The game if this caller may see it: their own, or anyone's once its date is revealed."""
    if not GAME_ID.fullmatch(game_id):
        raise game_not_found()
    played = services().games.get(game_id)
    if not services().games.owns(players.current_player(), played) and not (
        services().ledger.is_revealed(played.record.date)
    ):
        raise ApiError(403, "not-your-game",
                       "This game belongs to another player; it is public once its date is "
                       "revealed.")
    return played


@bp.before_request
def settle_ledger() -> None:
    """Publish the epoch entry before answering (reveals run elsewhere: reveal_runner)."""
    services().prepare()


@bp.errorhandler(GameConflict)
def handle_game_conflict(error: GameConflict):
    """A 409 that carries the game, the Joker refusal explained in the request's language."""
    message = error.message
    placement = error.played.game.placement()
    if error.code == "joker-forbids" and placement is not None:
        message = placement.reason(language())
    return plain_json({
        "error": {"code": error.code, "message": message},
        "game": game_state(error.played, services().now(), language()),
    }, 409)


# ------------------------------------------------------------------ sheets and challenges


@bp.get("/rulesets")
def rulesets():
    """The daily sheets of the dates being played now."""
    return jsonify(rulesets_json(services().games.offered_rulesets()))


@bp.get("/challenges")
def challenges():
    """Each sheet's challenge on a date (default: the server's UTC date) and this player's game."""
    now = services().now()
    date = service_date(request.args.get("date", now.date().isoformat()))
    secrets = services().secrets.for_date(date)
    day = secrets.epoch.day_index(date)
    window = services().games.window(date)
    revealed = services().ledger.is_revealed(date)
    player = players.current_player()
    daily = secrets.rulesets
    ids = {r: services().games.game_id(player, date, r) for r in daily} if player else {}
    existing = services().store.existing_games(list(ids.values()))
    return jsonify({
        "date": date,
        "now": format_timestamp(now),
        "challenges": [
            {
                "date": date,
                "ruleset": ruleset,
                "epoch": secrets.epoch_number,
                "day": day,
                "anchor": secrets.epoch.anchor.hex(),
                "status": window.status(now, revealed),
                **window_json(window),
                "game": ids[ruleset] if ids.get(ruleset) in existing else None,
            }
            for ruleset in daily
        ],
    })


# ------------------------------------------------------------------ games


@bp.post("/games")
def start_game():
    """Create this player's game on (ruleset, date), or resume it."""
    body = json_body()
    ruleset = daily_ruleset(text_field(body, "ruleset"))
    date = service_date(text_field(body, "date"))
    name = body.get("name")
    if name is not None:
        name = players.validate_name(name)
    player = players.ensure_player()
    if name is not None:
        players.remember_name(name)
    created, played = services().games.start(player, ruleset, date,
                                             name or players.remembered_name())
    return game_answer(played, 201 if created else 200)


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    """A game: the player's own, or anyone's once revealed; a finished v2 game with the latest
    checkpoint of its log that covers it, once one does."""
    played = visible_game(game_id)
    if not (played.game.finished and services().logs.is_logged(played.record.date)):
        return game_answer(played)
    state = game_state(played, services().now(), language())
    state["checkpoint"] = game_checkpoint(played)
    return plain_json({"game": state})


def game_checkpoint(played: Played) -> dict | None:
    """``{"size", "fingerprint", "note"}`` of the latest checkpoint of a finished v2 game's log
    that covers it, or None (a v1 game, or no checkpoint covers it yet)."""
    if not (played.game.finished and services().logs.is_logged(played.record.date)):
        return None
    found = services().logs.game_checkpoint(played.record)
    if found is None:
        return None
    body, _ = parse_note(found["note"])
    return {"size": found["size"], "fingerprint": fingerprint(body), "note": found["note"]}


@bp.post("/games/<game_id>/roll")
def roll(game_id: str):
    """Roll the dice not held, as action number ``roll``."""
    body = json_body()
    number = action_number(body)
    action = Roll(parse_hold(body.get("hold")))
    return game_answer(_act(game_id, number, action, action_token(body)))


@bp.post("/games/<game_id>/score")
def score(game_id: str):
    """Fill a box with the current dice, as action number ``roll``."""
    body = json_body()
    number = action_number(body)
    action = Score(text_field(body, "category"))
    return game_answer(_act(game_id, number, action, action_token(body)))


def _act(game_id: str, number: int, action, token: str | None) -> Played:
    """Apply an action to the caller's game; ``g.action_count`` tells the rate limits whether
    its compare-and-set counted it (observability/limits.py)."""
    if not GAME_ID.fullmatch(game_id):
        raise game_not_found()
    games = services().games
    g.action_count = counted = games.counted_once()
    return games.act(game_id, players.current_player(), number, action, token, counted)


@bp.get("/games/<game_id>/share")
def share(game_id: str):
    """The plain-text, spoiler-free result of a finished game."""
    played = visible_game(game_id)
    if not played.game.finished:
        raise ApiError(409, "not-finished", "The game is not finished yet.")
    link = site_url()
    loss = services().coach.loss(played.record)
    checkpoint = game_checkpoint(played)
    body = parse_note(checkpoint["note"])[0] if checkpoint else None
    return Response(share_text(played, link, language(), loss, body), mimetype="text/plain")


@bp.get("/games/<game_id>/proof")
def proof(game_id: str):
    """The receipt's inclusion proof in its date's Merkle root, after the reveal; for a v2
    game, in its log's latest checkpoint (or that of ``?size=``) as soon as one covers it."""
    played = visible_game(game_id)
    if services().logs.is_logged(played.record.date):
        size = request.args.get("size")
        if size is not None and bounded_int(size, 0, MAX_SIZE) is None:
            raise ApiError(400, "invalid-size", "size must be a tree size (a whole number).")
        found = services().logs.proof(played.record, None if size is None else int(size))
        if found is None:
            raise ApiError(404, "no-proof", "A proof exists for a finished game once a checkpoint "
                                            "of its log covers it.")
        return jsonify(found)
    found = services().ledger.proof(played.record)
    if found is None:
        raise ApiError(404, "no-proof", "A proof exists only for a finished game once its date "
                                        "is revealed.")
    return jsonify(found)


# ------------------------------------------------------------------ the player's record


@bp.get("/me/history")
def my_history():
    """This player's games, streaks, best totals and distribution of totals."""
    return jsonify(history.player_history(services(), players.current_player()))


@bp.post("/me/transfer")
def create_transfer():
    """A one-time code that carries this player's identity to another device."""
    response = jsonify(players.create_transfer(services().store, services().now()))
    response.status_code = 201
    return response


@bp.post("/me/transfer/redeem")
def redeem_transfer():
    """Take on the identity a transfer code carries; answers with that player's history."""
    players.redeem_transfer(services().store, json_body().get("code"))
    return jsonify(history.player_history(services(), players.current_player()))


# ------------------------------------------------------------------ results


@bp.get("/leaderboard/<date>/<ruleset>")
def leaderboard(date: str, ruleset: str):
    """The best totals of a (date, sheet), the caller's rank and the distribution of totals."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    limit = query_limit(DEFAULT_BOARD_SIZE, MAX_BOARD_SIZE)
    player = players.current_player()
    own = services().games.game_id(player, date, ruleset) if player else None
    if board_order() == "skill":
        return jsonify(skill_board(date, ruleset, limit, own))
    store = services().store
    board = store.board(date, ruleset, limit, own)
    names = store.names([game_id for game_id, _ in board.top])
    top, rank = [], 0
    for position, ((_, total), (pseudonym, name)) in enumerate(zip(board.top, names, strict=True)):
        if not top or total != top[-1]["total"]:
            rank = position + 1
        top.append({"rank": rank, "player": pseudonym, "name": name or None, "total": total})
    highest = board.top[0][1] if board.top else -1
    bounds = [(low, low + BUCKET_WIDTH - 1) for low in range(0, highest + 1, BUCKET_WIDTH)]
    counts = store.count_between(date, ruleset, bounds) if bounds else []
    return jsonify({
        "date": date,
        "ruleset": ruleset,
        "players": board.players,
        "top": top,
        "you": None if board.own_rank is None else {"rank": board.own_rank,
                                                     "total": board.own_total},
        "distribution": [{"from": low, "to": high, "count": count}
                         for (low, high), count in zip(bounds, counts, strict=True)],
    })


# ------------------------------------------------------------------ the coach


def tables_not_ready() -> ApiError:
    """The 503 of an answer that needs a strategy table still being computed."""
    error = ApiError(503, "tables-not-ready",
                     "The strategy tables are being computed; try again shortly.")
    error.headers["Retry-After"] = COMPUTING_RETRY_AFTER
    return error


def board_order() -> str:
    """The leaderboard's ``?by=``: ``points`` (the default) or ``skill``, else a 400."""
    order = request.args.get("by", "points")
    if order not in ("points", "skill"):
        raise ApiError(400, "invalid-order", "by must be 'points' or 'skill'.")
    return order


def skill_board(date: str, ruleset: str, limit: int, own: str | None) -> dict:
    """The skill board of (date, sheet): fewest expected points lost first, in hundredths;
    equal losses share a competition rank and are listed in finish order (the total, luck's
    part, never breaks a tie)."""
    board = services().coach.skill.board(date, ruleset, limit, own)
    names = services().store.names([game_id for game_id, _, _ in board.top])
    top, rank = [], 0
    for position, ((_, lost, total), (pseudonym, name)) in enumerate(
            zip(board.top, names, strict=True)):
        if position == 0 or lost != board.top[position - 1][1]:
            rank = position + 1
        top.append({"rank": rank, "player": pseudonym, "name": name or None,
                    "loss": lost / 100, "total": total})
    return {
        "date": date,
        "ruleset": ruleset,
        "by": "skill",
        "players": board.players,
        "top": top,
        "you": None if board.own is None else {"rank": board.own_rank,
                                                "loss": board.own[0] / 100,
                                                "total": board.own[1]},
    }


@bp.get("/games/<game_id>/review")
def game_review(game_id: str):
    """The review of a game against perfect play: the owner's once finished, anyone's once
    its date is revealed."""
    played = reviewable_game(game_id)
    try:
        review = services().coach.review_json(played.record)
    except TablesNotReady:
        raise tables_not_ready() from None
    return plain_json({"game": played.record.id, "date": played.record.date,
                       "player": played.record.player, "name": played.record.name or None,
                       "total": played.game.totals().total, **review})


def reviewable_game(game_id: str) -> Played:
    """The game if this caller may see its review, else the API's 403/404/409."""
    played = visible_game(game_id)
    if not played.game.finished and not services().ledger.is_revealed(played.record.date):
        raise ApiError(409, "not-finished", "A game's review opens when the game is finished.")
    return played


@bp.get("/days/<date>/<ruleset>/references")
def day_references(date: str, ruleset: str):
    """A revealed day's perfect-policy game and perfect-foresight maximum on one sheet."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    if not services().ledger.is_revealed(date):
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    references = services().coach.references(date, ruleset)
    if references is None:  # a 404 like ``not-revealed``: not there yet, soon
        error = ApiError(404, "references-not-ready",
                         "The day's references are being computed; try again shortly.")
        error.headers["Retry-After"] = COMPUTING_RETRY_AFTER
        raise error
    return revealed_answer({"date": date, "ruleset": ruleset, **references})


# ------------------------------------------------------------------ ledger and audit


@bp.get("/ledger")
def ledger():
    """Every ledger entry."""
    return jsonify({"entries": services().ledger.entries()})


@bp.get("/ledger/<date>")
def ledger_date(date: str):
    """A date's reveal entry (404 until revealed)."""
    entry = services().ledger.reveal_entry(service_date(date))
    if entry is None:
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    return jsonify({"entry": entry})


@bp.get("/days/<date>/<ruleset>/games")
def day_games(date: str, ruleset: str):
    """A page of the games of a revealed (date, sheet) in id order (the Merkle leaf order):
    transcripts and receipts for a public audit, and the cursor of the next page."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    limit = query_limit(DEFAULT_DAY_PAGE, MAX_DAY_PAGE)
    after = request.args.get("after")
    if after is not None and not GAME_ID.fullmatch(after):
        raise ApiError(400, "invalid-cursor",
                       "after must be a game id (32 lowercase hexadecimal digits).")
    if not services().ledger.is_revealed(date):
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    store = services().store
    total, ids = store.day_game_page(date, ruleset, after, limit + 1)
    page = ids[:limit]
    return revealed_answer({
        "date": date,
        "ruleset": ruleset,
        "total": total,
        "games": [
            {
                "id": record.id,
                "player": record.player,
                "name": record.name or None,
                "status": "finished" if record.receipt else "abandoned",
                "scouting": looks_like_scouting(record.transcript, record.receipt is not None),
                "transcript": list(record.transcript),
                "receipt": record.receipt,
            }
            for record in store.load_games(page)
        ],
        "next": page[-1] if len(ids) > len(page) else None,
    })


@bp.post("/verify")
def verify():
    """Recompute a game (by id, or a posted receipt and transcript) against the ledger."""
    body = json_body()
    entries = services().ledger.entries()
    if "game" in body:
        played = visible_game(text_field(body, "game"))
        if played.record.receipt is None:
            raise ApiError(409, "no-receipt", "Only a finished game has a receipt to verify.")
        receipt, transcript = dict(played.record.receipt), list(played.record.transcript)
        found = services().ledger.proof(played.record)
        proof_given = found["proof"] if found else None
    else:
        receipt, transcript = body.get("receipt"), body.get("transcript")
        if not isinstance(receipt, dict) or not isinstance(transcript, list):
            raise ApiError(400, "invalid-body",
                           "Post {\"game\": id} or {\"receipt\": {...}, \"transcript\": [...]}.")
        proof_given = body.get("proof")
        if proof_given is not None and not isinstance(proof_given, dict):
            raise ApiError(400, "invalid-field", "The field 'proof' must be an object.")
        if proof_given is None:
            proof_given = _stored_proof(receipt)
    checks = audit.check_game(entries, receipt, transcript, proof_given, verify_signature)
    return jsonify({
        "ok": all(check.ok is True for check in checks),
        "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks],
    })


def _stored_proof(receipt: dict) -> dict | None:
    """The inclusion proof of a posted receipt's game in its revealed day, if it is there."""
    date, ruleset, game_id = receipt.get("date"), receipt.get("ruleset"), receipt.get("game")
    if not all(isinstance(v, str) for v in (date, ruleset, game_id)):
        return None
    if ruleset not in ANY_DAILY_RULESETS:
        return None
    try:
        date = service_date(date)
    except ValueError:
        return None
    if not services().ledger.is_revealed(date):
        return None
    return services().ledger.leaf_proof(date, ruleset, game_id)


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI 3.1 description of this API."""
    return jsonify(openapi_document(current_app.extensions.get(OPENAPI_PARTS, ())))
