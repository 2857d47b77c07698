"""The signed, hash-linked ledger: the epoch entry before any roll, one reveal entry per date
once due (exactly once, whoever races for it), receipts for finished games, inclusion proofs.

Revealing is the job of ``reveal_runner`` (a background thread under a Redis lease, or the
``reveal`` command), never of a request: requests only read whether a date is revealed.
"""

import datetime as dt
import threading
from collections.abc import Callable

from app.boards.store import BoardStore
from app.daily.store import GameRecord, GameStore
from app.daylog.service import V2, LogService
from app.ledger.days import latest_due_date
from app.ledger.receipt_tree import TreeBuilder, TreeIndex, inclusion_proof
from app.ledger.secrets import EpochKeys, Secrets
from app.ledger.store import LedgerStore
from app.platform.clock import format_timestamp
from fairness import Game
from fairness import ledger as formats
from fairness.checkpoint import body_hash, parse_checkpoint

MAX_APPEND_ATTEMPTS = 5


class LedgerMismatch(RuntimeError):
    """Raised when the stored ledger was made with another epoch secret or signing key."""


class RevealFailed(RuntimeError):
    """The reveal of ``date`` failed; the cause is chained."""

    def __init__(self, date: str, cause: BaseException):
        """Name the date and the cause."""
        super().__init__(f"the reveal of {date} failed: {type(cause).__name__}: {cause}")
        self.date = date


