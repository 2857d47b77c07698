"""Redis storage: games, day indexes, leaderboards and the ledger.

Every key carries a hash tag and no command or script spans two tags, so the same code runs on
Redis Cluster: ``{g:<id>}`` (a game's record and transcript), ``{d:<date>}`` (a date's game
index, leaderboards and, once revealed, receipt trees), ``{ledger}`` (the ledger and each epoch's
first game time), ``{p:<pseudonym>}`` (a player's history) and ``{x:<code>}`` (a transfer code).
A game's version is the length of its transcript; every action is one compare-and-set script
on it. Values are canonical JSON.
"""

import datetime as dt
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import redis
from redis.backoff import ExponentialBackoff
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.connection import Encoder
from redis.retry import Retry

from fairness import canonical_json

CLUSTER_SCHEME = "redis+cluster://"
SOCKET_TIMEOUT = 10.0
RETRIES = 2  # then a request answers 503 quickly rather than hang while Redis is away
READ_BATCH = 500

LEDGER_ENTRIES = "{ledger}:entries"
LEDGER_INDEX = "{ledger}:index"
DAILY_KIND = "daily"
HISTORY_LIMIT = 1000  # games kept per player, the oldest dates dropped first

_LOAD_GAME = """
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return false end
return {meta, redis.call('LRANGE', KEYS[2], 0, -1)}
"""

_CREATE_GAME = """
local created = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'ruleset', ARGV[1], 'date', ARGV[2], 'player', ARGV[3],
             'name', ARGV[4], 'created_at', ARGV[5])
  created = 1
elseif ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'name', ARGV[4])
end
return {created, redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
"""

_APPEND_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1]) then
  return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
