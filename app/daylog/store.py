"""Redis storage of the day's logs (FAIRNESS.md, "The day's log (format v2)").

Every key is under its date's hash tag ``{d:<date>}``, beside the date's game index and
leaderboards, so that each script below touches one slot (Redis Cluster):

- ``{d:<date>}:format`` — the date's format, ``1`` or ``2``, set by the game-index script of
  ``app/daily/scripts.py`` when the date's first game is created (``2`` unless the date already
  had games before the log existed, or the service is configured to start dates in v1);
- ``{d:<date>}:log-closed`` — set when the date's close begins: no leaf is appended after it
  but by the close itself;
- per sheet ``{d:<date>}:log:<sheet>:``\\ ``leaves`` (each leaf's data — the canonical JSON of
  the unsigned v2 receipt — in index order), ``index`` (game id → leaf index), ``hashes`` (the
  leaves' hashes in hex, written by the checkpoint job up to its last checkpoint) and
  ``hashes:<level>`` for each level from 1 (the hash of every complete subtree of ``2^level``
  leaves, left to right, written with them: a proof reads one of each level, not the leaves),
  ``checkpoints`` (each checkpoint as JSON: body, signed note, consistency proof from the one
  before, and the log's right edge at it), ``bodies`` (SHA-256 of a body → its position),
  ``sizes`` (a size → the first checkpoint of that size) and
  ``cosignatures`` (``<position>|<witness name>`` → the witness's signature line).
"""

import enum
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.platform.keys import (
    board_key,
    day_format_key,
    day_games_key,
    game_key,
    transcript_key,
)
from app.platform.keys import day_log_key as log_key
from app.platform.keys import log_closed_key as closed_key
from app.platform.keys import log_subtrees_key as subtrees_key
from fairness import canonical_json

_APPEND_LEAF = """
-- KEYS: leaves, index, board, closed. ARGV: game id, leaf text before its index, after it,
-- total, '1' when the close itself appends. One leaf per game: a repeat returns the first.
local known = redis.call('HGET', KEYS[2], ARGV[1])
if known then return {tonumber(known), redis.call('LINDEX', KEYS[1], tonumber(known))} end
if ARGV[5] ~= '1' and redis.call('EXISTS', KEYS[4]) == 1 then return false end
local index = redis.call('LLEN', KEYS[1])
local leaf = ARGV[2] .. string.format('%d', index) .. ARGV[3]
redis.call('RPUSH', KEYS[1], leaf)
redis.call('HSET', KEYS[2], ARGV[1], index)
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return {index, leaf}
"""

_APPEND_CHECKPOINT = """
-- KEYS: checkpoints, bodies, sizes. ARGV: the position it takes, checkpoint JSON, body hash,
-- size, the body hash of the checkpoint it chains after ('' for the first).
-- The chain's one writer: a checkpoint is appended only right after the one it names as
-- previous, and never after a close checkpoint, so a log has one chain and at most one close,
-- last. A refusal says which: 'moved' (another writer appended first) or 'closed'.
local count = redis.call('LLEN', KEYS[1])
if count > 0 and cjson.decode(redis.call('LINDEX', KEYS[1], -1))['closes'] == true then
  return 'closed'
end
if count ~= tonumber(ARGV[1]) then return 'moved' end
if count > 0 and redis.call('HGET', KEYS[2], ARGV[5]) ~= tostring(count - 1) then
  return 'moved'
end
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSETNX', KEYS[3], ARGV[4], ARGV[1])
return 'appended'
"""

_EXTEND_FROM = """
-- KEYS: a list. ARGV: the position of the first item, the items. Pushes the items past the
-- list's end (a racing writer pushes the same ones); nothing if they would leave a gap.
local first, have = tonumber(ARGV[1]), redis.call('LLEN', KEYS[1])
if have < first then return -1 end
local from = have - first + 2
if from > #ARGV then return 0 end
redis.call('RPUSH', KEYS[1], unpack(ARGV, from))
return #ARGV - from + 1
"""

_SEAL_AND_LOAD = """
-- KEYS: the game's hash, its transcript. Seals the game (no action after) and reads it.
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], 'sealed', '1')
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
"""

