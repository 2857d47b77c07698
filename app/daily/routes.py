"""The daily challenge's JSON API (docs/api.md): the sheets, each date's challenges, a player's
game (start, read, roll, score), its share text and its inclusion proof, and a past day
played again (``past_day.py``: replayed, reviewed and ranked, nothing written).

Thin routes on the API's blueprint (``app.api.blueprint``): each parses its input, calls one
service and shapes the answer; a refused action is a 409 that carries the game
(``handle_game_conflict``).
"""

import re

from flask import Response, g, jsonify, request

from app.api.blueprint import bp
from app.api.errors import ApiError, tables_not_ready
from app.api.params import bounded_int
from app.api.request import (
    action_number,
    action_token,
    daily_ruleset,
    json_body,
    language,
    plain_json,
    prefers_minimal,
    site_url,
    text_field,
)
from app.boards.figures import centipoints
from app.daily import past_day
from app.daily.service import GameConflict, Played, Roll, Score, game_not_found, parse_hold
from app.daily.share import PLAIN, SQUARES, STYLES, share_text
from app.daily.views import game_state, rulesets_json, window_json
from app.ledger.days import service_date
from app.platform.clock import format_timestamp
from app.players import service as players
from app.services import services
from fairness.checkpoint import MAX_SIZE
from fairness.gossip import fingerprint
from fairness.note import parse_note
from strategy import ValueTablesNotReady

GAME_ID = re.compile(r"[0-9a-f]{32}")


def game_answer(played: Played, status: int = 200):
    """The ``{"game": state}`` answer."""
    return plain_json({"game": game_state(played, services().now(), language())}, status)


def action_answer(played: Played):
    """The answer of an action: the game, or without what the action did not change when the
    client prefers it (``Prefer: return=minimal``; ``Preference-Applied`` says so)."""
    if not prefers_minimal():
        return game_answer(played)
    answer = plain_json({"game": game_state(played, services().now(), language(), minimal=True)})
    answer.headers["Preference-Applied"] = "return=minimal"
    return answer


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
    existing = services().game_store.existing_games(list(ids.values()))
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
    return action_answer(_act(game_id, number, action, action_token(body)))


@bp.post("/games/<game_id>/score")
def score(game_id: str):
    """Fill a box with the current dice, as action number ``roll``."""
    body = json_body()
    number = action_number(body)
    action = Score(text_field(body, "category"))
    return action_answer(_act(game_id, number, action, action_token(body)))


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
    """The plain-text, spoiler-free result of a finished game, in the ``?style=`` asked
    (``plain``, the default, or ``squares``: a friend's first line and each turn's mark)."""
    style = request.args.get("style", PLAIN)
    if style not in STYLES:
        raise ApiError(400, "invalid-field", "style must be 'plain' or 'squares'.")
    played = visible_game(game_id)
    if not played.game.finished:
        raise ApiError(409, "not-finished", "The game is not finished yet.")
    link = site_url()
    if style == SQUARES and link:  # the game's page: its link preview shows the day and points
        link = f"{link.rstrip('/')}/verify?game={played.record.id}"
    loss = services().coach.loss(played.record)
    checkpoint = game_checkpoint(played)
    body = parse_note(checkpoint["note"])[0] if checkpoint else None
    losses = turn_losses(played) if style == SQUARES and loss is not None else None
    return Response(share_text(played, link, language(), loss, body, style, losses),
                    mimetype="text/plain")


def turn_losses(played: Played) -> list[float] | None:
    """Each turn's points of expectation given away to perfect play, from the coach's review
    of the game, in turn order; None while its sheet's table is being computed."""
    try:
        review = services().coach.review_json(played.record)
    except ValueTablesNotReady:
        return None
    return [turn["loss"] for turn in review["turns"]]


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


# ------------------------------------------------------------------ past days


@bp.post("/days/<date>/<ruleset>/replay")
def replay_past_day(date: str, ruleset: str):
    """A whole game of a revealed (date, sheet) played again as practice, replayed on that
    day's published stream: its total, the coach's review and where its total and its skill
    figure would have ranked on that day's boards. Nothing is written."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    svc = services()
    past_day.check_day(svc.secrets, svc.ledger.is_revealed(date), date, ruleset)
    game = past_day.replayed_game(svc.secrets, date, ruleset, json_body().get("transcript"))
    try:
        review = past_day.review_json(svc.coach.tables, game)
    except ValueTablesNotReady:
        raise tables_not_ready() from None
    lost = centipoints(review["loss"])
    total = game.totals().total
    keys = svc.secrets.for_date(date)
    return plain_json({
        "date": date,
        "ruleset": ruleset,
        "epoch": keys.epoch_number,
        "day": keys.epoch.day_index(date),
        "dealing": keys.epoch.dealing,
        "total": total,
        "totals": game.totals().as_dict(),
        "loss": lost / 100,
        "points": past_day.points_rank(svc.board_store, date, ruleset, total),
        "skill": past_day.skill_rank(svc.coach.skill, date, ruleset, lost),
        "review": review,
    })
