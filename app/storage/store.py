"""Redis storage: games, day indexes, leaderboards and the ledger.

Every key carries a hash tag and no command or script spans two tags, so the same code runs on
Redis Cluster: ``{g:<id>}`` (a game's record, transcript and action counts), ``{d:<date>}`` (a
date's game index, leaderboards, its format and day's logs — ``app/daylog/store.py`` — and,
once revealed, receipt trees in chunks), ``{ledger}`` (the ledger, each epoch's first game
time, the reveal and log leases and the last reveal failure), ``{p:<pseudonym>}`` (a player's
history) and ``{x:<code>}`` (a transfer code). No reply or argument list grows with a day's
games: days are read in pages and written in chunks. A game's version is the length of its
transcript; every action is one compare-and-set script on it. Values are canonical JSON."""

import datetime as dt
import json
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import orjson
import redis
from redis.backoff import ExponentialBackoff
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.connection import Encoder
from redis.retry import Retry

from app.platform.cas import APPLIED, LIMITED, MISSING, SEALED, compare_and_set
from fairness import canonical_json
from fairness.sheets import ANY_DAILY_RULESETS

CLUSTER_SCHEME = "redis+cluster://"
SOCKET_TIMEOUT = 10.0
RETRIES = 2  # then a request answers 503 quickly rather than hang while Redis is away
READ_BATCH = 500
INDEX_BATCH = 1000

LEDGER_ENTRIES = "{ledger}:entries"
LEDGER_INDEX = "{ledger}:index"
DAILY_KIND = "daily"
HISTORY_LIMIT = 1000  # games kept per player, the oldest dates dropped first
REVEAL_LEASE = "{ledger}:reveal-lease"
REVEAL_FAILURE = "{ledger}:reveal-failure"

# A game's transcript goes back as one JSON array text (its items joined), not one reply item per
# entry: one string for the client to read and one JSON parse, whatever the game's length.
_TRANSCRIPT_TEXT = "'[' .. table.concat(redis.call('LRANGE', KEYS[2], 0, -1), ',') .. ']'"

_LOAD_GAME = """
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return false end
return {meta, TRANSCRIPT}
""".replace("TRANSCRIPT", _TRANSCRIPT_TEXT)

_INDEX_GAME = """
if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 then
  return 0
end
-- The date's format marker KEYS[3], set at its first game: ARGV[2] (the format new
-- dates start in), or '1' for a date whose sheets (KEYS[4..]) had games before the marker.
if redis.call('EXISTS', KEYS[3]) == 0 then
  local format = ARGV[2]
  for i = 4, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then format = '1' end
  end
  redis.call('SET', KEYS[3], format)
end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""

_CREATE_GAME = """
local created = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'ruleset', ARGV[1], 'date', ARGV[2], 'player', ARGV[3],
             'name', ARGV[4], 'created_at', ARGV[5], 'state', ARGV[6])
  created = 1
elseif ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'name', ARGV[4])
end
return {created, redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
""".replace("TRANSCRIPT", _TRANSCRIPT_TEXT)

# The action's compare-and-set (replies: app/platform/cas.py). ARGV: 1 the expected version,
# 2 the entry, 3 the receipt or '', then 4 the game's state after the entry, 5 the
# state the action was computed from when a client's token claimed it ('' when the worker's own
# copy did, read from Redis), 6 '1' to have the game back on success (a worker that acted on a
# token holds no copy of it), 7 how many of the game's action limits to count (0 on a retry
# within the same request), then each limit's (amount, seconds); KEYS[3..] their counters,
# fixed windows under the game's hash tag. Every call that reaches a live, unsealed game counts,
# applied or not; past a limit, nothing is written.
_APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HEXISTS', KEYS[1], 'sealed') == 1 then return 0 end
local wait = nil
for i = 1, tonumber(ARGV[7]) do
  local key, seconds = KEYS[2 + i], tonumber(ARGV[7 + 2 * i])
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('EXPIRE', key, seconds) end
  if count > tonumber(ARGV[6 + 2 * i]) then
    local ttl = redis.call('TTL', key)
    if ttl < 1 then
      redis.call('EXPIRE', key, seconds)
      ttl = seconds
    end
    if wait == nil or ttl > wait then wait = ttl end
  end
end
if wait then return {-1, wait} end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1])
   or (ARGV[5] ~= '' and redis.call('HGET', KEYS[1], 'state') ~= ARGV[5]) then
  return {redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
end
redis.call('RPUSH', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
redis.call('HSET', KEYS[1], 'state', ARGV[4])
if ARGV[6] == '1' then
  return {1, redis.call('HGETALL', KEYS[1]), TRANSCRIPT}
end
return 1
""".replace("TRANSCRIPT", _TRANSCRIPT_TEXT)

_APPEND_LEDGER = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[2], 'reveal:' .. ARGV[3]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], 'reveal:' .. ARGV[3], ARGV[1], 'revealed', ARGV[3])
end
return 1
"""

_RECORD_HISTORY = """
if ARGV[4] == 'start' then
  if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then return 0 end
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if extra > 0 then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, extra - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, extra - 1)
  redis.call('HDEL', KEYS[1], unpack(oldest))
