"""The strategy service: the solved tables in the data directory, the coach's reviews, the
day's skill board and, once a date is revealed, its references.

- Tables: each daily sheet's solved table, from ``app/coach/tables.py``'s ``TableSource``.
- Skill: a finished daily game's expected points lost to perfect play, ranked on the day's
  skill board by that loss in hundredths alone (equal losses share a rank, in finish order);
  computed when the game finishes, or queued in Redis and computed by the background pass as
  soon as the tables are there.
- References: when a date is revealed, the reveal queues it; the background pass computes,
  once per date under a Redis lease, each sheet's perfect-policy game on the day's stream and
  its perfect-foresight maximum, and stores them under the day's hash tag.
- The background pass (a ``PassThread``, app/platform/leased_loop.py) runs every POLL_SECONDS
  while work waits (queued, or a table still loading), else every IDLE_POLL_SECONDS; whatever
  this process queues wakes it at once, so the long pause only delays work queued by a process
  that died before its own pass.
"""

import datetime as dt
import functools
import logging
from collections.abc import Callable

import orjson

import strategy
from app.boards.figures import centipoints
from app.boards.store import SkillStore
from app.coach.tables import TableSource, off_the_loop
from app.daily.scouting import count_scouting
from app.daily.store import GameRecord, GameStore
from app.ledger.secrets import Secrets
from app.ledger.service import LedgerService
from app.platform.keys import references_lease
from app.platform.leased_loop import PassThread, leased
from fairness import DAILY_RULESETS, DiceStream, Game
from strategy import ValueTablesNotReady

POLL_SECONDS = 1.0
IDLE_POLL_SECONDS = 10.0
SKILL_BATCH = 50
REFERENCES_LEASE_SECONDS = 300.0
REFERENCES_RECENT_DAYS = 2

log = logging.getLogger(__name__)


def day_reference(table: strategy.Table, seed: bytes, date: str, ruleset: str,
                  dealing: str) -> dict:
    """The optimum of ``ruleset``'s ``table``, its perfect policy's game on ``date``'s dice
    dealt ``dealing`` and the perfect-foresight maximum of that day (pure CPU: no I/O)."""
    perfect = strategy.play_game(table, DiceStream(seed, date, ruleset, dealing))
    foresight = strategy.foresight_for_day(seed, date, ruleset, dealing)
    return {"optimum": table.optimum,
            "perfect": {"total": perfect.totals().total, "transcript": list(perfect.transcript)},
            "foresight": {"total": foresight.total, "line": list(foresight.line)}}


def review_text(review: strategy.Review) -> str:
    """The review's text kept for the page: orjson's JSON of its records, which reads back as
    ``review.to_json_text()`` does, every float to the bit (both write the shortest text that
    round-trips), in about a seventh of its time (``json``'s float ``repr`` was its cost)."""
    return orjson.dumps(review).decode()


