"""Matches: solo practice and games against the computer, each provably fair on its own
(FAIRNESS.md, "Matches"), on the engine that tables build on.

A match is a sheet, seats (humans with their player pseudonym, bots with a level), one game per
seat, a server seed drawn from ``os.urandom`` whose commitment is shown before the first roll,
and one client seed per human, given with that human's first roll and fixed from then on (every
human's must be in before anyone rolls). Seat ``i``'s dice come from its own stream,
``fairness.match.seat_stream(server_seed, client_seeds, match_id, i, ruleset, dealing)``, dealt
per turn (a match stored before per-turn dealing has no ``dealing`` field and deals
sequentially: its commitment and result are v1).

Seats take whole turns in order: seat 0's turn 1, seat 1's turn 1, …, seat 0's turn 2. Bots'
turns run on the server as soon as they are due: in the request of the human action that hands
them the turn (or ``advance`` when the strategy tables were still loading then), each bot
deciding with ``strategy.bots.Bot(table, level, rng).choose(game)``, its generator seeded from
the server seed, the seat and the action number, so that two workers racing on the same turn
compute the same actions. The page shows the bots' actions at a pace the player can skip.

Every action — one human action and the bots' turns it hands over to — is one compare-and-set
on the match's version (``MatchStore.advance``), so a retry or a duplicate applies once. When
the last box of the last seat is filled the same write stores the signed result (epoch key) and
the server seed. A match left unplayed IDLE_SECONDS expires the first time it is asked for
after that: its result (``finished: false``) and seed are published the same way. Redis removes
every match RETENTION_SECONDS after its end (or IDLE + RETENTION after its last action).
"""

import datetime as dt
import hashlib
import hmac
import os
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

import strategy
from app.api.errors import ApiError
from app.ledger.secrets import Secrets
from app.matches.store import Action, MatchMissing, MatchRecord, MatchStore
from app.platform.clock import format_timestamp
from fairness import (
    RULESETS,
    Game,
    IllegalMove,
    canonical_json,
    commitment,
    get_ruleset,
    match_result,
    seat_record,
    seat_stream,
    validate_client_seed,
)
from fairness.dice import PER_TURN, SEQUENTIAL
from strategy.bots import LEVELS, Bot
from strategy.bots import Roll as BotRoll

PRACTICE = "practice"
COMPUTER = "computer"
TABLE = "table"  # a table's match (app/tables/), played only through its routes
PLAYING = "playing"
FINISHED = "finished"
EXPIRED = "expired"
REMOVED = "removed"
HUMAN = "human"
BOT = "bot"

MAX_BOTS = 5
IDLE_SECONDS = 24 * 3600
RETENTION_SECONDS = 7 * 24 * 3600
MAX_ATTEMPTS = 3
CACHE_SIZE = 4096  # matches whose rebuilt games a process keeps, by id and version
SERVER_SEED_BYTES = 32
BOT_RNG_DOMAIN = "yacht-daily/match-bot/v1"
SEED_KEY_PURPOSE = "match-seed"
NONCE_BYTES = 12


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
        """How the seats take their rolls from their streams (``fairness.dice``)."""
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


class MatchConflict(ApiError):
    """A 409 about the match's state (not your turn, stale number, a move the rules refuse),
    carrying the match as it stands so that the client can resync."""

    def __init__(self, code: str, message: str, match: Match):
        """Keep the match alongside the error."""
        super().__init__(409, code, message)
        self.match = match


def match_not_found() -> ApiError:
    """The 404 for a match id Redis does not hold."""
    return ApiError(404, "match-not-found", "No match has this id (or it has been removed).")


def not_your_match() -> ApiError:
    """The 403 for an action or a hint by someone who holds no seat in the match."""
    return ApiError(403, "not-your-match", "You hold no seat in this match.")


def parse_time(timestamp: str) -> dt.datetime:
    """A stored ``…Z`` timestamp as an aware datetime."""
    return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


def validate_bots(levels) -> list[str]:
    """The requested bot levels (a list of 0 to MAX_BOTS names of ``strategy.bots.LEVELS``)."""
    if levels is None:
        return []
    if not isinstance(levels, list) or len(levels) > MAX_BOTS:
        raise ApiError(400, "invalid-bots",
                       f"bots must be a list of at most {MAX_BOTS} levels ({', '.join(LEVELS)}).")
    for level in levels:
        if level not in LEVELS:
            raise ApiError(400, "invalid-bots",
                           f"Unknown bot level {str(level)[:40]!r}; levels: {', '.join(LEVELS)}.")
    return list(levels)