end
return 1
"""

_SEAL_AND_READ_RECEIPT = """
local receipt = redis.call('HGET', KEYS[1], 'receipt')
if receipt then return receipt end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'sealed', '1') end
return false
"""


def connect(url: str):
    """A client for ``url``: ``redis+cluster://host:port`` selects Redis Cluster."""
    options = {"decode_responses": True, "socket_timeout": SOCKET_TIMEOUT,
               "socket_connect_timeout": SOCKET_TIMEOUT,
               "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), RETRIES)}
    if url.startswith(CLUSTER_SCHEME):
        return LazyClusterClient("redis://" + url[len(CLUSTER_SCHEME):], options)
    return redis.Redis.from_url(url, health_check_interval=30, **options)


class LazyClusterClient:
    """A Redis Cluster client made on first use, and again on each use until that succeeds.

    redis-py's cluster client reads the slot map as it is built: built at start-up, an
    unreachable cluster would stop every worker from booting (and gunicorn with them) instead of
    letting them answer 503 until it is back. Everything but script registration is the real
    client's.
    """

    def __init__(self, url: str, options: dict):
        """Remember how to connect; connect later."""
        self._url = url
        self._options = options
        self._client: RedisCluster | None = None
        self._lock = threading.Lock()

    def register_script(self, script: str) -> Script:
        """A script object calling through this client (no round trip)."""
        return Script(self, script)

    def get_encoder(self) -> Encoder:
        """How scripts are encoded for their SHA-1, as the real client would."""
        return Encoder("utf-8", "strict", self._options["decode_responses"])

    def __getattr__(self, name: str):
        """The real client's attribute, connecting first if needed."""
        return getattr(self._connected(), name)

    def _connected(self) -> RedisCluster:
        """The real client, built now if it is not yet (raises while the cluster is away)."""
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = RedisCluster.from_url(self._url, **self._options)
        return self._client


def game_key(game_id: str) -> str:
    """The hash holding a game's ruleset, date, player, name and receipt."""
    return f"{{g:{game_id}}}"


def action_count_key(game_id: str, seconds: int) -> str:
    """The count of a game's actions in its current window of ``seconds`` (a rate limit,
    expiring with the window)."""
    return f"{{g:{game_id}}}:actions:{seconds}"


def transcript_key(game_id: str) -> str:
    """The list holding a game's transcript, one canonical JSON action per item."""
    return f"{{g:{game_id}}}:t"


def day_games_key(date: str, ruleset: str) -> str:
    """The set of the ids of every game of (date, ruleset)."""
    return f"{{d:{date}}}:games:{ruleset}"


def day_order_key(date: str, ruleset: str) -> str:
    """The ids of (date, ruleset)'s games as a sorted set of equal scores, read in id order
    page by page (ZRANGEBYLEX); copied from the day's set when it is first read."""
    return f"{{d:{date}}}:order:{ruleset}"


def board_key(date: str, ruleset: str) -> str:
    """The leaderboard of (date, ruleset): finished game ids scored by their total."""
    return f"{{d:{date}}}:board:{ruleset}"


def leaf_chunk_key(date: str, ruleset: str, chunk: int) -> str:
    """Chunk ``chunk`` of (date, ruleset)'s signed receipts in Merkle leaf order (a JSON array),
    written at the reveal."""
    return f"{{d:{date}}}:leaves:{ruleset}:{chunk}"


def tree_key(date: str, ruleset: str) -> str:
    """The index of (date, ruleset)'s receipt tree (size, chunk roots, first game of each
    chunk), written at the reveal after every chunk."""
    return f"{{d:{date}}}:tree:{ruleset}"


def tree_progress_key(date: str, ruleset: str) -> str:
    """How far the reveal got with (date, ruleset)'s tree: its full chunks so far and the last
    game in them (while a reveal works, or after one was cut short)."""
    return f"{{d:{date}}}:tree-progress:{ruleset}"


def day_format_key(date: str) -> str:
    """The date's format, ``1`` or ``2`` (the day's log), set at its first game."""
    return f"{{d:{date}}}:format"


def day_sealed_key(date: str) -> str:
    """Set when the reveal of ``date`` starts: from then on no game of the date is indexed."""
    return f"{{d:{date}}}:sealed"


class GameSealed(RuntimeError):
    """The game's date is being or has been revealed: it takes no action and no new game."""


class CorruptRecord(ValueError):
    """A stored value the service wrote cannot be read back (a damaged or foreign write)."""


def history_key(pseudonym: str) -> str:
    """The hash of a player's games: game id → canonical JSON history record."""
    return f"{{p:{pseudonym}}}:history"


def history_order_key(pseudonym: str) -> str:
    """The player's game ids scored by their date's ordinal: the history's order, trimmed from
    the oldest end to HISTORY_LIMIT."""
    return f"{{p:{pseudonym}}}:order"


def transfer_key(code: str) -> str:
    """The one-time transfer code ``code``: the identity it carries, until it expires."""
    return f"{{x:{code}}}"


def first_game_key(epoch: int) -> str:
    """When the first game of epoch ``epoch`` was created (set once)."""
    return f"{{ledger}}:first-game:{epoch}"


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


@dataclass(frozen=True)
class Board:
    """One page of a leaderboard read from Redis."""

    players: int
    top: list[tuple[str, int]]
    own_total: int | None
    own_rank: int | None


class Store:
    """The Redis operations of the service, each at most one round trip but for the paged
    reads and writes of a whole day (its index, its reveal), one round trip per page."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the scripts."""
        self.client = client
        self._load_game = client.register_script(_LOAD_GAME)
        self._create_game = client.register_script(_CREATE_GAME)
        self._append_action = client.register_script(_APPEND_ACTION)
        self._append_ledger = client.register_script(_APPEND_LEDGER)
        self._index_game = client.register_script(_INDEX_GAME)
        self._seal_and_read_receipt = client.register_script(_SEAL_AND_READ_RECEIPT)
        self._record_history = client.register_script(_RECORD_HISTORY)

    # Games

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
        _queue_script(pipe, self._index_game, [
            day_games_key(date, ruleset), day_sealed_key(date), day_format_key(date),
            *(day_games_key(date, sheet) for sheet in ANY_DAILY_RULESETS)],
            [game_id, new_day_format])
        _queue_script(pipe, self._create_game, [game_key(game_id), transcript_key(game_id)],
                      [ruleset, date, player, name or "", created_at, state])
        self._queue_history(pipe, player, "start", history_record(
            game_id, date=date, ruleset=ruleset, started_at=created_at))
        indexed, (created, meta, transcript), _ = pipe.execute()
        if not indexed:
            if created:
                pipe = self.client.pipeline(transaction=False)
                pipe.delete(game_key(game_id))  # one key a DEL: a cluster pipeline refuses more
                pipe.delete(transcript_key(game_id))
                pipe.hdel(history_key(player), game_id)
                pipe.zrem(history_order_key(player), game_id)
                pipe.execute()
            raise GameSealed(game_id)
        if first_of_epoch is not None:
            self.client.set(first_game_key(first_of_epoch), created_at, nx=True)
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
                _queue_script(pipe, self._load_game,
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
            args=[expected_version, _entry_text(entry), _encode(receipt) if receipt else "", state,
                  claimed_state, "1" if want_game else "", len(limits),
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
                    _queue_script(pipe, self._seal_and_read_receipt, [game_key(game_id)], [])
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
            pipe.zadd(board_key(record.date, record.ruleset), {record.id: total})
        else:
            queue_board(pipe)
        self._queue_history(pipe, record.player, "finish", history_record(
            record.id, date=record.date, ruleset=record.ruleset, started_at=record.created_at,
            total=total, finished_at=finished_at))
        for queue in also:
            queue(pipe)
        return pipe.execute()

    # Leaderboards

    def rank_finished(self, date: str, ruleset: str, totals: Mapping[str, int]) -> None:
        """Put finished games on the (date, ruleset) leaderboard (idempotent)."""
        if totals:
            self.client.zadd(board_key(date, ruleset), dict(totals))

    def board(self, date: str, ruleset: str, limit: int, own_game: str | None) -> Board:
        """The player count, the ``limit`` best (game id, total) and the caller's total and rank."""
        key = board_key(date, ruleset)
        pipe = self.client.pipeline(transaction=False)
        pipe.zcard(key)
        pipe.zrevrange(key, 0, limit - 1, withscores=True)
        pipe.zscore(key, own_game or "")
        players, top, own_score = pipe.execute()
        own_rank = None
        if own_score is not None:
            own_rank = self.client.zcount(key, f"({own_score}", "+inf") + 1
        return Board(
            players=players,
            top=[(game_id, int(score)) for game_id, score in top],
            own_total=None if own_score is None else int(own_score),
            own_rank=own_rank,
        )

    def count_between(self, date: str, ruleset: str,
                      bounds: Sequence[tuple[int, int]]) -> list[int]:
        """How many totals of the leaderboard fall in each inclusive (low, high) range."""
        pipe = self.client.pipeline(transaction=False)
        for low, high in bounds:
            pipe.zcount(board_key(date, ruleset), low, high)
        return pipe.execute()

    def names(self, game_ids: Sequence[str]) -> list[tuple[str, str]]:
        """The (player pseudonym, display name) of each game, in order."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "player", "name")
        return [(player or "", name or "") for player, name in pipe.execute()]

    # Players: history, transfer codes

    def history(self, pseudonym: str) -> list[dict]:
        """The player's history records, newest date first and, within a date, the game started
        last first (the order key scores by date only; ids are random)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrange(history_order_key(pseudonym), 0, -1)
        pipe.hgetall(history_key(pseudonym))
        order, records = pipe.execute()
        games = [json.loads(records[game_id]) for game_id in order if game_id in records]
        return sorted(games, key=lambda game: (game["date"], game["started_at"] or ""),
                      reverse=True)

    def game_receipts(self, game_ids: Sequence[str]) -> dict[str, dict | None]:
        """The receipt (None while unfinished) of each of ``game_ids`` that exists, one pipeline."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "ruleset", "receipt")
        return {game_id: json.loads(receipt) if receipt else None
                for game_id, (ruleset, receipt) in zip(game_ids, pipe.execute(), strict=True)
                if ruleset is not None}

    def save_transfer(self, code: str, carried: Mapping, seconds: int) -> bool:
        """Keep ``carried`` under the new transfer ``code`` for ``seconds``; False if the code is
        taken already."""
        return bool(self.client.set(transfer_key(code), _encode(carried), ex=seconds, nx=True))

    def take_transfer(self, code: str) -> dict | None:
        """What ``code`` carries, deleting it in the same command (single use); None if the code
        is unknown, used or expired."""
        value = self.client.getdel(transfer_key(code))
        return None if value is None else json.loads(value)

    def first_game_at(self, epoch: int) -> str | None:
        """When the first game of ``epoch`` was created, if one was."""
        return self.client.get(first_game_key(epoch))

    def _queue_history(self, pipe, pseudonym: str, mode: str, entry: Mapping) -> None:
        """Queue the history write of ``entry``: ``start`` adds it unless known, ``finish``
        replaces it; the history is then trimmed to HISTORY_LIMIT games."""
        order = dt.date.fromisoformat(entry["date"]).toordinal()
        _queue_script(pipe, self._record_history,
                      [history_key(pseudonym), history_order_key(pseudonym)],
                      [entry["game"], order, _encode(entry), mode, HISTORY_LIMIT])

    # Receipt trees

    def store_leaf_chunk(self, date: str, ruleset: str, chunk: int, receipts: Sequence[str],
                         progress: Mapping) -> None:
        """Keep one chunk of a day's receipts (their stored canonical JSON) in leaf order, as
        one JSON array, then ``progress``: the tree so far (a racing copy is equal)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.set(leaf_chunk_key(date, ruleset, chunk), "[" + ",".join(receipts) + "]")
        pipe.set(tree_progress_key(date, ruleset), _encode(progress))
        pipe.execute()

    def tree_progress(self, date: str, ruleset: str) -> dict | None:
        """How far a cut-short reveal got with (date, ruleset)'s tree, or None."""
        text = self.client.get(tree_progress_key(date, ruleset))
        return None if text is None else json.loads(text)

    def leaf_chunk(self, date: str, ruleset: str, chunk: int) -> list[dict]:
        """One chunk of a revealed day's receipts in leaf order (empty if absent)."""
        text = self.client.get(leaf_chunk_key(date, ruleset, chunk))
        return [] if text is None else json.loads(text)

    def store_tree(self, date: str, ruleset: str, index: Mapping) -> None:
        """Keep the index of a revealed day's receipt tree, once all its chunks are stored."""
        pipe = self.client.pipeline(transaction=False)
        pipe.set(tree_key(date, ruleset), _encode(index))
        pipe.delete(tree_progress_key(date, ruleset))
        pipe.execute()

    def tree(self, date: str, ruleset: str) -> dict | None:
        """The stored index of (date, ruleset)'s receipt tree, or None."""
        text = self.client.get(tree_key(date, ruleset))
        return None if text is None else json.loads(text)

    # Ledger

    def ledger_entries(self) -> list[dict]:
        """Every ledger entry, in order."""
        return [json.loads(item) for item in self.client.lrange(LEDGER_ENTRIES, 0, -1)]

    def ledger_entry(self, seq: int) -> dict | None:
        """The entry at position ``seq``, or None."""
        item = self.client.lindex(LEDGER_ENTRIES, seq)
        return None if item is None else json.loads(item)

    def append_ledger(self, seq: int, entry: Mapping, revealed_date: str | None = None) -> bool:
        """Append ``entry`` if the ledger still has exactly ``seq`` entries (and, for a reveal,
        the date is not revealed yet). Returns whether it was appended."""
        reply = self._append_ledger(
            keys=[LEDGER_ENTRIES, LEDGER_INDEX],
            args=[seq, _encode(entry), revealed_date or ""],
        )
        return reply == 1

    def reveal_seq(self, date: str) -> int | None:
        """The ledger position of ``date``'s reveal, or None before it."""
        seq = self.client.hget(LEDGER_INDEX, f"reveal:{date}")
        return None if seq is None else int(seq)

    def last_revealed(self) -> str | None:
        """The latest revealed date, or None."""
        return self.client.hget(LEDGER_INDEX, "revealed")

    # Reveal failures, shared by every process for /readyz and the metrics

    def record_reveal_failure(self, date: str | None, error: str, at: str) -> None:
        """Note a failed reveal attempt: the date, the error, when; attempts counted."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(REVEAL_FAILURE, mapping={"date": date or "", "error": error, "last": at})
        pipe.hsetnx(REVEAL_FAILURE, "since", at)
        pipe.hincrby(REVEAL_FAILURE, "attempts", 1)
        pipe.execute()

    def clear_reveal_failure(self) -> None:
        """Forget the failure: the reveals are up to date."""
        self.client.delete(REVEAL_FAILURE)

    def reveal_failure(self) -> dict | None:
        """The failing reveal (date, error, since, last, attempts), or None."""
        failure = self.client.hgetall(REVEAL_FAILURE)
        if not failure:
            return None
        return {**failure, "date": failure.get("date") or None,
                "attempts": int(failure.get("attempts", 0))}


def history_record(game_id: str, *, date: str, ruleset: str, started_at: str,
                   total: int | None = None, finished_at: str | None = None) -> dict:
    """A game as its player's history keeps it (``kind`` tells daily games from the kinds
    later versions add)."""
    return {"kind": DAILY_KIND, "game": game_id, "date": date, "ruleset": ruleset,
            "started_at": started_at or None, "finished": total is not None, "total": total,
            "finished_at": finished_at}


def _queue_script(pipe, script, keys: Sequence[str], args: Sequence) -> None:
    """Queue ``script`` in ``pipe`` as a raw EVAL: redis-py's cluster pipeline refuses scripts
    (EVALSHA and its eval()), and a plain pipeline would spend an extra round trip on SCRIPT
    EXISTS before running one. Redis routes and caches the EVAL like any other."""
    pipe.execute_command("EVAL", script.script, len(keys), *keys, *args)


def _encode(value: Mapping) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(dict(value)).decode()


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
    text (``_TRANSCRIPT_TEXT``)."""
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


# ------------------------------------------------------------------ skill boards and references
# A day's skill board ranks finished games by the expected points they gave away to perfect
# play, in centipoints (the hundredths the board shows), fewest first. Games of equal
# centipoints share a rank (competition ranking: 1, 2, 2, 4) and are listed in the order they
# finished; the total, which depends on the luck of the dice, never breaks a tie. Per
# (date, sheet), under the day's hash tag: a sorted set scored ``centipoints ×
# SKILL_FINISH_SPAN + finish``, where ``finish`` counts the milliseconds from the date's
# finish origin to the game's finish (every score stays below 2⁵³: exact in Redis's doubles),
# and a hash of the games' totals, written before the game enters the sorted set. A board an
# earlier version wrote (``legacy_skill_board_key``, scored ``centipoints × 10000 − total``)
# is converted the first time it is read, its games' finishes read from their receipts or
# their players' histories. The coach's work queues live under their own tag ``{coach}``.

SKILL_FINISH_SPAN = 2**30  # milliseconds: 12.4 days, beyond any date's window of about 3 days
SKILL_FINISH_ORIGIN = dt.timedelta(days=2)  # before the date's midnight UTC: before it opens
LEGACY_SKILL_TOTAL_SPAN = 10_000
SKILL_PENDING = "{coach}:skill-pending"
# A review is kept this long after it is computed (a finished game's, at its finish): the page
# asks for it right away; a later reader computes it again (and keeps it again).
REVIEW_SECONDS = 3600
REFERENCES_PENDING = "{coach}:references-pending"


def review_key(game_id: str) -> str:
    """A finished game's review (JSON, kept REVIEW_SECONDS): under the game's hash tag."""
    return f"{{g:{game_id}}}:review"


def skill_board_key(date: str, ruleset: str) -> str:
    """The skill board of (date, ruleset): finished game ids scored by ``skill_score``."""
    return f"{{d:{date}}}:skill-board:{ruleset}"


def skill_totals_key(date: str, ruleset: str) -> str:
    """The totals of the games on the skill board of (date, ruleset): game id → total."""
    return f"{{d:{date}}}:skill-totals:{ruleset}"


def legacy_skill_board_key(date: str, ruleset: str) -> str:
    """The skill board of (date, ruleset) as an earlier version wrote it: game ids scored
    ``centipoints × LEGACY_SKILL_TOTAL_SPAN − total``; emptied (and so gone) once converted."""
    return f"{{d:{date}}}:skill:{ruleset}"


def references_key(date: str) -> str:
    """The hash of a revealed date's references (perfect game, foresight maximum) per sheet."""
    return f"{{d:{date}}}:references"


def references_lease(date: str) -> str:
    """The Redis lease on computing ``date``'s references, under the day's hash tag."""
    return f"{{d:{date}}}:references-lease"


def skill_finish(date: str, finished_at: dt.datetime | None) -> int:
    """Milliseconds from ``date``'s finish origin to ``finished_at``, within [0,
    SKILL_FINISH_SPAN); an unknown finish counts as the latest."""
    if finished_at is None:
        return SKILL_FINISH_SPAN - 1
    origin = dt.datetime.fromisoformat(date).replace(tzinfo=dt.UTC) - SKILL_FINISH_ORIGIN
    milliseconds = (finished_at - origin) // dt.timedelta(milliseconds=1)
    return min(max(milliseconds, 0), SKILL_FINISH_SPAN - 1)


def skill_score(centipoints_lost: int, date: str, finished_at: dt.datetime | None) -> int:
    """The sorted-set score of a game: lower is better (fewer centipoints lost, then finished
    earlier); the total is no part of it."""
    return centipoints_lost * SKILL_FINISH_SPAN + skill_finish(date, finished_at)


def skill_centipoints(score: float) -> int:
    """The centipoints lost of a skill score."""
    return int(score) // SKILL_FINISH_SPAN


def legacy_skill_entry(score: float) -> tuple[int, int]:
    """(centipoints lost, total) of a score of a legacy skill board."""
    score = int(score)
    centipoints = -(-score // LEGACY_SKILL_TOTAL_SPAN)  # ceiling: the total was subtracted
    return centipoints, centipoints * LEGACY_SKILL_TOTAL_SPAN - score


def _stored_time(text: str | None) -> dt.datetime | None:
    """An aware UTC time from a stored ``…Z`` timestamp, or None."""
    if not text:
        return None
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC)


@dataclass(frozen=True)
class SkillBoard:
    """One page of a skill board: (game id, centipoints lost, total), best first (equal
    centipoints in finish order); the caller's (centipoints lost, total) and competition
    rank."""

    players: int
    top: list[tuple[str, int, int]]
    own: tuple[int, int] | None
    own_rank: int | None


class SkillStore:
    """The skill boards, the stored day references and the coach's queues."""

    def __init__(self, client):
        """Bind to the same redis-py client as the Store."""
        self.client = client

    def rank(self, date: str, ruleset: str, game_id: str, centipoints_lost: int, total: int,
             finished_at: dt.datetime | None, pipe=None) -> None:
        """Put a game that finished at ``finished_at`` on the day's skill board (idempotent);
        queued in ``pipe`` if given."""
        target = pipe or self.client.pipeline(transaction=False)
        target.hset(skill_totals_key(date, ruleset), game_id, total)
        target.zadd(skill_board_key(date, ruleset),
                    {game_id: skill_score(centipoints_lost, date, finished_at)})
        if pipe is None:
            target.execute()

    def unrank(self, date: str, ruleset: str, game_id: str) -> None:
        """Take a game off the day's skill board and drop its kept review."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(skill_board_key(date, ruleset), game_id)
        pipe.zrem(legacy_skill_board_key(date, ruleset), game_id)
        pipe.hdel(skill_totals_key(date, ruleset), game_id)
        pipe.delete(review_key(game_id))
        pipe.execute()

    def keep_review(self, game_id: str, version: int, review: str, pipe=None) -> None:
        """Keep the review (JSON text) of a game at ``version`` for REVIEW_SECONDS; queued
        in ``pipe`` if given."""
        (pipe or self.client).set(review_key(game_id), f"{version}:{review}", ex=REVIEW_SECONDS)

    def kept_review(self, game_id: str, version: int) -> str | None:
        """The kept review (JSON text) of a game at ``version``, if any."""
        kept = self.client.get(review_key(game_id))
        if kept is None:
            return None
        kept_version, _, review = kept.partition(":")
        return review if kept_version == str(version) else None

    def board(self, date: str, ruleset: str, limit: int, own_game: str | None) -> SkillBoard:
        """The player count, the ``limit`` best entries and the caller's entry and rank (one
        more than the games with fewer centipoints lost)."""
        key, totals = skill_board_key(date, ruleset), skill_totals_key(date, ruleset)
        while True:
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(legacy_skill_board_key(date, ruleset))
            pipe.zcard(key)
            pipe.zrange(key, 0, limit - 1, withscores=True)
            pipe.zscore(key, own_game or "")
            legacy, players, top, own_score = pipe.execute()
            if not legacy:
                break
            self.convert_legacy_board(date, ruleset)
        ids = [game_id for game_id, _ in top]
        pipe = self.client.pipeline(transaction=False)
        pipe.hmget(totals, [*ids, own_game or ""])
        if own_score is not None:
            band = skill_centipoints(own_score) * SKILL_FINISH_SPAN
            pipe.zcount(key, "-inf", f"({band}")
        replies = pipe.execute()
        *top_totals, own_total = replies[0]
        # A total is written before its game enters the board and deleted after it leaves:
        # a game without one was taken off between the two round trips.
        own_kept = own_score is not None and own_total is not None
        return SkillBoard(
            players=players,
            top=[(game_id, skill_centipoints(score), int(total))
                 for (game_id, score), total in zip(top, top_totals, strict=True)
                 if total is not None],
            own=(skill_centipoints(own_score), int(own_total)) if own_kept else None,
            own_rank=replies[1] + 1 if own_kept else None,
        )

    def entry(self, date: str, ruleset: str, game_id: str) -> tuple[int, int] | None:
        """(centipoints lost, total) of a ranked game, or None."""
        while True:
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(legacy_skill_board_key(date, ruleset))
            pipe.zscore(skill_board_key(date, ruleset), game_id)
            pipe.hget(skill_totals_key(date, ruleset), game_id)
            legacy, score, total = pipe.execute()
            if not legacy:
                break
            self.convert_legacy_board(date, ruleset)
        if score is None or total is None:  # off the board, or being taken off
            return None
        return skill_centipoints(score), int(total)

    def convert_legacy_board(self, date: str, ruleset: str) -> None:
        """Move the games of (date, ruleset)'s legacy skill board onto its board, READ_BATCH at
        a time, each with its finish (``finish_times``), then drop the legacy board. Readers
        that meet the legacy board convert it too: every step is idempotent, and a game the
        board already holds keeps its entry."""
        legacy = legacy_skill_board_key(date, ruleset)
        key, totals = skill_board_key(date, ruleset), skill_totals_key(date, ruleset)
        while page := self.client.zrange(legacy, 0, READ_BATCH - 1, withscores=True):
            finished = self.finish_times([game_id for game_id, _ in page])
            pipe = self.client.pipeline(transaction=False)
            for game_id, score in page:
                lost, total = legacy_skill_entry(score)
                pipe.hsetnx(totals, game_id, total)
                pipe.zadd(key, {game_id: skill_score(lost, date, finished[game_id])}, nx=True)
            pipe.zrem(legacy, *(game_id for game_id, _ in page))
            pipe.execute()

    def finish_times(self, game_ids: Sequence[str]) -> dict[str, dt.datetime | None]:
        """When each game finished, to the second, as the server recorded it: its v2 receipt's
        ``finished_at``, else its player's history's, else when it started; None if none is
        known (the game or its record is gone)."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "player", "receipt", "created_at")
        records = dict(zip(game_ids, pipe.execute(), strict=True))
        finished = {game_id: _stored_time(json.loads(receipt).get("finished_at"))
                    if receipt else None for game_id, (_, receipt, _) in records.items()}
        unknown = [game_id for game_id, moment in finished.items()
                   if moment is None and records[game_id][0]]
        pipe = self.client.pipeline(transaction=False)
        for game_id in unknown:
            pipe.hget(history_key(records[game_id][0]), game_id)
        for game_id, kept in zip(unknown, pipe.execute(), strict=True):
            finished[game_id] = (_stored_time(json.loads(kept).get("finished_at")) if kept
                                 else None) or _stored_time(records[game_id][2])
        return finished

    def queue_skill(self, game_id: str, pipe=None) -> None:
        """Remember a finished game whose loss is still to compute; queued in ``pipe`` if
        given."""
        (pipe or self.client).sadd(SKILL_PENDING, game_id)

    def pending_skill(self, count: int) -> list[str]:
        """Up to ``count`` queued games (left queued until ``skill_done``)."""
        return self.client.srandmember(SKILL_PENDING, count) or []

    def skill_done(self, game_id: str) -> None:
        """Take a game off the queue."""
        self.client.srem(SKILL_PENDING, game_id)

    def queue_references(self, date: str) -> None:
        """Remember a revealed date whose references are still to compute."""
        self.client.sadd(REFERENCES_PENDING, date)

    def pending_references(self) -> list[str]:
        """The queued dates, oldest first."""
        return sorted(self.client.smembers(REFERENCES_PENDING))

    def store_references(self, date: str, references: Mapping[str, Mapping]) -> None:
        """Keep a date's references (sheet → JSON object) and take the date off the queue."""
        if references:
            self.client.hset(references_key(date), mapping={  # holds floats: plain JSON
                ruleset: json.dumps(value, separators=(",", ":"))
                for ruleset, value in references.items()})
        self.client.srem(REFERENCES_PENDING, date)

    def references(self, date: str, ruleset: str) -> dict | None:
        """A date's stored references for one sheet, or None."""
        item = self.client.hget(references_key(date), ruleset)
        return None if item is None else json.loads(item)
