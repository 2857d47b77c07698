"""Game and reveal metrics read from Redis at scrape time, the same whichever replica answers.

Counting in each process would give every worker and replica its own partial count; Redis
already holds the truth: the set of each date's games (started), its leaderboard (finished)
and the ledger (reveals). One pipelined read per scrape.
"""

import contextlib
import datetime as dt

import redis
from prometheus_client.core import GaugeMetricFamily
from redis.exceptions import RedisClusterException

from app.ledger.days import day_window, latest_due_date
from app.platform.keys import LEDGER_ENTRIES, board_key, day_games_key
from fairness import DAILY_RULESETS, ChainError

LIVE_DATES_BEFORE_TODAY = 2
LIVE_DATES_AFTER_TODAY = 1


def live_dates(now: dt.datetime) -> list[str]:
    """The dates that may still be played or wait for their reveal at ``now`` (UTC)."""
    today = now.date()
    candidates = (today + dt.timedelta(days=offset)
                  for offset in range(-LIVE_DATES_BEFORE_TODAY, LIVE_DATES_AFTER_TODAY + 1))
    return [date.isoformat() for date in candidates
            if day_window(date, 0).opens_at <= now]


def overdue_seconds(now: dt.datetime, last_revealed: str | None, epoch_start: str,
                    grace_seconds: int) -> float:
    """How long the oldest date that is due has waited for its reveal (0 when none waits)."""
    due = latest_due_date(now, grace_seconds)
    first_unrevealed = dt.date.fromisoformat(epoch_start)
    if last_revealed is not None:
        first_unrevealed = dt.date.fromisoformat(last_revealed) + dt.timedelta(days=1)
    if first_unrevealed > due:
        return 0.0
    return (now - day_window(first_unrevealed, grace_seconds).reveal_at).total_seconds()


class GameCollector:
    """Reads the live dates' game counts and the ledger's state from the store on each scrape."""

    def __init__(self, services):
        """Collect from one app's services (ledger store, secrets, clock, reveal grace)."""
        self.services = services

    def collect(self):
        """Yield the gauges; only ``yacht_daily_redis_up`` 0 when Redis does not answer."""
        up = GaugeMetricFamily("yacht_daily_redis_up", "1 when the scrape could read Redis.")
        try:
            families = self._families()
        except (redis.RedisError, RedisClusterException):
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from families

    def _daily_rulesets(self, date: str) -> tuple[str, ...]:
        """The daily sheets of ``date`` (the first epoch's for a date outside every epoch)."""
        with contextlib.suppress(ChainError):
            return self.services.secrets.rulesets_for(date)
        return DAILY_RULESETS

    def _families(self) -> list[GaugeMetricFamily]:
        """Read Redis once and build every gauge."""
        now = self.services.now()
        dates = live_dates(now)
        store = self.services.ledger_store
        pipe = store.client.pipeline(transaction=False)
        sheets = {date: self._daily_rulesets(date) for date in dates}
        for date in dates:
            for ruleset in sheets[date]:
                pipe.scard(day_games_key(date, ruleset))
                pipe.zcard(board_key(date, ruleset))
        pipe.llen(LEDGER_ENTRIES)
        replies = pipe.execute()
        last_revealed = store.last_revealed()
        failure = store.reveal_failure()

        games = GaugeMetricFamily(
            "yacht_daily_games", "Games of each live date and sheet, started and finished.",
            labels=["date", "ruleset", "state"])
        counts = iter(replies[:-1])
        for date in dates:
            for ruleset in sheets[date]:
                games.add_metric([date, ruleset, "started"], next(counts))
                games.add_metric([date, ruleset, "finished"], next(counts))
        entries = GaugeMetricFamily(
            "yacht_daily_ledger_entries", "Entries in the ledger (epochs and reveals).",
            value=replies[-1])
        revealed = GaugeMetricFamily(
            "yacht_daily_last_revealed_date_seconds",
            "The last revealed date, as the Unix time of its midnight UTC (0: none yet).",
            value=_midnight_timestamp(last_revealed))
        overdue = GaugeMetricFamily(
            "yacht_daily_reveal_overdue_seconds",
            "How long the oldest due date has waited for its reveal (0 when none waits).",
            value=overdue_seconds(now, last_revealed, self.services.secrets.first_date,
                                  self.services.ledger.grace_seconds))
        epoch_end = dt.date.fromisoformat(self.services.secrets.epoch.end)
        days_left = GaugeMetricFamily(
            "yacht_daily_epoch_days_left",
            "Days from today to the last epoch's last date: start a new epoch before it is 0.",
            value=(epoch_end - now.date()).days)
        failing = GaugeMetricFamily(
            "yacht_daily_reveal_failed_attempts",
            "Consecutive failed attempts at the pending reveal, by any process (0: none failing).",
            value=failure["attempts"] if failure else 0)
        return [games, entries, revealed, overdue, failing, days_left]


def _midnight_timestamp(date: str | None) -> float:
    """The Unix time of ``date``'s midnight UTC, or 0 for None."""
    if date is None:
        return 0.0
    return dt.datetime.combine(dt.date.fromisoformat(date), dt.time(), dt.UTC).timestamp()
