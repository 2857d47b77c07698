"""The JSON API of matches (docs/api.md, "Matches"): practice and games against the computer.

Thin routes over ``app.matches.service.MatchService``: each parses and validates its input, calls
the service once and shapes the answer (``match_state``; ``shown_state`` for the caller, which
withholds the round being played of a duplicate table's other seats, app/tables/duplicate.py).
"""

import re

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import ServiceUnavailable

from app.api.errors import (
    API_PREFIX,
    COMPUTING_RETRY_AFTER,
    ApiError,
    error_response,
    page_error,
    tables_not_ready,
)
from app.api.params import bounded_int
from app.api.request import action_number, json_body, language, text_field
from app.daily.service import Roll, Score, parse_hold
from app.daily.views import restriction_view
from app.matches.errors import MatchConflict, MatchNotFound
from app.matches.model import HUMAN, PLAYING, TABLE, Match
from app.platform.clock import format_timestamp
from app.players import service as players
from app.services import services
from app.tables.duplicate import action_seat, redact_actions, visible_games, withheld_seats
from fairness import Game, get_ruleset
from strategy import ValueTablesNotReady

bp = Blueprint("matches", __name__, url_prefix="/api/v1")

MATCH_ID = re.compile(r"[0-9a-f]{32}")


def seat_json(match: Match, index: int, transcript: bool = True,
              game: Game | None = None) -> dict:
    """One seat as the API shows it: who, the sheet so far, the dice and, unless
    ``transcript`` is False, the transcript; of ``game`` when given (the seat's game as the
    caller may see it), else of the seat's game."""
    seat, game = match.seats[index], game or match.games[index]
    shown = {
        **seat.to_json(),
        "client_seed": match.client_seeds[index],
        "finished": game.finished,
        "dice": list(game.dice) if game.dice is not None else None,
        "rolls_in_turn": game.rolls_in_turn,
        "rolls_left": game.rolls_left if match.status == PLAYING else 0,
        "boxes": dict(game.boxes),
        "totals": game.totals().as_dict(),
    }
    if transcript:
        shown["transcript"] = [dict(entry) for entry in game.transcript]
    return shown


def play_of(game: Game, lang: str) -> dict | None:
    """What the seat whose turn it is may do with ``game``'s dice: the boxes allowed, what
    each would score, the rules' restriction; None before its first roll."""
    if game.dice is None:
        return None
    placement = game.placement()
    return {"allowed": list(placement.allowed), "previews": game.previews(),
            "restriction": restriction_view(placement, lang)}


def match_state(match: Match, pseudonym: str | None, lang: str,
                transcripts: bool = True) -> dict:
    """A match as the API shows it to the caller: its seats, whose turn it is, what the
    caller may do (``play``, on their turn with dice showing) and, at the end, the signed
    result with the server seed. ``transcripts`` False leaves out each seat's transcript and
    the play order (``order``): a table's answer to an action, whose events carry them."""
    you = match.seat_of(pseudonym)
    turn = match.turn_seat if match.status == PLAYING else None
    play = play_of(match.games[you], lang) if turn is not None and turn == you else None
    fields = match.record.fields
    ended = match.status != PLAYING
    state = {
        "id": match.id,
        "kind": match.kind,
        "ruleset": match.ruleset,
        "status": match.status,
        "epoch": int(fields["epoch"]),
        "created_at": fields["created_at"],
        "updated_at": fields["updated_at"],
        "ended_at": fields.get("ended_at"),
        "expires_at": None if ended else format_timestamp(match.idle_until()),
        "commitment": fields["commitment"],
        "dealing": match.dealing,
        "next_action": match.record.version,
        "turn": turn,
        "round": None if turn is None else len(match.games[turn].boxes) + 1,
        "rounds": len(get_ruleset(match.ruleset).categories),
        "you": you,
        "hints": match.humans == 1 and you is not None,
        "seats": [seat_json(match, index, transcripts) for index in range(len(match.seats))],
        "play": play,
        "ranks": match.ranks() if ended else None,
        "result": match.record.json_field("result"),
        "server_seed": fields.get("server_seed"),
    }
    if transcripts:
        state["order"] = [action.seat for action in match.record.log]
    return state


def shown_state(match: Match, pseudonym: str | None, lang: str) -> dict:
    """``match_state`` for the caller, less what a duplicate table's match being played keeps
    from them: the other seats' actions of the round being played (their transcripts, dice,
    boxes and totals as they stood before it, and those actions left out of ``order``)."""
    state = match_state(match, pseudonym, lang)
    held = [seat.index for seat in match.seats
            if pseudonym is not None and seat.kind == HUMAN and seat.player == pseudonym]
    if not withheld_seats(match, held):
        return state
    games = visible_games(match, held)
    state["seats"] = [seat_json(match, index, True, games[index])
                      for index in range(len(match.seats))]
    state["order"] = [action_seat(action)
                      for action in redact_actions(match, match.record.log, held)]
    return state


def caller() -> str | None:
    """The caller's pseudonym, if the browser has an identity."""
    player = players.current_player()
    return services().secrets.pseudonym(player) if player else None


def answer(match: Match, status: int = 200):
    """The ``{"match": state}`` answer."""
    response = jsonify({"match": shown_state(match, caller(), language())})
    response.status_code = status
    return response


def checked_id(value: str) -> str:
    """``value`` if it can be a match id, else the 404 (nothing is looked up)."""
    if not MATCH_ID.fullmatch(value):
        raise MatchNotFound()
    return value


