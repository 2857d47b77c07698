"""The dates the day's log keeps and the leaf a game is logged as: the state every part of the
log service shares (``LogDays``, the base of ``app.daylog.service.LogService``).

- **Format.** A date is v2 (logged) or v1, fixed by the marker its first game sets
  (``app/daily/scripts.py``); a date that had games before markers existed stays v1, and a date
  nobody played gets its marker at its close. ``DAY_FORMAT`` (``YACHT_DAILY_DAY_FORMAT``)
  chooses what new dates start in, ``2`` by default.
- **Leaves.** A game's leaf is its unsigned v2 receipt, whose ``index`` the day's script
  assigns; its receipt is that leaf signed (Ed25519 is deterministic, so the log's leaf is the
  receipt's truth).
"""

import datetime as dt
import json
from collections.abc import Callable, Sequence

from app.daily.store import GameRecord, GameStore
from app.daylog.store import LogStore
from app.ledger.days import day_window
from app.ledger.secrets import Secrets
from app.ledger.store import LedgerStore
from fairness import Game, canonical_json
from fairness import ledger as formats
from fairness.note import VerifierKey

V1, V2 = "1", "2"
RECENT_DAYS = 3  # closed logs listed for witnesses this long after their close


class LogDays:
    """The day's logs' stores, keys, clock and grace; each date's format and sheets; the leaf
    of a game and its signature."""

    def __init__(self, games: GameStore, ledger: LedgerStore, logs: LogStore, secrets: Secrets,
                 clock: Callable[[], dt.datetime], grace_seconds: int,
                 new_day_format: str = V2,
                 witnesses: Callable[[], Sequence[VerifierKey]] = list):
        """Bind to the stores, secrets, clock and grace; ``new_day_format`` is the format a
        date starts in, ``witnesses`` gives the configured witness keys."""
        if new_day_format not in (V1, V2):
            raise ValueError(f"DAY_FORMAT is 1 or 2, not {new_day_format!r}")
        self.games = games
        self.ledger = ledger
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
            seq = self.ledger.reveal_seq(date)
            window = day_window(date, self.grace_seconds)
            now = self.clock()
            if seq is not None:  # revealed before markers existed
                entry = self.ledger.ledger_entry(seq) or {}
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

    # Leaves

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
