"""Redis storage of the service log: one long-lived C2SP tiled log whose entries are the day
logs' signed checkpoints (``app/servicelog/service.py``).

Every key is under the one hash tag ``{slog}`` (``app/platform/keys.py``), so that each script
below touches one Redis Cluster slot:

- ``entries`` — each entry's text (a day checkpoint's signed note without cosignatures), in
  index order; ``hashes`` and ``hashes:<level>`` — the hash (hex) of every complete subtree of
  ``2^level`` entries, left to right (level 0: the leaf hashes): tiles and proofs read them,
  never the entries;
- ``cursors`` — ``<date>|<sheet>`` → how many of that day log's checkpoints are entries;
  ``positions`` — ``<date>|<sheet>|<checkpoint position>`` → its entry index;
- ``checkpoints`` — each service log checkpoint as JSON ``{"size", "note"}`` (the note signed by
  the log key, no cosignature), in order, each larger than the one before; ``sizes`` — the
  sorted set of the checkpointed sizes;
- ``cosignatures`` — ``<size>|<witness name>`` → that witness's cosignature line(s) of the
  checkpoint of that size; ``witnessed`` — witness name → the size it last cosigned;
- ``origin`` — the log's origin, recorded with its first checkpoint: its identity;
  ``lease`` — the lease of the pass that appends.

Appending is one compare-and-set per batch (``append``): the entries, the cursor, the positions
and every complete subtree they complete are written together, only if the log still has the
size and the day log's cursor still the value the caller read, so that two passes racing append
each day checkpoint exactly once.
"""

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass

from app.platform.keys import (
    SERVICE_LOG_CHECKPOINTS,
    SERVICE_LOG_COSIGNATURES,
    SERVICE_LOG_CURSORS,
    SERVICE_LOG_ENTRIES,
    SERVICE_LOG_IDENTITY,
    SERVICE_LOG_POSITIONS,
    SERVICE_LOG_SIZES,
    SERVICE_LOG_WITNESSED,
    service_log_hashes_key,
)
from fairness.log_tree import edge_ranges, subtree_of

_APPEND = """
-- KEYS: entries, cursors, positions, then hashes:<level> for levels 0 .. #KEYS - 4.
-- ARGV: the log size read, the cursor field, the cursor read, the entry count n, the n
-- entries, then per level: the position of its first new hash, its hash count, its hashes.
-- Appends only if the log and the cursor are still as read: 'moved' otherwise.
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 'moved' end
local cursor = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
if cursor ~= tonumber(ARGV[3]) then return 'moved' end
local n = tonumber(ARGV[4])
for i = 1, n do
  redis.call('RPUSH', KEYS[1], ARGV[4 + i])
  redis.call('HSET', KEYS[3], ARGV[2] .. '|' .. (cursor + i - 1), tonumber(ARGV[1]) + i - 1)
end
redis.call('HSET', KEYS[2], ARGV[2], cursor + n)
local at = 5 + n
for level = 4, #KEYS do
  local first, count = tonumber(ARGV[at]), tonumber(ARGV[at + 1])
  if count > 0 then
    if redis.call('LLEN', KEYS[level]) ~= first then
      return redis.error_reply('service log level ' .. (level - 4) .. ' has a gap')
    end
    redis.call('RPUSH', KEYS[level], unpack(ARGV, at + 2, at + 1 + count))
  end
  at = at + 2 + count
end
return 'appended'
"""

_CHECKPOINT = """
-- KEYS: checkpoints, sizes. ARGV: the position it takes, its size, its JSON.
-- Appends only right after the checkpoint the caller read, and only a larger size.
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 'moved' end
local last = redis.call('LINDEX', KEYS[1], -1)
if last and cjson.decode(last)['size'] >= tonumber(ARGV[2]) then return 'moved' end
redis.call('RPUSH', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[2])
return 'appended'
"""

_RECORD_IDENTITY = """
-- KEYS: identity. ARGV: the log's vkey. Sets it if unset; the recorded one.
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
"""

MAX_BATCH = 256  # entries per append: a script's arguments stay few


class Appended(enum.Enum):
    """What became of a batch or a checkpoint offered to the log."""

    APPENDED = "appended"
    MOVED = "moved"  # another writer appended first: read again


@dataclass(frozen=True)
class LogHead:
    """The service log's latest checkpoint: its position, size and signed note."""

    position: int
    size: int
    note: str


def cursor_field(date: str, ruleset: str) -> str:
    """The cursors' field of the (date, sheet) day log."""
    return f"{date}|{ruleset}"


