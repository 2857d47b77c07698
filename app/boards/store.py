"""Redis storage of a date's boards: the points leaderboard and the skill board, with what
the skill board needs beside it (the kept reviews, the coach's work queues, the day's
references).

A day's points board ranks finished games by total: one sorted set per (date, sheet) under the
day's hash tag ``{d:<date>}``, written where the game finishes (``queue_rank``, in the finishing
round trip) and repaired at the reveal (``rank_finished``).

A day's skill board ranks finished games by the expected points they gave away to perfect
play, in centipoints (the hundredths the board shows), fewest first. Games of equal
centipoints share a rank (competition ranking: 1, 2, 2, 4) and are listed in the order they
finished; the total, which depends on the luck of the dice, never breaks a tie. Per
(date, sheet), under the day's hash tag: a sorted set scored ``centipoints ×
SKILL_FINISH_SPAN + finish``, where ``finish`` counts the milliseconds from the date's
finish origin to the game's finish (every score stays below 2⁵³: exact in Redis's doubles),
and a hash of the games' totals, written before the game enters the sorted set. A board an
earlier version wrote (``legacy_skill_board_key``, scored ``centipoints × 10000 − total``)
is converted the first time it is read, its games' finishes read from their receipts or
their players' histories. The coach's work queues live under their own tag ``{coach}``
(keys: ``app/platform/keys.py``).
"""

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.platform.keys import (
    REFERENCES_PENDING,
    SKILL_PENDING,
    board_key,
    game_key,
    history_key,
    legacy_skill_board_key,
    references_key,
    review_key,
    skill_board_key,
    skill_totals_key,
)
from app.platform.redis import READ_BATCH

SKILL_FINISH_SPAN = 2**30  # milliseconds: 12.4 days, beyond any date's window of about 3 days
SKILL_FINISH_ORIGIN = dt.timedelta(days=2)  # before the date's midnight UTC: before it opens
LEGACY_SKILL_TOTAL_SPAN = 10_000
# A review is kept this long after it is computed (a finished game's, at its finish): the page
# asks for it right away; a later reader computes it again (and keeps it again).
REVIEW_SECONDS = 3600


@dataclass(frozen=True)
class Board:
    """One page of a leaderboard read from Redis."""

    players: int
    top: list[tuple[str, int]]
    own_total: int | None
    own_rank: int | None