class LedgerService:
    """Publishes and reads the ledger stored in Redis."""

    def __init__(self, store: LedgerStore, games: GameStore, boards: BoardStore,
                 secrets: Secrets, clock: Callable[[], dt.datetime], grace_seconds: int,
                 logs: LogService | None = None):
        """Bind the ledger to its store, the games it seals and reads at a reveal, the boards
        it repairs then, its secrets, clock, reveal grace and the day's logs."""
        self.logs = logs
        self.store = store
        self.game_store = games
        self.board_store = boards
        self.secrets = secrets
        self.clock = clock
        self.grace_seconds = grace_seconds
        self._lock = threading.Lock()
        self._published_epochs = 0
        self._checked_due: dt.date | None = None
        self._last_revealed: str | None = None
        self.reveal_listeners: list[Callable[[str], None]] = []  # called with each date revealed

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
                rulesets=keys.rulesets,
                published_at=format_timestamp(self.clock()),
            )))
        raise RuntimeError("could not append the epoch entries to the ledger")

    def _unpublished_epochs(self, entries: list[dict]) -> list[EpochKeys]:
        """The loaded epochs without an entry; raises LedgerMismatch when a published epoch is
        not the loaded one or is unknown here."""
        published = {entry.get("epoch"): entry for entry in entries
                     if formats.is_epoch_entry(entry)}
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
            if formats.epoch_dealing(entry) != keys.epoch.dealing:
                raise LedgerMismatch(f"the ledger's epoch {number} deals "
                                     f"{formats.epoch_dealing(entry)}, this data directory "
                                     f"{keys.epoch.dealing}")
            if tuple(entry.get("rulesets", ())) != keys.rulesets:
                raise LedgerMismatch(f"the ledger's epoch {number} has the daily sheets "
                                     f"{entry.get('rulesets')}, this data directory "
                                     f"{list(keys.rulesets)}")
        return [keys for number, keys in loaded.items() if number not in published]

    # Reveals

    def reveal_due(self) -> list[str]:
        """Reveal every date whose reveal time has passed and that is not revealed yet.

        Cheap when nothing is due: the latest checked date is remembered per process.
        Returns the dates this call revealed; raises RevealFailed for the first date that
        could not be revealed (the dates after it wait: the ledger is in date order).
        """
        due = self._due()
        if not self.has_due():
            return []
        with self._lock:
            # Once a day per process: an epoch published from another machine shows up here.
            self.ensure_epoch(recheck=True)
            revealed = []
            for date in self._unrevealed_until(due):
                try:
                    done = self._reveal(date)
                except Exception as error:
                    raise RevealFailed(date, error) from error
                if done:
                    revealed.append(date)
                    for listener in self.reveal_listeners:
                        listener(date)
            self._checked_due = due
            return revealed

    def has_due(self) -> bool:
        """False when this process knows every due date is revealed (no Redis read)."""
        return self._checked_due is None or self._due() > self._checked_due

    def _due(self) -> dt.date:
        """The latest date due for its reveal on this process's clock, within the epochs."""
        return min(latest_due_date(self.clock(), self.grace_seconds),
                   dt.date.fromisoformat(self.secrets.epoch.end))

    def is_revealed(self, date: str) -> bool:
        """True when ``date`` (``YYYY-MM-DD``) is revealed in the ledger: no read once this
        process has seen it revealed, else one (dates before the first epoch never are)."""
        if date < self.secrets.first_date:
            return False
        known = self._last_revealed
        if known is None or date > known:
            known = self._last_revealed = self.store.last_revealed()
        return known is not None and date <= known

    def last_revealed(self) -> str | None:
        """The latest revealed date as Redis holds it now (read, whatever this process has
        seen), or None."""
        return self.store.last_revealed()

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
        if self.store.reveal_seq(date) is not None:
            self._last_revealed = date
            return False
        self.game_store.seal_day(date)
        sheets = self._logged_sheets(date)
        if sheets is None:
            trees = {ruleset: self.build_tree(date, ruleset)
                     for ruleset in self.secrets.rulesets_for(date)}
            sheets = {ruleset: (tree.size, tree.root(), None) for ruleset, tree in trees.items()}
        for _ in range(MAX_APPEND_ATTEMPTS):
            if self.store.reveal_seq(date) is not None:
                self._last_revealed = date
                return False
            entries = self.store.ledger_entries()
            keys = self.secrets.for_date(date)
            fields = dict(
                seq=len(entries),
                prev=formats.entry_hash(entries[-1]),
                epoch=keys.epoch_number,
                date=date,
                day=keys.epoch.day_index(date),
                seed=keys.seed(date),
                games={ruleset: size for ruleset, (size, _, _) in sheets.items()},
                roots={ruleset: root for ruleset, (_, root, _) in sheets.items()},
                revealed_at=format_timestamp(self.clock()),
            )
            if any(log is not None for _, _, log in sheets.values()):
                entry = keys.signer.sign(formats.reveal_entry_v2(
                    **fields, logs={ruleset: log for ruleset, (_, _, log) in sheets.items()}))
            else:
                entry = keys.signer.sign(formats.reveal_entry(**fields))
            if self.store.append_ledger(len(entries), entry, date):
                self._last_revealed = date
                return True
        raise RuntimeError(f"could not append the reveal of {date} to the ledger")

    def _logged_sheets(self, date: str) -> dict[str, tuple[int, bytes, bytes]] | None:
        """For a v2 date, per sheet (size, root, body hash) of its close checkpoint (closing
        its logs now if the checkpoint job has not): the v2 reveal's games, roots and logs.
        None for a v1 date."""
        if self.logs is None or self.logs.day_format(date) != V2:
            return None
        closes, _ = self.logs.close(date)
        sheets = {}
        for ruleset, stored in closes.items():
            checkpoint = parse_checkpoint(stored.body)
            sheets[ruleset] = (checkpoint.size, checkpoint.root, body_hash(stored.body))
        return sheets

    def build_tree(self, date: str, ruleset: str) -> TreeIndex:
        """The receipt tree of (date, ruleset), stored for proofs: the one path from the
        games to their Merkle tree.

        Reads the games themselves (the source of truth) page by page in id order — the leaf
        order — sealing the unfinished ones, stores the receipts in chunks, and ranks every
        finished game (repairing a leaderboard entry lost to a crash between an action and its
        ranking). Memory holds one page and one chunk; the date's index must be sealed first.
        Each stored chunk records how far the tree got, so that a reveal cut short (its worker
        recycled, say) resumes after its last full chunk instead of starting over.
        """
        progress = self.store.tree_progress(date, ruleset)
        done = TreeIndex.from_json(progress) if progress else None
        after = progress["after"] if progress else None

        def store_chunk(chunk: int, receipts: list[str], so_far: TreeIndex) -> None:
            """Keep the chunk and the tree so far, up to the chunk's last game."""
            self.store.store_leaf_chunk(date, ruleset, chunk, receipts,
                                        {**so_far.to_json(), "after": builder.last_game})

        builder = TreeBuilder(store_chunk, done, after)
        for page in self.game_store.sealed_receipt_pages(date, ruleset, after):
            for game_id, receipt, stored in page:
                if receipt.get("game") != game_id:
                    raise ValueError(f"the receipt stored with game {game_id} is for game "
                                     f"{receipt.get('game')!r}")
                builder.add(receipt, stored)
            self.board_store.rank_finished(date, ruleset, {game_id: receipt["total"]
                                                           for game_id, receipt, _ in page})
        tree = builder.finish()
        self.store.store_tree(date, ruleset, tree.to_json())
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
        or None when the date is not revealed or its tree has no receipt of the game."""
        if self.logs is not None and self.logs.is_logged(record.date):
            return self.logs.proof(record) if self.is_revealed(record.date) else None
        entry = self.reveal_entry(record.date)
        if entry is None or record.receipt is None:
            return None
        found = self.leaf_proof(record.date, record.ruleset, record.id)
        if found is None:
            return None
        return {
            "date": record.date,
            "ruleset": record.ruleset,
            "receipt": record.receipt,
            "proof": found,
            "root": entry["roots"][record.ruleset],
            "entry": entry["seq"],
        }

    def leaf_proof(self, date: str, ruleset: str, game_id: str) -> dict | None:
        """The inclusion proof of ``game_id``'s receipt in revealed (date, ruleset)'s tree, or
        None when the tree has no such leaf. Reads the tree's index and one chunk."""
        if self.logs is not None and self.logs.is_logged(date):  # a v2 day: in its log
            found = self.logs.proof_of(date, ruleset, game_id)
            return None if found is None else found["proof"]
        stored = self.store.tree(date, ruleset)
        if stored is None:  # revealed before receipts were stored in chunks: store them now
            self.game_store.seal_day(date)
            tree = self.build_tree(date, ruleset)
        else:
            tree = TreeIndex.from_json(stored)
        chunk = tree.chunk_of(game_id)
        if chunk is None:
            return None
        return inclusion_proof(tree, chunk, self.store.leaf_chunk(date, ruleset, chunk), game_id)