def refuse_table_match(match: Match) -> None:
    """A 409 ``table-match`` when ``match`` is a table's: it is played only through the
    table's routes, which publish every action to the table and time its turns."""
    if match.kind == TABLE:
        raise MatchConflict("table-match", "This match is a table's: play it through "
                            "/api/v1/tables/<table>/roll and /score.", match)


def seat_outside_tables(player: str | None):
    """The ``seat_of`` these routes act through: the caller's seat of a match that is not a
    table's (``refuse_table_match``)."""
    pseudonym = services().secrets.pseudonym(player) if player else None

    def seat_of(match: Match) -> int | None:
        """The caller's seat, after refusing a table's match."""
        refuse_table_match(match)
        return match.seat_of(pseudonym)

    return seat_of


@bp.before_request
def settle_ledger() -> None:
    """Publish the epoch entry (its public key signs the results) before answering."""
    services().prepare()


@bp.errorhandler(MatchConflict)
def handle_match_conflict(error: MatchConflict):
    """A 409 that carries the match as it stands, the Joker refusal explained in the
    request's language."""
    message, you = error.message, error.match.seat_of(caller())
    if error.code == "joker-forbids" and you is not None:
        placement = error.match.games[you].placement()
        message = placement.reason(language()) if placement is not None else message
    response = jsonify({"error": {"code": error.code, "message": message},
                        "match": shown_state(error.match, caller(), language())})
    response.status_code = 409
    return response


@bp.app_errorhandler(ValueTablesNotReady)
def handle_tables_not_ready(error: ValueTablesNotReady):
    """A 503 with Retry-After while a strategy table is being computed or loaded, on every
    route of the app that needs one (a match's, a table's, a daily game's): the API's
    ``tables-not-ready``, or a page's own 503. An error handler returns its answer: one that
    raises turns the refusal into a 500."""
    refusal = tables_not_ready()
    if not request.path.startswith(API_PREFIX):
        return page_error(ServiceUnavailable(retry_after=int(COMPUTING_RETRY_AFTER)))
    response = error_response(refusal.status, refusal.code, refusal.message)
    response.headers.update(refusal.headers)
    return response


@bp.post("/matches")
def create_match():
    """A new practice game (no bots) or game against 1 to 5 bots of chosen levels, dealt
    ``duplicate`` (every seat the same dice each turn) when ``duplicate`` is true."""
    body = json_body()
    ruleset = text_field(body, "ruleset")
    bots = body.get("bots", [])
    name = body.get("name")
    if name is not None:
        name = players.validate_name(name)
    duplicate = body.get("duplicate", False)
    if type(duplicate) is not bool:
        raise ApiError(400, "invalid-duplicate", "duplicate must be true or false.")
    player = players.ensure_player()
    match = services().matches.create(player, ruleset, bots,
                                      name or players.remembered_name(), duplicate=duplicate)
    return answer(match, 201)


@bp.get("/matches/<match_id>")
def get_match(match_id: str):
    """A match: anyone with its id may read it; at the end it carries the result and seed."""
    return answer(services().matches.get(checked_id(match_id)))


@bp.post("/matches/<match_id>/roll")
def roll(match_id: str):
    """Roll the caller's dice not held, as action number ``roll`` (with ``client_seed`` on the
    seat's first roll)."""
    body = json_body()
    number = action_number(body)
    action = Roll(parse_hold(body.get("hold")))
    seed = body.get("client_seed")
    if seed is not None and not isinstance(seed, str):
        raise ApiError(400, "invalid-client-seed", "client_seed must be a string.")
    return answer(services().matches.act_for(checked_id(match_id),
                                             seat_outside_tables(players.current_player()),
                                             number, action, seed))


@bp.post("/matches/<match_id>/score")
def score(match_id: str):
    """Fill a box of the caller's sheet, as action number ``roll``; the bots then play."""
    body = json_body()
    number = action_number(body)
    action = Score(text_field(body, "category"))
    return answer(services().matches.act_for(checked_id(match_id),
                                             seat_outside_tables(players.current_player()),
                                             number, action))


@bp.post("/matches/<match_id>/advance")
def advance(match_id: str):
    """Play the bots' turns that are due (only needed when the tables were loading); a
    table's are the turn clock's to play (409 ``table-match``)."""
    found = services().matches.get(checked_id(match_id))
    refuse_table_match(found)
    return answer(services().matches.advance(found.id))


@bp.get("/matches/<match_id>/hint")
def hint(match_id: str):
    """The best keep or box for the caller's dice, with its expected value, and the
    runner-up's (a match with one human only)."""
    found = services().matches.hint(checked_id(match_id), players.current_player())
    return jsonify({"hint": found})


@bp.get("/matches/<match_id>/review")
def review(match_id: str):
    """The coach's review of a seat's game (``?seat=``, default the caller's), at the end."""
    found = services().matches.get(checked_id(match_id))
    seat = request.args.get("seat")
    if seat is None:
        index = found.seat_of(caller())
        if index is None:
            index = next(s.index for s in found.seats if s.kind == HUMAN)
    else:
        index = bounded_int(seat, 0, len(found.seats) - 1)
        if index is None:
            raise ApiError(400, "invalid-seat", f"seat must be a seat number below "
                                                f"{len(found.seats)}.")
    result = services().matches.review(found, index)
    return jsonify({"match": found.id, "seat": index, **result.to_json()})