end
redis.call('RPUSH', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
return 1
"""

_APPEND_LEDGER = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[2], 'reveal:' .. ARGV[3]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], 'reveal:' .. ARGV[3], ARGV[1], 'revealed', ARGV[3])
end
return 1
"""

_DAY_PAGE = """
if redis.call('SCARD', KEYS[1]) ~= redis.call('ZCARD', KEYS[2]) then
  local ids = redis.call('SMEMBERS', KEYS[1])
  for first = 1, #ids, 1000 do
    local members = {}
    for i = first, math.min(first + 999, #ids) do
      members[#members + 1] = 0
      members[#members + 1] = ids[i]
    end
    redis.call('ZADD', KEYS[2], unpack(members))
  end
end
return {redis.call('ZCARD', KEYS[2]),
        redis.call('ZRANGEBYLEX', KEYS[2], ARGV[1], '+', 'LIMIT', 0, tonumber(ARGV[2]))}
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

_STORE_LEAVES = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], unpack(ARGV))
return 1
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


def leaves_key(date: str, ruleset: str) -> str:
    """The signed receipts of (date, ruleset) in Merkle leaf order, written at the reveal."""
    return f"{{d:{date}}}:leaves:{ruleset}"


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
    """The Redis operations of the service, each at most one round trip."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the scripts."""
        self.client = client
        self._load_game = client.register_script(_LOAD_GAME)
        self._create_game = client.register_script(_CREATE_GAME)
        self._append_action = client.register_script(_APPEND_ACTION)
        self._append_ledger = client.register_script(_APPEND_LEDGER)
        self._store_leaves = client.register_script(_STORE_LEAVES)
        self._day_page = client.register_script(_DAY_PAGE)
        self._record_history = client.register_script(_RECORD_HISTORY)

    # Games

    def create_or_load_game(self, game_id: str, *, ruleset: str, date: str, player: str,
                            name: str | None, created_at: str,
                            first_of_epoch: int | None = None) -> tuple[bool, GameRecord]:
        """Create the game unless it exists (then set its name if given); index it under its date
        and in the player's history; with ``first_of_epoch``, note ``created_at`` as that
        epoch's first game time unless one is noted already.

        Returns (created, record). One round trip: the commands are pipelined.
        """
        pipe = self.client.pipeline(transaction=False)
        pipe.sadd(day_games_key(date, ruleset), game_id)
        self._queue_history(pipe, player, "start", history_record(
            game_id, date=date, ruleset=ruleset, started_at=created_at))
        if first_of_epoch is not None:
            pipe.set(first_game_key(first_of_epoch), created_at, nx=True)
        _queue_script(pipe, self._create_game, [game_key(game_id), transcript_key(game_id)],
                      [ruleset, date, player, name or "", created_at])
        created, meta, transcript = pipe.execute()[-1]
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
                      receipt: Mapping | None) -> GameRecord | None:
        """Append ``entry`` (and store ``receipt``) if the game is still at ``expected_version``.

        Returns None when applied, else the game as it now stands. Raises GameMissing (a
        KeyError) when the game does not exist, having written nothing.
        """
        reply = self._append_action(
            keys=[game_key(game_id), transcript_key(game_id)],
            args=[expected_version, _encode(entry), _encode(receipt) if receipt else ""],
        )
        if reply is None:
            raise GameMissing(game_id)
        if reply == 1:
            return None
        return _record(game_id, *reply)

    def existing_games(self, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` that exist."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.exists(game_key(game_id))
        return {game_id for game_id, found in zip(game_ids, pipe.execute(), strict=True) if found}

    def day_game_ids(self, date: str, ruleset: str) -> set[str]:
        """The ids of every game started on (date, ruleset)."""
        return self.client.smembers(day_games_key(date, ruleset))

    def day_game_page(self, date: str, ruleset: str, after: str | None,
                      count: int) -> tuple[int, list[str]]:
        """(how many games (date, ruleset) has, the first ``count`` of their ids after ``after``
        in id order). One script on the date's hash tag: it first brings the day's sorted
        index up to its set of ids (their counts differ only while games are still added)."""
        start = "-" if after is None else "(" + after
        total, ids = self._day_page(keys=[day_games_key(date, ruleset),
                                          day_order_key(date, ruleset)], args=[start, count])
        return total, ids

    def record_finished(self, record: GameRecord, total: int, finished_at: str) -> None:
        """Rank a game just finished on its leaderboard and mark it finished in its player's
        history (one round trip)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(board_key(record.date, record.ruleset), {record.id: total})
        self._queue_history(pipe, record.player, "finish", history_record(
            record.id, date=record.date, ruleset=record.ruleset, started_at=record.created_at,
            total=total, finished_at=finished_at))
        pipe.execute()

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
        """The player's history records, newest date first (game id order within a date)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrange(history_order_key(pseudonym), 0, -1)
        pipe.hgetall(history_key(pseudonym))
        order, records = pipe.execute()
        return [json.loads(records[game_id]) for game_id in order if game_id in records]

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

    def store_leaves(self, date: str, ruleset: str, receipts: Sequence[Mapping]) -> None:
        """Keep a revealed day's receipts in leaf order (written once; a racing copy is equal)."""
        if receipts:
            self._store_leaves(keys=[leaves_key(date, ruleset)],
                               args=[_encode(receipt) for receipt in receipts])

    def leaves(self, date: str, ruleset: str) -> list[dict]:
        """A revealed day's receipts in leaf order."""
        return [json.loads(item) for item in self.client.lrange(leaves_key(date, ruleset), 0, -1)]

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


def _record(game_id: str, meta: Sequence[str], transcript: Sequence[str]) -> GameRecord:
    """A GameRecord from a script's flat HGETALL reply and LRANGE reply."""
    fields = dict(zip(meta[::2], meta[1::2], strict=True))
    receipt = fields.get("receipt")
    return GameRecord(
        id=game_id,
        ruleset=fields["ruleset"],
        date=fields["date"],
        player=fields["player"],
        name=fields.get("name", ""),
        transcript=tuple(json.loads(item) for item in transcript),
        receipt=json.loads(receipt) if receipt else None,
        created_at=fields.get("created_at", ""),
    )
