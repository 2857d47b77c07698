"""The tables' service: 2 to 6 seats, friends and bots, a turn clock, live for every seat.

A table is a lobby first (``store.py``): its creator picks the sheet, the seats
(which are bots, at which level; which are played on the creator's own device, "pass and
play"), and the turn clock (DEFAULT_CLOCK seconds for the three rolls together, or off).
Friends join by the link or the short code with a name and their client seed; the creator
starts. Starting makes the table's match on the engine (``app/matches/service.py``, kind
``table``) with every human's client seed fixed, so every seat's dice are sealed before the
first roll; from then on the engine plays it (turn order, bots, the signed result).

Every change is published on the table's event stream (``events.py``) by the request or the
clock that made it. The turn being timed is kept on the table (``turn``, ``deadline``) and
indexed in the turn clock's deadlines (``turn_clock.py``); when it runs out the clock plays the
seat's move (``clock_move.py``) through the engine's compare-and-set, so a move is applied once
whichever worker gets there. Refusals are the tables' own errors (``errors.py``).
"""

import datetime as dt
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence

from app.daily.service import Roll, Score
from app.matches.errors import MatchConflict
from app.matches.model import BOT, HUMAN, PLAYING, TABLE, Match, Seat
from app.matches.service import MatchService
from app.platform import codes
from app.platform.clock import format_timestamp
from app.tables.clock_move import NO_HOLD, best_box
from app.tables.duplicate import duplicate_fields, is_duplicate_table
from app.tables.errors import InvalidTable, NoFreeCode, NotAllowed, TableConflict, TableNotFound
from app.tables.events import TableChannel
from app.tables.sse import END_KIND
from app.tables.store import TableRecord, TableStore
from app.tables.turn_clock import TurnClock
from app.tables.views import actions_event
from fairness import InvalidClientSeed, canonical_json
from fairness.match import validate_client_seed
from strategy.bots import LEVELS

WAITING = "waiting"
DEFAULT_CLOCK = 45
MIN_CLOCK, MAX_CLOCK = 3, 600
MIN_SEATS, MAX_SEATS = 2, 6
CODE_LENGTH = 6  # a join code: 30 random bits (app.platform.codes)
MAX_ATTEMPTS = 4
BOTS_RETRY_SECONDS = 1.0
PLAYING_CACHE_SIZE = 4096  # started tables whose record a process keeps (fixed once playing)
BY_PLAYER, BY_CLOCK, BY_BOTS = "player", "clock", "bots"
TABLE_ID = re.compile(r"[0-9a-f]{32}")


def checked_id(value: str) -> str:
    """``value`` if it can be a table id, else TableNotFound (nothing is looked up)."""
    if not TABLE_ID.fullmatch(value):
        raise TableNotFound()
    return value


def parse_clock(body: Mapping) -> int:
    """The clock in seconds from a request body: DEFAULT_CLOCK when ``clock`` is absent, 0
    (off) when it is null, false or 0, else a whole number from MIN_CLOCK to MAX_CLOCK."""
    if "clock" not in body:
        return DEFAULT_CLOCK
    value = body["clock"]
    if value is None or value is False or (type(value) is int and value == 0):
        return 0
    if type(value) is not int or not MIN_CLOCK <= value <= MAX_CLOCK:
        raise InvalidTable("invalid-clock", f"clock is a whole number of seconds from "
                                            f"{MIN_CLOCK} to {MAX_CLOCK}, or 0 / null for none.")
    return value


def parse_client_seed(value) -> str:
    """A client seed as the fairness core takes it, else InvalidTable."""
    try:
        return validate_client_seed(value)
    except InvalidClientSeed as error:
        raise InvalidTable("invalid-client-seed", str(error)) from None


