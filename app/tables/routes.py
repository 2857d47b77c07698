"""The JSON API of tables (docs/api.md, "Tables") and their live event stream.

Thin routes over ``service.TableService``: each parses its input, calls the service once and
answers ``{"table": view}``; ``GET /tables/<id>/events`` is the Server-Sent Events stream
(``sse.py``) every seat and every spectator reads. Refusals are the tables' errors
(``errors.py``), answered by the API's one handler of domain errors.
"""

import random
import re

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context

from app.api.request import action_number, json_body, language, site_url, text_field
from app.daily.service import Roll, Score, parse_hold
from app.matches.routes import match_state, play_of, seat_json
from app.matches.service import PLAYING, Match, validate_ruleset
from app.observability.limits import client_address
from app.players import service as players
from app.services import services
from app.tables import rematch
from app.tables.duplicate import (
    action_seat,
    is_duplicate_table,
    own_actions,
    parse_duplicate,
    redact_actions,
    shared_length,
    visible_games,
    withheld_seats,
)
from app.tables.errors import InvalidTable, NotAllowed, TableNotFound
from app.tables.service import WAITING, TableService, checked_id, parse_clock, public_seats
from app.tables.sse import HEADERS, MAX_SECONDS, table_events
from app.tables.store import TableRecord
from app.tables.stream_caps import StreamCaps
from app.tables.views import withholds

bp = Blueprint("tables", __name__, url_prefix="/api/v1")

CODE = re.compile(r"[0-9A-Za-z]{6}")
STREAM_SPREAD = 0.75
STREAM_CAPS = "stream-caps"


def tables() -> TableService:
    """The app's table service."""
    return services().tables


def caller() -> str | None:
    """The caller's pseudonym, if the browser has an identity."""
    player = players.current_player()
    return services().secrets.pseudonym(player) if player else None


def table_view(table: TableRecord, match, pseudonym: str | None, lang: str,
               transcripts: bool = True) -> dict:
    """A table as the API shows it to the caller: its seats, the seats the caller holds, the
    clock and, once started, its match (the engine's view, result and seeds at the end;
    ``transcripts`` False leaves out the seats' transcripts and the play order). A duplicate
    table's adds ``shared``, how many of the match's actions every viewer sees (its events'
    ``to``), and ``yours``, the caller's seats' actions after those with their numbers."""
    seats = table.seats
    held = [index for index, seat in enumerate(seats)
            if pseudonym is not None and seat["player"] == pseudonym]
    base = site_url().rstrip("/")
    return {
        "id": table.id,
        "code": table.fields["code"],
        "ruleset": table.fields["ruleset"],
        "clock": table.clock or None,
        "duplicate": is_duplicate_table(table.fields),
        "status": match.status if match is not None else WAITING,
        "created_at": table.fields["created_at"],
        "creator": pseudonym is not None and table.fields["creator"] == pseudonym,
        "seats": public_seats(seats),
        "you": held,
        "seconds_left": tables().seconds_left(table) if match is not None else None,
        "join_url": f"{base}/t/{table.fields['code']}",
        "watch_url": f"{base}/tables/{table.id}/watch",
        "match": None if match is None else seat_state(match, held, pseudonym, lang,
                                                        transcripts),
        **({} if match is None or not withholds(match) else {
            "shared": shared_length(match), "yours": own_actions(match, held)}),
    }


def seat_state(match: Match, held: list[int], pseudonym: str | None, lang: str,
               transcripts: bool = True) -> dict:
    """The engine's view of the match for the caller, ``you`` being the seat whose turn it is
    when the caller holds it (pass and play: one device, several seats), less what a
    duplicate table withholds from them (``withheld_from``)."""
    state = match_state(match, pseudonym, lang, transcripts)
    turn = state["turn"]
    if turn is not None and turn in held and state["you"] != turn:
        state = {**state, "you": turn, "play": play_of(match.games[turn], lang)}
    return withheld_from(state, match, held, transcripts)


def withheld_from(state: dict, match: Match, held: list[int], transcripts: bool) -> dict:
    """``state`` less what a duplicate table's match being played keeps from the holder of
    ``held`` (app/tables/duplicate.py): the other seats' actions of the round being played
    (each such seat as it stood before it, those actions left out of ``order``)."""
    if not withheld_seats(match, held):
        return state
    games = visible_games(match, held)
    state = {**state, "seats": [seat_json(match, index, transcripts, games[index])
                                for index in range(len(match.seats))]}
    if transcripts:
        state["order"] = [action_seat(action)
                          for action in redact_actions(match, match.record.log, held)]
    return state


def answer(table_id: str, status: int = 200,
           written: tuple[TableRecord, Match] | None = None):
    """The ``{"table": view}`` answer for the caller: the table and its match as an action
    just wrote them (``written``), else as stored. The answer to an action leaves out the
    seats' transcripts and the play order while the match is being played (the table's events
    carry every action, a duplicate table's its complete rounds, its ``yours`` the caller's own
    since; a GET, the stream's snapshot and the end show them whole)."""
    table, match = written or tables().view(table_id)
    whole = written is None or match.status != PLAYING
    response = jsonify({"table": table_view(table, match, caller(), language(), whole)})
    response.status_code = status
    return response


