"""Redis storage of what the server keeps of a player: their daily games' history, the one-time
transfer codes, and when each epoch's first game was created.

A player's history is two keys under their tag ``{p:<pseudonym>}``: a hash of their games (game
id → canonical JSON record, ``history_record``) and their game ids scored by date, trimmed to
HISTORY_LIMIT games (the oldest dates dropped first), both written by one script. The games'
store queues that script in the pipelines that create and finish a game (``queue_history``), so
a game and its history record are written in the same round trip. A transfer code is one key
``{x:<code>}`` that expires, read and deleted by one command (keys: ``app/platform/keys.py``).
"""

import datetime as dt
import json
from collections.abc import Mapping

from app.platform.keys import first_game_key, history_key, history_order_key, transfer_key
from app.platform.redis import keep_newest, queue_script, stored_json

DAILY_KIND = "daily"
HISTORY_LIMIT = 1000  # games kept per player, the oldest dates dropped first

_RECORD_HISTORY = """
if ARGV[4] == 'start' then
  if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[3]) == 0 then return 0 end
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
""" + keep_newest(5) + "return 1\n"


def history_record(game_id: str, *, date: str, ruleset: str, started_at: str,
                   total: int | None = None, finished_at: str | None = None) -> dict:
    """A game as its player's history keeps it (``kind`` tells daily games from the kinds
    later versions add)."""
    return {"kind": DAILY_KIND, "game": game_id, "date": date, "ruleset": ruleset,
            "started_at": started_at or None, "finished": total is not None, "total": total,
            "finished_at": finished_at}


class PlayerStore:
    """The players' histories, the transfer codes and the epochs' first game times."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster) and register the history's script."""
        self.client = client
        self._record_history = client.register_script(_RECORD_HISTORY)

    # History

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

    def queue_history(self, pipe, pseudonym: str, mode: str, entry: Mapping) -> None:
        """Queue the history write of ``entry`` in ``pipe``: ``start`` adds it unless known,
        ``finish`` replaces it; the history is then trimmed to HISTORY_LIMIT games."""
        order = dt.date.fromisoformat(entry["date"]).toordinal()
        queue_script(pipe, self._record_history,
                     [history_key(pseudonym), history_order_key(pseudonym)],
                     [entry["game"], order, stored_json(entry), mode, HISTORY_LIMIT])

    def queue_forget(self, pipe, pseudonym: str, game_id: str) -> None:
        """Queue in ``pipe`` the removal of ``game_id`` from the player's history."""
        pipe.hdel(history_key(pseudonym), game_id)
        pipe.zrem(history_order_key(pseudonym), game_id)

    # Transfer codes

    def save_transfer(self, code: str, carried: Mapping, seconds: int) -> bool:
        """Keep ``carried`` under the new transfer ``code`` for ``seconds``; False if the code is
        taken already."""
        return bool(self.client.set(transfer_key(code), stored_json(carried), ex=seconds,
                                    nx=True))

    def take_transfer(self, code: str) -> dict | None:
        """What ``code`` carries, deleting it in the same command (single use); None if the code
        is unknown, used or expired."""
        value = self.client.getdel(transfer_key(code))
        return None if value is None else json.loads(value)

    # The epochs' first games

    def note_first_game(self, epoch: int, created_at: str) -> None:
        """Note ``created_at`` as ``epoch``'s first game time unless one is noted already."""
        self.client.set(first_game_key(epoch), created_at, nx=True)

    def first_game_at(self, epoch: int) -> str | None:
        """When the first game of ``epoch`` was created, if one was."""
        return self.client.get(first_game_key(epoch))
