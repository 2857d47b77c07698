"""The rules of every sheet, and its printable score sheet (PDF), in the reader's language."""

from functools import lru_cache

from flask import Response, abort, render_template, request

from app.api.errors import ApiError
from app.web.locale import LANGUAGES
from app.web.pages import bp
from app.web.sheets_view import PAPERS, language, playable_sheets, sheet_view
from fairness import RULESETS


def require_sheet(ruleset: str):
    """Any sheet a game can be played on, in the reader's language, or the 404 page."""
    if ruleset not in RULESETS:
        abort(404)
    return sheet_view(ruleset)


@bp.get("/rules")
def rules_index():
    """The rules common to every sheet, and a link to each sheet's."""
    return render_template("rules.html", page="rules", sheet=None, sheets=playable_sheets())


@bp.get("/rules/<ruleset>")
def rules(ruleset: str):
    """The rules of one sheet, box by box, with its printable score sheet."""
    return render_template("rules.html", page="rules", sheet=require_sheet(ruleset),
                           sheets=playable_sheets(), papers=PAPERS)


@lru_cache(maxsize=len(LANGUAGES) * len(RULESETS) * len(PAPERS))
def printed(ruleset: str, paper: str, language_code: str) -> bytes:
    """The PDF of one sheet, paper and language, made once per process (about half a second
    each): it depends on nothing else. ``language_code`` is the request's, which the texts
    follow. The PDF code (fpdf2, a quarter of the app's import time) is loaded on the first
    sheet a process prints."""
    from app.web.sheet_pdf import sheet_pdf

    return sheet_pdf(sheet_view(ruleset), paper, language_code)


@bp.get("/sheets/<ruleset>.pdf")
def printable_sheet(ruleset: str):
    """The sheet's score sheet as one PDF page: ``?paper=a4`` (default) or ``letter``."""
    paper = request.args.get("paper", "a4")
    if paper not in PAPERS:
        raise ApiError(400, "invalid-paper", "paper must be a4 or letter.")
    if ruleset not in RULESETS:
        raise ApiError(404, "unknown-ruleset",
                       f"Unknown sheet; the sheets are {', '.join(RULESETS)}.")
    response = Response(printed(ruleset, paper, language()), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{ruleset}-{paper}.pdf"'
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
