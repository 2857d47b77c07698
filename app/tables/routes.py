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
from app.matches.routes import match_state, play_of
from app.matches.service import PLAYING, Match, validate_ruleset
from app.observability.limits import client_address
from app.players import service as players
from app.services import services
from app.tables.errors import InvalidTable, NotAllowed, TableNotFound
from app.tables.service import WAITING, TableService, checked_id, parse_clock, public_seats
from app.tables.sse import HEADERS, MAX_SECONDS, table_events
from app.tables.store import TableRecord
from app.tables.stream_caps import StreamCaps

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
    ``transcripts`` False leaves out the seats' transcripts and the play order)."""
    seats = table.seats
    held = [index for index, seat in enumerate(seats)
            if pseudonym is not None and seat["player"] == pseudonym]
    base = site_url().rstrip("/")
    return {
        "id": table.id,
        "code": table.fields["code"],
        "ruleset": table.fields["ruleset"],
        "clock": table.clock or None,
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
    }


def seat_state(match: Match, held: list[int], pseudonym: str | None, lang: str,
               transcripts: bool = True) -> dict:
    """The engine's view of the match for the caller, ``you`` being the seat whose turn it is
    when the caller holds it (pass and play: one device, several seats)."""
    state = match_state(match, pseudonym, lang, transcripts)
    turn = state["turn"]
    if turn is None or turn not in held or state["you"] == turn:
        return state
    return {**state, "you": turn, "play": play_of(match.games[turn], lang)}


def answer(table_id: str, status: int = 200,
           written: tuple[TableRecord, Match] | None = None):
    """The ``{"table": view}`` answer for the caller: the table and its match as an action
    just wrote them (``written``), else as stored. The answer to an action leaves out the
    seats' transcripts and the play order while the match is being played (the table's events
    carry every action; a GET, the stream's snapshot and the end show them whole)."""
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
    """A new table: ``ruleset``, ``seats`` (the other seats), ``clock``, ``name`` and
    ``client_seed`` (the creator's)."""
    body = json_body()
    ruleset = validate_ruleset(text_field(body, "ruleset"))
    clock = parse_clock(body)
    name = caller_name(body)
    player = players.ensure_player()
    table = tables().create(player, ruleset, body.get("seats"), clock, name,
                            body.get("client_seed"), seat_name)
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
