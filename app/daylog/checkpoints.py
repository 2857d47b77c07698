"""Cutting the day's log checkpoints and closing a date's logs (FAIRNESS.md, "The day's log
(format v2)").

- **Checkpoints.** ``cut_due`` (the reveal runner's thread, under a lease, or ``yacht-daily
  checkpoint``) cuts, per (date, sheet), a checkpoint at the end of each UTC minute in which
  games finished, covering the leaves finished before that minute's end, from the last
  checkpoint's right edge and the new leaves only (``fairness.log_tree``), and stores the
  complete subtrees they add for the proofs.
- **The close.** At the date's close, ``close`` seals every game, adds any finished game a crash
  left out, and cuts the close checkpoint with the root of every game's final transcript; the
  v2 reveal's roots are the close checkpoints.
- **Races.** Cuts and closes race freely (the log lease, the reveal lease, lagging clocks): the
  store appends a checkpoint only right after the one it chains to and none after a close, so a
  log has one chain and one close, last.
"""

import datetime as dt
import json

from app.daily.store import GameRecord
from app.daylog.days import V2, LogDays
from app.daylog.log_tree import edge_of
from app.daylog.store import Appended, StoredCheckpoint
from app.ledger.days import day_window
from app.platform.clock import format_timestamp
from app.platform.keys import day_order_key
from fairness import Game, canonical_json, get_ruleset, merkle
from fairness import ledger as formats
from fairness.checkpoint import Checkpoint, Close, body_hash, origin
from fairness.log_tree import GrownTree, new_subtrees
from fairness.note import ED25519, NoteSignature, format_note, key_id

CLOSE_PAGE = 500
MAX_CLOSE_ATTEMPTS = 20  # only minute checkpoints of leaves already there can come between


class LogNotClosed(RuntimeError):
    """A log's close checkpoint could not be appended (another writer kept appending first)."""


def floor_minute(moment: dt.datetime) -> dt.datetime:
    """The start of ``moment``'s UTC minute."""
    return moment.astimezone(dt.UTC).replace(second=0, microsecond=0)


class Checkpoints(LogDays):
    """The log service's checkpoints: the minute cuts and the close."""

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
        old_edge = edge_of(last) if last else []
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
        self.games.seal_day(date)
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
        self.games.sync_day_order(date, ruleset)
        boxes = len(get_ruleset(ruleset).category_ids)
        finals, start = [], "-"
        while True:
            ids = self.games.client.zrangebylex(day_order_key(date, ruleset), start, "+", 0,
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
