"""Redis storage of matches: practice games, games against the computer and, later, tables.

Every key of a match carries the hash tag ``{m:<id>}``, so each script touches one slot and the
same code runs on Redis Cluster:

- ``{m:<id>}``, a hash: ``kind``, ``ruleset``, ``epoch``, ``seats`` (JSON), ``client_seeds``
  (JSON, one per seat, null for a bot or a human who has not rolled yet), ``commitment``,
  ``sealed_seed`` (the server seed, encrypted under a key of the data directory: Redis never
  holds it in the clear while the match is on), ``status``, ``created_at``, ``updated_at``
  and, at the end, ``result`` (signed JSON), ``server_seed`` (hex) and ``ended_at``;
- ``{m:<id>}:log``, a list: every action of every seat in play order, one canonical JSON
  ``{"seat": i, "entry": {...}}`` an item. The match's version is its length.

Every change is one compare-and-set script on the version and the status (``playing``), so a
retried or concurrent action applies once. Every write sets the keys' time to live: a match
being played lives ``idle + retention`` seconds past its last action, an ended one
``retention`` seconds past its end, so storage is bounded by the creation rate.

A player's matches are listed under their own tag, ``{p:<pseudonym>}:matches`` (records) and
``{p:<pseudonym>}:matches-order`` (ids by start time), trimmed to MATCH_HISTORY_LIMIT: apart
from the daily history, which they never push out.
"""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.platform.cas import APPLIED, MISSING, compare_and_set
from app.platform.keys import match_history_key as history_key
from app.platform.keys import match_history_order_key as history_order_key
from app.platform.keys import match_key
from app.platform.keys import match_log_key as log_key
from app.platform.redis import keep_newest
from fairness import canonical_json

MATCH_HISTORY_LIMIT = 200

# ARGV: the index of the first action to read. Replies the fields, the actions from there on
# and the log's length.
_LOAD = """
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then return false end
return {meta, redis.call('LRANGE', KEYS[2], ARGV[1], -1), redis.call('LLEN', KEYS[2])}
"""

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""

# ARGV: version, ttl, #entries, entries..., then field/value pairs to set. Replies as every
# compare-and-set's (app/platform/cas.py).
_ADVANCE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HGET', KEYS[1], 'status') ~= 'playing' or
   redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1]) then
  return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1)}
end
local count = tonumber(ARGV[3])
for index = 4, 3 + count do redis.call('RPUSH', KEYS[2], ARGV[index]) end
if #ARGV > 3 + count then redis.call('HSET', KEYS[1], unpack(ARGV, 4 + count)) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return 1
"""

_RECORD = """
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
""" + keep_newest(4) + "return 1\n"


class MatchMissing(KeyError):
    """No such match in Redis (never made, or removed after its retention)."""


@dataclass(frozen=True)
class Action:
    """One action of a match's log: the seat that played it and its transcript entry."""

    seat: int
    entry: Mapping

    def to_json(self) -> dict:
        """The stored form."""
        return {"seat": self.seat, "entry": dict(self.entry)}


@dataclass(frozen=True)
class MatchRecord:
    """A stored match: its fields as written and its log of actions."""

    id: str
    fields: Mapping[str, str]
    log: tuple[Action, ...]

    @property
    def version(self) -> int:
        """The number of actions applied: the next action's number."""
        return len(self.log)

    @property
    def status(self) -> str:
        """``playing``, ``finished`` or ``expired``."""
        return self.fields["status"]

    def json_field(self, name: str):
        """A field stored as JSON, decoded (None when absent)."""
        text = self.fields.get(name)
        return None if text is None else json.loads(text)

    def transcripts(self, seats: int, start: int = 0) -> list[list[dict]]:
        """Each seat's transcript, in seat order (its entries from action ``start`` on)."""
        split: list[list[dict]] = [[] for _ in range(seats)]
        for action in self.log[start:]:
            split[action.seat].append(dict(action.entry))
        return split


