"""Redis storage of the daily games: each game's record and transcript, each date's index of
its games, the sealing of a date as its reveal reads it, and the writes that finish a game.

A game lives under its hash tag ``{g:<id>}``: a hash (ruleset, date, player, name, compact
state, receipt) and its transcript, a list of canonical JSON actions. A game's version is the
length of its transcript; every action is one compare-and-set script on it (``scripts.py``,
replies: ``app/platform/cas.py``), which also counts the game's action limits. A date's index
lives under ``{d:<date>}``: a set of its games' ids per sheet, copied into a sorted set read in
id order page by page, its format marker and its seal. No reply or argument list grows with a
day's games: days are read in pages. Values are canonical JSON (keys: ``app/platform/keys.py``).

Creating a game and finishing one also write its player's history (``app/players/store.py``)
and, on finishing, its leaderboard entry (``app/boards/store.py``): those stores queue their
commands in this store's pipeline, so each stays one round trip.
"""

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import orjson

from app.boards.store import BoardStore
from app.daily import scripts
from app.platform.cas import APPLIED, LIMITED, MISSING, SEALED, compare_and_set
from app.platform.keys import (
    action_count_key,
    day_format_key,
    day_games_key,
    day_order_key,
    day_sealed_key,
    game_key,
    transcript_key,
)
from app.platform.redis import READ_BATCH, queue_script, stored_json
from app.players.store import PlayerStore, history_record
from fairness.sheets import ANY_DAILY_RULESETS

INDEX_BATCH = 1000


class GameSealed(RuntimeError):
    """The game's date is being or has been revealed: it takes no action and no new game."""


class CorruptRecord(ValueError):
    """A stored value the service wrote cannot be read back (a damaged or foreign write)."""


class GameMissing(KeyError):
    """The game is not in Redis (never was, or Redis lost it): nothing was written."""


class ActionLimited(RuntimeError):
    """The game took as many actions as one of its limits allows in the current window:
    nothing was written; ``retry_after`` seconds until that window ends."""

    def __init__(self, retry_after: int):
        """Keep when to try again."""
        super().__init__(f"action limit reached; retry in {retry_after} s")
        self.retry_after = retry_after


@dataclass(frozen=True)
class GameRecord:
    """A stored game: who plays what, the transcript so far and, once finished, its receipt."""

    id: str
    ruleset: str
    date: str
    player: str
    name: str
    transcript: tuple[Mapping, ...]
    receipt: Mapping | None
    created_at: str = ""
    state: str = ""  # the compact state after the transcript (app.daily.service), "" if not stored

    @property
    def version(self) -> int:
        """The number of actions applied: the next action's number."""
        return len(self.transcript)