_REPLACE_COSIGNATURE = """
-- KEYS: cosignatures. ARGV: the field, the line the caller read there ('' for none), the new
-- line. Sets the field only if it still holds what the caller read and compared.
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

HASH_BATCH = 2000  # subtree hashes pushed per script call


class Appended(enum.Enum):
    """What became of a checkpoint offered to the log's chain."""

    APPENDED = "appended"
    MOVED = "moved"  # another writer appended first: the chain has a new last checkpoint
    CLOSED = "closed"  # the log has its close checkpoint: nothing follows it


@dataclass(frozen=True)
class Leaf:
    """A game's leaf in its log: its index and data (the unsigned receipt's canonical JSON)."""

    index: int
    data: str


@dataclass(frozen=True)
class StoredCheckpoint:
    """A checkpoint as the log keeps it."""

    position: int
    body: str
    note: str
    size: int
    time: str
    consistency: tuple[str, ...]
    edge: tuple[str, ...]
    closes: bool

    def to_json(self) -> str:
        """The stored text."""
        return canonical_json({"body": self.body, "note": self.note, "size": self.size,
                               "time": self.time, "consistency": list(self.consistency),
                               "edge": list(self.edge), "closes": self.closes}).decode()

    @classmethod
    def from_json(cls, position: int, text: str) -> "StoredCheckpoint":
        """Read a stored checkpoint."""
        value = json.loads(text)
        return cls(position, value["body"], value["note"], value["size"], value["time"],
                   tuple(value["consistency"]), tuple(value["edge"]), value["closes"])


