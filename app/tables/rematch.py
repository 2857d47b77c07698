"""Play again: a new table with the same sheet, clock and seats as a table that is over.

The first seat that asks makes the new table and is its creator; the old table keeps the new
one's id (``again``, one compare-and-set on its version), so every seat that asks after gets
that same table, and each human of the old table who asks is seated at it again (under their
name, with the client seed they send, else their previous one). The bots come back as
they were; the other humans' seats are open, for the new table's invite link. The seats the
creator played on their own device ("pass and play") come back with them when they ask first.
"""

import secrets
import time

from app.matches.model import BOT, HUMAN, PLAYING
from app.platform import codes
from app.platform.clock import format_timestamp
from app.tables.errors import NoFreeCode, NotAllowed, TableConflict, TableNotFound
from app.tables.service import (
    MAX_ATTEMPTS,
    WAITING,
    TableService,
    _json,
    new_code,
    parse_client_seed,
)
from app.tables.store import TableRecord

AGAIN_FIELD = "again"
KEPT_FIELDS = ("ruleset", "clock", "duplicate")  # what a new table takes from the old one
WAIT_SECONDS = 0.05  # the first asker writes the new table just after naming it


def play_again(tables: TableService, table_id: str, player: str,
               client_seed: str | None) -> TableRecord:
    """The table that follows ``table_id`` (made now by the first of its seats to ask), with
    ``player`` seated at it when they held a human seat of the old one."""
    seed = None if client_seed is None else parse_client_seed(client_seed)
    pseudonym = tables.pseudonym(player)
    for _ in range(MAX_ATTEMPTS):
        table = tables.get(table_id)
        old_seats = table.seats
        if not any(seat["player"] == pseudonym for seat in old_seats):
            raise NotAllowed("not-seated", "Only the table's players start it again.")
        following = table.fields.get(AGAIN_FIELD)
        if following:
            return _seat_again(tables, following, old_seats, player, pseudonym, seed)
        if table.match is None or tables.matches.get(table.match).status == PLAYING:
            raise TableConflict("table-not-over", "The table is not over yet.")
        new_id = secrets.token_hex(16)
        if tables.store.update(table, {AGAIN_FIELD: new_id}):
            _create(tables, table, new_id, pseudonym, seed)
            return tables.get(new_id)
    raise TableConflict("busy", "The table changed too often meanwhile; try again.")


def again_seats(old_seats: list[dict], pseudonym: str, creator: bool,
                seed: str | None) -> list[dict]:
    """The new table's seats: the bots as they were, ``pseudonym``'s seats theirs again (their
    own device's seats only when they created the old table), every other human seat open."""
    seats = []
    for seat in old_seats:
        if seat["kind"] == BOT:
            seats.append(dict(seat))
        elif seat["player"] == pseudonym and (creator or not seat.get("here")):
            own_seed = seat["client_seed"] if seat.get("here") or seed is None else seed
            seats.append({**seat, "client_seed": own_seed})
        else:
            seats.append({"kind": HUMAN, "bot": None, "player": None, "name": None,
                          "client_seed": None, "here": False})
    return seats


def _create(tables: TableService, old: TableRecord, new_id: str, pseudonym: str,
            seed: str | None) -> None:
    """Write the new table ``new_id`` (named on the old one already) under a fresh code."""
    creator = old.fields["creator"] == pseudonym
    fields = {name: old.fields[name] for name in KEPT_FIELDS if name in old.fields}
    fields.update(creator=pseudonym, status=WAITING,
                  seats=_json(again_seats(old.seats, pseudonym, creator, seed)),
                  created_at=format_timestamp(tables.now()))
    for _ in range(codes.ATTEMPTS):
        if tables.store.create(new_id, new_code(), fields):
            return
    raise NoFreeCode()


def _seat_again(tables: TableService, new_id: str, old_seats: list[dict], player: str,
                pseudonym: str, seed: str | None) -> TableRecord:
    """The following table, with the caller seated when they held a human seat of the old
    one and a seat is open (once it has started, or with no seat open, as it stands)."""
    for _ in range(MAX_ATTEMPTS):
        try:
            table = tables.get(new_id)
            break
        except TableNotFound:
            time.sleep(WAIT_SECONDS)  # named on the old table, not written yet
    else:
        raise TableConflict("busy", "The table changed too often meanwhile; try again.")
    own = next(seat for seat in old_seats if seat["player"] == pseudonym)
    if table.status != WAITING or any(seat["player"] == pseudonym for seat in table.seats):
        return table
    try:
        return tables.join(new_id, player, own["name"], seed or own["client_seed"])
    except TableConflict:
        return table  # full, or started meanwhile: the caller may watch it
