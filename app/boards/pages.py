"""What the results and ledger pages show, read from the same services as the JSON API."""

import datetime as dt

from flask import current_app
from flask_babel import gettext as _

from app.ledger.days import CLOSED, OPEN, REVEALED, UPCOMING, day_window
from app.platform.clock import format_timestamp
from app.players import service as players
from app.services import services
from fairness import parse_date
from fairness.ledger import REVEAL_TYPES, is_epoch_entry

LEDGER_DAYS_SHOWN = 60
LATEST_OFFSET = dt.timedelta(hours=14)


def status_label(status: str) -> str:
    """A date's status in the reader's language."""
    return {
        UPCOMING: _("Coming up"),
        OPEN: _("Open"),
        CLOSED: _("Closed, reveal soon"),
        REVEALED: _("Revealed"),
    }[status]


def today() -> str:
    """The current UTC date on the service's clock."""
    return services().now().date().isoformat()


def standings(date: str, ruleset: str) -> dict:
    """The API's leaderboard of (date, sheet), plus the reader's own pseudonym to mark their row.

    The leaderboard is the API's own answer (same ranks, same buckets), rendered server-side.
    """
    view = current_app.view_functions["api.leaderboard"]
    board = view(date=date, ruleset=ruleset).get_json()
    player = players.current_player()
    board["you_player"] = services().secrets.pseudonym(player) if player else None
    return board


def skill_standings(date: str, ruleset: str) -> dict:
    """The API's skill board of (date, sheet), with the reader's pseudonym."""
    from app.boards.routes import DEFAULT_BOARD_SIZE, skill_board

    player = players.current_player()
    own = services().games.game_id(player, date, ruleset) if player else None
    board = skill_board(date, ruleset, DEFAULT_BOARD_SIZE, own)
    board["you_player"] = services().secrets.pseudonym(player) if player else None
    return board


def references(date: str, ruleset: str, revealed: bool) -> dict | None:
    """A revealed day's references on one sheet (None before the reveal); ``{"computing":
    True}`` while the background computes them."""
    if not revealed:
        return None
    found = services().coach.references(date, ruleset)
    if found is None:
        return {"computing": True}
    return {"computing": False, "foresight": found["foresight"]["total"],
            "perfect": found["perfect"]["total"], "scouting": found.get("scouting")}


def day_summary(date: str) -> dict:
    """A date's status, reveal time and neighbours, for the results page."""
    svc = services()
    svc.prepare()
    window = svc.games.window(date)
    status = window.status(svc.now(), svc.ledger.is_revealed(date))
    day = parse_date(date)
    return {
        "status": status,
        "status_label": status_label(status),
        "reveal_at": format_timestamp(window.reveal_at),
        "previous": (None if date <= svc.secrets.first_date
                     else (day - dt.timedelta(days=1)).isoformat()),
        "next": (day + dt.timedelta(days=1)).isoformat(),
    }


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
