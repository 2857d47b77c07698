"""The coach's pages: a game's review turn by turn, from the same rules of access
and the same review as ``GET /api/v1/games/<id>/review``; the template is
``templates/coach/review.html``."""

from flask import render_template
from flask_babel import gettext as _

from app.coach.routes import reviewable_game
from app.platform.errors import DomainError
from app.services import services
from app.web.pages import bp
from app.web.sheets_view import sheet_view
from strategy import ValueTablesNotReady


def choice_text(choice: dict, box_names: dict[str, str]) -> str:
    """A choice as the review page writes it: a box's name, or the dice kept."""
    if choice["kind"] == "box":
        return box_names.get(choice["box"], choice["box"])
    return " ".join(str(die) for die in choice["keep"]) or _("nothing")


def best_text(choice: dict, box_names: dict[str, str]) -> str:
    """The best choice as the page writes it: a box's name, or "keep …" (a reroll)."""
    if choice["kind"] == "box":
        return choice_text(choice, box_names)
    return _("keep %(dice)s and roll", dice=choice_text(choice, box_names))


def turn_steps(review: dict, box_names: dict[str, str]) -> list[dict]:
    """The review grouped by turn: each turn's rolls, each decision after a roll (the kept
    dice or the box, against the best choice) and the turn's sums."""
    turns = {turn["turn"]: {**turn, "steps": []} for turn in review["turns"]}
    events = sorted([("roll", roll) for roll in review["rolls"]]
                    + [("decision", decision) for decision in review["decisions"]],
                    key=lambda event: (event[1]["action"], event[0] == "roll"))
    for kind, event in events:
        turn = turns.setdefault(event["turn"], {"turn": event["turn"], "box": None,
                                                "points": None, "loss": 0.0, "luck": 0.0,
                                                "steps": []})
        if kind == "roll":
            turn["steps"].append({"kind": "roll", "dice": event["dice"], "luck": event["luck"]})
        else:
            turn["steps"].append({
                "kind": event["chosen"]["kind"],
                "chosen": choice_text(event["chosen"], box_names),
                "best": best_text(event["best"], box_names),
                "optimal": event["loss"] < 0.005,
                "loss": event["loss"],
            })
    return [turns[number] for number in sorted(turns)]


@bp.get("/games/<game_id>/review")
def review(game_id: str):
    """A game's review against perfect play, turn by turn; a plain message when it cannot be
    shown (not the reader's, not finished, unknown) or is still being computed."""
    try:
        played = reviewable_game(game_id)
    except DomainError as error:
        return render_template("coach/review.html", page="review", problem=error.message,
                               review=None), error.status
    sheet = sheet_view(played.record.ruleset)
    try:
        answer = services().coach.review_json(played.record)
    except ValueTablesNotReady:
        return render_template("coach/review.html", page="review", sheet=sheet, played=played,
                               review=None, computing=True)
    box_names = {box.id: box.name for box in sheet.boxes}
    return render_template("coach/review.html", page="review", sheet=sheet, played=played,
                           review=answer, turns=turn_steps(answer, box_names),
                           total=played.game.totals().total)
