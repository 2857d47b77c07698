"""The ledger's page: the epoch entries, and the latest dates with their status and reveal
entry, read from the same services as the JSON API; the template is
``templates/ledger/ledger.html``."""

import datetime as dt

from flask import render_template

from app.ledger.days import day_window
from app.platform.clock import format_timestamp
from app.services import services
from app.web.pages import bp, status_label
from fairness import parse_date
from fairness.ledger import REVEAL_TYPES, is_epoch_entry

LEDGER_DAYS_SHOWN = 60
LATEST_OFFSET = dt.timedelta(hours=14)


def ledger_overview() -> dict:
    """The epoch entries, and the latest dates of the epoch with their status and reveal entry."""
    svc = services()
    svc.prepare()
    entries = svc.ledger.entries()
    reveals = {entry["date"]: entry for entry in entries
               if entry.get("type") in REVEAL_TYPES}
    epoch = svc.secrets.epoch
    now = svc.now()
    start = parse_date(svc.secrets.first_date)
    last = min((now + LATEST_OFFSET).date(), parse_date(epoch.end))
    first = max(start, last - dt.timedelta(days=LEDGER_DAYS_SHOWN - 1))
    days = []
    for offset in range((last - first).days + 1):
        date = (last - dt.timedelta(days=offset)).isoformat()
        window = svc.games.window(date)
        status = window.status(now, date in reveals)
        days.append({
            "date": date,
            "status": status,
            "status_label": status_label(status),
            "reveal_at": format_timestamp(window.reveal_at),
            "entry": reveals.get(date),
        })
    return {
        "epochs": [epoch_view(entry) for entry in entries if is_epoch_entry(entry)],
        "days": days,
    }


def epoch_view(entry: dict) -> dict:
    """An epoch entry with when its first day opened (somewhere on Earth) and when its first game
    was played, by the server's record: the commitment must come before every game, not before
    the first day opens."""
    first_game_at = services().player_store.first_game_at(entry["epoch"])
    published = _instant(entry["published_at"])
    opens_at = day_window(entry["start"], 0).opens_at
    return {
        **entry,
        "first_day_opens_at": format_timestamp(opens_at),
        "opened_before_publication": opens_at < published,
        "first_game_at": first_game_at,
        "first_game_after_publication": first_game_at is None
        or _instant(first_game_at) >= published,
    }


def _instant(timestamp: str) -> dt.datetime:
    """A timestamp of the ledger or the store (``…Z``) as an aware datetime."""
    return dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))


@bp.get("/ledger")
def ledger():
    """The public ledger: epoch anchor and key, each date's status, seed and roots."""
    return render_template("ledger/ledger.html", page="ledger", ledger=ledger_overview())
