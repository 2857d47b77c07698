"""Matches: solo practice and games against the computer, each provably fair on its own
(FAIRNESS.md, "Matches"), on the engine that tables build on.

A match is a sheet, seats (humans with their player pseudonym, bots with a level), one game per
seat, a server seed drawn from ``os.urandom`` whose commitment is shown before the first roll,
and one client seed per human, given with that human's first roll and fixed from then on (every
human's must be in before anyone rolls). Seat ``i``'s dice come from its own stream,
``fairness.match.seat_stream(server_seed, client_seeds, match_id, i, ruleset, dealing)``, dealt
per turn, or ``duplicate`` when its creator asked (every seat reads seat 0's stream: everyone
gets the same dice each turn); a match stored before per-turn dealing has no ``dealing`` field
and deals sequentially (its commitment and result are v1).

Seats take whole turns in order: seat 0's turn 1, seat 1's turn 1, …, seat 0's turn 2. Bots'
turns run on the server as soon as they are due (``bots.py``): in the request of the human
action that hands them the turn (or ``advance`` when the strategy tables were still loading
then). The page shows the bots' actions at a pace the player can skip.

Every action — one human action and the bots' turns it hands over to — is one compare-and-set
on the match's version (``MatchStore.advance``), so a retry or a duplicate applies once. When
the last box of the last seat is filled the same write stores the signed result (epoch key) and
the server seed (``results.py``). A match left unplayed IDLE_SECONDS expires the first time it
is asked for after that: its result (``finished: false``) and seed are published the same way.
Redis removes every match RETENTION_SECONDS after its end (or IDLE + RETENTION after its last
action). The match itself is ``model.py``; the refusals are ``errors.py``.
"""

import datetime as dt
import secrets
from collections.abc import Callable, Sequence

import strategy
from app.ledger.secrets import Secrets
from app.matches.bots import bot_actions
from app.matches.cache import MatchCache
from app.matches.errors import InvalidMatch, MatchConflict, MatchNotFound, NoHints, NotYourMatch
from app.matches.model import (
    BOT,
    COMPUTER,
    EXPIRED,
    HUMAN,
    IDLE_SECONDS,
    PLAYING,
    PRACTICE,
    REMOVED,
    RETENTION_SECONDS,
    TABLE,
    Match,
    Seat,
    parse_time,
    rebuild,
    same_action,
    seat_dice,
    stored_json,
    with_seeds,
)
from app.matches.results import end_fields, player_entry
from app.matches.store import Action, MatchMissing, MatchRecord, MatchStore
from app.matches.vault import SeedVault, new_server_seed
from app.platform.clock import format_timestamp
from fairness import RULESETS, Game, IllegalMove, commitment, validate_client_seed
from fairness.dice import PER_TURN
from fairness.match import DUPLICATE
from strategy.bots import LEVELS

__all__ = [  # what other modules read here, wherever it is defined
    "BOT", "HUMAN", "IDLE_SECONDS", "PLAYING", "RETENTION_SECONDS", "TABLE", "Match",
    "MatchConflict", "MatchService", "Seat", "validate_bots", "validate_ruleset",
]

MAX_BOTS = 5
MAX_ATTEMPTS = 3



def validate_bots(levels) -> list[str]:
    """The requested bot levels (a list of 0 to MAX_BOTS names of ``strategy.bots.LEVELS``)."""
    if levels is None:
        return []
    if not isinstance(levels, list | tuple) or len(levels) > MAX_BOTS:
        raise InvalidMatch("invalid-bots", f"bots must be a list of at most {MAX_BOTS} levels "
                                           f"({', '.join(LEVELS)}).")
    for level in levels:
        if level not in LEVELS:
            raise InvalidMatch("invalid-bots", f"Unknown bot level {str(level)[:40]!r}; "
                                               f"levels: {', '.join(LEVELS)}.")
    return list(levels)


def validate_ruleset(ruleset) -> str:
    """``ruleset`` if it is a sheet of the core, else a 400."""
    if ruleset not in RULESETS:
        raise InvalidMatch("unknown-ruleset",
                           f"Unknown sheet; the sheets are {', '.join(RULESETS)}.")
    return ruleset


