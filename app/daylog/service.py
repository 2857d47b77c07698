"""The service side of the day's log (FAIRNESS.md, "The day's log (format v2)").

- **Format.** A date is v2 (logged) or v1, fixed by the marker its first game sets
  (``app/storage/store.py``); a date that had games before markers existed stays v1, and a date
  nobody played gets its marker at its close. ``DAY_FORMAT`` (``YACHT_DAILY_DAY_FORMAT``)
  chooses what new dates start in, ``2`` by default.
- **Finishing.** A v2 game's finishing compare-and-set stores its last action only; the round
  trip after it (the one that already ranked it and updated its player's history) appends its
  leaf — the unsigned v2 receipt, whose ``index`` the day's script assigns — and ranks it, in
  one script under the day's hash tag. The receipt is that leaf signed (Ed25519 is
  deterministic, so the log's leaf is the receipt's truth); the finishing worker answers it at
  once and the checkpoint job stores it with the game, as does any read that finds it missing.
- **Checkpoints.** ``cut_due`` (the reveal runner's thread, under a lease, or ``yacht-daily
  checkpoint``) cuts, per (date, sheet), a checkpoint at the end of each UTC minute in which
  games finished, covering the leaves finished before that minute's end, from the last
  checkpoint's right edge and the new leaves only (``log_tree``). At the date's close, ``close``
  seals every game, adds any finished game a crash left out, and cuts the close checkpoint with
  the root of every game's final transcript; the v2 reveal's roots are the close checkpoints.
  Cuts and closes race freely (the log lease, the reveal lease, lagging clocks): the store
  appends a checkpoint only right after the one it chains to and none after a close, so a log
  has one chain and one close, last.
- **Witnesses** post cosignatures of checkpoints the log cut; those made by a configured witness
  key (``YACHT_DAILY_WITNESSES``, ``<data dir>/witnesses.txt``), timed between the checkpoint's
  time and a little after this server's clock, are kept (a witness's latest per checkpoint) and
  served as extra signature lines of the checkpoint's note.
"""

import datetime as dt
import json
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from app.api.errors import ApiError
from app.daylog import cosignatures
from app.daylog.log_tree import GrownTree, ProofNodes, new_subtrees
from app.daylog.store import Appended, LogStore, StoredCheckpoint
from app.ledger.days import day_window
from app.ledger.secrets import Secrets
from app.ledger.signing import verify_signature
from app.platform.clock import format_timestamp
from app.storage.store import GameRecord, Store, day_order_key
from fairness import Game, canonical_json, get_ruleset, merkle
from fairness import ledger as formats
from fairness.checkpoint import (
    Checkpoint,
    Close,
    body_hash,
    cosigned_message,
    origin,
    parse_checkpoint,
    read_cosignature,
)
from fairness.errors import LedgerError
from fairness.note import (
    COSIGNATURE_V1,
    ED25519,
    NoteSignature,
    VerifierKey,
    format_note,
    key_id,
    parse_note,
    parse_vkey,
)

V1, V2 = "1", "2"
RECENT_DAYS = 3  # closed logs listed for witnesses this long after their close
CLOSE_PAGE = 500
MAX_CLOSE_ATTEMPTS = 20  # only minute checkpoints of leaves already there can come between
WITNESSES_FILE = "witnesses.txt"

log = logging.getLogger(__name__)


class LogNotClosed(RuntimeError):
    """A log's close checkpoint could not be appended (another writer kept appending first)."""


def floor_minute(moment: dt.datetime) -> dt.datetime:
    """The start of ``moment``'s UTC minute."""
    return moment.astimezone(dt.UTC).replace(second=0, microsecond=0)


def load_witnesses(setting: str | None, data_dir: Path) -> list[VerifierKey]:
    """The witness keys the operator configured: the setting's comma or space separated vkeys
    and ``<data dir>/witnesses.txt`` (one a line); a malformed one is logged and skipped."""
    texts = (setting or "").replace(",", " ").split()
    path = data_dir / WITNESSES_FILE
    if path.exists():
        texts += [line.strip() for line in path.read_text().splitlines() if line.strip()]
    keys = []
    for text in texts:
        try:
            key = parse_vkey(text)
        except LedgerError as error:
            log.warning("ignoring witness key %r: %s", text, error)
            continue
        if key.kind != COSIGNATURE_V1 or len(key.public_key) != 32:
            log.warning("ignoring witness key %r: not a cosignature/v1 Ed25519 key", text)
            continue
        keys.append(key)
    return keys


