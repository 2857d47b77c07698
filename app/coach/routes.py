"""The coach in the JSON API (docs/api.md, docs/strategy.md): a game's review against perfect
play, and a revealed day's references (the perfect-policy game, the perfect-foresight maximum).
Routes on the API's blueprint (``app.api.blueprint``); an answer that needs a strategy table still
being computed is a 503 ``tables-not-ready`` with Retry-After."""

from app.api.blueprint import bp
from app.api.errors import COMPUTING_RETRY_AFTER, ApiError, tables_not_ready
from app.api.request import daily_ruleset, plain_json
from app.daily.routes import visible_game
from app.daily.service import Played
from app.daily.views import revealed_answer
from app.ledger.days import service_date
from app.services import services
from strategy import ValueTablesNotReady


@bp.get("/games/<game_id>/review")
def game_review(game_id: str):
    """The review of a game against perfect play: the owner's once finished, anyone's once
    its date is revealed."""
    played = reviewable_game(game_id)
    try:
        review = services().coach.review_json(played.record)
    except ValueTablesNotReady:
        raise tables_not_ready() from None
    return plain_json({"game": played.record.id, "date": played.record.date,
                       "player": played.record.player, "name": played.record.name or None,
                       "total": played.game.totals().total, **review})


def reviewable_game(game_id: str) -> Played:
    """The game if this caller may see its review, else the API's 403/404/409."""
    played = visible_game(game_id)
    if not played.game.finished and not services().ledger.is_revealed(played.record.date):
        raise ApiError(409, "not-finished", "A game's review opens when the game is finished.")
    return played


@bp.get("/days/<date>/<ruleset>/references")
def day_references(date: str, ruleset: str):
    """A revealed day's perfect-policy game and perfect-foresight maximum on one sheet."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    if not services().ledger.is_revealed(date):
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    references = services().coach.references(date, ruleset)
    if references is None:  # a 404 like ``not-revealed``: not there yet, soon
        error = ApiError(404, "references-not-ready",
                         "The day's references are being computed; try again shortly.")
        error.headers["Retry-After"] = COMPUTING_RETRY_AFTER
        raise error
    return revealed_answer({"date": date, "ruleset": ruleset, **references})