def seat_name(value) -> str:
    """A pass-and-play seat's name (required, as a display name)."""
    if value is None:
        raise InvalidTable("invalid-name", "Each seat played on this device needs a name.")
    return players.validate_name(value)


def caller_name(body: dict) -> str:
    """The name the caller plays under: the body's, else the one remembered, else a 400."""
    name = body.get("name")
    if name is None:
        name = players.remembered_name()
    if name is None:
        raise InvalidTable("invalid-name", "Choose a name to sit at the table.")
    name = players.validate_name(name)
    players.remember_name(name)
    return name


@bp.post("/tables")
def create_table():
    """A new table: ``ruleset``, ``seats`` (the other seats), ``clock``, ``duplicate``, ``name``
    and ``client_seed`` (the creator's)."""
    body = json_body()
    ruleset = validate_ruleset(text_field(body, "ruleset"))
    clock = parse_clock(body)
    duplicate = parse_duplicate(body)
    name = caller_name(body)
    player = players.ensure_player()
    table = tables().create(player, ruleset, body.get("seats"), clock, name,
                            body.get("client_seed"), seat_name, duplicate=duplicate)
    return answer(table.id, 201)


@bp.get("/tables/<table>")
def get_table(table: str):
    """A table as it stands: anyone with its id may read it (the spectator's view too)."""
    return answer(checked_id(table))


@bp.get("/tables/code/<code>")
def find_table(code: str):
    """The table a short code joins."""
    if not CODE.fullmatch(code):
        raise TableNotFound()
    return answer(tables().find(code).id)


@bp.post("/tables/<table>/join")
def join_table(table: str):
    """Take an open seat with ``name`` and ``client_seed``."""
    body = json_body()
    name = caller_name(body)
    player = players.ensure_player()
    joined = tables().join(checked_id(table), player, name, body.get("client_seed"))
    return answer(joined.id)


@bp.post("/tables/<table>/start")
def start_table(table: str):
    """Start the table (its creator only, once every seat is taken)."""
    player = players.current_player()
    if player is None:
        raise NotAllowed("not-creator", "Only the table's creator starts it.")
    tables().start(checked_id(table), player)
    return answer(table)


@bp.post("/tables/<table>/roll")
def roll(table: str):
    """Roll the dice not held on the caller's turn, as action number ``roll``."""
    body = json_body()
    number = action_number(body)
    action = Roll(parse_hold(body.get("hold")))
    return _act(table, number, action)


@bp.post("/tables/<table>/score")
def score(table: str):
    """Fill a box with the caller's dice, as action number ``roll``; the bots then play."""
    body = json_body()
    number = action_number(body)
    return _act(table, number, Score(text_field(body, "category")))


@bp.post("/tables/<table>/again")
def play_again(table: str):
    """The table that follows this one, over (the same for every seat that asks): the same
    sheet, clock and bots, the caller seated; optional ``client_seed``."""
    body = json_body() if request.content_length else {}
    player = players.current_player()
    if player is None:
        raise NotAllowed("not-seated", "Only the table's players start it again.")
    following = rematch.play_again(tables(), checked_id(table), player, body.get("client_seed"))
    return answer(following.id)


def _act(table: str, number: int, action):
    """Apply the caller's action at the table and answer the table."""
    player = players.current_player()
    if player is None:
        raise NotAllowed("not-your-match", "You hold no seat at this table.")
    return answer(table, written=tables().act(checked_id(table), player, number, action))


def stream_caps() -> StreamCaps:
    """This worker's caps on open event streams (one per app: an app per worker process)."""
    caps = current_app.extensions.get(STREAM_CAPS)
    if caps is None:
        caps = current_app.extensions[STREAM_CAPS] = StreamCaps(
            tables().channel.client, int(current_app.config["STREAMS_PER_ADDRESS"]),
            int(current_app.config["STREAMS_PER_WORKER"]))
    return caps


@bp.get("/tables/<table>/events")
def events(table: str):
    """The table's live events (Server-Sent Events), resumed after ``Last-Event-ID``; refused
    past the caps on open streams (``stream_caps``: a StreamRefused) before anything is read."""
    wanted = checked_id(table)
    # Each response lasts from 3/4 of the configured time to all of it: streams opened
    # together (a deploy, a table's seats) reconnect spread out, not in one wave.
    configured = float(current_app.config.get("TABLE_STREAM_SECONDS", MAX_SECONDS))
    seconds = configured * random.uniform(STREAM_SPREAD, 1.0)
    slot = stream_caps().open(client_address(), seconds)
    try:
        found = tables().get(wanted)
        pseudonym, lang = caller(), language()

        def snapshot() -> dict:
            """The table as it stands for this reader (in the stream's request context)."""
            state, match = tables().view(found.id)
            return table_view(state, match, pseudonym, lang)

        stream = table_events(tables().channel, found.id, request.headers.get("Last-Event-ID"),
                              snapshot, max_seconds=seconds)
        response = Response(stream_with_context(stream), mimetype="text/event-stream",
                            headers=HEADERS)
    except BaseException:
        slot.release()
        raise
    response.call_on_close(slot.release)  # the stream's end, or its reader gone
    return response
