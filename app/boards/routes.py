"""A day's boards in the JSON API (docs/api.md): the leaderboard of a (date, sheet), by points
(the best totals, the caller's rank, the distribution of totals) or by skill (the fewest points
lost to perfect play). Routes on the API's blueprint (``app.api.blueprint``); the results pages
render the same answers (``views.py``)."""

from flask import jsonify, request

from app.api.blueprint import bp
from app.api.errors import ApiError
from app.api.params import query_limit
from app.api.request import daily_ruleset
from app.ledger.days import service_date
from app.players import service as players
from app.services import services

DEFAULT_BOARD_SIZE = 10
MAX_BOARD_SIZE = 100
BUCKET_WIDTH = 25


@bp.get("/leaderboard/<date>/<ruleset>")
def leaderboard(date: str, ruleset: str):
    """The best totals of a (date, sheet), the caller's rank and the distribution of totals."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    limit = query_limit(DEFAULT_BOARD_SIZE, MAX_BOARD_SIZE)
    player = players.current_player()
    own = services().games.game_id(player, date, ruleset) if player else None
    if board_order() == "skill":
        return jsonify(skill_board(date, ruleset, limit, own))
    store = services().board_store
    board = store.board(date, ruleset, limit, own)
    names = store.names([game_id for game_id, _ in board.top])
    top, rank = [], 0
    for position, ((_, total), (pseudonym, name)) in enumerate(zip(board.top, names, strict=True)):
        if not top or total != top[-1]["total"]:
            rank = position + 1
        top.append({"rank": rank, "player": pseudonym, "name": name or None, "total": total})
    highest = board.top[0][1] if board.top else -1
    bounds = [(low, low + BUCKET_WIDTH - 1) for low in range(0, highest + 1, BUCKET_WIDTH)]
    counts = store.count_between(date, ruleset, bounds) if bounds else []
    return jsonify({
        "date": date,
        "ruleset": ruleset,
        "players": board.players,
        "top": top,
        "you": None if board.own_rank is None else {"rank": board.own_rank,
                                                     "total": board.own_total},
        "distribution": [{"from": low, "to": high, "count": count}
                         for (low, high), count in zip(bounds, counts, strict=True)],
    })


def board_order() -> str:
    """The leaderboard's ``?by=``: ``points`` (the default) or ``skill``, else a 400."""
    order = request.args.get("by", "points")
    if order not in ("points", "skill"):
        raise ApiError(400, "invalid-order", "by must be 'points' or 'skill'.")
    return order


def skill_board(date: str, ruleset: str, limit: int, own: str | None) -> dict:
    """The skill board of (date, sheet): fewest expected points lost first, in hundredths;
    equal losses share a competition rank and are listed in finish order (the total, luck's
    part, never breaks a tie)."""
    board = services().coach.skill.board(date, ruleset, limit, own)
    names = services().board_store.names([game_id for game_id, _, _ in board.top])
    top, rank = [], 0
    for position, ((_, lost, total), (pseudonym, name)) in enumerate(
            zip(board.top, names, strict=True)):
        if position == 0 or lost != board.top[position - 1][1]:
            rank = position + 1
        top.append({"rank": rank, "player": pseudonym, "name": name or None,
                    "loss": lost / 100, "total": total})
    return {
        "date": date,
        "ruleset": ruleset,
        "by": "skill",
        "players": board.players,
        "top": top,
        "you": None if board.own is None else {"rank": board.own_rank,
                                                "loss": board.own[0] / 100,
                                                "total": board.own[1]},
    }