class ServiceLogStore:
    """The Redis operations of the service log; each one round trip unless it says otherwise."""

    def __init__(self, client):
        """Bind to the service's redis-py client and register the scripts."""
        self.client = client
        self._append = client.register_script(_APPEND)
        self._checkpoint = client.register_script(_CHECKPOINT)
        self._record_identity = client.register_script(_RECORD_IDENTITY)

    # The identity: origin and key

    def identity(self) -> str | None:
        """The log's recorded vkey (its origin and key), or None before the first checkpoint."""
        return self.client.get(SERVICE_LOG_IDENTITY)

    def record_identity(self, vkey: str) -> str:
        """Record the log's ``vkey`` unless one is recorded; the recorded one."""
        return self._record_identity(keys=[SERVICE_LOG_IDENTITY], args=[vkey])

    # Entries

    def size(self) -> int:
        """How many entries the log has."""
        return self.client.llen(SERVICE_LOG_ENTRIES)

    def entries(self, start: int, stop: int) -> list[str]:
        """The entries from ``start`` to ``stop`` (excluded)."""
        if stop <= start:
            return []
        return self.client.lrange(SERVICE_LOG_ENTRIES, start, stop - 1)

    def cursors(self, fields: Sequence[str]) -> list[int]:
        """How many checkpoints of each day log (by ``cursor_field``) are entries."""
        if not fields:
            return []
        return [int(value or 0) for value in self.client.hmget(SERVICE_LOG_CURSORS, list(fields))]

    def entry_index(self, date: str, ruleset: str, position: int) -> int | None:
        """The entry index of the (date, sheet)'s checkpoint at ``position``, or None."""
        index = self.client.hget(SERVICE_LOG_POSITIONS,
                                 f"{cursor_field(date, ruleset)}|{position}")
        return None if index is None else int(index)

    def append(self, size: int, field: str, cursor: int, entries: Sequence[str],
               levels: Sequence[tuple[int, Sequence[bytes]]]) -> Appended:
        """Append ``entries`` (the day log ``field``'s checkpoints from ``cursor``) and the
        complete subtrees they complete (``fairness.log_tree.new_subtrees``' levels) if the log
        still has ``size`` entries and the cursor is still ``cursor``."""
        if not 0 < len(entries) <= MAX_BATCH:
            raise ValueError(f"a batch is 1 to {MAX_BATCH} entries, not {len(entries)}")
        keys = [SERVICE_LOG_ENTRIES, SERVICE_LOG_CURSORS, SERVICE_LOG_POSITIONS,
                *(service_log_hashes_key(level) for level in range(len(levels)))]
        args: list = [size, field, cursor, len(entries), *entries]
        for first, nodes in levels:
            args += [first, len(nodes), *(node.hex() for node in nodes)]
        return Appended(self._append(keys=keys, args=args))

    # Complete subtrees

    def subtrees(self, wanted: Sequence[tuple[int, int]]) -> list[bytes | None]:
        """The hashes of the complete subtrees at ``wanted`` (level, position), None where
        none is stored; one round trip."""
        if not wanted:
            return []
        pipe = self.client.pipeline(transaction=False)
        for level, position in wanted:
            pipe.lindex(service_log_hashes_key(level), position)
        return [None if node is None else bytes.fromhex(node) for node in pipe.execute()]

    def level_hashes(self, level: int, first: int, count: int) -> list[bytes]:
        """Up to ``count`` stored hashes of ``level`` from position ``first``."""
        return [bytes.fromhex(node) for node in
                self.client.lrange(service_log_hashes_key(level), first, first + count - 1)]

    def edge(self, size: int) -> list[bytes]:
        """The right edge of the tree of the first ``size`` entries: each of its nodes is a
        stored complete subtree."""
        wanted = [subtree_of(start, end) for start, end in edge_ranges(size)]
        nodes = self.subtrees(wanted)
        if any(node is None for node in nodes):
            raise LookupError(f"the service log lacks a complete subtree of its first {size} "
                              "entries")
        return nodes

    # Checkpoints

    def last_checkpoint(self) -> LogHead | None:
        """The latest checkpoint, or None."""
        pipe = self.client.pipeline(transaction=False)
        pipe.llen(SERVICE_LOG_CHECKPOINTS)
        pipe.lindex(SERVICE_LOG_CHECKPOINTS, -1)
        count, text = pipe.execute()
        if text is None:
            return None
        value = json.loads(text)
        return LogHead(count - 1, value["size"], value["note"])

    def append_checkpoint(self, position: int, size: int, note: str) -> Appended:
        """Append the checkpoint of ``size`` at ``position`` if the list still ends there and
        its last checkpoint is smaller."""
        text = json.dumps({"size": size, "note": note}, separators=(",", ":"))
        return Appended(self._checkpoint(keys=[SERVICE_LOG_CHECKPOINTS, SERVICE_LOG_SIZES],
                                         args=[position, size, text]))

    def is_checkpointed(self, size: int) -> bool:
        """True when the log cut a checkpoint of ``size`` entries."""
        return self.client.zscore(SERVICE_LOG_SIZES, size) is not None

    def checkpointed_between(self, low: int, high: int) -> bool:
        """True when the log cut a checkpoint of a size from ``low`` to ``high`` (excluded)."""
        return bool(self.client.zrangebyscore(SERVICE_LOG_SIZES, low, f"({high}", 0, 1))

    # Witnesses

    def cosignatures(self, size: int, names: Sequence[str]) -> list[str | None]:
        """Each named witness's cosignature lines kept for the checkpoint of ``size``."""
        if not names:
            return []
        return self.client.hmget(SERVICE_LOG_COSIGNATURES, [f"{size}|{name}" for name in names])

    def keep_cosignatures(self, size: int, name: str, lines: str) -> None:
        """Keep the witness ``name``'s cosignature lines of the checkpoint of ``size``."""
        self.client.hset(SERVICE_LOG_COSIGNATURES, f"{size}|{name}", lines)

    def witnessed(self, name: str) -> int:
        """The size the witness ``name`` last cosigned, as it last told us (0: none)."""
        return int(self.client.hget(SERVICE_LOG_WITNESSED, name) or 0)

    def set_witnessed(self, name: str, size: int) -> None:
        """Remember that the witness ``name`` last cosigned ``size``."""
        self.client.hset(SERVICE_LOG_WITNESSED, name, size)
