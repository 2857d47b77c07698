"""Redis storage of tables: the lobby before the match starts, the short join codes, the turn
being timed.

- ``{t:<id>}``, a hash: ``ruleset``, ``clock`` (seconds per turn, 0 when off), ``code``,
  ``creator`` (pseudonym), ``seats`` (JSON: each ``{"kind", "bot", "player", "name",
  "client_seed"}``; an open human seat has a null player), ``status`` (``waiting``, then
  ``playing`` with ``match`` set), ``created_at``, ``version`` (every lobby change is one
  compare-and-set on it) and, once playing, ``turn`` (``<seat>:<round>`` being timed) and
  ``deadline`` (Unix seconds), written with the events that hand the turn over by the
  channel's script (``events.py``), and once over, ``again`` (the id of the table that follows
  it, ``rematch.py``);
- ``{t:<id>}:events``, the table's event stream (``events.py``);
- ``{tc:<CODE>}``, the short code → the table id.

A table lives ``TABLE_TTL_SECONDS`` past its last change, its events a day past the latest
(``events.py``); the match keeps its own lifetime (app/matches/store.py).
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass

from app.platform.keys import table_code_key as code_key
from app.platform.keys import table_key

TABLE_TTL_SECONDS = 8 * 24 * 3600

# ARGV: version, ttl, field/value pairs to set.
_UPDATE = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


@dataclass(frozen=True)
class TableRecord:
    """A stored table, its fields decoded."""

    id: str
    fields: Mapping[str, str]

    @property
    def version(self) -> str:
        """The lobby's version, for the next compare-and-set."""
        return self.fields["version"]

    @property
    def seats(self) -> list[dict]:
        """The seats as configured and joined."""
        return json.loads(self.fields["seats"])

    @property
    def status(self) -> str:
        """``waiting`` or ``playing`` (the match tells when it ended)."""
        return self.fields["status"]

    @property
    def clock(self) -> int:
        """Seconds per turn, 0 when the clock is off."""
        return int(self.fields["clock"])

    @property
    def match(self) -> str | None:
        """The id of the table's match, once started."""
        return self.fields.get("match")

    @property
    def deadline(self) -> float | None:
        """When the timed turn ends (Unix seconds), if one is timed."""
        value = self.fields.get("deadline")
        return None if value is None else float(value)


class TableStore:
    """The Redis operations on tables, each one round trip."""

    def __init__(self, client, ttl_seconds: int = TABLE_TTL_SECONDS):
        """Bind to a redis-py client (plain or cluster) and register the scripts."""
        self.client = client
        self.ttl_seconds = ttl_seconds
        self._update = client.register_script(_UPDATE)

    def create(self, table_id: str, code: str, fields: Mapping[str, str]) -> bool:
        """Store a new table under ``code`` (False if the code is taken: nothing written).

        Two keys of two hash tags: the code is written first, so a table never exists
        without its code; a code left without its table (a failure in between) only expires.
        """
        if not self.client.set(code_key(code), table_id, ex=self.ttl_seconds, nx=True):
            return False
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(table_key(table_id), mapping={**fields, "code": code, "version": "0"})
        pipe.expire(table_key(table_id), self.ttl_seconds)
        pipe.execute()
        return True

    def load(self, table_id: str) -> TableRecord | None:
        """The stored table, or None."""
        fields = self.client.hgetall(table_key(table_id))
        return TableRecord(table_id, fields) if fields else None

    def by_code(self, code: str) -> str | None:
        """The id of the table ``code`` joins, or None."""
        return self.client.get(code_key(code))

    def update(self, table: TableRecord, fields: Mapping[str, str]) -> bool:
        """Set ``fields`` if the table is still at the version read; False if it moved on."""
        flat = [item for pair in fields.items() for item in pair]
        return self._update(keys=[table_key(table.id)],
                            args=[table.version, self.ttl_seconds, *flat]) == 1
