"""Redis storage of the ledger, the reveals' failures and the receipt trees of v1 days.

The ledger is one list under ``{ledger}`` (each entry canonical JSON) beside its index (each
revealed date's position, and the latest revealed date): an entry is appended by one
compare-and-set script on the list's length, so racing processes append it once. The last
reveal failure is a hash of its own there, shared by every process for /readyz and the
metrics. A v1 day's receipt tree is stored at its reveal under the date's tag ``{d:<date>}``:
its receipts in chunks of leaves, then its index (keys: ``app/platform/keys.py``).
"""

import json
from collections.abc import Mapping, Sequence

from app.platform.keys import (
    LEDGER_ENTRIES,
    LEDGER_INDEX,
    REVEAL_FAILURE,
    leaf_chunk_key,
    tree_key,
    tree_progress_key,
)
from app.platform.redis import stored_json

_APPEND_LEDGER = """
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[2], 'reveal:' .. ARGV[3]) == 1 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[2], 'reveal:' .. ARGV[3], ARGV[1], 'revealed', ARGV[3])
end
return 1
"""


class LedgerStore:
    """The ledger's entries and index, the last reveal failure and the v1 receipt trees, each
    operation one round trip."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the script."""
        self.client = client
        self._append_ledger = client.register_script(_APPEND_LEDGER)

    # The ledger

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
            args=[seq, stored_json(entry), revealed_date or ""],
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

    # Receipt trees

    def store_leaf_chunk(self, date: str, ruleset: str, chunk: int, receipts: Sequence[str],
                         progress: Mapping) -> None:
        """Keep one chunk of a day's receipts (their stored canonical JSON) in leaf order, as
        one JSON array, then ``progress``: the tree so far (a racing copy is equal)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.set(leaf_chunk_key(date, ruleset, chunk), "[" + ",".join(receipts) + "]")
        pipe.set(tree_progress_key(date, ruleset), stored_json(progress))
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
        pipe.set(tree_key(date, ruleset), stored_json(index))
        pipe.delete(tree_progress_key(date, ruleset))
        pipe.execute()

    def tree(self, date: str, ruleset: str) -> dict | None:
        """The stored index of (date, ruleset)'s receipt tree, or None."""
        text = self.client.get(tree_key(date, ruleset))
        return None if text is None else json.loads(text)
