"""Playing: create or resume a player's game, apply an action exactly once, read games.

A game's truth is its stored transcript and, beside it, its compact state (``compact``); each
process keeps recently used games in a small cache, so an action costs one Redis round trip
(the compare-and-set on the game's version) plus one more when it finishes the game (its
leaderboard entry and its player's history). A process whose copy is missing or outdated acts
on the token the client echoes (the compact state of the answer it holds), which the
compare-and-set checks against the stored state, and otherwise reads the game (rebuilt from its
state, not replayed); a copy another worker has outdated is caught by the compare-and-set,
whose reply carries the fresh game.
"""

import contextlib
import datetime as dt
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from app.daily.actions import (  # noqa: F401  (the statuses and parse_hold: re-exported)
    ABANDONED,
    FINISHED,
    PLAYING,
    CountedOnce,
    Played,
    Roll,
    Score,
    parse_hold,
)
from app.daily.compact import game_from_state, state_text
from app.daily.errors import (
    DateNotToday,
    DayClosed,
    GameConflict,
    GameNotFound,
    NotADailySheet,
    NotYourGame,
    TooManyActions,
)
from app.daily.store import ActionLimited, GameMissing, GameRecord, GameSealed, GameStore
from app.daylog.service import LogService
from app.ledger.days import DayWindow, day_window
from app.ledger.secrets import Secrets
from app.ledger.service import LedgerService
from app.platform.clock import format_timestamp
from app.platform.errors import DomainError
from fairness import (
    ChainError,
    DiceStream,
    FairnessError,
    Game,
    IllegalMove,
    UnknownRuleset,
    format_date,
)
from fairness.sheets import ANY_DAILY_RULESETS, DAILY_RULESETS

CACHE_SIZE = 4096
STREAM_CACHE_SIZE = 16
WINDOW_CACHE_SIZE = 64
MAX_ATTEMPTS = 3


def game_not_found() -> GameNotFound:
    """The 404 for a game id Redis does not hold."""
    return GameNotFound()


def date_revealed(date: str) -> DayClosed:
    """The 409 for an action or a new game on a date whose reveal has read its games (seen by
    the store, whatever this process's clock says)."""
    return DayClosed(f"The {date} challenge is revealed: no more actions.")