class LogService:
    """Finishing into the day's log, cutting checkpoints, closing, and reading the logs."""

    def __init__(self, store: Store, logs: LogStore, secrets: Secrets,
                 clock: Callable[[], dt.datetime], grace_seconds: int,
                 new_day_format: str = V2,
                 witnesses: Callable[[], Sequence[VerifierKey]] = list):
        """Bind to the stores, secrets, clock and grace; ``new_day_format`` is the format a
        date starts in, ``witnesses`` gives the configured witness keys."""
        if new_day_format not in (V1, V2):
            raise ValueError(f"DAY_FORMAT is 1 or 2, not {new_day_format!r}")
        self.store = store
        self.logs = logs
        self.secrets = secrets
        self.clock = clock
        self.grace_seconds = grace_seconds
        self.new_day_format = new_day_format
        self.witnesses = witnesses
        self._formats: dict[str, str] = {}
        self._closed: set[str] = set()  # dates this process saw closed: a close never reopens

    # Formats

    def sheets_of(self, date: str) -> tuple[str, ...]:
        """The daily sheets of ``date``, each with its own log: those of its epoch."""
        return self.secrets.rulesets_for(date)

    def day_format(self, date: str) -> str | None:
        """``1`` or ``2`` for a date whose format is fixed or decided, None before it opens.

        The marker once set never changes, so each process reads it once per date.
        """
        known = self._formats.get(date)
        if known is not None:
            return known
        if not self.secrets.first_date <= date <= self.secrets.epoch.end:
            return None
        marker = self.logs.day_format(date)
        if marker is None:
            seq = self.store.reveal_seq(date)
            window = day_window(date, self.grace_seconds)
            now = self.clock()
            if seq is not None:  # revealed before markers existed
                entry = self.store.ledger_entry(seq) or {}
                marker = V2 if entry.get("type") == formats.REVEAL_V2_TYPE else V1
            elif now < window.opens_at:
                return None
            elif now < window.closes_at and not self.logs.has_games(date, self.sheets_of(date)):
                return self.new_day_format  # open, no game yet: its first game fixes it
            else:  # closed unplayed, or played before markers existed: fixed now
                marker = self.logs.settle_format(date, self.sheets_of(date), self.new_day_format)
        self._formats[date] = marker
        return marker

    def is_logged(self, date: str) -> bool:
        """True for a v2 date (one with a day's log)."""
        return self.day_format(date) == V2

    # Finishing a game

    def finish(self, record: GameRecord, game: Game, also: Sequence = ()) -> dict:
        """Append the game just finished to its log and rank it, in the round trip that also
        marks it finished in its player's history and queues ``also`` (``Store.
        record_finished``); the signed v2 receipt. A 409 when the date's log closed meanwhile
        without it (a process whose clock lags)."""
        finished_at = format_timestamp(self.clock())
        head, tail = self._leaf_parts(record, game, finished_at)
        replies = self.store.record_finished(
            record, game.totals().total, finished_at,
            queue_board=lambda pipe: self.logs.queue_append_leaf(
                pipe, record.date, record.ruleset, record.id, head, tail, game.totals().total),
            also=also)
        leaf = replies[0][1] if replies[0] else None
        if leaf is None:  # the close may have logged it itself
            found = self.logs.leaf_of(record.date, record.ruleset, record.id)
            if found is None:
                raise ApiError(409, "day-closed",
                               f"The {record.date} challenge is closed: no more actions.")
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

    def _leaf_parts(self, record: GameRecord, game: Game, finished_at: str) -> tuple[str, str]:
        """The game's leaf data before and after its index (canonical JSON keys are sorted, so
        ``index`` sits between ``game`` and ``player``)."""
        keys = self.secrets.for_date(record.date)
        text = canonical_json(formats.receipt_v2(
            game=record.id, epoch=keys.epoch_number, date=record.date, ruleset=record.ruleset,
            player=record.player, transcript=game.transcript, total=game.totals().total,
            index=0, finished_at=finished_at)).decode()
        head, tail = text.split(',"index":0,')
        return head + ',"index":', "," + tail

    def sign_leaf(self, date: str, leaf: str) -> dict:
        """The signed receipt whose unsigned canonical JSON is ``leaf``."""
        signature = self.secrets.for_date(date).signer.sign_bytes(leaf.encode())
        return {**json.loads(leaf), "sig": signature.hex()}

    # Checkpoints

    def log_dates(self, now: dt.datetime) -> list[str]:
        """The dates whose logs may still change or were closed in the last RECENT_DAYS days,
        oldest first (within the loaded epochs)."""
        first = dt.date.fromisoformat(self.secrets.first_date)
        dates = []
        for offset in range(-RECENT_DAYS - 2, 2):
            date = (now + dt.timedelta(days=offset)).date()
            window = day_window(date, self.grace_seconds)
            if (date >= first and window.opens_at <= now
                    and now < window.closes_at + dt.timedelta(days=RECENT_DAYS)):
                dates.append(date.isoformat())
        return dates

    def cut_due(self) -> list[tuple[str, str, int]]:
        """Cut every checkpoint due now, closing the dates whose close has passed; the
        (date, sheet, size) of each checkpoint cut."""
        now = self.clock()
        cut = []
        for date in self.log_dates(now):
            window = day_window(date, self.grace_seconds)
            if window.closes_at + dt.timedelta(days=1) <= now:
                continue  # long closed: nothing can change
            if self.day_format(date) != V2:
                continue
            if now >= window.closes_at:
                if date not in self._closed:
                    cut += self.close(date)[1]
                    self._closed.add(date)
                continue
            time = format_timestamp(floor_minute(now))
            for ruleset, (count, text) in self.logs.log_heads(date, self.sheets_of(date)).items():
                last = None if text is None else StoredCheckpoint.from_json(-1, text)
                if count > (last.size if last else 0) and (last is None or time > last.time):
                    size = self._cut(date, ruleset, time)
                    if size is not None:
                        cut.append((date, ruleset, size))
        return cut

    def _cut(self, date: str, ruleset: str, time: str, close: Close | None = None
             ) -> int | None:
        """Cut the (date, sheet)'s next checkpoint at ``time`` over the leaves finished before
        it (every leaf, for the close); its size, or None if there was nothing to cut, another
        process appended to the chain first, or the log has its close (the store refuses any
        checkpoint after the close)."""
        last = self.logs.last_checkpoint(date, ruleset)
        old_size = last.size if last else 0
        leaves = self.logs.leaves(date, ruleset, old_size, self.logs.leaf_count(date, ruleset))
        if close is None:
            taken = 0
            for leaf in leaves:
                if json.loads(leaf)["finished_at"] >= time:
                    break
                taken += 1
            leaves = leaves[:taken]
            if not leaves:
                return None
        hashes = [merkle.leaf_hash(leaf.encode()) for leaf in leaves]
        old_edge = [bytes.fromhex(h) for h in last.edge] if last else []
        tree = GrownTree(old_size, old_edge, hashes)
        keys = self.secrets.for_date(date)
        checkpoint = Checkpoint(
            origin=origin(keys.signer.public_key_hex, date, ruleset), size=tree.size,
            root=tree.root(), time=time,
            prev=body_hash(last.body) if last else bytes(32), close=close)
        body = checkpoint.body()
        stored = StoredCheckpoint(
            position=last.position + 1 if last else 0, body=body,
            note=format_note(body, [self._log_signature(keys, checkpoint.origin, body)]),
            size=tree.size, time=time, consistency=tuple(h.hex() for h in tree.consistency())
            if last else (), edge=tuple(h.hex() for h in tree.edge()), closes=close is not None)
        self.logs.store_subtrees(date, ruleset, new_subtrees(old_size, old_edge, hashes))
        appended = self.logs.append_checkpoint(date, ruleset, stored, body_hash(body).hex(),
                                               body_hash(last.body).hex() if last else None)
        if appended is not Appended.APPENDED:
            return None
        self.logs.store_receipts({
            json.loads(leaf)["game"]: canonical_json(self.sign_leaf(date, leaf)).decode()
            for leaf in leaves})
        return tree.size

    @staticmethod
    def _log_signature(keys, name: str, body: str) -> NoteSignature:
        """The log's signature line of a checkpoint body (C2SP signed note, Ed25519)."""
        public_key = bytes.fromhex(keys.signer.public_key_hex)
        return NoteSignature(name, key_id(name, ED25519, public_key),
                             keys.signer.sign_bytes(body.encode()))

    # The close

    def close(self, date: str) -> tuple[dict[str, StoredCheckpoint], list]:
        """Close a v2 date's logs if not done: seal every game, give every finished game a
        leaf, and cut each sheet's close checkpoint at the date's close time with the root of
        every game's final transcript. Returns (sheet → close checkpoint, what was cut).

        Any number of processes may close a date and cut its checkpoints at once: the store
        appends to a log's chain one writer at a time and takes no checkpoint after a close,
        so each log gets one close, and every closer returns that one."""
        closes, cut = {}, []
        time = format_timestamp(day_window(date, self.grace_seconds).closes_at)
        for ruleset in self.sheets_of(date):
            closes[ruleset] = self._close_log(date, ruleset, time, cut)
        return closes, cut

    def _close_log(self, date: str, ruleset: str, time: str, cut: list) -> StoredCheckpoint:
        """The (date, sheet)'s close checkpoint: the existing one, else the one this process
        cuts (recorded in ``cut``), cut again after each checkpoint another process appended
        first (a lagging clock's minute), until the log has its close."""
        last = self.logs.last_checkpoint(date, ruleset)
        if last is not None and last.closes:
            return last
        self.store.seal_day(date)
        self.logs.close(date)
        finals = self._finals(date, ruleset, time)
        for _ in range(MAX_CLOSE_ATTEMPTS):
            size = self._cut(date, ruleset, time, finals)
            if size is not None:
                cut.append((date, ruleset, size))
            last = self.logs.last_checkpoint(date, ruleset)
            if last is not None and last.closes:
                return last
        raise LogNotClosed(f"the {date} {ruleset} log did not close: other checkpoints were "
                           f"appended before each of {MAX_CLOSE_ATTEMPTS} close attempts")

    def _finals(self, date: str, ruleset: str, time: str) -> Close:
        """Every game of (date, sheet) sealed and read in id order: each finished one given a
        leaf if it has none; the count and root of their final transcripts."""
        self.store.sync_day_order(date, ruleset)
        boxes = len(get_ruleset(ruleset).category_ids)
        finals, start = [], "-"
        while True:
            ids = self.store.client.zrangebylex(day_order_key(date, ruleset), start, "+", 0,
                                                CLOSE_PAGE)
            if not ids:
                return Close(len(finals), merkle.root(finals))
            games = self.logs.seal_and_load_games(ids)
            logged = self.logs.logged(date, ruleset, [game_id for game_id, _, _ in games])
            for game_id, fields, transcript in games:
                finished = sum(entry.get("action") == "score" for entry in transcript) == boxes
                if finished and game_id not in logged:
                    self._add_leaf(game_id, fields, transcript, time)
                finals.append(merkle.leaf_hash(formats.final_leaf(
                    game=game_id, player=fields["player"], transcript=transcript,
                    finished=finished)))
            start = "(" + ids[-1]

    def _add_leaf(self, game_id: str, fields, transcript: list, time: str) -> None:
        """Give a finished game the leaf a crash left it without (finished by ``time``, the
        close: an upper bound of when it did)."""
        date, ruleset = fields["date"], fields["ruleset"]
        game = Game.from_transcript(ruleset, date, transcript)
        record = GameRecord(id=game_id, ruleset=ruleset, date=date, player=fields["player"],
                            name=fields.get("name", ""), transcript=tuple(transcript),
                            receipt=None)
        head, tail = self._leaf_parts(record, game, time)
        self.logs.append_leaf(date, ruleset, game_id, head, tail, game.totals().total,
                              closing=True)

    # Reading

    def require_log(self, date: str, ruleset: str) -> None:
        """A 404 ``unknown-log`` unless (date, sheet) has a log."""
        if not self.is_logged(date) or ruleset not in self.sheets_of(date):
            raise ApiError(404, "unknown-log", f"There is no log of {date} {ruleset}: the date "
                                               "is not playable yet, not logged, or not a daily "
                                               "sheet.")

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
        """The consistency proof between two checkpoint sizes of the log, or a 400."""
        self.require_log(date, ruleset)
        old = self.logs.checkpoint_of_size(date, ruleset, first)
        new = self.logs.checkpoint_of_size(date, ruleset, second)
        if old is None or new is None or first > second:
            raise ApiError(400, "invalid-size", "from and to must be sizes of checkpoints of "
                                                "this log, from ≤ to.")
        proof = self._proof_nodes(date, ruleset, new).consistency(first)
        if proof is None:  # a log cut before its subtrees were stored: from the new leaves
            proof = GrownTree(first, [bytes.fromhex(h) for h in old.edge],
                              self.logs.leaf_hashes(date, ruleset, second, first)).consistency()
        return [h.hex() for h in proof]

    def _proof_nodes(self, date: str, ruleset: str, checkpoint: StoredCheckpoint) -> ProofNodes:
        """The proofs' nodes in the tree of ``checkpoint``: its edge and the stored subtrees."""
        return ProofNodes(checkpoint.size, [bytes.fromhex(h) for h in checkpoint.edge],
                          lambda wanted: self.logs.subtrees(date, ruleset, wanted))

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
                raise ApiError(400, "invalid-size", "size must be that of a checkpoint of the "
                                                    "game's log.")
        if leaf is None or chosen is None or leaf.index >= chosen.size:
            return None
        nodes = self._proof_nodes(date, ruleset, chosen)
        path = nodes.inclusion(leaf.index)
        if path is None:  # a log cut before its subtrees were stored: from its leaves
            path = merkle.inclusion_path(leaf.index,
                                         self.logs.leaf_hashes(date, ruleset, chosen.size))
        seq = self.store.reveal_seq(date)
        return {
            "date": date,
            "ruleset": ruleset,
            "receipt": self.sign_leaf(date, leaf.data),
            "proof": {"index": leaf.index, "size": chosen.size,
                      "path": [h.hex() for h in path]},
            "root": nodes.root().hex(),
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

    # Cosignatures

    def add_cosignature(self, date: str, ruleset: str, body, signature) -> None:
        """Keep a witness's cosignature of a checkpoint this log cut (see the module
        docstring), plausibly timed and not older than the one it replaces
        (``app.daylog.cosignatures``); a 4xx ApiError when it is not one, nothing kept."""
        self.require_log(date, ruleset)
        if not isinstance(body, str) or not isinstance(signature, str):
            raise ApiError(400, "bad-cosignature", "Post {\"body\": <checkpoint body>, "
                                                   "\"signature\": <one signature line>}.")
        position = self.logs.checkpoint_position(date, ruleset, body_hash(body).hex()) \
            if body.endswith("\n") else None
        if position is None:
            raise ApiError(404, "unknown-checkpoint", "This log cut no checkpoint with this body.")
        try:
            _, (line,) = parse_note(body + "\n" + signature)
        except (LedgerError, ValueError):
            raise ApiError(400, "bad-cosignature",
                           "signature must be one signature line '— <name> <base64>\\n'.") from None
        witness = next((key for key in self.witnesses()
                        if key.name == line.name and key.key_id == line.key_id), None)
        if witness is None:
            raise ApiError(403, "unknown-witness", "No witness of this name and key ID is "
                                                   "configured here.")
        try:
            timestamp, raw = read_cosignature(line.payload)
        except LedgerError as error:
            raise ApiError(400, "bad-cosignature", str(error)) from None
        if not verify_signature(witness.public_key.hex(), cosigned_message(body, timestamp),
                                raw.hex()):
            raise ApiError(400, "bad-cosignature", "The cosignature does not verify under the "
                                                   "witness's key.")
        cosignatures.check_time(timestamp, parse_checkpoint(body).time, self.clock())
        cosignatures.keep_latest(self.logs, date, ruleset, position, body, line, timestamp)