def validate_ruleset(ruleset) -> str:
    """``ruleset`` if it is a sheet of the core, else a 400."""
    if ruleset not in RULESETS:
        raise ApiError(400, "unknown-ruleset",
                       f"Unknown sheet; the sheets are {', '.join(RULESETS)}.")
    return ruleset


class SeedVault:
    """Keeps server seeds encrypted at rest (AES-GCM under a key derived from the data
    directory's service key, the match id as associated data): Redis never holds a seed in
    the clear before its match ends."""

    def __init__(self, secrets_: Secrets):
        """Derive the key."""
        self._aead = AESGCM(secrets_.derived_key(SEED_KEY_PURPOSE))

    def seal(self, match_id: str, seed: bytes) -> str:
        """The seed encrypted for ``match_id``, as hex (nonce ‖ ciphertext)."""
        nonce = os.urandom(NONCE_BYTES)
        return (nonce + self._aead.encrypt(nonce, seed, match_id.encode())).hex()

    def open(self, match_id: str, sealed: str) -> bytes:
        """The seed back (raises on a foreign or damaged value)."""
        raw = bytes.fromhex(sealed)
        return self._aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], match_id.encode())


class MatchService:
    """Creates, reads and plays matches on the store, one compare-and-set per action."""

    def __init__(self, store: MatchStore, secrets_: Secrets,
                 tables: Callable[[str], strategy.Table], clock: Callable[[], dt.datetime]):
        """Bind to the store, the secrets (seed key, epoch keys, pseudonyms), the strategy
        tables (``tables(ruleset)``, raising TablesNotReady) and the clock."""
        self.store = store
        self.secrets = secrets_
        self.tables = tables
        self.clock = clock
        self.vault = SeedVault(secrets_)
        self.finish_listeners: list[Callable[[Match], None]] = []
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, Match] = OrderedDict()

    # Creating and reading

    def create(self, player: str, ruleset: str, bots: Sequence[str], name: str | None,
               kind: str | None = None) -> Match:
        """A new match of ``player`` (seat 0) against ``bots`` (levels) on ``ruleset``.

        ``kind`` defaults to ``practice`` without bots and ``computer`` with some.
        """
        ruleset, bots = validate_ruleset(ruleset), validate_bots(list(bots))
        pseudonym = self.secrets.pseudonym(player)
        seats = [Seat(0, HUMAN, name or pseudonym, player=pseudonym)]
        seats += [Seat(index, BOT, f"Bot {index} ({level})", bot=level)
                  for index, level in enumerate(bots, start=1)]
        return self.create_seated(seats, ruleset, kind or (COMPUTER if bots else PRACTICE))

    def create_seated(self, seats: Sequence[Seat], ruleset: str, kind: str,
                      client_seeds: Sequence[str | None] | None = None) -> Match:
        """A new match with these seats (any mix of humans and bots, in play order) and, for a
        table, every seat's client seed fixed already (None for a bot)."""
        now = format_timestamp(self.clock())
        epoch = self.secrets.for_date(self.clock().date()).epoch_number
        seed = os.urandom(SERVER_SEED_BYTES)
        while True:
            match_id = secrets.token_hex(16)
            fields = {
                "kind": kind, "ruleset": ruleset, "epoch": str(epoch), "status": PLAYING,
                "seats": _json([seat.to_json() for seat in seats]),
                "client_seeds": _json(list(client_seeds or [None] * len(seats))),
                "dealing": PER_TURN, "commitment": commitment(seed, PER_TURN),
                "sealed_seed": self.vault.seal(match_id, seed),
                "created_at": now, "updated_at": now,
            }
            if self.store.create(match_id, fields, IDLE_SECONDS + RETENTION_SECONDS):
                break
        match = _rebuild(MatchRecord(match_id, fields, ()))
        for seat in match.seats:
            if seat.kind == HUMAN:
                self._note_for_player(match, seat)
        return match

    def get(self, match_id: str) -> Match:
        """The stored match (expired now if it has been idle too long), or a 404. Only the
        actions after the process's copy are read (another worker wrote them)."""
        with self._lock:
            cached = self._cache.get(match_id)
        record = self.store.load(match_id, cached.record.log if cached is not None else ())
        if record is None:
            raise match_not_found()
        match = self._rebuilt(record)
        if match.status == PLAYING and self.clock() >= match.idle_until():
            return self._expire(match)
        return match

    # Playing

    def act(self, match_id: str, player: str | None, number: int, action,
            client_seed: str | None = None) -> Match:
        """Apply the human ``action`` (a ``games.Roll`` or ``games.Score``) of ``player``'s seat
        as action number ``number``, then the bots' turns it hands over to, exactly once.

        A repeat of an applied action returns the match as it stands; another stale number is
        a 409 ``stale-action``. A roll of a seat without a client seed needs ``client_seed``
        (then fixed); no one rolls before every human has given theirs.
        """
        pseudonym = self.secrets.pseudonym(player) if player else None
        return self.act_for(match_id, lambda match: match.seat_of(pseudonym), number, action,
                            client_seed)

    def act_for(self, match_id: str, seat_of: Callable[[Match], int | None], number: int,
                action, client_seed: str | None = None) -> Match:
        """``act`` for the seat ``seat_of(match)`` names (None: not the caller's match): a
        table's pass-and-play seats and its turn clock act through this."""
        match = self._cached_at(match_id, number) or self.get(match_id)
        for _ in range(MAX_ATTEMPTS):
            seat = seat_of(match)
            if seat is None:
                raise not_your_match()
            if number < match.record.version and _same_action(match.record.log[number], seat,
                                                              action):
                return match
            if match.status != PLAYING:
                raise MatchConflict("match-over", f"The match is {match.status}.", match)
            if number != match.record.version:
                raise MatchConflict("stale-action", f"Action {number} is not next: the match is "
                                    f"at action {match.record.version}.", match)
            if match.turn_seat != seat:
                raise MatchConflict("not-your-turn", "It is another seat's turn.", match)
            seeds = list(match.client_seeds)
            if client_seed is not None and seeds[seat] is None:
                seeds[seat] = validate_client_seed(client_seed)
            elif client_seed is not None and client_seed != seeds[seat]:
                raise MatchConflict("client-seed-fixed", "Your client seed is fixed since your "
                                    "first roll.", match)
            if seeds[seat] is None:
                raise ApiError(400, "client-seed-required",
                               "Send your client_seed with your first roll.")
            if any(seeds[s.index] is None for s in match.seats if s.kind == HUMAN):
                raise MatchConflict("waiting-for-seeds",
                                    "Every player's client seed must be in before the first roll.",
                                    match)
            seeded = _with_seeds(match, seeds)
            try:
                game = action.apply(seeded.games[seat], self._stream(seeded, seat))
            except IllegalMove as error:
                raise MatchConflict(error.code, str(error), match) from None
            games = list(seeded.games)
            games[seat] = game
            actions = [Action(seat, game.transcript[-1])]
            actions += self._bot_actions(seeded, games, match.record.version + 1)
            fixed = {} if tuple(seeds) == match.client_seeds else {"client_seeds": _json(seeds)}
            written = self._write(seeded, actions, games, fixed)
            if written is not None:
                return written
            match = self.get(match_id)
        raise MatchConflict("busy", "The match changed too often meanwhile; try again.", match)

    def advance(self, match_id: str) -> Match:
        """Play the bots' turns now due (those left when the strategy tables were loading)."""
        for _ in range(MAX_ATTEMPTS):
            match = self.get(match_id)
            if match.status != PLAYING or match.turn_seat is None or \
                    match.seats[match.turn_seat].kind != BOT:
                return match
            games = list(match.games)
            actions = self._bot_actions(match, games, match.record.version)
            written = self._write(match, actions, games, {})
            if written is not None:
                return written
        return self.get(match_id)

    def hint(self, match_id: str, player: str | None) -> dict:
        """The best keep or box of the caller's current dice with its expected final score, and
        the runner-up's. Only in a match with one human, on the caller's turn, dice showing."""
        match = self.get(match_id)
        seat = match.seat_of(self.secrets.pseudonym(player) if player else None)
        if seat is None:
            raise not_your_match()
        if match.humans != 1:
            raise ApiError(403, "no-hints", "Hints are for practice and games against the "
                                            "computer only.")
        game = match.games[seat]
        if match.status != PLAYING or match.turn_seat != seat or game.dice is None:
            raise MatchConflict("no-dice", "A hint needs your dice on the table: roll first.",
                                match)
        found = strategy.hint(self.tables(match.ruleset), strategy.Position.from_game(game))
        answer = found.as_dict()
        for choice in (answer["best"], answer["runner_up"]):
            if choice is not None and choice["kind"] == "keep":
                choice["hold"] = strategy.hold_for(tuple(game.dice), tuple(choice["keep"]))
        return answer

    def review(self, match: Match, seat: int) -> strategy.Review:
        """The coach's review of one seat's game, once the match is over."""
        if match.status == PLAYING:
            raise MatchConflict("not-finished", "A match's review opens when it ends.", match)
        return strategy.review(self.tables(match.ruleset), match.games[seat].transcript)

    def player_matches(self, pseudonym: str | None) -> list[dict]:
        """The player's matches, the latest first, each with its status now: one still shown
        as being played that has been idle too long is ``expired``, one Redis has removed
        ``removed``."""
        if pseudonym is None:
            return []
        records = self.store.player_matches(pseudonym)
        open_ids = [record["match"] for record in records if record["status"] == PLAYING]
        now = self.clock()
        idle = dt.timedelta(seconds=IDLE_SECONDS)
        current = dict(zip(open_ids, self.store.activity(open_ids), strict=True))
        for record in records:
            if record["match"] in current:
                activity = current[record["match"]]
                if activity is None:
                    record["status"] = REMOVED
                elif activity[0] != PLAYING or now >= parse_time(activity[1]) + idle:
                    record["status"] = EXPIRED if activity[0] == PLAYING else activity[0]
        return records

    # Internals

    def _rebuilt(self, record: MatchRecord) -> Match:
        """The Match of ``record``, its games taken from this process's cache when it holds
        the same version or an earlier one (only the seats that acted since replay their new
        actions), else rebuilt from the transcripts."""
        with self._lock:
            cached = self._cache.get(record.id)
        known = 0 if cached is None else cached.record.version
        if cached is not None and record.log[:known] == cached.record.log:
            games = list(cached.games)
            for seat, entries in enumerate(record.transcripts(len(games), start=known)):
                if entries:
                    games[seat] = games[seat].extended(entries)
            match = Match(record, cached.seats, tuple(games),
                          tuple(record.json_field("client_seeds")))
        else:
            match = _rebuild(record)
        return self._remember(match)

    def _cached_at(self, match_id: str, number: int) -> Match | None:
        """The match as this process last wrote or read it, when it stood at action
        ``number`` and was being played: the action's compare-and-set checks that it still
        does, so no read comes first (None: read it)."""
        with self._lock:
            cached = self._cache.get(match_id)
        if cached is None or cached.record.version != number or cached.status != PLAYING or \
                self.clock() >= cached.idle_until():
            return None
        return cached

    def _remember(self, match: Match) -> Match:
        """Keep ``match`` in the cache (the least recently used dropped past CACHE_SIZE)."""
        with self._lock:
            self._cache[match.id] = match
            self._cache.move_to_end(match.id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return match

    def _stream(self, match: Match, seat: int):
        """Seat ``seat``'s dice stream."""
        seeds = [seed for seat_, seed in zip(match.seats, match.client_seeds, strict=True)
                 if seat_.kind == HUMAN]
        return seat_stream(self._seed(match), seeds, match.id, seat, match.ruleset,
                           match.dealing)

    def _seed(self, match: Match) -> bytes:
        """The match's server seed."""
        return self.vault.open(match.id, match.record.fields["sealed_seed"])

    def _bot_actions(self, match: Match, games: list[Game], number: int) -> list[Action]:
        """Every bot action due from action ``number`` on, until a human's turn or the end;
        ``games`` is updated in place. Each bot turn is decided by one Bot (its plan kept
        through the turn) whose generator is seeded at the turn's first action. Stops early
        (the bots stay due) while the sheet's strategy table is loading."""
        actions: list[Action] = []
        try:
            table, bot, bot_seat = None, None, None
            while True:
                playing = [s for s in range(len(games)) if not games[s].finished]
                if not playing:
                    return actions
                seat = min(playing, key=lambda s: len(games[s].boxes))
                if match.seats[seat].kind != BOT:
                    return actions
                table = table or self.tables(match.ruleset)
                if seat != bot_seat or games[seat].dice is None:
                    rng = random.Random(self._bot_seed(match, seat, number + len(actions)))
                    bot, bot_seat = Bot(table, match.seats[seat].bot, rng), seat
                choice = bot.choose(games[seat])
                if isinstance(choice, BotRoll):
                    games[seat] = games[seat].roll(list(choice.hold), self._stream(match, seat))
                else:
                    games[seat] = games[seat].score(choice.box)
                actions.append(Action(seat, games[seat].transcript[-1]))
        except strategy.TablesNotReady:
            return actions

    def _bot_seed(self, match: Match, seat: int, number: int) -> int:
        """The seed of the bot generator deciding action ``number`` of ``seat``."""
        message = f"{BOT_RNG_DOMAIN}|{seat}|{number}".encode()
        return int.from_bytes(hmac.new(self._seed(match), message, hashlib.sha256).digest())

    def _write(self, match: Match, actions: list[Action], games: list[Game],
               fields: dict[str, str]) -> Match | None:
        """Store ``actions`` (and the result if they end the match) at the match's version;
        the match as written, or None when another request wrote first."""
        now = format_timestamp(self.clock())
        fields = {**fields, "updated_at": now}
        ttl = IDLE_SECONDS + RETENTION_SECONDS
        ended = all(game.finished for game in games)
        if ended:
            fields.update(self._end_fields(match, games, now, finished=True))
            ttl = RETENTION_SECONDS
        try:
            conflict = self.store.advance(match.id, match.record.version, actions, fields, ttl)
        except MatchMissing:
            raise match_not_found() from None
        if conflict is not None:
            return None
        record = MatchRecord(match.id, {**match.record.fields, **fields},
                             (*match.record.log, *actions))
        written = self._remember(Match(record, match.seats, tuple(games), match.client_seeds))
        if ended:
            self._finished(written)
        return written

    def _expire(self, match: Match) -> Match:
        """Publish the seed and an unfinished result of an idle match; the match after."""
        now = format_timestamp(self.clock())
        fields = {"updated_at": now, **self._end_fields(match, list(match.games), now,
                                                         finished=False)}
        try:
            conflict = self.store.advance(match.id, match.record.version, [], fields,
                                          RETENTION_SECONDS)
        except MatchMissing:
            raise match_not_found() from None
        if conflict is not None:  # someone acted meanwhile: not idle after all
            return _rebuild(conflict)
        expired = Match(MatchRecord(match.id, {**match.record.fields, **fields},
                                    match.record.log), match.seats, match.games,
                        match.client_seeds)
        self._finished(expired)
        return expired

    def _end_fields(self, match: Match, games: list[Game], now: str, finished: bool) -> dict:
        """The fields that end a match: status, the signed result, the server seed."""
        seed = self._seed(match)
        keys = self.secrets.for_date(parse_time(now).date())  # the epoch of the day it ends
        epoch = keys.epoch_number
        seeds = [seed for seed, seat in zip(match.client_seeds, match.seats, strict=True)
                 if seat.kind == HUMAN]
        fields = {"status": FINISHED if finished else EXPIRED, "ended_at": now,
                  "server_seed": seed.hex()}
        if None in seeds:  # expired before every human rolled: no dice dealt, the seed shown
            return fields
        result = match_result(
            match_id=match.id, kind=match.kind, ruleset=match.ruleset, epoch=epoch,
            created_at=match.record.fields["created_at"], ended_at=now,
            commitment=match.record.fields["commitment"], server_seed_hex=seed.hex(),
            client_seeds=seeds, finished=finished, dealing=match.dealing,
            seats=[seat_record(seat.index, game, kind=seat.kind, name=seat.name,
                               player=seat.player, bot=seat.bot)
                   for seat, game in zip(match.seats, games, strict=True)],
        )
        return {**fields, "result": _json(keys.signer.sign(result))}

    def _finished(self, match: Match) -> None:
        """Note the end in each human's list of matches and tell the listeners."""
        for seat in match.seats:
            if seat.kind == HUMAN:
                self._note_for_player(match, seat)
        for listener in self.finish_listeners:
            listener(match)

    def _note_for_player(self, match: Match, seat: Seat) -> None:
        """Write (or update) the match in the seat's player's list of matches."""
        created = match.record.fields["created_at"]
        game = match.games[seat.index]
        ended = match.status != PLAYING
        self.store.record_for_player(seat.player, {
            "kind": match.kind, "match": match.id, "ruleset": match.ruleset,
            "started_at": created, "status": match.status, "seats": len(match.seats),
            "bots": [s.bot for s in match.seats if s.kind == BOT],
            "total": game.totals().total if ended else None,
            "rank": match.ranks()[seat.index] if ended else None,
            "ended_at": match.record.fields.get("ended_at"),
        }, parse_time(created).timestamp())


def _rebuild(record: MatchRecord) -> Match:
    """The Match of a stored record: its seats, seeds and each seat's game."""
    seats = tuple(Seat.from_json(value) for value in record.json_field("seats"))
    transcripts = record.transcripts(len(seats))
    ruleset = get_ruleset(record.fields["ruleset"]).id
    games = tuple(Game.from_match_transcript(ruleset, transcript) for transcript in transcripts)
    return Match(record, seats, games, tuple(record.json_field("client_seeds")))


def _with_seeds(match: Match, seeds: list[str | None]) -> Match:
    """The match with these client seeds (about to be stored with the action)."""
    return Match(match.record, match.seats, match.games, tuple(seeds))


def _same_action(stored: Action, seat: int, action) -> bool:
    """True when the stored action is this seat's very ``action``."""
    return stored.seat == seat and action.matches(stored.entry)


def _json(value) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(value).decode()
