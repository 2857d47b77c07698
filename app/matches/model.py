"""A match as stored and read: its seats, each seat's game rebuilt from the match's log, the
names of its kinds and states, how long it lives, and the dice stream of each seat.

Nothing here reads Redis or a secret: ``rebuild`` turns a ``MatchRecord`` into a ``Match``,
``seat_dice`` takes the server seed already opened (``vault.py``).
"""

import datetime as dt
from dataclasses import dataclass

from app.matches.store import Action, MatchRecord
from fairness import Game, canonical_json, get_ruleset, seat_stream
from fairness.dice import SEQUENTIAL

PRACTICE = "practice"
COMPUTER = "computer"
TABLE = "table"  # a table's match (app/tables/), played only through its routes
PLAYING = "playing"
FINISHED = "finished"
EXPIRED = "expired"
REMOVED = "removed"
HUMAN = "human"
BOT = "bot"

IDLE_SECONDS = 24 * 3600
RETENTION_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Seat:
    """One seat: a human (their pseudonym) or a bot (its level), and the name shown."""

    index: int
    kind: str
    name: str
    player: str | None = None
    bot: str | None = None

    def to_json(self) -> dict:
        """The stored and published form (the result's seat fields but the game's)."""
        return {"seat": self.index, "kind": self.kind, "player": self.player, "bot": self.bot,
                "name": self.name}

    @classmethod
    def from_json(cls, value: dict) -> "Seat":
        """A seat back from its stored form."""
        return cls(value["seat"], value["kind"], value["name"], value["player"], value["bot"])


@dataclass(frozen=True)
class Match:
    """A match as stored, with every seat's game rebuilt from its transcript."""

    record: MatchRecord
    seats: tuple[Seat, ...]
    games: tuple[Game, ...]
    client_seeds: tuple[str | None, ...]

    @property
    def id(self) -> str:
        """The match's id (32 hex digits)."""
        return self.record.id

    @property
    def kind(self) -> str:
        """``practice``, ``computer`` or ``table``."""
        return self.record.fields["kind"]

    @property
    def ruleset(self) -> str:
        """The sheet every seat plays."""
        return self.record.fields["ruleset"]

    @property
    def dealing(self) -> str:
        """How the seats take their rolls from their streams: ``per-turn``, ``duplicate``
        (every seat from seat 0's stream, ``fairness.match``) or, stored before per-turn
        dealing, ``sequential``."""
        return self.record.fields.get("dealing", SEQUENTIAL)

    @property
    def status(self) -> str:
        """``playing``, ``finished`` or ``expired``."""
        return self.record.status

    @property
    def humans(self) -> int:
        """How many seats humans hold."""
        return sum(seat.kind == HUMAN for seat in self.seats)

    @property
    def finished(self) -> bool:
        """True once every seat's sheet is full."""
        return all(game.finished for game in self.games)

    @property
    def turn_seat(self) -> int | None:
        """The seat to act: the first with the fewest boxes filled (None once finished)."""
        if self.finished:
            return None
        return min(range(len(self.games)), key=lambda seat: len(self.games[seat].boxes))

    def seat_of(self, pseudonym: str | None) -> int | None:
        """The seat this player holds, if any."""
        for seat in self.seats:
            if pseudonym is not None and seat.kind == HUMAN and seat.player == pseudonym:
                return seat.index
        return None

    def ranks(self) -> list[int]:
        """Each seat's rank by total: 1 + the seats with more points (ties share a rank)."""
        totals = [game.totals().total for game in self.games]
        return [1 + sum(other > total for other in totals) for total in totals]

    def idle_until(self) -> dt.datetime:
        """When the match expires unless someone acts."""
        return parse_time(self.record.fields["updated_at"]) + dt.timedelta(seconds=IDLE_SECONDS)


def parse_time(timestamp: str) -> dt.datetime:
    """A stored ``…Z`` timestamp as an aware datetime."""
    return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def rebuild(record: MatchRecord) -> Match:
    """The Match of a stored record: its seats, seeds and each seat's game."""
    seats = tuple(Seat.from_json(value) for value in record.json_field("seats"))
    transcripts = record.transcripts(len(seats))
    ruleset = get_ruleset(record.fields["ruleset"]).id
    games = tuple(Game.from_match_transcript(ruleset, transcript) for transcript in transcripts)
    return Match(record, seats, games, tuple(record.json_field("client_seeds")))


def with_seeds(match: Match, seeds: list[str | None]) -> Match:
    """The match with these client seeds (about to be stored with the action)."""
    return Match(match.record, match.seats, match.games, tuple(seeds))


def same_action(stored: Action, seat: int, action) -> bool:
    """True when the stored action is this seat's very ``action``."""
    return stored.seat == seat and action.matches(stored.entry)


def seat_dice(match: Match, server_seed: bytes, seat: int):
    """Seat ``seat``'s dice stream, from the match's server seed and its humans' client
    seeds (every one of them fixed): its own, or seat 0's in a ``duplicate`` match."""
    seeds = [seed for seat_, seed in zip(match.seats, match.client_seeds, strict=True)
             if seat_.kind == HUMAN]
    return seat_stream(server_seed, seeds, match.id, seat, match.ruleset, match.dealing)


def stored_json(value) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(value).decode()