class GameService:
    """Creates, reads and plays games on the store, one atomic transition per action."""

    def __init__(self, store: GameStore, secrets: Secrets, ledger: LedgerService, logs: LogService,
                 clock: Callable[[], dt.datetime], grace_seconds: int):
        """Bind the service to its store, secrets, ledger, day's logs, clock and grace."""
        self.store = store
        self.secrets = secrets
        self.ledger = ledger
        self.logs = logs
        self.clock = clock
        self.grace_seconds = grace_seconds
        self._lock = threading.Lock()
        self._games: OrderedDict[str, Played] = OrderedDict()
        self._streams: OrderedDict[tuple[str, str], DiceStream] = OrderedDict()
        self._first_games_noted: set[int] = set()
        self._game_ids = functools.lru_cache(maxsize=CACHE_SIZE)(secrets.game_id)
        self._windows = functools.lru_cache(maxsize=WINDOW_CACHE_SIZE)(self._day_window)
        # The coach's skill board: each listener gives what to queue in the finishing round
        # trip (``queue(pipe)``); a refused finish is told to the ``finish_refused`` ones.
        self.finish_listeners: list[Callable[[GameRecord, Game], Callable]] = []
        self.finish_refused: list[Callable[[GameRecord], None]] = []
        # Each game's action limits, (amount, seconds), counted by the compare-and-set itself
        # (observability/limits.py sets them when rate limits are on).
        self.action_limits: tuple[tuple[int, int], ...] = ()

    def window(self, date: str) -> DayWindow:
        """The date's window with this service's grace, computed once per process for the
        WINDOW_CACHE_SIZE latest dates (every action needs its game's)."""
        return self._windows(date)

    def _day_window(self, date: str) -> DayWindow:
        """The date's window with this service's grace, computed."""
        return day_window(date, self.grace_seconds)

    def offered_rulesets(self) -> tuple[str, ...]:
        """The daily sheets of the dates that are today somewhere now (the union of their
        epochs' sheets, in the usual order): what the pages offer to play."""
        today = self.clock().date()
        offered: set[str] = set()
        for offset in (-1, 0, 1):
            date = today + dt.timedelta(days=offset)
            if self.window(date.isoformat()).is_today_somewhere(self.clock()):
                with contextlib.suppress(ChainError):
                    offered.update(self.secrets.rulesets_for(date))
        return tuple(r for r in ANY_DAILY_RULESETS if r in offered) or DAILY_RULESETS

    def game_id(self, player: str, date: str, ruleset: str) -> str:
        """The id the player's game on (date, ruleset) has (whether or not it exists): an HMAC,
        computed once per process for the CACHE_SIZE latest (every action checks it)."""
        return self._game_ids(player, date, ruleset)

    def start(self, player: str, ruleset: str, date: str, name: str | None) -> tuple[bool, Played]:
        """Create the player's game on (date, ruleset), or resume it. Returns (created, game).

        A new game needs the date to be today somewhere and its reveal not begun; an existing
        one resumes any time.
        """
        if ruleset not in ANY_DAILY_RULESETS:
            raise UnknownRuleset(f"unknown sheet {ruleset!r} (daily sheets: "
                                 f"{', '.join(ANY_DAILY_RULESETS)})"[:200])
        date = format_date(date)
        game_id = self.game_id(player, date, ruleset)
        if not self.window(date).is_today_somewhere(self.clock()):
            record = self.store.load_game(game_id)
            if record is None:
                raise DateNotToday(date)
            if name:
                _, record = self._create_or_load(game_id, record.ruleset, date, player, name)
            return False, self._remember(record)
        daily = self.secrets.rulesets_for(date)
        if ruleset not in daily:
            raise NotADailySheet(ruleset, date, daily)
        created, record = self._create_or_load(game_id, ruleset, date, player, name)
        return created, self._remember(record)

    def get(self, game_id: str) -> Played:
        """The stored game (read fresh), or a 404. A finished v2 game stored without its
        receipt (the checkpoint job stores it) gets the one this process signed when
        it finished the game (its cached copy of that very transcript), else the one of its
        log leaf."""
        record = self.store.load_game(game_id)
        if record is None:
            self._forget(game_id)
            raise game_not_found()
        if record.receipt is None:  # the receipt this process signed when the game finished
            known = self._cached(game_id)
            if known is not None and known.record.transcript == record.transcript:
                record = replace(record, receipt=known.record.receipt)
        played = self._remember(record)
        if played.game.finished and record.receipt is None and self.logs.is_logged(record.date):
            receipt = self.logs.receipt_for(record, played.game)
            if receipt is not None:
                played = self._remember(replace(record, receipt=receipt), played.game)
        return played

    def owns(self, player: str | None, played: Played) -> bool:
        """True when ``player`` is the one who plays this game."""
        record = played.record
        return player is not None and self.game_id(player, record.date, record.ruleset) == record.id

    def act(self, game_id: str, player: str | None, number: int, action: Roll | Score,
            token: str | None = None, counted: CountedOnce | None = None) -> Played:
        """Apply ``action`` as action number ``number`` of the game, exactly once.

        A repeat of an applied action returns the game as that action left it; any other
        number is a 409 ``stale-action`` carrying the current game. A game the store does not
        hold (say Redis lost it) is a 404, and a game its date's reveal has read a 409
        ``day-closed`` even when this process's clock lags: the compare-and-set refuses it,
        with nothing written. ``token``, the compact state of the answer the client holds,
        spares a process without a current copy of the game the read before the write. The
        first compare-and-set counts the action against the game's ``action_limits`` (``counted``
        tells the caller whether it ran): past one, a 429 with nothing written.
        """
        counted = counted or self.counted_once()
        played = self._cached(game_id)
        if token and (played is None or played.record.version != number):
            applied = self._act_on_token(game_id, player, number, action, token, counted)
            if applied is not None:
                return applied
            played = self._cached(game_id)
        fresh = played is None
        if played is None:
            played = self.get(game_id)
        if not self.owns(player, played):
            raise NotYourGame()
        if not played.window.accepts_actions(self.clock()):
            raise DayClosed(f"The {played.record.date} challenge is closed: no more actions.")
        for _ in range(MAX_ATTEMPTS):
            version = played.record.version
            if number < version and action.matches(played.record.transcript[number]):
                return self._as_after(played, number)
            if number != version and not fresh:
                played, fresh = self.get(game_id), True
                continue
            if number != version:
                raise GameConflict("stale-action",
                                   f"Action {number} is not next: the game is at action {version}.",
                                   played)
            try:
                next_game = action.apply(played.game, self._stream(played.record))
            except IllegalMove as error:
                if not fresh:  # the refusal may come from a cache another worker outdated
                    played, fresh = self.get(game_id), True
                    continue
                raise GameConflict(error.code, str(error), played) from None
            entry = next_game.transcript[-1]
            state = state_text(next_game, version + 1)
            receipt = None
            # A v2 game's receipt is its log leaf, signed once the leaf has its index.
            logged = next_game.finished and self.logs.is_logged(played.record.date)
            if next_game.finished and not logged:
                receipt = self.ledger.sign_receipt(played.record, next_game)
            applied, current = self._append(game_id, played.record.date, version, entry,
                                            receipt, state, limits=counted.take())
            if applied:
                record = replace(played.record, transcript=(*played.record.transcript, entry),
                                 state=state)
                if next_game.finished:
                    record = replace(record, receipt=self._finish(record, next_game, receipt,
                                                                  logged))
                return self._remember(record, next_game)
            played, fresh = self._remember(current), True
        raise GameConflict("busy", "The game changed too often meanwhile; try again.", played)

    def _finish(self, record: GameRecord, game: Game, receipt: dict | None,
                logged: bool) -> dict:
        """The finishing action's second round trip: the game on its leaderboard (a v2 game
        appended to its day's log, which gives its receipt) and in its player's history, with
        what the finish listeners queue (the coach's skill board and review). The receipt."""
        also = [listener(record, game) for listener in self.finish_listeners]
        if not logged:
            self.store.record_finished(record, receipt["total"], format_timestamp(self.clock()),
                                       also=also)
            return receipt
        try:
            return self.logs.finish(record, game, also)
        except DomainError:  # the day's log closed without it: what the listeners queued is undone
            for refused in self.finish_refused:
                refused(record)
            raise

    def counted_once(self) -> CountedOnce:
        """The counting of one action request against its game's limits."""
        return CountedOnce(self.action_limits)

    def _act_on_token(self, game_id: str, player: str | None, number: int,
                      action: Roll | Score, token: str, counted: CountedOnce) -> Played | None:
        """Apply the action to the state ``token`` claims, in one round trip (two when it
        finishes the game: its leaderboard and log entry): the compare-and-set writes only if
        the stored state is exactly the token. None when the token cannot serve (malformed,
        another game's or version's, the rules refuse the action on it, the action finishes a
        v1 game: its receipt signs the whole transcript before the write) or Redis holds another
        state (then cached): the caller takes the usual path, which also gives every refusal
        its usual answer."""
        claimed = game_from_state(token)
        if claimed is None or claimed[0] != number or player is None:
            return None
        claimed_game = claimed[1]
        date, ruleset = claimed_game.date, claimed_game.ruleset
        if self.game_id(player, date, ruleset) != game_id:  # the id proves (player, date, sheet)
            return None
        if not self.window(date).accepts_actions(self.clock()):
            return None
        try:
            next_game = action.apply(claimed_game, self._stream_of(date, ruleset))
        except FairnessError:
            return None
        if next_game.finished and not self.logs.is_logged(date):
            return None  # a v1 receipt signs the whole transcript, before the write
        applied, record = self._append(
            game_id, date, number, next_game.transcript[-1], None,
            state_text(next_game, number + 1), claimed_state=token, want_game=True,
            limits=counted.take())
        if not applied:
            self._remember(record)
            return None
        game = replace(next_game, transcript=record.transcript)
        if game.finished:  # a v2 game's receipt is its log leaf, signed in the finishing trip
            record = replace(record, receipt=self._finish(record, game, None, logged=True))
        return self._remember(record, game)

    def _append(self, game_id: str, date: str, version: int, entry, receipt, state: str,
                **options) -> tuple[bool, GameRecord | None]:
        """The store's compare-and-set (``GameStore.append_action``), its refusals as the
        service's errors: a game Redis lost is a 404 (and forgotten), one its date's reveal has
        read a 409 ``day-closed``, one past its action limit a 429."""
        try:
            return self.store.append_action(game_id, version, entry, receipt, state, **options)
        except GameMissing:  # Redis lost it (e.g. a restart without persistence)
            self._forget(game_id)
            raise game_not_found() from None
        except GameSealed:
            raise date_revealed(date) from None
        except ActionLimited as limited:
            raise TooManyActions(limited.retry_after) from None

    def _as_after(self, played: Played, number: int) -> Played:
        """The game as action ``number`` left it (the answer that action got)."""
        record = played.record
        if number == record.version - 1:
            return played
        transcript = record.transcript[: number + 1]
        earlier = replace(record, transcript=transcript, receipt=None, state="")
        return Played(earlier, Game.from_transcript(record.ruleset, record.date, transcript),
                      played.window)

    def _create_or_load(self, game_id, ruleset, date, player, name) -> tuple[bool, GameRecord]:
        """Store the game if new (or its new name); returns (created, record). Until this process
        knows its epoch's first game time is noted, the call also notes it (if none is). A 409
        when the date's reveal has begun and the game is not in it."""
        epoch = self.secrets.for_date(date).epoch_number
        first_of_epoch = None if epoch in self._first_games_noted else epoch
        try:
            created, record = self.store.create_or_load_game(
                game_id, ruleset=ruleset, date=date, player=self.secrets.pseudonym(player),
                name=name, created_at=format_timestamp(self.clock()),
                state=state_text(Game.new(ruleset, date), 0), first_of_epoch=first_of_epoch,
                new_day_format=self.logs.new_day_format,
            )
        except GameSealed:
            raise date_revealed(date) from None
        self._first_games_noted.add(epoch)
        return created, record

    def _cached(self, game_id: str) -> Played | None:
        """The cached game, if any."""
        with self._lock:
            played = self._games.get(game_id)
            if played is not None:
                self._games.move_to_end(game_id)
            return played

    def _forget(self, game_id: str) -> None:
        """Drop the game from the cache: Redis no longer has it."""
        with self._lock:
            self._games.pop(game_id, None)

    def _remember(self, record: GameRecord, game: Game | None = None) -> Played:
        """Cache the game (rebuilt from its transcript unless given) and return it."""
        with self._lock:
            cached = self._games.get(record.id)
        if game is None and cached is not None and cached.record.version == record.version:
            game = cached.game
        if game is None:
            game = _rebuilt(record)
        played = Played(record, game, self.window(record.date))
        with self._lock:
            self._games[record.id] = played
            self._games.move_to_end(record.id)
            while len(self._games) > CACHE_SIZE:
                self._games.popitem(last=False)
        return played

    def _stream(self, record: GameRecord) -> DiceStream:
        """The day's dice stream for the game's (date, ruleset), kept per process."""
        return self._stream_of(record.date, record.ruleset)

    def _stream_of(self, date: str, ruleset: str) -> DiceStream:
        """The day's dice stream of (date, ruleset), kept per process."""
        key = (date, ruleset)
        with self._lock:
            stream = self._streams.get(key)
            if stream is None:
                stream = self.secrets.stream(date, ruleset)
                self._streams[key] = stream
            self._streams.move_to_end(key)
            while len(self._streams) > STREAM_CACHE_SIZE:
                self._streams.popitem(last=False)
            return stream


def _rebuilt(record: GameRecord) -> Game:
    """The game of a stored record: from its compact state when it has one that matches its
    transcript (written by the same script), else replayed from the transcript (games stored
    before the state was)."""
    stored = game_from_state(record.state, record.transcript) if record.state else None
    if stored is not None and stored[0] == record.version and (
            stored[1].ruleset, stored[1].date) == (record.ruleset, record.date):
        return stored[1]
    return Game.from_transcript(record.ruleset, record.date, record.transcript)