class MatchStore:
    """The Redis operations on matches, each one round trip."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the scripts."""
        self.client = client
        self._load = client.register_script(_LOAD)
        self._create = client.register_script(_CREATE)
        self._advance = client.register_script(_ADVANCE)
        self._record = client.register_script(_RECORD)

    def create(self, match_id: str, fields: Mapping[str, str], ttl: int) -> bool:
        """Store a new match's fields (False if the id is taken), alive ``ttl`` seconds."""
        flat = [item for pair in fields.items() for item in pair]
        return self._create(keys=[match_key(match_id)], args=[ttl, *flat]) == 1

    def load(self, match_id: str, known: Sequence[Action] = ()) -> MatchRecord | None:
        """The stored match, or None. ``known`` is the log as the caller holds it (a log only
        grows under the compare-and-set): only the actions after it are read and decoded."""
        keys = [match_key(match_id), log_key(match_id)]
        reply = self._load(keys=keys, args=[len(known)])
        if reply is None:
            return None
        meta, tail, length = reply
        if length < len(known):  # not this log's start: read it whole
            return self.load(match_id)
        record = _record(match_id, meta, tail)
        return MatchRecord(match_id, record.fields, (*known, *record.log)) if known else record

    def advance(self, match_id: str, version: int, actions: Sequence[Action],
                fields: Mapping[str, str], ttl: int) -> MatchRecord | None:
        """Append ``actions`` and set ``fields`` if the match is still being played at
        ``version``, and keep its keys ``ttl`` more seconds.

        Returns None when applied, else the match as it now stands (nothing written). Raises
        MatchMissing when Redis does not hold it.
        """
        entries = [_encode(action.to_json()) for action in actions]
        flat = [item for pair in fields.items() for item in pair]
        reply = compare_and_set(self._advance, keys=[match_key(match_id), log_key(match_id)],
                                args=[version, ttl, len(entries), *entries, *flat])
        if reply.outcome == MISSING:
            raise MatchMissing(match_id)
        if reply.outcome == APPLIED:
            return None
        return _record(match_id, reply.fields, reply.log)

    def activity(self, match_ids: Sequence[str]) -> list[tuple[str, str] | None]:
        """(status, last action time) of each match, None for one Redis does not hold."""
        pipe = self.client.pipeline(transaction=False)
        for match_id in match_ids:
            pipe.hmget(match_key(match_id), "status", "updated_at")
        return [None if status is None else (status, updated)
                for status, updated in pipe.execute()] if match_ids else []

    def record_for_player(self, pseudonym: str, record: Mapping, started: float) -> None:
        """Keep (or replace) ``record`` in the player's list of matches, ordered by ``started``
        (Unix seconds), trimmed to MATCH_HISTORY_LIMIT."""
        self._record(keys=[history_key(pseudonym), history_order_key(pseudonym)],
                     args=[record["match"], started, _encode(record), MATCH_HISTORY_LIMIT])

    def player_matches(self, pseudonym: str) -> list[dict]:
        """The player's match records, the latest started first."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrevrange(history_order_key(pseudonym), 0, -1)
        pipe.hgetall(history_key(pseudonym))
        order, records = pipe.execute()
        return [json.loads(records[match_id]) for match_id in order if match_id in records]


def _encode(value: Mapping) -> str:
    """Canonical JSON text of a stored value."""
    return canonical_json(dict(value)).decode()


def _record(match_id: str, meta: Sequence[str], log: Sequence[str]) -> MatchRecord:
    """A MatchRecord from a script's flat HGETALL reply and LRANGE reply."""
    fields = dict(zip(meta[::2], meta[1::2], strict=True))
    actions = []
    for item in log:
        stored = json.loads(item)
        actions.append(Action(stored["seat"], stored["entry"]))
    return MatchRecord(match_id, fields, tuple(actions))
