"""The sentences the page scripts show, translated on the server and handed to them as JSON.

Placeholders are ``{name}``, filled in by ``static/js/i18n.js``.
"""

from flask_babel import gettext as _


def script_messages() -> dict[str, str]:
    """Every string the browser scripts may show, in the request's language."""
    return {
        # dice and rolls
        "die": _("Die {n}: {face}"),
        "dieBlank": _("Die {n}: not rolled yet"),
        "held": _("held"),
        "roll": _("Roll"),
        "rollsLeftOne": _("1 roll left"),
        "rollsLeftMany": _("{n} rolls left"),
        "rollsLeftNone": _("No rolls left"),
        "rolling": _("Rolling…"),
        "rolled": _("You rolled {dice}."),
        # turn guidance
        "turnStart": _("Turn {turn} of {turns}: roll the dice."),
        "afterRoll": _("Keep dice by tapping them (keys 1 to 5), roll again, or pick a box."),
        "lastRoll": _("No rolls left: pick a box on the sheet."),
        "turnOf": _("Turn {turn} of {turns}"),
        "loading": _("Loading your game…"),
        # score sheet
        "boxFree": _("{name}: free"),
        "boxPreview": _("{name}: {points} points if you score it now"),
        "boxFilled": _("{name}: {points} points, filled"),
        "boxForbidden": _("{name}: not allowed now (Joker rule)"),
        "scored": _("{points} points in {name}."),
        "bonusReached": _("Bonus reached: +{bonus}"),
        "bonusMissing": _("{missing} more for the +{bonus} bonus"),
        "bonusOut": _("The bonus is out of reach"),
        "paceAhead": _("{n} ahead of par (three of each face)"),
        "paceBehind": _("{n} behind par (three of each face)"),
        "paceEven": _("Right on par (three of each face)"),
        # errors
        "errorNetwork": _("The connection dropped. Your game is safe: try again."),
        "errorServer": _("Something went wrong: {message}"),
        "resynced": _("Your game was brought up to date (it moved on in another tab)."),
        # end of game
        "copied": _("Copied! Paste it anywhere to share your score."),
        "copyRefused": _(
            "Your browser did not allow copying. The text below is selected: "
            "copy it with Ctrl+C (⌘C on a Mac) or a long press."
        ),
        "shareTitle": _("Yacht Daily"),
        # challenge status
        "status_upcoming": _("Coming up"),
        "status_open": _("Open"),
        "status_closed": _("Closed, reveal soon"),
        "status_revealed": _("Revealed"),
        "status_finished": _("Played"),
        "play": _("Play"),
        "continue": _("Continue: turn {turn} of {turns}"),
        "finishedScore": _("Your score: {total} points"),
        "seeResults": _("Results"),
        "verify": _("Verify"),
        "notPlayable": _("Not playable today"),
        "abandoned": _("This game was not finished before the day closed."),
        "nameSaved": _("Saved. It will show on the leaderboard for your next games."),
        "nameCleared": _("Name removed: you will appear under a pseudonym."),
        "nameInvalid": _("Use 1 to 24 characters: letters, digits, spaces or punctuation."),
        "daysShort": _("{d} d"),
        "now": _("any moment now"),
        # history and streaks
        "noHistory": _("No game played on this device yet. Today is a good day to start!"),
        "dayOne": _("1 day"),
        "dayMany": _("{n} days"),
        # verification
        "checking": _("Checking…"),
        "allGood": _(
            "Every check passed: this game was dealt from the committed seed and scored by "
            "the rules."
        ),
        "failedOne": _("1 check failed. This game does not match what was published."),
        "failedMany": _("{n} checks failed. This game does not match what was published."),
        "notRevealed": _("This date is not revealed yet. Come back after {time}."),
        "notFound": _("No game found with this id."),
        "sourceLocal": _("Checked with the receipt and transcript saved on this device."),
        "sourcePublic": _("Checked with the game as published after the reveal."),
        "noLocalGames": _("No finished game saved on this device yet."),
        "checkRoll": _("Roll {n}"),
        "checkBox": _("Box {box}"),
        "checkAction": _("Action {n}"),
        "check_game_complete": _("Every box filled"),
        "check_transcript": _("Transcript"),
        "groupLedger": _("The public ledger"),
        "groupDay": _("This date’s seed"),
        "groupPlay": _("Every roll and every box"),
        "groupResult": _("Total, receipt and Merkle tree"),
        "groupCount": _("{passed} of {total} passed"),
        "check_ledger_format": _("Ledger format"),
        "check_ledger_sequence": _("Ledger numbering"),
        "check_ledger_links": _("Ledger links"),
        "check_ledger_signatures": _("Ledger signatures"),
        "check_reveal_dates": _("Reveal dates"),
        "check_seed_chains": _("Seeds lead back to the anchor"),
        "check_seed_successions": _("Seeds follow one another"),
        "check_receipt_format": _("Receipt format"),
        "check_reveal": _("Date revealed"),
        "check_seed": _("Seed of the day"),
        "check_total": _("Total"),
        "check_transcript_hash": _("Transcript fingerprint"),
        "check_receipt_signature": _("Receipt signature"),
        "check_inclusion_proof": _("Receipt in the day’s Merkle tree"),
        "check_proof_size": _("Size of the day’s tree"),
        "yesMark": _("passed"),
        "noMark": _("failed"),
        "skipMark": _("not checkable"),
    }