def parse_seats(specs, creator_name: str, creator_seed: str,
                name_of: Callable[[object], str]) -> list[dict]:
    """The seats of a new table from the request's list: seat 0 is the creator's; each other
    is ``{"kind": "human"}`` (a friend joins it), ``{"kind": "human", "here": true, "name",
    "client_seed"}`` (pass and play on the creator's device) or ``{"kind": "bot", "level"}``."""
    if not isinstance(specs, list) or not MIN_SEATS <= len(specs) + 1 <= MAX_SEATS:
        raise InvalidTable("invalid-seats", f"seats lists the {MIN_SEATS - 1} to "
                                            f"{MAX_SEATS - 1} seats beside yours.")
    seats = [{"kind": HUMAN, "bot": None, "player": "", "name": creator_name,
              "client_seed": creator_seed, "here": False}]
    for index, spec in enumerate(specs, start=1):
        if not isinstance(spec, Mapping) or spec.get("kind") not in (HUMAN, BOT):
            raise InvalidTable("invalid-seats", f"seat {index} must be an object whose kind "
                                                "is human or bot.")
        if spec["kind"] == BOT:
            if spec.get("level") not in LEVELS:
                raise InvalidTable("invalid-bots", f"seat {index}: a bot's level is one of "
                                                   f"{', '.join(LEVELS)}.")
            seats.append({"kind": BOT, "bot": spec["level"], "player": None,
                          "name": f"Bot {index} ({spec['level']})", "client_seed": None,
                          "here": False})
        elif spec.get("here") is True:
            seats.append({"kind": HUMAN, "bot": None, "player": "",
                          "name": name_of(spec.get("name")),
                          "client_seed": parse_client_seed(spec.get("client_seed")),
                          "here": True})
        else:
            seats.append({"kind": HUMAN, "bot": None, "player": None, "name": None,
                          "client_seed": None, "here": False})
    return seats


def turn_fields(match: Match) -> dict:
    """Whose turn it is (``turn``, the seat: None once the match is over), its ``round`` and
    the match's ``status``: part of every event of the match."""
    seat = match.turn_seat if match.status == PLAYING else None
    return {"turn": seat, "round": None if seat is None else len(match.games[seat].boxes) + 1,
            "status": match.status}


def turn_of(match: Match) -> str | None:
    """The turn being played, ``<seat>:<round>``, or None once the match is over."""
    fields = turn_fields(match)
    return None if fields["turn"] is None else f"{fields['turn']}:{fields['round']}"


def new_code() -> str:
    """A fresh join code, in its canonical form."""
    return codes.new_code(CODE_LENGTH)