class BoardStore:
    """The points leaderboards of the days, each operation one round trip (two for a board
    page with the caller's rank)."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster)."""
        self.client = client

    def queue_rank(self, pipe, date: str, ruleset: str, game_id: str, total: int) -> None:
        """Queue in ``pipe`` a finished game's entry on the (date, ruleset) leaderboard."""
        pipe.zadd(board_key(date, ruleset), {game_id: total})

    def rank_finished(self, date: str, ruleset: str, totals: Mapping[str, int]) -> None:
        """Put finished games on the (date, ruleset) leaderboard (idempotent)."""
        if totals:
            self.client.zadd(board_key(date, ruleset), dict(totals))

    def board(self, date: str, ruleset: str, limit: int, own_game: str | None) -> Board:
        """The player count, the ``limit`` best (game id, total) and the caller's total and rank."""
        key = board_key(date, ruleset)
        pipe = self.client.pipeline(transaction=False)
        pipe.zcard(key)
        pipe.zrevrange(key, 0, limit - 1, withscores=True)
        pipe.zscore(key, own_game or "")
        players, top, own_score = pipe.execute()
        own_rank = None
        if own_score is not None:
            own_rank = self.client.zcount(key, f"({own_score}", "+inf") + 1
        return Board(
            players=players,
            top=[(game_id, int(score)) for game_id, score in top],
            own_total=None if own_score is None else int(own_score),
            own_rank=own_rank,
        )

    def count_between(self, date: str, ruleset: str,
                      bounds: Sequence[tuple[int, int]]) -> list[int]:
        """How many totals of the leaderboard fall in each inclusive (low, high) range."""
        pipe = self.client.pipeline(transaction=False)
        for low, high in bounds:
            pipe.zcount(board_key(date, ruleset), low, high)
        return pipe.execute()

    def names(self, game_ids: Sequence[str]) -> list[tuple[str, str]]:
        """The (player pseudonym, display name) of each game, in order."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "player", "name")
        return [(player or "", name or "") for player, name in pipe.execute()]


# ------------------------------------------------------------------ skill boards and references


def skill_finish(date: str, finished_at: dt.datetime | None) -> int:
    """Milliseconds from ``date``'s finish origin to ``finished_at``, within [0,
    SKILL_FINISH_SPAN); an unknown finish counts as the latest."""
    if finished_at is None:
        return SKILL_FINISH_SPAN - 1
    origin = dt.datetime.fromisoformat(date).replace(tzinfo=dt.UTC) - SKILL_FINISH_ORIGIN
    milliseconds = (finished_at - origin) // dt.timedelta(milliseconds=1)
    return min(max(milliseconds, 0), SKILL_FINISH_SPAN - 1)


def skill_score(centipoints_lost: int, date: str, finished_at: dt.datetime | None) -> int:
    """The sorted-set score of a game: lower is better (fewer centipoints lost, then finished
    earlier); the total is no part of it."""
    return centipoints_lost * SKILL_FINISH_SPAN + skill_finish(date, finished_at)


def skill_centipoints(score: float) -> int:
    """The centipoints lost of a skill score."""
    return int(score) // SKILL_FINISH_SPAN


def legacy_skill_entry(score: float) -> tuple[int, int]:
    """(centipoints lost, total) of a score of a legacy skill board."""
    score = int(score)
    centipoints = -(-score // LEGACY_SKILL_TOTAL_SPAN)  # ceiling: the total was subtracted
    return centipoints, centipoints * LEGACY_SKILL_TOTAL_SPAN - score


def _stored_time(text: str | None) -> dt.datetime | None:
    """An aware UTC time from a stored ``…Z`` timestamp, or None."""
    if not text:
        return None
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(dt.UTC)


@dataclass(frozen=True)
class SkillBoard:
    """One page of a skill board: (game id, centipoints lost, total), best first (equal
    centipoints in finish order); the caller's (centipoints lost, total) and competition
    rank."""

    players: int
    top: list[tuple[str, int, int]]
    own: tuple[int, int] | None
    own_rank: int | None


class SkillStore:
    """The skill boards, the stored day references and the coach's queues."""

    def __init__(self, client):
        """Bind to a redis-py client (plain or cluster)."""
        self.client = client

    def rank(self, date: str, ruleset: str, game_id: str, centipoints_lost: int, total: int,
             finished_at: dt.datetime | None, pipe=None) -> None:
        """Put a game that finished at ``finished_at`` on the day's skill board (idempotent);
        queued in ``pipe`` if given."""
        target = pipe or self.client.pipeline(transaction=False)
        target.hset(skill_totals_key(date, ruleset), game_id, total)
        target.zadd(skill_board_key(date, ruleset),
                    {game_id: skill_score(centipoints_lost, date, finished_at)})
        if pipe is None:
            target.execute()

    def unrank(self, date: str, ruleset: str, game_id: str) -> None:
        """Take a game off the day's skill board and drop its kept review."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(skill_board_key(date, ruleset), game_id)
        pipe.zrem(legacy_skill_board_key(date, ruleset), game_id)
        pipe.hdel(skill_totals_key(date, ruleset), game_id)
        pipe.delete(review_key(game_id))
        pipe.execute()

    def keep_review(self, game_id: str, version: int, review: str, pipe=None) -> None:
        """Keep the review (JSON text) of a game at ``version`` for REVIEW_SECONDS; queued
        in ``pipe`` if given."""
        (pipe or self.client).set(review_key(game_id), f"{version}:{review}", ex=REVIEW_SECONDS)

    def kept_review(self, game_id: str, version: int) -> str | None:
        """The kept review (JSON text) of a game at ``version``, if any."""
        kept = self.client.get(review_key(game_id))
        if kept is None:
            return None
        kept_version, _, review = kept.partition(":")
        return review if kept_version == str(version) else None

    def board(self, date: str, ruleset: str, limit: int, own_game: str | None) -> SkillBoard:
        """The player count, the ``limit`` best entries and the caller's entry and rank (one
        more than the games with fewer centipoints lost)."""
        key, totals = skill_board_key(date, ruleset), skill_totals_key(date, ruleset)
        while True:
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(legacy_skill_board_key(date, ruleset))
            pipe.zcard(key)
            pipe.zrange(key, 0, limit - 1, withscores=True)
            pipe.zscore(key, own_game or "")
            legacy, players, top, own_score = pipe.execute()
            if not legacy:
                break
            self.convert_legacy_board(date, ruleset)
        ids = [game_id for game_id, _ in top]
        pipe = self.client.pipeline(transaction=False)
        pipe.hmget(totals, [*ids, own_game or ""])
        if own_score is not None:
            band = skill_centipoints(own_score) * SKILL_FINISH_SPAN
            pipe.zcount(key, "-inf", f"({band}")
        replies = pipe.execute()
        *top_totals, own_total = replies[0]
        # A total is written before its game enters the board and deleted after it leaves:
        # a game without one was taken off between the two round trips.
        own_kept = own_score is not None and own_total is not None
        return SkillBoard(
            players=players,
            top=[(game_id, skill_centipoints(score), int(total))
                 for (game_id, score), total in zip(top, top_totals, strict=True)
                 if total is not None],
            own=(skill_centipoints(own_score), int(own_total)) if own_kept else None,
            own_rank=replies[1] + 1 if own_kept else None,
        )

    def entry(self, date: str, ruleset: str, game_id: str) -> tuple[int, int] | None:
        """(centipoints lost, total) of a ranked game, or None."""
        while True:
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(legacy_skill_board_key(date, ruleset))
            pipe.zscore(skill_board_key(date, ruleset), game_id)
            pipe.hget(skill_totals_key(date, ruleset), game_id)
            legacy, score, total = pipe.execute()
            if not legacy:
                break
            self.convert_legacy_board(date, ruleset)
        if score is None or total is None:  # off the board, or being taken off
            return None
        return skill_centipoints(score), int(total)

    def convert_legacy_board(self, date: str, ruleset: str) -> None:
        """Move the games of (date, ruleset)'s legacy skill board onto its board, READ_BATCH at
        a time, each with its finish (``finish_times``), then drop the legacy board. Readers
        that meet the legacy board convert it too: every step is idempotent, and a game the
        board already holds keeps its entry."""
        legacy = legacy_skill_board_key(date, ruleset)
        key, totals = skill_board_key(date, ruleset), skill_totals_key(date, ruleset)
        while page := self.client.zrange(legacy, 0, READ_BATCH - 1, withscores=True):
            finished = self.finish_times([game_id for game_id, _ in page])
            pipe = self.client.pipeline(transaction=False)
            for game_id, score in page:
                lost, total = legacy_skill_entry(score)
                pipe.hsetnx(totals, game_id, total)
                pipe.zadd(key, {game_id: skill_score(lost, date, finished[game_id])}, nx=True)
            pipe.zrem(legacy, *(game_id for game_id, _ in page))
            pipe.execute()

    def finish_times(self, game_ids: Sequence[str]) -> dict[str, dt.datetime | None]:
        """When each game finished, to the second, as the server recorded it: its v2 receipt's
        ``finished_at``, else its player's history's, else when it started; None if none is
        known (the game or its record is gone)."""
        pipe = self.client.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), "player", "receipt", "created_at")
        records = dict(zip(game_ids, pipe.execute(), strict=True))
        finished = {game_id: _stored_time(json.loads(receipt).get("finished_at"))
                    if receipt else None for game_id, (_, receipt, _) in records.items()}
        unknown = [game_id for game_id, moment in finished.items()
                   if moment is None and records[game_id][0]]
        pipe = self.client.pipeline(transaction=False)
        for game_id in unknown:
            pipe.hget(history_key(records[game_id][0]), game_id)
        for game_id, kept in zip(unknown, pipe.execute(), strict=True):
            finished[game_id] = (_stored_time(json.loads(kept).get("finished_at")) if kept
                                 else None) or _stored_time(records[game_id][2])
        return finished

    def queue_skill(self, game_id: str, pipe=None) -> None:
        """Remember a finished game whose loss is still to compute; queued in ``pipe`` if
        given."""
        (pipe or self.client).sadd(SKILL_PENDING, game_id)

    def pending_skill(self, count: int) -> list[str]:
        """Up to ``count`` queued games (left queued until ``skill_done``)."""
        return self.client.srandmember(SKILL_PENDING, count) or []

    def skill_done(self, game_id: str) -> None:
        """Take a game off the queue."""
        self.client.srem(SKILL_PENDING, game_id)

    def queue_references(self, date: str) -> None:
        """Remember a revealed date whose references are still to compute."""
        self.client.sadd(REFERENCES_PENDING, date)

    def pending_references(self) -> list[str]:
        """The queued dates, oldest first."""
        return sorted(self.client.smembers(REFERENCES_PENDING))

    def store_references(self, date: str, references: Mapping[str, Mapping]) -> None:
        """Keep a date's references (sheet → JSON object) and take the date off the queue."""
        if references:
            self.client.hset(references_key(date), mapping={  # holds floats: plain JSON
                ruleset: json.dumps(value, separators=(",", ":"))
                for ruleset, value in references.items()})
        self.client.srem(REFERENCES_PENDING, date)

    def references(self, date: str, ruleset: str) -> dict | None:
        """A date's stored references for one sheet, or None."""
        item = self.client.hget(references_key(date), ruleset)
        return None if item is None else json.loads(item)