class Coach:
    """Reviews, the skill boards and the day references of one app."""

    def __init__(self, store: GameStore, skill: SkillStore, secrets: Secrets,
                 ledger: LedgerService, tables: TableSource, poll_seconds: float = POLL_SECONDS,
                 idle_seconds: float = IDLE_POLL_SECONDS):
        """Bind to the app's games, skill boards, secrets and ledger, and to the process's
        tables; the pass comes every ``poll_seconds`` while work waits, every ``idle_seconds``
        otherwise."""
        self.store = store
        self.skill = skill
        self.secrets = secrets
        self.ledger = ledger
        self.tables = tables
        self.poll_seconds = poll_seconds
        self.idle_seconds = idle_seconds
        self._caught_up = False
        self._started = False
        self._passes = PassThread(self._pass, "coach", poll_seconds, wait_after=self._wait_after,
                                  first_wait=0.0)

    # Reviews and skill

    def review(self, record: GameRecord, game: Game | None = None) -> strategy.Review:
        """The review of a game (ValueTablesNotReady while its sheet's table is being computed);
        ``game``, the core's game of that very record, spares the review its replay."""
        if game is not None and game.transcript == record.transcript:
            return strategy.review(self.tables.get(record.ruleset), game.transcript,
                                   checked=True)
        return strategy.review(self.tables.get(record.ruleset), record.transcript)

    def review_json(self, record: GameRecord) -> dict:
        """The review of a game as JSON-ready data: the one kept when the game finished (or
        when it was last computed), else computed now and kept (ValueTablesNotReady while its
        sheet's table is being computed)."""
        kept = self.skill.kept_review(record.id, record.version)
        if kept is None:
            kept = review_text(self.review(record))
            self.skill.keep_review(record.id, record.version, kept)
        return orjson.loads(kept)

    def game_finished(self, record: GameRecord, game: Game) -> Callable:
        """What the finishing action's own round trip does for the coach (``queue(pipe)``):
        put the game that has just finished on its day's skill board and keep its review for
        the page, which asks for it next (one review per game); or, while its sheet's table is
        being computed, queue it for the background pass."""
        try:
            review = self.review(record, game)
        except ValueTablesNotReady:  # the pass runs every POLL_SECONDS while a table loads
            return functools.partial(self.skill.queue_skill, record.id)
        text = review_text(review)
        finished_at = self.ledger.clock()

        def queue(pipe) -> None:
            """Rank the game as finished now and keep its review, in ``pipe``."""
            self.skill.rank(record.date, record.ruleset, record.id, centipoints(review.loss),
                            game.totals().total, finished_at, pipe=pipe)
            self.skill.keep_review(record.id, record.version, text, pipe=pipe)
        return queue

    def finish_refused(self, record: GameRecord) -> None:
        """Undo ``game_finished``'s ranking of a game whose finish was refused after its round
        trip (its day's log closed without it)."""
        self.skill.unrank(record.date, record.ruleset, record.id)

    def loss(self, record: GameRecord) -> float | None:
        """A finished game's points lost, to the hundredth as its skill board ranks it
        (computed now if the board lacks it); None while its table is being computed."""
        entry = self.skill.entry(record.date, record.ruleset, record.id)
        if entry is not None:
            return entry[0] / 100
        try:
            return centipoints(self.review_json(record)["loss"]) / 100
        except ValueTablesNotReady:
            return None

    def _rank(self, record: GameRecord) -> None:
        """Compute a finished game's loss and put it on the skill board at the finish the
        server recorded for it (``SkillStore.finish_times``: to the second)."""
        loss = self.review(record).loss
        finished_at = self.skill.finish_times([record.id])[record.id]
        self.skill.rank(record.date, record.ruleset, record.id, centipoints(loss),
                        record.receipt["total"], finished_at)

    # Day references

    def date_revealed(self, date: str) -> None:
        """The reveal's hook: queue a recent ``date``'s references for the background pass
        (an older date, revealed in a backlog, is queued when someone first asks for it)."""
        recent = self.ledger.clock().date() - dt.timedelta(days=REFERENCES_RECENT_DAYS)
        if dt.date.fromisoformat(date) >= recent:
            self.skill.queue_references(date)
            self._passes.wake()

    def references(self, date: str, ruleset: str) -> dict | None:
        """The stored references of a revealed (date, sheet); None while being computed (the
        date is then queued, so that the background pass computes it)."""
        references = self.skill.references(date, ruleset)
        if references is None:
            self.skill.queue_references(date)
            self._passes.wake()
        return references

    def compute_references(self, date: str) -> dict[str, dict]:
        """Each daily sheet's perfect-policy game and foresight maximum on ``date``'s dice
        (the sheets of the date's epoch): about a second of CPU a sheet, so they are computed off
        a gevent worker's event loop (``off_the_loop``); the scouting count reads Redis on it."""
        seed, dealing = self.secrets.seed(date), self.secrets.dealing_for(date)
        return {ruleset: {**off_the_loop(day_reference, self.tables.get(ruleset), seed, date,
                                         ruleset, dealing),
                          "scouting": count_scouting(self.store, date, ruleset)}
                for ruleset in self.secrets.rulesets_for(date)}

    # The background pass

    def run_once(self) -> bool:
        """One pass: rank the queued games, then compute the queued dates' references
        (each under a lease, so that one worker computes a date). Work whose table is not
        loaded yet stays queued; True when some work is left waiting (a table loading, a
        receipt not stored yet, a date another process computes)."""
        waiting = False
        for game_id in self.skill.pending_skill(SKILL_BATCH):
            record = self.store.load_game(game_id)
            if record is not None and record.receipt is None:
                waiting = True  # a v2 game's receipt is stored by the next checkpoint
                continue
            if record is not None:
                if not self.tables.ready(record.ruleset):
                    self.tables.start()
                    waiting = True
                    continue
                self._rank(record)
            self.skill.skill_done(game_id)
        if not all(self.tables.ready(ruleset) for ruleset in DAILY_RULESETS):
            return True
        for date in self.skill.pending_references():
            if not all(self.tables.ready(ruleset) for ruleset in self.secrets.rulesets_for(date)):
                waiting = True  # a later epoch's sheet (Yatzy) still loading: the date stays
                continue
            with leased(self.skill.client, references_lease(date),
                        REFERENCES_LEASE_SECONDS) as held:
                if not held:
                    waiting = True
                    continue
                if self.skill.references(date, DAILY_RULESETS[0]) is None:
                    self.skill.store_references(date, self.compute_references(date))
                    log.info("references of %s stored", date,
                             extra={"event": "references", "date": date})
                else:
                    self.skill.store_references(date, {})
        return waiting

    def catch_up(self) -> None:
        """Queue the latest revealed date if its references are missing (a reveal made
        before this version ran, or one whose queueing was lost)."""
        last = self.ledger.last_revealed()
        if last is not None and self.skill.references(last, DAILY_RULESETS[0]) is None:
            self.skill.queue_references(last)

    def start(self) -> None:
        """Warm the tables and run passes in a daemon thread until ``stop`` (once per coach;
        later calls do nothing)."""
        self.tables.start()
        if not self._started:
            self._started = True
            self._passes.start()

    def stop(self) -> None:
        """Ask the thread to end and wait for it."""
        self._passes.stop()

    def _pass(self) -> bool:
        """The thread's pass: ``catch_up`` first (until it has once succeeded), then
        ``run_once``; True while work waits."""
        if not self._caught_up:
            self.catch_up()
            self._caught_up = True
        return self.run_once()

    def _wait_after(self, waiting: bool) -> float:
        """The pause after a pass: short while work waits or a table is still loading."""
        loading = not all(self.tables.ready(ruleset) for ruleset in self.tables.rulesets)
        return self.poll_seconds if waiting or loading else self.idle_seconds
