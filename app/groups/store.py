"""Redis storage of friend groups (keys: ``app/platform/keys.py``).

- ``{fg:<id>}``, a hash: ``name``, ``code`` (the invite code, canonical) and ``created_at``;
- ``{fg:<id>}:members``, a hash: pseudonym → canonical JSON ``{"player", "name",
  "joined_at"}`` (``player`` is the member's cookie id, which the daily games' ids derive from;
  it never leaves the server);
- ``{fg:<id>}:day:<date>``, a hash: ``<pseudonym>:<sheet>`` → a member's finished game of that
  day as JSON ``{"total", "loss"}``, or ``-`` when the date is over without one: results that no
  longer change, kept so that the week and month tables read one key a day;
- ``{fgc:<CODE>}``: the invite code → the group id;
- ``{p:<pseudonym>}:groups``, a set: the ids of a player's groups.

Lifetimes: a group (its record, members and code) lives GROUP_SECONDS past its last activity
(a join, a rename, a look at its board); its kept days KEPT_DAY_SECONDS after they are written;
a player's set of groups PLAYER_GROUPS_SECONDS past their last join (the cookie's lifetime).
Every script touches one hash tag: the group's, or the player's; the code key is written apart.
"""

import json
from collections.abc import Iterable, Mapping

from app.platform.keys import (
    group_code_key,
    group_day_key,
    group_key,
    group_members_key,
    player_groups_key,
)
from app.platform.redis import stored_json

GROUP_SECONDS = 90 * 24 * 3600
KEPT_DAY_SECONDS = 40 * 24 * 3600
PLAYER_GROUPS_SECONDS = 400 * 24 * 3600
NO_RESULT = "-"

# Replies of the scripts.
ADDED, ALREADY, GONE, FULL = 1, 0, -1, -2

# KEYS: record, members. ARGV: pseudonym, member JSON, member limit, ttl.
_JOIN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[3]) then return -2 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

# KEYS: record, members. ARGV: pseudonym. Returns the code once the last member has left.
_LEAVE = """
if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return false end
if redis.call('HLEN', KEYS[2]) > 0 then return '' end
local code = redis.call('HGET', KEYS[1], 'code') or ''
redis.call('DEL', KEYS[1], KEYS[2])
return code
"""

# KEYS: record, members. ARGV: pseudonym, name, ttl.
_RENAME = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 or redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
"""

# KEYS: the player's groups. ARGV: group id, limit, ttl.
_ADD_TO_PLAYER = """
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -2 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