class MatchService:
    """Creates, reads and plays matches on the store, one compare-and-set per action."""

    def __init__(self, store: MatchStore, secrets_: Secrets,
                 tables: Callable[[str], strategy.Table], clock: Callable[[], dt.datetime]):
        """Bind to the store, the secrets (seed key, epoch keys, pseudonyms), the strategy
        tables (``tables(ruleset)``, raising ValueTablesNotReady) and the clock."""
        self.store = store
        self.secrets = secrets_
        self.tables = tables
        self.clock = clock
        self.vault = SeedVault(secrets_)
        self.finish_listeners: list[Callable[[Match], None]] = []
        self._cache = MatchCache()

    # Creating and reading

    def create(self, player: str, ruleset: str, bots: Sequence[str], name: str | None,
               kind: str | None = None, duplicate: bool = False) -> Match:
        """A new match of ``player`` (seat 0) against ``bots`` (levels) on ``ruleset``, dealt
        ``duplicate`` when asked (practice, one seat, is dealt exactly as per turn then).

        ``kind`` defaults to ``practice`` without bots and ``computer`` with some.
        """
        ruleset, bots = validate_ruleset(ruleset), validate_bots(bots)
        pseudonym = self.secrets.pseudonym(player)
        seats = [Seat(0, HUMAN, name or pseudonym, player=pseudonym)]
        seats += [Seat(index, BOT, f"Bot {index} ({level})", bot=level)
                  for index, level in enumerate(bots, start=1)]
        return self.create_seated(seats, ruleset, kind or (COMPUTER if bots else PRACTICE),
                                  duplicate=duplicate)

    def create_seated(self, seats: Sequence[Seat], ruleset: str, kind: str,
                      client_seeds: Sequence[str | None] | None = None,
                      duplicate: bool = False) -> Match:
        """A new match with these seats (any mix of humans and bots, in play order) and, for a
        table, every seat's client seed fixed already (None for a bot); dealt per turn, or
        ``duplicate`` (every seat the same dice each turn) when asked."""
        dealing = DUPLICATE if duplicate else PER_TURN
        now = format_timestamp(self.clock())
        epoch = self.secrets.for_date(self.clock().date()).epoch_number
        seed = new_server_seed()
        while True:
            match_id = secrets.token_hex(16)
            fields = {
                "kind": kind, "ruleset": ruleset, "epoch": str(epoch), "status": PLAYING,
                "seats": stored_json([seat.to_json() for seat in seats]),
                "client_seeds": stored_json(list(client_seeds or [None] * len(seats))),
                "dealing": dealing, "commitment": commitment(seed, dealing),
                "sealed_seed": self.vault.seal(match_id, seed),
                "created_at": now, "updated_at": now,
            }
            if self.store.create(match_id, fields, IDLE_SECONDS + RETENTION_SECONDS):
                break
        match = rebuild(MatchRecord(match_id, fields, ()))
        for seat in match.seats:
            if seat.kind == HUMAN:
                self._note_for_player(match, seat)
        return match

    def get(self, match_id: str) -> Match:
        """The stored match (expired now if it has been idle too long), or a 404. Only the
        actions after the process's copy are read (another worker wrote them)."""
        cached = self._cache.get(match_id)
        record = self.store.load(match_id, cached.record.log if cached is not None else ())
        if record is None:
            raise MatchNotFound()
        match = self._cache.rebuilt(record)
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
                raise NotYourMatch()
            if number < match.record.version and same_action(match.record.log[number], seat,
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
                raise InvalidMatch("client-seed-required",
                                   "Send your client_seed with your first roll.")
            if any(seeds[s.index] is None for s in match.seats if s.kind == HUMAN):
                raise MatchConflict("waiting-for-seeds",
                                    "Every player's client seed must be in before the first roll.",
                                    match)
            seeded, server_seed = with_seeds(match, seeds), self._seed(match)
            try:
                game = action.apply(seeded.games[seat], seat_dice(seeded, server_seed, seat))
            except IllegalMove as error:
                raise MatchConflict(error.code, str(error), match) from None
            games = list(seeded.games)
            games[seat] = game
            actions = [Action(seat, game.transcript[-1])]
            actions += bot_actions(seeded, games, match.record.version + 1, self.tables,
                                   server_seed)
            fixed = ({} if tuple(seeds) == match.client_seeds
                     else {"client_seeds": stored_json(seeds)})
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
            actions = bot_actions(match, games, match.record.version, self.tables,
                                  self._seed(match))
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
            raise NotYourMatch()
        if match.humans != 1:
            raise NoHints()
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

    def _cached_at(self, match_id: str, number: int) -> Match | None:
        """The match as this process last wrote or read it, when it stood at action
        ``number`` and was being played: the action's compare-and-set checks that it still
        does, so no read comes first (None: read it)."""
        cached = self._cache.get(match_id)
        if cached is None or cached.record.version != number or cached.status != PLAYING or \
                self.clock() >= cached.idle_until():
            return None
        return cached

    def _seed(self, match: Match) -> bytes:
        """The match's server seed."""
        return self.vault.open(match.id, match.record.fields["sealed_seed"])

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
            raise MatchNotFound() from None
        if conflict is not None:
            return None
        record = MatchRecord(match.id, {**match.record.fields, **fields},
                             (*match.record.log, *actions))
        written = self._cache.remember(Match(record, match.seats, tuple(games), match.client_seeds))
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
            raise MatchNotFound() from None
        if conflict is not None:  # someone acted meanwhile: not idle after all
            return rebuild(conflict)
        expired = Match(MatchRecord(match.id, {**match.record.fields, **fields},
                                    match.record.log), match.seats, match.games,
                        match.client_seeds)
        self._finished(expired)
        return expired

    def _end_fields(self, match: Match, games: list[Game], now: str, finished: bool) -> dict:
        """The fields that end a match: status, the signed result, the server seed."""
        return end_fields(match, games, now, self._seed(match), self.secrets, finished)

    def _finished(self, match: Match) -> None:
        """Note the end in each human's list of matches and tell the listeners."""
        for seat in match.seats:
            if seat.kind == HUMAN:
                self._note_for_player(match, seat)
        for listener in self.finish_listeners:
            listener(match)

    def _note_for_player(self, match: Match, seat: Seat) -> None:
        """Write (or update) the match in the seat's player's list of matches."""
        self.store.record_for_player(seat.player, player_entry(match, seat),
                                     parse_time(match.record.fields["created_at"]).timestamp())
