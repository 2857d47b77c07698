"""The service log: one long-lived C2SP tiled log (c2sp.org/tlog-tiles) per service, whose
entries are the day logs' signed checkpoints, so that standard witnesses can follow it.

- **Identity.** Its origin is the log's URL prefix without scheme (``service_log_origin``);
  its checkpoints are signed by the long-lived log key (``app/servicelog/key.py``). Both, as
  the log's vkey, are recorded in Redis at its first checkpoint; a process configured with
  another origin or holding another key refuses (``OriginMismatch``, ``LogKeyMismatch``,
  naming both).
- **Entries.** Entry ``i`` is the UTF-8 text of a day checkpoint's signed note as the day log
  stored it (body, blank line, the epoch key's signature line; never the witnesses' lines,
  which come later). Every day checkpoint enters once, each day log's in its chain order, the
  logs' checkpoints interleaved by their ``time``.
- **The pass** (``run_once``, a background thread under the lease ``{slog}:lease``): it reads
  the day checkpoints past each day log's cursor and appends them, a run of one day log's at a
  time, each run one compare-and-set with the complete subtrees it completes
  (``ServiceLogStore.append``), then cuts a checkpoint (C2SP's three lines, no extension) if the
  log grew, and submits it to the witnesses. Two processes running it at once append each day
  checkpoint once: the lease keeps them apart, the compare-and-set makes a racer re-read.
- **Reading.** Tiles are the stored complete subtrees, served only up to the latest checkpoint
  (partial ones only for checkpointed sizes); proofs read one stored hash a level
  (``fairness.log_tree.ProofNodes``).
"""

import datetime as dt
import heapq
import logging
import time
import urllib.parse
from collections.abc import Callable, Sequence
from pathlib import Path

from app.daylog.store import LogStore
from app.platform.keys import SERVICE_LOG_LEASE, day_log_key
from app.platform.leased_loop import PassThread, leased
from app.servicelog.errors import (
    InvalidLogSize,
    LogKeyMismatch,
    NoLogCheckpoint,
    NoSuchTile,
    OriginMismatch,
    UnknownEntry,
    UnknownLogSize,
)
from app.servicelog.key import LogKey, load_or_create_signer
from app.servicelog.store import MAX_BATCH, Appended, LogHead, ServiceLogStore, cursor_field
from app.servicelog.witnesses import LogWitness, Submitted, WitnessClient
from fairness import merkle
from fairness.errors import ChainError
from fairness.log_tree import ProofNodes, new_subtrees
from fairness.note import check_key_name, parse_vkey
from fairness.service_log import LogCheckpoint
from fairness.tiles import (
    TILE_HEIGHT,
    TILE_WIDTH,
    TileAddress,
    entry_bundle,
    subtree_span,
    tile_path,
)

DEFAULT_ORIGIN = "localhost/log"
LEASE_SECONDS = 30.0
POLL_SECONDS = 5.0
MAX_APPEND_ATTEMPTS = 20  # each failed attempt means another writer appended first
FIRST_RETRY_SECONDS = 30.0
MAX_RETRY_SECONDS = 3600.0
FULL_SCAN_SECONDS = 600.0  # every day log is read this often (a late reveal closes old dates)

log = logging.getLogger(__name__)

DayLogs = Callable[[], Sequence[tuple[str, str]]]  # the (date, sheet) day logs to read


def day_logs_since(first_date: str, now: dt.datetime,
                   sheets_of: Callable[[str], Sequence[str]]) -> list[tuple[str, str]]:
    """Every (date, sheet) day log from ``first_date`` to the day after ``now``'s date (a date
    no loaded epoch covers has none)."""
    first, last = dt.date.fromisoformat(first_date), now.date() + dt.timedelta(days=1)
    logs = []
    for offset in range((last - first).days + 1):
        date = (first + dt.timedelta(days=offset)).isoformat()
        try:
            logs += [(date, sheet) for sheet in sheets_of(date)]
        except ChainError:
            continue
    return logs


def service_log_origin(public_url: str | None, setting: str | None) -> str:
    """The configured origin: ``<host of the public URL><its path>/log``, else the setting,
    else ``localhost/log``."""
    if public_url:
        parts = urllib.parse.urlsplit(public_url)
        if parts.netloc:
            return check_key_name(f"{parts.netloc}{parts.path.rstrip('/')}/log")
    return check_key_name((setting or "").strip().rstrip("/") or DEFAULT_ORIGIN)


