"""A player's own record, kept on the server under their identity: every daily game they started,
its status and total, their streaks, best scores and the distribution of their totals, and,
apart, their practice games and games against the computer (``app/matches``), which count
for none of the daily figures.

The games' store writes the records where games are created and finished, through the players'
store (``store.py``); this module reads them and works out what the history page and
``GET /api/v1/me/history`` show.
"""

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from app.daily.actions import ABANDONED, FINISHED, PLAYING
from app.ledger.days import day_window
from app.players.store import HISTORY_LIMIT
from fairness import parse_date

if TYPE_CHECKING:
    from app.services import Services

BUCKET_WIDTH = 25


def streaks(dates: Iterable[str], now: dt.datetime, grace_seconds: int) -> tuple[int, int]:
    """(current, best) runs of consecutive dates among ``dates``.

    The current run is the one ending on the latest date, while it can still go on: until the
    date after it has ended everywhere on Earth (a player may play any date that is today
    somewhere), so no time zone of the player's is needed.
    """
    days = sorted({parse_date(date) for date in dates})
    best = run = 0
    previous = None
    for day in days:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    if previous is None:
        return 0, 0
    following = day_window(previous + dt.timedelta(days=1), grace_seconds)
    return (run if now < following.ends_at else 0), best


def distribution(totals: list[int]) -> list[dict]:
    """The totals counted in buckets of BUCKET_WIDTH points from 0 up to the highest one (the
    leaderboard's buckets)."""
    if not totals:
        return []
    return [{"from": low, "to": low + BUCKET_WIDTH - 1,
             "count": sum(low <= total < low + BUCKET_WIDTH for total in totals)}
            for low in range(0, max(totals) + 1, BUCKET_WIDTH)]


def player_history(svc: "Services", player: str | None) -> dict:
    """The record of ``player`` (None: a browser with no identity yet, an empty record)."""
    now = svc.now()
    grace = svc.games.grace_seconds
    pseudonym = svc.secrets.pseudonym(player) if player else None
    records = svc.player_store.history(pseudonym) if pseudonym else []
    games = _with_status(svc, records, now)
    finished = [game for game in games if game["status"] == FINISHED]
    current, best = streaks((game["date"] for game in finished), now, grace)
    sheets = []
    for ruleset in svc.games.offered_rulesets():
        own = [game for game in finished if game["ruleset"] == ruleset]
        sheet_current, sheet_best = streaks((game["date"] for game in own), now, grace)
        totals = [game["total"] for game in own]
        sheets.append({
            "ruleset": ruleset,
            "finished": len(own),
            "current_streak": sheet_current,
            "best_streak": sheet_best,
            "best_total": max(totals, default=None),
            "distribution": distribution(totals),
        })
    return {
        "player": pseudonym,
        "limit": HISTORY_LIMIT,
        "finished": len(finished),
        "current_streak": current,
        "best_streak": best,
        "sheets": sheets,
        "games": games,
        "matches": svc.matches.player_matches(pseudonym),
    }


def _with_status(svc: "Services", records: list[dict], now: dt.datetime) -> list[dict]:
    """The records with each game's status. The games the record has as unfinished are looked up
    (their receipts, one pipeline): one may have finished without its record noting it (say
    Redis failed between the game's write and the record's)."""
    unfinished = [record["game"] for record in records if not record["finished"]]
    receipts = svc.game_store.game_receipts(unfinished) if unfinished else {}
    games = []
    for record in records:
        game = dict(record)
        receipt = receipts.get(record["game"])
        if receipt is not None:
            game.update(finished=True, total=receipt["total"])
        if game["finished"]:
            game["status"] = FINISHED
        elif record["game"] in receipts and svc.games.window(record["date"]).accepts_actions(now):
            game["status"] = PLAYING
        else:
            game["status"] = ABANDONED
        games.append(game)
    return games
