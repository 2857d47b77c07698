"""Reading the day's logs: the published checkpoints with their witnesses' cosignatures,
consistency proofs between them, a game's inclusion proof, and the listing witnesses poll
(FAIRNESS.md, "The day's log (format v2)")."""

from app.daily.store import GameRecord
from app.daylog.days import V2, LogDays
from app.daylog.errors import InvalidSize, UnknownLog
from app.daylog.log_tree import StoredTree
from app.daylog.store import StoredCheckpoint
from fairness.checkpoint import origin


class Reading(LogDays):
    """The log service's reads."""

    def require_log(self, date: str, ruleset: str) -> None:
        """A 404 ``UnknownLog`` unless (date, sheet) has a log."""
        if not self.is_logged(date) or ruleset not in self.sheets_of(date):
            raise UnknownLog(date, ruleset)

    def published(self, date: str, ruleset: str) -> dict:
        """The published log so far: every checkpoint's note (with its cosignatures) and the
        consistency proof from the one before."""
        self.require_log(date, ruleset)
        lines = self.logs.cosignatures(date, ruleset)
        return {"checkpoints": [
            {"note": cp.note + "".join(lines.get(cp.position, [])),
             "consistency": list(cp.consistency)}
            for cp in self.logs.checkpoints(date, ruleset)]}

    def latest(self, date: str, ruleset: str) -> StoredCheckpoint | None:
        """The latest checkpoint of a log, or None."""
        self.require_log(date, ruleset)
        return self.logs.last_checkpoint(date, ruleset)

    def note(self, date: str, ruleset: str, checkpoint: StoredCheckpoint) -> str:
        """A checkpoint's note with the witnesses' lines."""
        return checkpoint.note + "".join(self.logs.cosignatures(date, ruleset).get(
            checkpoint.position, []))

    def consistency(self, date: str, ruleset: str, first: int, second: int) -> list[str]:
        """The consistency proof between two checkpoint sizes of the log, or a 400
        ``InvalidSize``."""
        self.require_log(date, ruleset)
        old = self.logs.checkpoint_of_size(date, ruleset, first)
        new = self.logs.checkpoint_of_size(date, ruleset, second)
        if old is None or new is None or first > second:
            raise InvalidSize("from and to must be sizes of checkpoints of this log, from ≤ to.")
        return [h.hex() for h in StoredTree(self.logs, date, ruleset, new).consistency(old)]

    def proof(self, record: GameRecord, size: int | None = None) -> dict | None:
        """A v2 finished game's inclusion proof against the log's latest checkpoint (or that of
        ``size``; a 400 when the log has none of that size), or None before one covers it."""
        return self.proof_of(record.date, record.ruleset, record.id, size)

    def proof_of(self, date: str, ruleset: str, game_id: str, size: int | None = None
                 ) -> dict | None:
        """``proof`` of the game ``game_id`` of (date, sheet)."""
        leaf = self.logs.leaf_of(date, ruleset, game_id)
        if size is None:
            chosen = self.logs.last_checkpoint(date, ruleset)
        else:
            chosen = self.logs.checkpoint_of_size(date, ruleset, size)
            if chosen is None:
                raise InvalidSize("size must be that of a checkpoint of the game's log.")
        if leaf is None or chosen is None or leaf.index >= chosen.size:
            return None
        tree = StoredTree(self.logs, date, ruleset, chosen)
        path = tree.inclusion(leaf.index)
        seq = self.ledger.reveal_seq(date)
        return {
            "date": date,
            "ruleset": ruleset,
            "receipt": self.sign_leaf(date, leaf.data),
            "proof": {"index": leaf.index, "size": chosen.size,
                      "path": [h.hex() for h in path]},
            "root": tree.root().hex(),
            "checkpoint": self.note(date, ruleset, chosen),
            "entry": seq,
        }

    def game_checkpoint(self, record: GameRecord) -> dict | None:
        """``{"size", "note"}`` of the latest checkpoint that covers a finished v2 game."""
        leaf = self.logs.leaf_of(record.date, record.ruleset, record.id)
        last = self.logs.last_checkpoint(record.date, record.ruleset)
        if leaf is None or last is None or leaf.index >= last.size:
            return None
        return {"size": last.size, "note": self.note(record.date, record.ruleset, last)}

    def listing(self) -> list[dict]:
        """Every log with a checkpoint of the open dates and of those closed in the last
        RECENT_DAYS days (a date nobody has finished a game of yet has nothing to list)."""
        logs = []
        for date in self.log_dates(self.clock()):
            if self.day_format(date) != V2:
                continue
            public_key = self.secrets.for_date(date).signer.public_key_hex
            for ruleset, (_, text) in self.logs.log_heads(date, self.sheets_of(date)).items():
                if text is None:
                    continue
                last = StoredCheckpoint.from_json(-1, text)
                logs.append({"date": date, "sheet": ruleset,
                             "origin": origin(public_key, date, ruleset),
                             "size": last.size, "closed": last.closes})
        return logs