class ServiceLog:
    """The service log of one app: its pass, its checkpoints, tiles and proofs."""

    def __init__(self, store: ServiceLogStore, day_logs: LogStore, logs_to_read: DayLogs,
                 origin: str, data_dir: Path, witnesses: Callable[[], Sequence[LogWitness]],
                 lease_seconds: float = LEASE_SECONDS, poll_seconds: float = POLL_SECONDS,
                 on_witness_refusal: Callable[[str, int], None] = lambda witness, status: None,
                 every_log: DayLogs | None = None,
                 full_scan_seconds: float = FULL_SCAN_SECONDS):
        """Bind to its store, the day logs' store and which day logs to read (those that may
        still change), its configured origin, the data directory (its key), the configured
        witnesses, the lease's length, the pause between passes, the hook that hears
        witnesses' refusals, and every day log there is (read by the first pass and then every
        ``full_scan_seconds``: the dates closed before the log existed, or closed late by a
        reveal after a long outage, enter too)."""
        self.store = store
        self.day_logs = day_logs
        self.logs_to_read = logs_to_read
        self.origin = check_key_name(origin)
        self.data_dir = Path(data_dir)
        self.witnesses = witnesses
        self.lease_seconds = lease_seconds
        self.client = WitnessClient(store, self.consistency_proof, on_refusal=on_witness_refusal)
        self._key: LogKey | None = None
        self._retry: dict[str, tuple[float, float]] = {}  # witness → (next attempt, wait)
        self._passes = PassThread(self.run_once, "service-log", poll_seconds)
        self.every_log = every_log
        self.full_scan_seconds = full_scan_seconds
        self._next_full_scan = 0.0 if every_log is not None else float("inf")

    # Identity

    @property
    def key(self) -> LogKey:
        """The log key, created in the data directory on first need."""
        if self._key is None:
            self._key = LogKey(self.origin, load_or_create_signer(self.data_dir))
        return self._key

    def check_identity(self, recorded: str | None = None) -> None:
        """Refuse to run under another origin (``OriginMismatch``) or another key
        (``LogKeyMismatch``) than the log recorded at its first checkpoint."""
        recorded = recorded or self.store.identity()
        if recorded is None or recorded == self.key.vkey:
            return
        recorded_origin = parse_vkey(recorded).name
        if recorded_origin != self.origin:
            raise OriginMismatch(recorded_origin, self.origin)
        raise LogKeyMismatch(recorded, self.key.vkey)

    # The pass

    def run_once(self) -> int | None:
        """Append the day checkpoints not yet entered and cut a checkpoint if this process
        gets the lease, then submit to the witnesses that lack the latest one; the size of
        the checkpoint cut, or None."""
        self.check_identity()
        full = time.monotonic() >= self._next_full_scan
        logs_to_read = self.every_log if full else self.logs_to_read
        head = self.store.last_checkpoint()
        grows = (bool(self._pending(logs_to_read))
                 or (head.size if head else 0) < self.store.size())
        if full and not grows:
            self._next_full_scan = time.monotonic() + self.full_scan_seconds
        if not grows and (head is None or not self._due(head, force=False)):
            return None
        cut = None
        with leased(self.store.client, SERVICE_LOG_LEASE, self.lease_seconds) as held:
            if not held:
                return None
            if grows:
                self.append_pending(logs_to_read)
                if full:
                    self._next_full_scan = time.monotonic() + self.full_scan_seconds
                cut = self.cut()
                head = self.store.last_checkpoint()
            if head is not None:
                self.witness(head, force=cut is not None)
        return cut

    def _pending(self, logs_to_read: DayLogs | None = None) -> list[tuple[str, str, int, int]]:
        """(date, sheet, cursor, checkpoints) of each day log with checkpoints not entered,
        among ``logs_to_read`` (by default those that may still change)."""
        logs = list((logs_to_read or self.logs_to_read)())
        cursors = self.store.cursors([cursor_field(date, sheet) for date, sheet in logs])
        pipe = self.day_logs.client.pipeline(transaction=False)
        for date, sheet in logs:
            pipe.llen(day_log_key(date, sheet, "checkpoints"))
        counts = pipe.execute() if logs else []
        return [(date, sheet, cursor, count) for (date, sheet), cursor, count
                in zip(logs, cursors, counts, strict=True) if count > cursor]

    def append_pending(self, logs_to_read: DayLogs | None = None) -> int:
        """Enter every day checkpoint not entered yet of ``logs_to_read`` (by default those
        that may still change); how many this process entered."""
        chains = [[(checkpoint.time, date, sheet, checkpoint.position, checkpoint.note)
                   for checkpoint in self.day_logs.checkpoints(date, sheet)[cursor:]]
                  for date, sheet, cursor, _ in self._pending(logs_to_read)]
        # interleaved by time; each chain's own order kept whatever its times
        waiting = heapq.merge(*chains, key=lambda item: item[:3])
        entered, run = 0, []
        for item in waiting:
            if run and (run[-1][1:3] != item[1:3] or len(run) == MAX_BATCH):
                entered += self._append_run(run)
                run = []
            run.append(item)
        if run:
            entered += self._append_run(run)
        return entered

    def _append_run(self, run: list[tuple]) -> int:
        """Append one day log's consecutive checkpoints (each at its position) after what the
        log already has of them; how many this process appended."""
        _, date, sheet, first, _ = run[0]
        field = cursor_field(date, sheet)
        for _ in range(MAX_APPEND_ATTEMPTS):
            (cursor,) = self.store.cursors([field])
            entries = [note for _, _, _, position, note in run if position >= cursor]
            if not entries:
                return 0
            if cursor < first:
                raise RuntimeError(f"the {date} {sheet} day log's checkpoints {cursor} to "
                                   f"{first - 1} were skipped")
            size = self.store.size()
            hashes = [merkle.leaf_hash(entry.encode("utf-8")) for entry in entries]
            levels = new_subtrees(size, self.store.edge(size), hashes)
            if self.store.append(size, field, cursor, entries, levels) is Appended.APPENDED:
                return len(entries)
        raise RuntimeError(f"the service log kept moving: {MAX_APPEND_ATTEMPTS} attempts to "
                           f"append the {date} {sheet} day log's checkpoints failed")

    def append_entries(self, field: str, entries: Sequence[str]) -> None:
        """Append arbitrary entries as the log ``field``'s next ones (tools and tests)."""
        for start in range(0, len(entries), MAX_BATCH):
            batch = list(entries[start:start + MAX_BATCH])
            (cursor,) = self.store.cursors([field])
            size = self.store.size()
            levels = new_subtrees(size, self.store.edge(size),
                                  [merkle.leaf_hash(entry.encode("utf-8")) for entry in batch])
            if self.store.append(size, field, cursor, batch, levels) is not Appended.APPENDED:
                raise RuntimeError("the service log moved while appending")

    def cut(self) -> int | None:
        """Sign and keep a checkpoint of the log's size if it is larger than the latest; its
        size, or None."""
        size = self.store.size()
        head = self.store.last_checkpoint()
        if size == 0 or head is not None and head.size >= size:
            return None
        self.check_identity(self.store.record_identity(self.key.vkey))
        note = self.key.sign(LogCheckpoint(self.origin, size, self.tree(size).root()))
        position = head.position + 1 if head else 0
        if self.store.append_checkpoint(position, size, note) is not Appended.APPENDED:
            return None
        log.info("service log checkpoint of size %d", size,
                 extra={"event": "service-log-checkpoint", "size": size})
        return size

    def witness(self, head: LogHead, force: bool = False) -> list[Submitted]:
        """Submit the latest checkpoint to each configured witness that has not cosigned it,
        a witness that failed no sooner than its back-off unless ``force`` (a new
        checkpoint); what each answered."""
        due = self._due(head, force)
        now = time.monotonic()
        body = head.note.split("\n\n", 1)[0] + "\n"
        answers = self.client.submit_all(due, head.size, body, head.note)
        for answer in answers:
            if answer.lines:
                self._retry.pop(answer.witness, None)
            else:
                wait = self._retry.get(answer.witness, (0.0, FIRST_RETRY_SECONDS / 2))[1]
                wait = min(wait * 2, MAX_RETRY_SECONDS)
                self._retry[answer.witness] = (now + wait, wait)
        return answers

    def _due(self, head: LogHead, force: bool) -> list[LogWitness]:
        """The witnesses to submit ``head`` to: those without a kept cosignature of it whose
        back-off after a failure is over (all of them if ``force``)."""
        witnesses = list(self.witnesses())
        if not witnesses:
            return []
        kept = self.store.cosignatures(head.size, [witness.name for witness in witnesses])
        now = time.monotonic()
        return [witness for witness, lines in zip(witnesses, kept, strict=True)
                if not lines and (force or self._retry.get(witness.name, (0.0, 0.0))[0] <= now)]

    # Reading

    def latest(self) -> LogHead:
        """The latest checkpoint, or ``NoLogCheckpoint``."""
        head = self.store.last_checkpoint()
        if head is None:
            raise NoLogCheckpoint()
        return head

    def cosigned_note(self, head: LogHead) -> str:
        """The checkpoint's note with the configured witnesses' kept cosignature lines (in
        their configuration's order)."""
        witnesses = list(self.witnesses())
        lines = self.store.cosignatures(head.size, [witness.name for witness in witnesses])
        return head.note + "".join(line for line in lines if line)

    def tree(self, size: int) -> ProofNodes:
        """The tree of the log's first ``size`` entries, read from its stored subtrees."""
        return ProofNodes(size, self.store.edge(size), self.store.subtrees)

    def consistency_proof(self, old: int, size: int) -> list[bytes]:
        """RFC 9162's consistency proof from ``old`` entries to ``size``."""
        proof = self.tree(size).consistency(old)
        if proof is None:
            raise LookupError(f"the service log lacks a subtree of its first {size} entries")
        return proof

    def consistency(self, old: int, size: int) -> tuple[list[bytes], list[bytes]]:
        """Between two checkpointed sizes (else a 400/404 refusal): the consistency proof, and
        SUBPROOF(old, D[size], false) — the same with the root of the first ``old`` entries in
        front when ``old`` is a power of two — which is what a fork file carries."""
        if old > size:
            raise InvalidLogSize(f"old ({old}) must not be larger than size ({size}).")
        for wanted in (old, size):
            if wanted and not self.store.is_checkpointed(wanted):
                raise UnknownLogSize(wanted)
        proof = self.consistency_proof(old, size)
        if not 0 < old < size or old & (old - 1):
            return proof, proof
        first = self.tree(size).hashes([(0, old)])
        if first is None:
            raise LookupError(f"the service log lacks a subtree of its first {size} entries")
        return proof, [*first, *proof]

    def entry(self, date: str, sheet: str, position: int, size: int | None = None) -> dict:
        """The entry of the (date, sheet)'s checkpoint at ``position``: its index, text, and
        inclusion proof in the checkpoint of ``size`` (the latest when None)."""
        index = self.store.entry_index(date, sheet, position)
        if index is None:
            raise UnknownEntry(f"The {date} {sheet} checkpoint {position} is not an entry of "
                               "the service log yet.")
        if size is None:
            size = self.latest().size
        elif not self.store.is_checkpointed(size):
            raise UnknownLogSize(size)
        if index >= size:
            raise UnknownEntry(f"Entry {index} is not in the service log's tree of {size}.")
        path = self.tree(size).inclusion(index)
        if path is None:
            raise LookupError(f"the service log lacks a subtree of its first {size} entries")
        (entry,) = self.store.entries(index, index + 1)
        return {"index": index, "size": size, "entry": entry, "proof": path}

    def tile(self, address: TileAddress) -> bytes:
        """A hash tile's hashes or an entry bundle's entries within the latest checkpoint (a
        partial one only for a checkpointed size), else ``NoSuchTile``."""
        head = self.store.last_checkpoint()
        level, first, count = subtree_span(address)
        scale = 1 << (TILE_HEIGHT * address.level)  # entries under one hash of the tile
        if address.width is None:
            served = head is not None and (first + TILE_WIDTH) * scale <= head.size
        else:
            low = (first + address.width) * scale
            served = (head is not None and low <= head.size
                      and self.store.checkpointed_between(low, low + scale))
        if not served:
            raise NoSuchTile(tile_path(address))
        if address.entries:
            return entry_bundle([entry.encode("utf-8")
                                 for entry in self.store.entries(first, first + count)])
        hashes = self.store.level_hashes(level, first, count)
        if len(hashes) != count:
            raise LookupError(f"the service log lacks hashes of {tile_path(address)}")
        return b"".join(hashes)

    # The background thread

    def start(self):
        """Run passes in a daemon thread until ``stop``."""
        return self._passes.start()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self._passes.stop()

    def wake(self) -> None:
        """Run the next pass now (a day checkpoint was just cut)."""
        self._passes.wake()