class GroupStore:
    """The friend groups, their members, their kept results and the players' lists of them."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the scripts."""
        self.client = client
        self._join = client.register_script(_JOIN)
        self._leave = client.register_script(_LEAVE)
        self._rename = client.register_script(_RENAME)
        self._add_to_player = client.register_script(_ADD_TO_PLAYER)

    # Groups

    def create(self, group_id: str, code: str, name: str, created_at: str) -> bool:
        """Claim the invite ``code`` for a new group and write the group's record; False if the
        code is taken already (nothing written then)."""
        if not self.client.set(group_code_key(code), group_id, ex=GROUP_SECONDS, nx=True):
            return False
        self.client.hset(group_key(group_id), mapping={"name": name, "code": code,
                                                       "created_at": created_at})
        self.client.expire(group_key(group_id), GROUP_SECONDS)
        return True

    def delete(self, group_id: str, code: str) -> None:
        """Delete a group and its code (its kept days expire on their own)."""
        self.client.delete(group_key(group_id), group_members_key(group_id))
        self.client.delete(group_code_key(code))

    def group_of_code(self, code: str) -> str | None:
        """The id of the group whose invite code is ``code``, if any."""
        return self.client.get(group_code_key(code))

    def group(self, group_id: str) -> tuple[dict, dict[str, dict]] | None:
        """(record, members by pseudonym) of a group, or None if there is none."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hgetall(group_key(group_id))
        pipe.hgetall(group_members_key(group_id))
        record, members = pipe.execute()
        if not record or not members:
            return None
        return record, {pseudonym: json.loads(text) for pseudonym, text in members.items()}

    def records(self, group_ids: Iterable[str]) -> dict[str, tuple[dict, int]]:
        """(record, member count) of each of ``group_ids`` that exists, one pipeline."""
        ids = list(group_ids)
        pipe = self.client.pipeline(transaction=False)
        for group_id in ids:
            pipe.hgetall(group_key(group_id))
            pipe.hlen(group_members_key(group_id))
        replies = pipe.execute()
        return {group_id: (record, count)
                for group_id, record, count in zip(ids, replies[::2], replies[1::2], strict=True)
                if record and count}

    def touch(self, group_id: str, code: str) -> None:
        """Keep a group (record, members, code) GROUP_SECONDS more from now."""
        pipe = self.client.pipeline(transaction=False)
        for key in (group_key(group_id), group_members_key(group_id), group_code_key(code)):
            pipe.expire(key, GROUP_SECONDS)
        pipe.execute()

    # Members

    def join(self, group_id: str, pseudonym: str, member: Mapping, limit: int) -> int:
        """Add a member unless the group is gone (GONE), has them (ALREADY) or is full (FULL);
        ADDED otherwise. Any answer but GONE keeps the group GROUP_SECONDS more."""
        return int(self._join(keys=[group_key(group_id), group_members_key(group_id)],
                              args=[pseudonym, stored_json(member), limit, GROUP_SECONDS]))

    def leave(self, group_id: str, pseudonym: str) -> str | None:
        """Remove a member: None if they were not one; the group's code if they were the last
        one (the group is deleted then, its code left for the caller to free), else ``""``."""
        return self._leave(keys=[group_key(group_id), group_members_key(group_id)],
                           args=[pseudonym])

    def free_code(self, code: str) -> None:
        """Delete an invite code whose group is gone."""
        self.client.delete(group_code_key(code))

    def rename(self, group_id: str, pseudonym: str, name: str) -> bool:
        """Rename a group on behalf of a member; False if they are not one."""
        return bool(self._rename(keys=[group_key(group_id), group_members_key(group_id)],
                                 args=[pseudonym, name, GROUP_SECONDS]))

    # A player's groups

    def player_groups(self, pseudonym: str) -> set[str]:
        """The ids in a player's set of groups (some may have expired since)."""
        return self.client.smembers(player_groups_key(pseudonym))

    def add_player_group(self, pseudonym: str, group_id: str, limit: int) -> int:
        """Add a group to a player's set: ADDED, ALREADY, or FULL at ``limit`` groups."""
        return int(self._add_to_player(keys=[player_groups_key(pseudonym)],
                                       args=[group_id, limit, PLAYER_GROUPS_SECONDS]))

    def remove_player_groups(self, pseudonym: str, group_ids: Iterable[str]) -> None:
        """Remove groups from a player's set."""
        ids = list(group_ids)
        if ids:
            self.client.srem(player_groups_key(pseudonym), *ids)

    # Kept results

    def kept_days(self, group_id: str, dates: Iterable[str]) -> dict[str, dict[str, str]]:
        """The kept results of each of ``dates``: ``<pseudonym>:<sheet>`` → JSON or NO_RESULT."""
        days = list(dates)
        pipe = self.client.pipeline(transaction=False)
        for date in days:
            pipe.hgetall(group_day_key(group_id, date))
        return dict(zip(days, pipe.execute(), strict=True))

    def keep_results(self, group_id: str, results: Mapping[str, Mapping[str, str]]) -> None:
        """Keep results that no longer change: date → {``<pseudonym>:<sheet>``: text}."""
        pipe = self.client.pipeline(transaction=False)
        for date, fields in results.items():
            if fields:
                pipe.hset(group_day_key(group_id, date), mapping=dict(fields))
                pipe.expire(group_day_key(group_id, date), KEPT_DAY_SECONDS)
        pipe.execute()