class LogStore:
    """The Redis operations of the day's logs; each one round trip unless it says otherwise."""

    def __init__(self, client):
        """Bind to the service's redis-py client and register the scripts."""
        self.client = client
        self._append_leaf = client.register_script(_APPEND_LEAF)
        self._append_checkpoint = client.register_script(_APPEND_CHECKPOINT)
        self._seal_and_load = client.register_script(_SEAL_AND_LOAD)
        self._extend_from = client.register_script(_EXTEND_FROM)
        self._replace_cosignature = client.register_script(_REPLACE_COSIGNATURE)

    # The date's format

    def day_format(self, date: str) -> str | None:
        """The date's stored format marker, or None."""
        return self.client.get(day_format_key(date))

    def has_games(self, date: str, rulesets: Sequence[str]) -> bool:
        """True when any sheet of the date has a game."""
        pipe = self.client.pipeline(transaction=False)
        for ruleset in rulesets:
            pipe.exists(day_games_key(date, ruleset))
        return any(pipe.execute())

    def settle_format(self, date: str, rulesets: Sequence[str], new_format: str) -> str:
        """The date's format, fixing it now if no game made it (``1`` when the date has games
        already, else ``new_format``)."""
        started = self.has_games(date, rulesets)
        self.client.set(day_format_key(date), "1" if started else new_format, nx=True)
        return self.client.get(day_format_key(date))

    # Leaves

    def append_leaf(self, date: str, ruleset: str, game_id: str, head: str, tail: str,
                    total: int, closing: bool = False) -> Leaf | None:
        """Give ``game_id`` the next leaf of its log, its data ``head + index + tail``, and rank
        it on the leaderboard; a game already in the log keeps its leaf. None when the log is
        closed and ``closing`` is not set."""
        reply = self._append_leaf(
            keys=[log_key(date, ruleset, "leaves"), log_key(date, ruleset, "index"),
                  board_key(date, ruleset), closed_key(date)],
            args=[game_id, head, tail, total, "1" if closing else ""])
        return None if reply is None else Leaf(int(reply[0]), reply[1])

    def queue_append_leaf(self, pipe, date: str, ruleset: str, game_id: str, head: str,
                          tail: str, total: int) -> None:
        """Queue ``append_leaf`` in a pipeline (as a raw EVAL, which cluster pipelines take)."""
        pipe.execute_command(
            "EVAL", self._append_leaf.script, 4, log_key(date, ruleset, "leaves"),
            log_key(date, ruleset, "index"), board_key(date, ruleset), closed_key(date),
            game_id, head, tail, total, "")

    def leaf_of(self, date: str, ruleset: str, game_id: str) -> Leaf | None:
        """The game's leaf, or None (two round trips: its index, then its data)."""
        index = self.client.hget(log_key(date, ruleset, "index"), game_id)
        if index is None:
            return None
        return Leaf(int(index), self.client.lindex(log_key(date, ruleset, "leaves"), int(index)))

    def logged(self, date: str, ruleset: str, game_ids: Sequence[str]) -> set[str]:
        """Those of ``game_ids`` that have a leaf in the log."""
        if not game_ids:
            return set()
        indexes = self.client.hmget(log_key(date, ruleset, "index"), list(game_ids))
        return {game_id for game_id, index in zip(game_ids, indexes, strict=True)
                if index is not None}

    def leaf_count(self, date: str, ruleset: str) -> int:
        """How many leaves the log has."""
        return self.client.llen(log_key(date, ruleset, "leaves"))

    def leaves(self, date: str, ruleset: str, start: int, stop: int) -> list[str]:
        """The leaves' data from ``start`` to ``stop`` (excluded)."""
        if stop <= start:
            return []
        return self.client.lrange(log_key(date, ruleset, "leaves"), start, stop - 1)

    def leaf_hashes(self, date: str, ruleset: str, stop: int, start: int = 0) -> list[bytes]:
        """The leaf hashes from ``start`` to ``stop`` (excluded), stored by the checkpoints."""
        if stop <= start:
            return []
        return [bytes.fromhex(h) for h in
                self.client.lrange(subtrees_key(date, ruleset, 0), start, stop - 1)]

    def subtrees(self, date: str, ruleset: str,
                 wanted: Sequence[tuple[int, int]]) -> list[bytes | None]:
        """The hashes of the complete subtrees at ``wanted`` (level, position), None where
        none is stored; one round trip."""
        pipe = self.client.pipeline(transaction=False)
        for level, position in wanted:
            pipe.lindex(subtrees_key(date, ruleset, level), position)
        return [None if node is None else bytes.fromhex(node) for node in pipe.execute()]

    def close(self, date: str) -> None:
        """Refuse every further leaf of the date but the close's."""
        self.client.set(closed_key(date), "1")

    def is_closing(self, date: str) -> bool:
        """True once the date's close has begun."""
        return bool(self.client.exists(closed_key(date)))

    # Checkpoints

    def checkpoints(self, date: str, ruleset: str) -> list[StoredCheckpoint]:
        """Every checkpoint of the log, in order."""
        texts = self.client.lrange(log_key(date, ruleset, "checkpoints"), 0, -1)
        return [StoredCheckpoint.from_json(i, text) for i, text in enumerate(texts)]

    def last_checkpoint(self, date: str, ruleset: str) -> StoredCheckpoint | None:
        """The latest checkpoint, or None."""
        pipe = self.client.pipeline(transaction=False)
        pipe.llen(log_key(date, ruleset, "checkpoints"))
        pipe.lindex(log_key(date, ruleset, "checkpoints"), -1)
        count, text = pipe.execute()
        return None if text is None else StoredCheckpoint.from_json(count - 1, text)

    def log_heads(self, date: str, rulesets: Sequence[str]) -> dict[str, tuple[int, str | None]]:
        """Per sheet: (leaves so far, the latest checkpoint's stored text or None)."""
        pipe = self.client.pipeline(transaction=False)
        for ruleset in rulesets:
            pipe.llen(log_key(date, ruleset, "leaves"))
            pipe.lindex(log_key(date, ruleset, "checkpoints"), -1)
        replies = pipe.execute()
        return {ruleset: (replies[2 * i], replies[2 * i + 1]) for i, ruleset in enumerate(rulesets)}

    def store_subtrees(self, date: str, ruleset: str,
                       levels: Sequence[tuple[int, Sequence[bytes]]]) -> None:
        """Keep new complete subtrees: per level from 0, (position of the first, hashes). Each
        list grows only by what it lacks (a racing cut of the same leaves writes the same
        hashes); a list with a gap before them (a log cut before the levels were stored)
        takes none, and its proofs read the leaves. One pipeline of batches."""
        pipe = self.client.pipeline(transaction=False)
        for level, (first, nodes) in enumerate(levels):
            hexes = [node.hex() for node in nodes]
            for start in range(0, len(hexes), HASH_BATCH):
                pipe.execute_command("EVAL", self._extend_from.script, 1,
                                     subtrees_key(date, ruleset, level), first + start,
                                     *hexes[start:start + HASH_BATCH])
        if any(nodes for _, nodes in levels):
            pipe.execute()

    def append_checkpoint(self, date: str, ruleset: str, checkpoint: StoredCheckpoint,
                          body_hash: str, previous_hash: str | None) -> Appended:
        """Append ``checkpoint`` if the log's last checkpoint is still the one whose body hashes
        to ``previous_hash`` (None: the log has none) and does not close the log; one script,
        so cutting and closing are one writer at a time whatever the processes and clocks."""
        reply = self._append_checkpoint(
            keys=[log_key(date, ruleset, "checkpoints"), log_key(date, ruleset, "bodies"),
                  log_key(date, ruleset, "sizes")],
            args=[checkpoint.position, checkpoint.to_json(), body_hash, checkpoint.size,
                  previous_hash or ""])
        return Appended(reply)

    def checkpoint_position(self, date: str, ruleset: str, body_hash: str) -> int | None:
        """The position of the checkpoint whose body hashes to ``body_hash``, or None."""
        position = self.client.hget(log_key(date, ruleset, "bodies"), body_hash)
        return None if position is None else int(position)

    def checkpoint_of_size(self, date: str, ruleset: str, size: int) -> StoredCheckpoint | None:
        """The first checkpoint of ``size`` leaves, or None (two checkpoints of one size have
        one root)."""
        position = self.client.hget(log_key(date, ruleset, "sizes"), size)
        return None if position is None else self.checkpoint_at(date, ruleset, int(position))

    def checkpoint_at(self, date: str, ruleset: str, position: int) -> StoredCheckpoint | None:
        """The checkpoint at ``position``, or None."""
        text = self.client.lindex(log_key(date, ruleset, "checkpoints"), position)
        return None if text is None else StoredCheckpoint.from_json(position, text)

    # Cosignatures

    def cosignature(self, date: str, ruleset: str, position: int, name: str) -> str | None:
        """The witness ``name``'s signature line kept for the checkpoint at ``position``."""
        return self.client.hget(log_key(date, ruleset, "cosignatures"), f"{position}|{name}")

    def replace_cosignature(self, date: str, ruleset: str, position: int, name: str,
                            read: str | None, line: str) -> bool:
        """Keep ``line`` as the witness ``name``'s cosignature of the checkpoint at ``position``
        if the one kept is still ``read`` (None: none); whether it was kept."""
        return self._replace_cosignature(
            keys=[log_key(date, ruleset, "cosignatures")],
            args=[f"{position}|{name}", read or "", line]) == 1

    def cosignatures(self, date: str, ruleset: str) -> dict[int, list[str]]:
        """Every checkpoint's witness lines, by position, in witness name order."""
        lines: dict[int, list[tuple[str, str]]] = {}
        for field, line in self.client.hgetall(log_key(date, ruleset, "cosignatures")).items():
            position, name = field.split("|", 1)
            lines.setdefault(int(position), []).append((name, line))
        return {position: [line for _, line in sorted(items)]
                for position, items in lines.items()}

    # The close

    def seal_and_load_games(self, game_ids: Sequence[str]) -> list[tuple[str, Mapping, list]]:
        """Seal each game and read it: (id, its fields, its transcript entries), one pipeline."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.execute_command("EVAL", self._seal_and_load.script, 2, game_key(game_id),
                                 transcript_key(game_id))
        games = []
        for game_id, reply in zip(game_ids, pipe.execute(), strict=True):
            if reply is not None:
                meta, transcript = reply
                games.append((game_id, dict(zip(meta[::2], meta[1::2], strict=True)),
                              [json.loads(item) for item in transcript]))
        return games

    def store_receipts(self, receipts: Mapping[str, str]) -> None:
        """Keep each game's signed receipt (canonical JSON) in its hash, one pipeline."""
        if not receipts:
            return
        pipe = self.client.pipeline(transaction=False)
        for game_id, text in receipts.items():
            pipe.hset(game_key(game_id), "receipt", text)
        pipe.execute()