class TableService:
    """Creates and joins tables, starts their match, plays their actions and their clock, and
    publishes every change."""

    def __init__(self, store: TableStore, matches: MatchService, channel: TableChannel,
                 clock: TurnClock, pseudonym: Callable[[str], str],
                 now: Callable[[], dt.datetime]):
        """Bind to the tables' store, the match engine, the event channel, the turn clock
        (its ``now`` is the time deadlines are in), the pseudonym of a player id and the
        app's clock (for the records' times)."""
        self.store = store
        self.matches = matches
        self.channel = channel
        self.clock = clock
        self.pseudonym = pseudonym
        self.now = now
        self._lock = threading.Lock()
        self._playing_tables: OrderedDict[str, TableRecord] = OrderedDict()

    # The lobby

    def create(self, player: str, ruleset: str, seat_specs, clock_seconds: int, name: str,
               client_seed: str, name_of: Callable[[object], str],
               duplicate: bool = False) -> TableRecord:
        """A new table whose seat 0 is ``player``'s, dealt duplicate if asked; returns it."""
        seats = parse_seats(seat_specs, name, parse_client_seed(client_seed), name_of)
        pseudonym = self.pseudonym(player)
        for seat in seats:
            if seat["player"] == "":
                seat["player"] = pseudonym
        fields = {"ruleset": ruleset, "clock": str(clock_seconds), "creator": pseudonym,
                  "seats": _json(seats), "status": WAITING,
                  "created_at": format_timestamp(self.now()), **duplicate_fields(duplicate)}
        for _ in range(codes.ATTEMPTS):
            table_id = secrets.token_hex(16)
            if self.store.create(table_id, new_code(), fields):
                return self.get(table_id)
        raise NoFreeCode()

    def get(self, table_id: str) -> TableRecord:
        """The stored table, or TableNotFound."""
        table = self.store.load(table_id)
        if table is None:
            raise TableNotFound()
        return table

    def find(self, code: str) -> TableRecord:
        """The table a short code joins, or TableNotFound."""
        typed = codes.is_typed_text(code, CODE_LENGTH)
        canonical = codes.canonical_code(code, CODE_LENGTH) if typed else None
        table_id = self.store.by_code(canonical) if canonical else None
        if table_id is None:
            raise TableNotFound()
        return self.get(table_id)

    def join(self, table_id: str, player: str, name: str, client_seed: str) -> TableRecord:
        """Seat ``player`` at the first open seat with ``name`` and ``client_seed`` (a player
        already seated keeps their seat: joining twice changes nothing)."""
        seed = parse_client_seed(client_seed)
        pseudonym = self.pseudonym(player)
        for _ in range(MAX_ATTEMPTS):
            table = self.get(table_id)
            seats = table.seats
            if any(seat["player"] == pseudonym for seat in seats):
                return table
            if table.status != WAITING:
                raise TableConflict("table-started", "The table has started: watch it instead.")
            open_seat = next((s for s in seats if s["kind"] == HUMAN and s["player"] is None),
                             None)
            if open_seat is None:
                raise TableConflict("table-full", "Every seat of the table is taken.")
            open_seat.update(player=pseudonym, name=name, client_seed=seed)
            if self.store.update(table, {"seats": _json(seats)}):
                self.channel.publish(table_id, "joined", {"seats": public_seats(seats)})
                return self.get(table_id)
        raise TableConflict("busy", "The table changed too often meanwhile; try again.")

    def start(self, table_id: str, player: str) -> Match:
        """Start the table (its creator, every seat taken): make its match with every client
        seed fixed, time the first turn, tell every seat."""
        table = self.get(table_id)
        if table.fields["creator"] != self.pseudonym(player):
            raise NotAllowed("not-creator", "Only the table's creator starts it.")
        if table.status != WAITING:
            return self.matches.get(table.match)
        seats = table.seats
        if any(seat["kind"] == HUMAN and seat["player"] is None for seat in seats):
            raise TableConflict("seats-open", "Some seats wait for a friend still.")
        match = self.matches.create_seated(
            [Seat(index, seat["kind"], seat["name"], player=seat["player"], bot=seat["bot"])
             for index, seat in enumerate(seats)], table.fields["ruleset"], TABLE,
            client_seeds=[seat["client_seed"] for seat in seats],
            duplicate=is_duplicate_table(table.fields))
        if not self.store.update(table, {"status": PLAYING, "match": match.id}):
            return self.matches.get(self.get(table_id).match)  # started meanwhile
        self._time_and_publish(table, match, [("started", {"match": match.id,
                                                           **turn_fields(match)}, True)],
                               None, BY_PLAYER)
        return match

    # Playing

    def act(self, table_id: str, player: str, number: int,
            action) -> tuple[TableRecord, Match]:
        """``player``'s action on the turn seat they hold (any of their seats at a pass and
        play table), then the bots' turns it hands over; published to every seat. The table
        (its timed turn as just written) and the match after it."""
        table = self._playing(table_id)
        pseudonym = self.pseudonym(player)

        def seat_of(match: Match) -> int | None:
            """The turn seat when the player holds it, else the player's first seat."""
            turn = match.turn_seat
            if turn is not None and match.seats[turn].player == pseudonym:
                return turn
            return match.seat_of(pseudonym)

        match = self.matches.act_for(table.match, seat_of, number, action)
        deadline = self._published(table, number, match, BY_PLAYER)  # a repeat sends the unsent
        fields = {**table.fields, "turn": turn_of(match) or "", "deadline": repr(deadline)}
        if deadline is None:
            fields.pop("deadline")
        return TableRecord(table.id, fields), match

    def expire(self, table_id: str) -> None:
        """The turn clock's move for ``table_id``, called by a runner that claimed it: play the
        bots' turns left due (their strategy table was loading), or the timed turn if its
        deadline has passed (a roll if none yet, then the best box), else re-arm the deadline;
        disarm a table that ended or has nothing to time."""
        table = self.store.load(table_id)
        if table is None or table.status != PLAYING:
            self.clock.disarm(table_id)
            return
        for _ in range(MAX_ATTEMPTS):
            match = self.matches.get(table.match)
            turn = turn_of(match)
            if turn is not None and match.seats[match.turn_seat].kind == BOT:
                self._published(table, match.record.version, self.matches.advance(match.id),
                                BY_BOTS)
                return
            if turn is None or not table.clock:
                self.clock.disarm(table_id)
                return
            if turn != table.fields.get("turn"):
                self._time_and_publish(table, match, [], None, BY_CLOCK)
                return
            if self.clock.now() < table.deadline:
                self.clock.arm(table_id, table.deadline)
                return
            try:
                self._play_for_clock(table, match)
                return
            except MatchConflict:
                table = self.get(table_id)  # someone acted meanwhile: look again
        self.clock.arm(table_id, self.clock.now() + 1)

    def _play_for_clock(self, table: TableRecord, match: Match) -> None:
        """Apply the clock's move on the timed turn's (human) seat."""
        seat = match.turn_seat
        before = match.record.version
        if match.games[seat].dice is None:
            match = self.matches.act_for(match.id, lambda _: seat, before, Roll(NO_HOLD))
        # Published (and the clock re-armed) once the whole move is written: re-arming between
        # the roll and the box let another runner claim the same turn meanwhile.
        try:
            match = self.matches.act_for(match.id, lambda _: seat, match.record.version,
                                         Score(best_box(match.games[seat])))
        finally:
            self._published(table, before, match, BY_CLOCK)

    # Views and events

    def view(self, table_id: str) -> tuple[TableRecord, Match | None]:
        """The table and, once started, its match."""
        table = self.get(table_id)
        return table, (self.matches.get(table.match) if table.match else None)

    def seconds_left(self, table: TableRecord) -> float | None:
        """How long the timed turn has left, or None with no clock or no timed turn."""
        if not table.clock or table.deadline is None:
            return None
        return max(0.0, round(table.deadline - self.clock.now(), 3))

    def _playing(self, table_id: str) -> TableRecord:
        """The table, which must have started. A started table's record only changes in its
        timed turn, which an action rewrites anyway: the process keeps it, and an action reads
        nothing of the table's."""
        with self._lock:
            table = self._playing_tables.get(table_id)
            if table is not None:
                self._playing_tables.move_to_end(table_id)
                return table
        table = self.get(table_id)
        if table.status != PLAYING:
            raise TableConflict("table-waiting", "The table has not started yet.")
        with self._lock:
            self._playing_tables[table_id] = table
            while len(self._playing_tables) > PLAYING_CACHE_SIZE:
                self._playing_tables.popitem(last=False)
        return table

    def _published(self, table: TableRecord, before: int, match: Match,
                   by: str) -> float | None:
        """Time the next turn and publish the actions from ``before`` on as every viewer may see
        them (``views.actions_event``), and the end; the turn's deadline."""
        events = []
        fields = actions_event(match, before, by)
        if fields is not None:
            events.append(("actions", {**fields, **turn_fields(match)}, True))
        if match.status != PLAYING:
            ranks = match.ranks()
            events.append((END_KIND, {
                "status": match.status, "ranks": ranks,
                "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
                "result": match.record.json_field("result"),
                "server_seed": match.record.fields.get("server_seed")}, False))
        return self._time_and_publish(table, match, events,
                                      match.record.version if events else None, by)

    def _time_and_publish(self, table: TableRecord, match: Match,
                          events: Sequence[tuple[str, Mapping, bool]], version: int | None,
                          by: str) -> float | None:
        """Time the match's turn (unless timed already) and publish ``events`` (as
        ``TableChannel.publish_turn`` takes them) in one script on the table's keys, then keep
        the turn clock's index in step (a write only when the turn is new, the table ends, or
        bots are left due: those, their strategy table loading, are indexed BOTS_RETRY_SECONDS
        ahead, clock or not, for the runner to play); the turn's deadline, None when none is
        timed."""
        now = self.clock.now()
        turn = turn_of(match)
        bots_due = turn is not None and match.seats[match.turn_seat].kind == BOT
        timed = turn if table.clock and turn is not None and not bots_due else None
        published = self.channel.publish_turn(table.id, timed, now + table.clock, now, events,
                                              version)
        if bots_due:
            self.clock.arm(table.id, now + BOTS_RETRY_SECONDS)
        elif timed is not None and published.timed:
            self.clock.arm(table.id, published.deadline)
        elif timed is None and (table.clock or by != BY_PLAYER):
            # The end of a timed table, or the bots' and the clock's moves: a human's action
            # at a table without a clock finds nothing armed (bots left due are played first).
            self.clock.disarm(table.id)
        return published.deadline


def public_seats(seats: Sequence[Mapping]) -> list[dict]:
    """The seats as anyone may see them: kind, name, level, taken or open (no pseudonym, no
    client seed before the end: the match's result publishes them)."""
    return [{"seat": index, "kind": seat["kind"], "name": seat["name"], "bot": seat["bot"],
             "taken": seat["kind"] == BOT or seat["player"] is not None,
             "here": seat.get("here", False)} for index, seat in enumerate(seats)]


def _json(value) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(value).decode()