class GameStore:
    """The daily games' Redis operations, each at most one round trip but for the paged reads
    and writes of a whole day (its index, its reveal), one round trip per page."""

    def __init__(self, client, boards: BoardStore | None = None,
                 players: PlayerStore | None = None):
        """Bind to a redis-py client (plain or cluster) and register the scripts; ``boards``
        and ``players`` (by default, stores on the same client) queue the leaderboard and
        history writes that go with a game's."""
        self.client = client
        self.boards = boards or BoardStore(client)
        self.players = players or PlayerStore(client)
        self._load_game = client.register_script(scripts.LOAD_GAME)
        self._create_game = client.register_script(scripts.CREATE_GAME)
        self._append_action = client.register_script(scripts.APPEND_ACTION)
        self._index_game = client.register_script(scripts.INDEX_GAME)
        self._seal_and_read_receipt = client.register_script(scripts.SEAL_AND_READ_RECEIPT)

    def create_or_load_game(self, game_id: str, *, ruleset: str, date: str, player: str,
                            name: str | None, created_at: str, state: str,
                            first_of_epoch: int | None = None,
                            new_day_format: str = "2") -> tuple[bool, GameRecord]:
        """Create the game unless it exists (then set its name if given), with ``state`` (the
        new game's compact state); index it under its date and in the player's history; with
        ``first_of_epoch``, note ``created_at`` as that epoch's first game time unless one is
        noted already. The date's first game fixes its format (``new_day_format``, or ``1``
        when it had games before formats were marked).

        Returns (created, record). One round trip: the index script, the game's script and the
        history write are pipelined (and, once per process and epoch, the first game time noted
        after them). Raises GameSealed when the date's reveal has begun and the game is not in
        its index (a process whose clock lags behind the reveal), the game just made undone.
        """
        pipe = self.client.pipeline(transaction=False)
        queue_script(pipe, self._index_game, [
            day_games_key(date, ruleset), day_sealed_key(date), day_format_key(date),
            *(day_games_key(date, sheet) for sheet in ANY_DAILY_RULESETS)],
            [game_id, new_day_format])
        queue_script(pipe, self._create_game, [game_key(game_id), transcript_key(game_id)],
                     [ruleset, date, player, name or "", created_at, state])
        self.players.queue_history(pipe, player, "start", history_record(
            game_id, date=date, ruleset=ruleset, started_at=created_at))
        indexed, (created, meta, transcript), _ = pipe.execute()
        if not indexed:
            if created:
                pipe = self.client.pipeline(transaction=False)
                pipe.delete(game_key(game_id))  # one key a DEL: a cluster pipeline refuses more
                pipe.delete(transcript_key(game_id))
                self.players.queue_forget(pipe, player, game_id)
                pipe.execute()
            raise GameSealed(game_id)
        if first_of_epoch is not None:
            self.players.note_first_game(first_of_epoch, created_at)
        return bool(created), _record(game_id, meta, transcript)

    def load_game(self, game_id: str) -> GameRecord | None:
        """The stored game, or None."""
        reply = self._load_game(keys=[game_key(game_id), transcript_key(game_id)])
        return None if reply is None else _record(game_id, *reply)

    def load_games(self, game_ids: Iterable[str]) -> list[GameRecord]:
        """The stored games among ``game_ids``, read in pipelined batches."""
        ids = list(game_ids)
        records = []
        for start in range(0, len(ids), READ_BATCH):
            batch = ids[start:start + READ_BATCH]
            pipe = self.client.pipeline(transaction=False)
            for game_id in batch:
                queue_script(pipe, self._load_game,
                             [game_key(game_id), transcript_key(game_id)], [])
            for game_id, reply in zip(batch, pipe.execute(), strict=True):
                if reply is not None:
                    records.append(_record(game_id, *reply))
        return records

    def append_action(self, game_id: str, expected_version: int, entry: Mapping,
                      receipt: Mapping | None, state: str, claimed_state: str = "",
                      want_game: bool = False,
                      limits: Sequence[tuple[int, int]] = ()) -> tuple[bool, GameRecord | None]:
        """Append ``entry`` (and store ``receipt``; ``state`` becomes the game's compact state)
        if the game is still at ``expected_version`` and, when ``claimed_state`` is given, its
        stored state is exactly that text. ``limits`` (amount, seconds) are the game's action
        limits, counted in the same script.

        Returns (True, the game after the entry if ``want_game``, else None) when applied, else
        (False, the game as it now stands). Raises GameMissing (a KeyError) when the game does
        not exist, GameSealed when its date's reveal has read it and ActionLimited past one of
        ``limits``, having written nothing.
        """
        reply = compare_and_set(
            self._append_action,
            keys=[game_key(game_id), transcript_key(game_id),
                  *(action_count_key(game_id, seconds) for _, seconds in limits)],
            args=[expected_version, _entry_text(entry), stored_json(receipt) if receipt else "",
                  state, claimed_state, "1" if want_game else "", len(limits),
                  *(value for limit in limits for value in limit)],
        )
        if reply.outcome == MISSING:
            raise GameMissing(game_id)
        if reply.outcome == SEALED:
            raise GameSealed(game_id)
        if reply.outcome == LIMITED:
            raise ActionLimited(reply.retry_after)
        if reply.outcome == APPLIED:
            return True, _record(game_id, reply.fields, reply.log) if reply.fields else None
        return False, _record(game_id, reply.fields, reply.log)

    def existing_games(self, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` that exist."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.exists(game_key(game_id))
        return {game_id for game_id, found in zip(game_ids, pipe.execute(), strict=True) if found}

    def game_receipts(self, game_ids: Sequence[str]) -> dict[str, dict | None]:
        """The receipt (None while unfinished) of each of ``game_ids`` that exists, one pipeline."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "ruleset", "receipt")
        return {game_id: json.loads(receipt) if receipt else None
                for game_id, (ruleset, receipt) in zip(game_ids, pipe.execute(), strict=True)
                if ruleset is not None}

    def day_game_page(self, date: str, ruleset: str, after: str | None,
                      count: int) -> tuple[int, list[str]]:
        """(how many games (date, ruleset) has, the first ``count`` of their ids after ``after``
        in id order). One round trip, a second only while the day's sorted index is behind its
        set of ids (games are still being added, or no one has read the day yet)."""
        start = "-" if after is None else "(" + after
        for _ in range(2):
            pipe = self.client.pipeline(transaction=False)
            pipe.scard(day_games_key(date, ruleset))
            pipe.zcard(day_order_key(date, ruleset))
            pipe.zrangebylex(day_order_key(date, ruleset), start, "+", 0, count)
            indexed, ordered, ids = pipe.execute()
            if indexed == ordered:
                break
            self.sync_day_order(date, ruleset)
        return ordered, ids

    def sync_day_order(self, date: str, ruleset: str) -> None:
        """Bring the sorted index of (date, ruleset) up to its set of ids, in batches (SSCAN):
        the index only ever receives ids of the set, so equal sizes mean equal contents."""
        batch = []
        for game_id in self.client.sscan_iter(day_games_key(date, ruleset), count=INDEX_BATCH):
            batch.append(game_id)
            if len(batch) == INDEX_BATCH:
                self.client.zadd(day_order_key(date, ruleset), dict.fromkeys(batch, 0))
                batch = []
        if batch:
            self.client.zadd(day_order_key(date, ruleset), dict.fromkeys(batch, 0))

    def seal_day(self, date: str) -> None:
        """Close ``date``'s game index before its reveal reads it: no game is added after."""
        self.client.set(day_sealed_key(date), "1")

    def sealed_receipt_pages(self, date: str, ruleset: str,
                             after: str | None = None) -> Iterator[list[tuple[str, dict, str]]]:
        """The finished games of (date, ruleset) after game ``after`` as pages of (game id,
        receipt, its stored canonical JSON) in id order.

        A game without a receipt is read again by a script that seals it if it still has
        none, so that no later action (from a process whose clock lags) can finish it after
        the reveal has read it; a finished game cannot change. Call ``seal_day`` first.
        Raises CorruptRecord for a receipt that is not a JSON object.
        """
        self.sync_day_order(date, ruleset)
        start = "-" if after is None else "(" + after
        while True:
            ids = self.client.zrangebylex(day_order_key(date, ruleset), start, "+", 0, READ_BATCH)
            if not ids:
                return
            pipe = self.client.pipeline(transaction=False)
            for game_id in ids:
                pipe.hget(game_key(game_id), "receipt")
            texts = dict(zip(ids, pipe.execute(), strict=True))
            unfinished = [game_id for game_id, text in texts.items() if text is None]
            if unfinished:
                pipe = self.client.pipeline(transaction=False)
                for game_id in unfinished:
                    queue_script(pipe, self._seal_and_read_receipt, [game_key(game_id)], [])
                texts.update(zip(unfinished, pipe.execute(), strict=True))
            yield [(game_id, _receipt(game_id, texts[game_id]), texts[game_id])
                   for game_id in ids if texts[game_id]]
            start = "(" + ids[-1]

    def record_finished(self, record: GameRecord, total: int, finished_at: str,
                        queue_board=None, also: Sequence = ()) -> list:
        """Rank a game just finished on its leaderboard and mark it finished in its player's
        history (one round trip); ``queue_board(pipe)``, when given, queues the ranking instead
        (the day's log appends the game's leaf and ranks it), and each of ``also``
        (``queue(pipe)``) queues more in the same round trip (the coach's skill board and the
        game's review). The replies, the board's first."""
        pipe = self.client.pipeline(transaction=False)
        if queue_board is None:
            self.boards.queue_rank(pipe, record.date, record.ruleset, record.id, total)
        else:
            queue_board(pipe)
        self.players.queue_history(pipe, record.player, "finish", history_record(
            record.id, date=record.date, ruleset=record.ruleset, started_at=record.created_at,
            total=total, finished_at=finished_at))
        for queue in also:
            queue(pipe)
        return pipe.execute()


def _entry_text(entry: Mapping) -> str:
    """Canonical JSON text of a transcript entry the core made (``Game.roll``/``score``: ints,
    booleans and ASCII strings only, so without canonical JSON's walk looking for floats; the
    same text, once per action, written by orjson: sorted keys, no spaces, a tenth of
    ``json.dumps``'s time)."""
    return orjson.dumps(entry, option=orjson.OPT_SORT_KEYS).decode()


def _receipt(game_id: str, text: str) -> dict:
    """A stored receipt, or CorruptRecord naming the game."""
    try:
        receipt = json.loads(text)
    except ValueError as error:
        raise CorruptRecord(f"the receipt of game {game_id} is not JSON: {error}") from error
    if not isinstance(receipt, dict):
        raise CorruptRecord(f"the receipt of game {game_id} is not a JSON object")
    return receipt


def _record(game_id: str, meta: Sequence[str], transcript_text: str) -> GameRecord:
    """A GameRecord from a script's flat HGETALL reply and its transcript as one JSON array
    text (``scripts.TRANSCRIPT_TEXT``)."""
    fields = dict(zip(meta[::2], meta[1::2], strict=True))
    receipt = fields.get("receipt")
    transcript = orjson.loads(transcript_text)  # our own text: a third of json.loads's time
    state = fields.get("state", "")
    if not state.endswith(f'"version":{len(transcript)}}}'):
        state = ""  # not this transcript's (written by a version that did not keep it)
    return GameRecord(
        id=game_id,
        ruleset=fields["ruleset"],
        date=fields["date"],
        player=fields["player"],
        name=fields.get("name", ""),
        transcript=tuple(transcript),
        receipt=json.loads(receipt) if receipt else None,
        created_at=fields.get("created_at", ""),
        state=state,
    )
