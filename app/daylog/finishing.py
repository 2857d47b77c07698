"""Finishing a v2 game into its day's log (FAIRNESS.md, "The day's log (format v2)").

A v2 game's finishing compare-and-set stores its last action only; the round trip after it (the
one that already ranked it and updated its player's history) appends its leaf and ranks it, in
one script under the day's hash tag. The finishing worker answers the signed receipt at once
and the checkpoint job stores it with the game, as does any read that finds it missing.
"""

from collections.abc import Sequence

from app.daily.store import GameRecord
from app.daylog.days import LogDays
from app.daylog.errors import DayClosed
from app.platform.clock import format_timestamp
from fairness import Game, canonical_json


class Finishing(LogDays):
    """The log service's finishing: a game's leaf appended, its receipt signed."""

    def finish(self, record: GameRecord, game: Game, also: Sequence = ()) -> dict:
        """Append the game just finished to its log and rank it, in the round trip that also
        marks it finished in its player's history and queues ``also`` (``Store.
        record_finished``); the signed v2 receipt. A 409 ``DayClosed`` when the date's log
        closed meanwhile without it (a process whose clock lags)."""
        finished_at = format_timestamp(self.clock())
        head, tail = self._leaf_parts(record, game, finished_at)
        replies = self.games.record_finished(
            record, game.totals().total, finished_at,
            queue_board=lambda pipe: self.logs.queue_append_leaf(
                pipe, record.date, record.ruleset, record.id, head, tail, game.totals().total),
            also=also)
        leaf = replies[0][1] if replies[0] else None
        if leaf is None:  # the close may have logged it itself
            found = self.logs.leaf_of(record.date, record.ruleset, record.id)
            if found is None:
                raise DayClosed(record.date)
            leaf = found.data
        return self.sign_leaf(record.date, leaf)

    def receipt_for(self, record: GameRecord, game: Game) -> dict | None:
        """The receipt of a finished v2 game whose record lacks it (the checkpoint job has not
        stored it yet, or a crash came between its last action and its leaf): its leaf signed,
        the leaf appended first if it has none and the log is open; stored with the game."""
        leaf = self.logs.leaf_of(record.date, record.ruleset, record.id)
        if leaf is None:
            head, tail = self._leaf_parts(record, game, format_timestamp(self.clock()))
            leaf = self.logs.append_leaf(record.date, record.ruleset, record.id, head, tail,
                                         game.totals().total)
            if leaf is None:
                return None
        receipt = self.sign_leaf(record.date, leaf.data)
        self.logs.store_receipts({record.id: canonical_json(receipt).decode()})
        return receipt
