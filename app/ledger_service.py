"""The signed, hash-linked ledger: the epoch entry before any roll, one reveal entry per date
once due (exactly once, whoever races for it), receipts for finished games, inclusion proofs."""

import datetime as dt
import threading
from collections.abc import Callable, Mapping

from fairness import DAILY_RULESETS, Game
from fairness import ledger as formats

from .clock import format_timestamp
from .days import latest_due_date
from .keys import Secrets
from .store import GameRecord, Store

MAX_APPEND_ATTEMPTS = 5


class LedgerMismatch(RuntimeError):
    """Raised when the stored ledger was made with another epoch secret or signing key."""


class LedgerService:
    """Publishes and reads the ledger stored in Redis."""

    def __init__(self, store: Store, secrets: Secrets, clock: Callable[[], dt.datetime],
                 grace_seconds: int):
        """Bind the ledger to its store, secrets, clock and reveal grace."""
        self.store = store
        self.secrets = secrets
        self.clock = clock
        self.grace_seconds = grace_seconds
        self._lock = threading.Lock()
        self._epoch_published = False
        self._checked_due: dt.date | None = None
        self._last_revealed: str | None = None

    # The epoch entry

    def ensure_epoch(self) -> None:
        """Append the epoch entry (anchor and public key) if the ledger is empty; check it."""
        if self._epoch_published:
            return
        first = self.store.ledger_entry(0)
        if first is None:
            entry = self.secrets.signer.sign(formats.epoch_entry(
                seq=0,
                prev=formats.GENESIS_PREV,
                number=self.secrets.epoch_number,
                epoch=self.secrets.epoch,
                public_key=self.secrets.signer.public_key_hex,
                rulesets=DAILY_RULESETS,
                published_at=format_timestamp(self.clock()),
            ))
            self.store.append_ledger(0, entry)
            first = self.store.ledger_entry(0)
        if (first.get("anchor"), first.get("public_key")) != (
            self.secrets.epoch.anchor.hex(), self.secrets.signer.public_key_hex
        ):
            raise LedgerMismatch("the stored ledger belongs to another epoch secret or key")
        self._epoch_published = True

    # Reveals

    def reveal_due(self) -> list[str]:
        """Reveal every date whose reveal time has passed and that is not revealed yet.

        Cheap when nothing is due: the latest checked date is remembered per process.
        Returns the dates this call revealed.
        """
        due = min(latest_due_date(self.clock(), self.grace_seconds),
                  dt.date.fromisoformat(self.secrets.epoch.end))
        if self._checked_due is not None and due <= self._checked_due:
            return []
        with self._lock:
            self.ensure_epoch()
            revealed = []
            for date in self._unrevealed_until(due):
                if self._reveal(date):
                    revealed.append(date)
            self._checked_due = due
            return revealed

    def is_revealed(self, date: str) -> bool:
        """True when ``date``'s reveal is in the ledger (as of this process's last check)."""
        self.reveal_due()
        return self._last_revealed is not None and date <= self._last_revealed

    def _unrevealed_until(self, due: dt.date):
        """The dates from the day after the last revealed one through ``due``, in order."""
        self._last_revealed = self.store.last_revealed()
        start = dt.date.fromisoformat(self.secrets.epoch.start)
        if self._last_revealed is not None:
            start = dt.date.fromisoformat(self._last_revealed) + dt.timedelta(days=1)
        date = start
        while date <= due:
            yield date.isoformat()
            date += dt.timedelta(days=1)

    def _reveal(self, date: str) -> bool:
        """Publish ``date``'s reveal entry unless another process did; True if this one did."""
        trees = {ruleset: self._receipt_tree(date, ruleset) for ruleset in DAILY_RULESETS}
        for _ in range(MAX_APPEND_ATTEMPTS):
            if self.store.reveal_seq(date) is not None:
                self._last_revealed = date
                return False
            entries = self.store.ledger_entries()
            entry = self.secrets.signer.sign(formats.reveal_entry(
                seq=len(entries),
                prev=formats.entry_hash(entries[-1]),
                epoch=self.secrets.epoch_number,
                date=date,
                day=self.secrets.epoch.day_index(date),
                seed=self.secrets.seed(date),
                games={ruleset: len(tree) for ruleset, tree in trees.items()},
                roots={ruleset: formats.day_root(tree) for ruleset, tree in trees.items()},
                revealed_at=format_timestamp(self.clock()),
            ))
            if self.store.append_ledger(len(entries), entry, date):
                self._last_revealed = date
                return True
        raise RuntimeError(f"could not append the reveal of {date} to the ledger")

    def _receipt_tree(self, date: str, ruleset: str) -> list[Mapping]:
        """The finished games' receipts of (date, ruleset) in leaf order, stored for proofs.

        Read from the games themselves (the source of truth), which also repairs a leaderboard
        entry lost to a crash between an action and its ranking.
        """
        records = self.store.load_games(self.store.day_game_ids(date, ruleset))
        finished = [record for record in records if record.receipt is not None]
        tree = formats.day_tree([record.receipt for record in finished])
        self.store.rank_finished(date, ruleset, {r.id: r.receipt["total"] for r in finished})
        self.store.store_leaves(date, ruleset, tree)
        return tree

    # Reading

    def entries(self) -> list[dict]:
        """Every entry, in order."""
        self.ensure_epoch()
        return self.store.ledger_entries()

    def reveal_entry(self, date: str) -> dict | None:
        """``date``'s reveal entry, or None before its reveal."""
        seq = self.store.reveal_seq(date)
        return None if seq is None else self.store.ledger_entry(seq)

    def sign_receipt(self, record: GameRecord, game: Game) -> dict:
        """The signed receipt of a game that has just finished."""
        return self.secrets.signer.sign(formats.receipt(
            game=record.id,
            epoch=self.secrets.epoch_number,
            date=record.date,
            ruleset=record.ruleset,
            player=record.player,
            transcript=game.transcript,
            total=game.totals().total,
        ))

    def proof(self, record: GameRecord) -> dict | None:
        """The receipt of a finished game with its inclusion proof in its revealed date's root,
        or None when the date is not revealed or the game has no receipt."""
        entry = self.reveal_entry(record.date)
        if entry is None or record.receipt is None:
            return None
        leaves = self.store.leaves(record.date, record.ruleset)
        return {
            "date": record.date,
            "ruleset": record.ruleset,
            "receipt": record.receipt,
            "proof": formats.inclusion_proof(leaves, record.id),
            "root": entry["roots"][record.ruleset],
            "entry": entry["seq"],
        }
