"""The player's record page: streaks, best scores, the distribution of totals, every game, and
the transfer code that carries it all to another device (``static/js/history-page.js``); the
template is ``templates/players/history.html``."""

from flask import render_template

from app.boards.histogram import histogram
from app.players import history as record
from app.players import service as players
from app.services import services
from app.web.pages import bp
from app.web.sheets_view import daily_sheets, sheet_view
from fairness import RULESETS


@bp.get("/history")
def history():
    """The player's own record: streaks, best scores, distribution of totals, every game, and
    the transfer code that carries it all to another device."""
    svc = services()
    svc.prepare()
    kept = record.player_history(svc, players.current_player())
    return render_template(
        "players/history.html",
        page="history",
        record=kept,
        sheets=[(sheet, summary, histogram(summary["distribution"]))
                for sheet, summary in zip(daily_sheets(), kept["sheets"], strict=True)],
        sheet_names={ruleset: sheet_view(ruleset).name for ruleset in RULESETS},
        revealed_through=svc.ledger.last_revealed(),
    )
