"""The signed, hash-linked ledger: the epoch entry before any roll, one reveal entry per date
once due (exactly once, whoever races for it), receipts for finished games, inclusion proofs."""

import datetime as dt
import threading
from collections.abc import Callable, Mapping

from fairness import DAILY_RULESETS, Game
from fairness import ledger as formats

from .clock import format_timestamp
from .days import latest_due_date
from .keys import EpochKeys, Secrets
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
        self._published_epochs = 0
        self._checked_due: dt.date | None = None
        self._last_revealed: str | None = None

    # The epoch entries

    def ensure_epoch(self, recheck: bool = False) -> None:
        """Append the entry (anchor and public key) of every loaded epoch the ledger lacks, in
        order; check the published ones against the loaded secrets (again if ``recheck``)."""
        if recheck:
            self._published_epochs = 0
        if self._published_epochs == len(self.secrets.epochs):
            return
        for _ in range(MAX_APPEND_ATTEMPTS + len(self.secrets.epochs)):
            entries = self.store.ledger_entries()
            missing = self._unpublished_epochs(entries)
            if not missing:
                self._published_epochs = len(self.secrets.epochs)
                return
            keys = missing[0]
            self.store.append_ledger(len(entries), keys.signer.sign(formats.epoch_entry(
                seq=len(entries),
                prev=formats.entry_hash(entries[-1]) if entries else formats.GENESIS_PREV,
                number=keys.epoch_number,
                epoch=keys.epoch,
                public_key=keys.signer.public_key_hex,
                rulesets=DAILY_RULESETS,
                published_at=format_timestamp(self.clock()),
            )))
        raise RuntimeError("could not append the epoch entries to the ledger")

    def _unpublished_epochs(self, entries: list[dict]) -> list[EpochKeys]:
        """The loaded epochs without an entry; raises LedgerMismatch when a published epoch is
        not the loaded one or is unknown here."""
        published = {entry.get("epoch"): entry for entry in entries
                     if entry.get("type") == formats.EPOCH_TYPE}
        loaded = {keys.epoch_number: keys for keys in self.secrets.epochs}
        for number, entry in published.items():
            keys = loaded.get(number)
            if keys is None:
                raise LedgerMismatch(f"the ledger has epoch {number}, which this data "
                                     f"directory lacks")
            if (entry.get("anchor"), entry.get("public_key")) != (
                    keys.epoch.anchor.hex(), keys.signer.public_key_hex):
                raise LedgerMismatch(f"the ledger's epoch {number} was made with another secret "
                                     f"or key")
        return [keys for number, keys in loaded.items() if number not in published]

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
            # Once a day per process: an epoch published from another machine shows up here.
            self.ensure_epoch(recheck=True)
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
        start = dt.date.fromisoformat(self.secrets.first_date)
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
            keys = self.secrets.for_date(date)
            entry = keys.signer.sign(formats.reveal_entry(
                seq=len(entries),
                prev=formats.entry_hash(entries[-1]),
                epoch=keys.epoch_number,
                date=date,
                day=keys.epoch.day_index(date),
                seed=keys.seed(date),
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
        keys = self.secrets.for_date(record.date)
        return keys.signer.sign(formats.receipt(
            game=record.id,
            epoch=keys.epoch_number,
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
