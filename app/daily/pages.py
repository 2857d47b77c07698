"""The daily game's pages: the game of the day on one sheet, which the browser plays through
``/api/v1/games`` (``static/js/play.js``; the template is ``templates/daily/play.html``), and
the archive of past days: the revealed dates and their sheets, and a past day played again as
practice in the browser on that day's published dice (``static/js/archive-play.js``, checked
and ranked by ``POST /api/v1/days/<date>/<sheet>/replay``; ``templates/daily/archive*.html``)."""

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from app.daily import past_day
from app.daily.share import TURN_MARKS
from app.ledger.days import service_date
from app.services import services
from app.web.messages import plural_forms
from app.web.pages import bp, require_daily_sheet
from app.web.sheets_view import daily_sheets, sheet_view
from fairness import InvalidDate


@bp.get("/play/<ruleset>")
def play(ruleset: str):
    """The game of the day on one sheet: dice, Roll button, score sheet."""
    return render_template(
        "daily/play.html", page="play", sheet=require_daily_sheet(ruleset), sheets=daily_sheets(),
        turn_marks=[mark for _, mark in TURN_MARKS], end_card_messages=end_card_messages(),
    )


def end_card_messages() -> dict[str, str | dict[str, str]]:
    """The daily end card's own sentences (play.js adds them to the script messages): this game
    among the player's own, the day's skill rank, the countdown to the next challenge."""
    return {
        "endSkillRank": _("{rank} of {n}"),
        "ownFirst": _("Your first game on this sheet."),
        "ownBest": plural_forms(lambda n: ngettext(
            "Your best of {n} game on this sheet!", "Your best of {n} games on this sheet!", n)),
        "ownRank": plural_forms(lambda n: ngettext(
            "Your {rank} best of {n} game on this sheet.",
            "Your {rank} best of {n} games on this sheet.", n)),
        "thisGame": _("this game"),
        "nextChallengeIn": _("The next challenge starts in {in}"),
        "nextChallengeOpen": _("The next challenge is open."),
    }


def archive_messages() -> dict[str, str]:
    """The archive play page's own sentences (archive-play.js adds them to the script
    messages)."""
    return {
        "archiveJoker": _("Joker rule: these dice may only go in {boxes}."),
        "archiveVerifying": _("Checking every roll against the published seed…"),
        "archiveVerified": _(
            "Verified: every roll is the dice of the seed published for this day, and that "
            "seed is the one the ledger committed to (day {day} of epoch {epoch})."
        ),
        "archiveNotVerified": _("Not verified: {detail}"),
        "archiveRanking": _("Asking where this game would have ranked…"),
        "archivePoints": _("On points: would have been {rank} of {players}."),
        "archiveSkill": _("On skill: would have been {rank} of {players}."),
        "archiveComputing": _("The skill figures are being computed; trying again shortly…"),
        "archiveRankFailed": _("The ranking could not be read: {message}"),
    }


def _chosen_date(text: str | None) -> str | None:
    """The date the archive's date field asks for, or None (absent or not a date)."""
    if not text:
        return None
    try:
        return service_date(text)
    except InvalidDate:
        return None


@bp.get("/archive")
def archive():
    """The revealed dates, newest first, each with its daily sheets to play again; a date
    field reaches older ones."""
    svc = services()
    svc.prepare()
    last = svc.ledger.last_revealed()
    first = svc.secrets.first_date
    asked = request.args.get("date")
    chosen = _chosen_date(asked)
    sheets: dict[str, object] = {}

    def day(date: str) -> dict:
        """A revealed date and its daily sheets."""
        rulesets = svc.secrets.rulesets_for(date)
        for ruleset in rulesets:
            sheets.setdefault(ruleset, sheet_view(ruleset))
        return {"date": date, "sheets": [sheets[ruleset] for ruleset in rulesets]}

    revealed = chosen is not None and last is not None and first <= chosen <= last
    return render_template(
        "daily/archive.html", page="archive",
        days=[day(date) for date in past_day.archive_dates(first, last)],
        chosen=day(chosen) if revealed else None,
        refused=asked if asked and not revealed else None,
        first_date=first, last_revealed=last,
    )


@bp.get("/archive/<date>/<ruleset>")
def archive_play(date: str, ruleset: str):
    """A revealed day played again as practice on that day's dice, in the browser; a date not
    revealed yet goes back to the archive, which says so."""
    try:
        date = service_date(date)
    except InvalidDate:
        abort(404)
    svc = services()
    svc.prepare()
    if not svc.ledger.is_revealed(date):
        return redirect(url_for("web.archive", date=date))
    daily = svc.secrets.rulesets_for(date)
    if ruleset not in daily:
        abort(404)
    keys = svc.secrets.for_date(date)
    entry = svc.ledger.reveal_entry(date)
    return render_template(
        "daily/archive_play.html", page="archive", sheet=sheet_view(ruleset), date=date,
        sheets=[sheet_view(other) for other in daily],
        dealt={"date": date, "ruleset": ruleset, "seed": entry["seed"], "epoch": entry["epoch"],
               "day": entry["day"], "dealing": keys.epoch.dealing},
        page_messages=archive_messages(),
    )
