"""The sentences the page scripts show, translated on the server and handed to them as JSON.

Placeholders are ``{name}``, filled in by ``static/js/i18n.js``. A sentence about a number is
given in every plural form of the language (gettext's ``ngettext``), keyed by its CLDR plural
category (``one``, ``other``…), and ``plural()`` in i18n.js picks the form with the browser's
``Intl.PluralRules``: "1 point", "2 points"; in French "0 point" too.
"""

from collections.abc import Callable
from functools import cache

from babel import Locale
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

PLURAL_SAMPLES = range(0, 1000)


@cache
def plural_samples(language: str) -> dict[str, int]:
    """One number of each plural category of ``language``: {"one": 1, "other": 0} in English."""
    rule = Locale.parse(language).plural_form
    samples: dict[str, int] = {}
    for number in PLURAL_SAMPLES:
        samples.setdefault(rule(number), number)
    return samples


def plural_forms(sentence: Callable[[int], str]) -> dict[str, str]:
    """``sentence(n)`` (an ``ngettext`` call) for a number of each plural category of the
    request's language, keyed by the category."""
    return {
        category: sentence(number)
        for category, number in plural_samples(str(get_locale())).items()
    }


def script_messages() -> dict[str, str | dict[str, str]]:
    """Every string the browser scripts may show, in the request's language (a sentence about
    a number as its plural forms)."""
    return {
        # dice and rolls
        "die": _("Die {n}: {face}"),
        "dieBlank": _("Die {n}: not rolled yet"),
        "held": _("held"),
        "roll": _("Roll"),
        "rollsLeft": plural_forms(lambda n: ngettext("{n} roll left", "{n} rolls left", n)),
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
        "boxPreview": plural_forms(lambda n: ngettext(
            "{name}: {n} point if you score it now", "{name}: {n} points if you score it now", n
        )),
        "boxFilled": plural_forms(lambda n: ngettext(
            "{name}: {n} point, filled", "{name}: {n} points, filled", n
        )),
        "boxForbidden": _("{name}: not allowed now (Joker rule)"),
        "scored": plural_forms(lambda n: ngettext(
            "{n} point in {name}.", "{n} points in {name}.", n
        )),
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
        "rankSoFar": plural_forms(lambda n: ngettext(
            "Your rank so far: {rank} of {n} player.", "Your rank so far: {rank} of {n} players.", n
        )),
        "revealAt": _(
            "Everyone’s dice are revealed on {time}, in {in}: then you can check every roll."
        ),
        "revealedAt": _("The day’s dice were revealed on {time}: you can check every roll now."),
        "nextChallenge": _("The next challenge starts at midnight, your time: in {in}."),
        # a date that cannot be played
        "dayOverTitle": _("The challenge of {date} is over"),
        "dayNotYetTitle": _("The challenge of {date} has not started"),
        "dayNotYet": _("It opens on {time}. Today’s challenge is waiting for you."),
        "dayClosed": _(
            "No more games on this date; its dice are revealed on {time}. Its best scores so far:"
        ),
        "dayRevealed": _("Its dice are revealed and every game can be checked. Its best scores:"),
        "boardRow": plural_forms(lambda n: ngettext(
            "{rank}. {name}: {n} point", "{rank}. {name}: {n} points", n
        )),
        "noGamesThatDay": _("Nobody finished a game on this date."),
        # challenge status
        "status_upcoming": _("Coming up"),
        "status_open": _("Open"),
        "status_closed": _("Closed, reveal soon"),
        "status_revealed": _("Revealed"),
        "status_finished": _("Played"),
        "play": _("Play"),
        "continue": _("Continue: turn {turn} of {turns}"),
        "finishedScore": plural_forms(lambda n: ngettext(
            "Your score: {n} point", "Your score: {n} points", n
        )),
        "seeResults": _("Results"),
        "verify": _("Verify"),
        "notPlayable": _("Not playable today"),
        "abandoned": _("This game was not finished before the day closed."),
        "nameSaved": _("Saved. It will show on the leaderboard for your next games."),
        "nameCleared": _("Name removed: you will appear under a pseudonym."),
        "nameInvalid": _("Use 1 to 24 characters: letters, digits, spaces or punctuation."),
        "daysShort": _("{d} d"),
        "nextChallengeHome": _("at midnight, your time: in {in}"),
        "revealHome": _("{time}: in {in}"),
        "now": _("any moment now"),
        # history and streaks
        "days": plural_forms(lambda n: ngettext("{n} day", "{n} days", n)),
        # the player's record and transfer codes
        "localOnlyGames": _(
            "This device also saved games from before the server kept your record. They are "
            "not counted here: from now on the server’s record is the one that counts. They "
            "stay on this device for the Verify page."
        ),
        "codeMade": _("Your transfer code is ready."),
        "codeExpires": _("Type it on the other device before {time}. It works once."),
        "codeRedeemed": _("Done: this browser now holds your record."),
        # verification
        "checking": _("Checking…"),
        "allGood": _(
            "Every check passed: this game was dealt from the committed seed and scored by "
            "the rules."
        ),
        "failed": plural_forms(lambda n: ngettext(
            "{n} check failed. This game does not match what was published.",
            "{n} checks failed. This game does not match what was published.",
            n,
        )),
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
        "sumRollsOk": plural_forms(lambda n: ngettext(
            "Your {n} roll matches the revealed seed.",
            "Your {n} rolls match the revealed seed.",
            n,
        )),
        "sumRollsBad": plural_forms(lambda n: ngettext(
            "Your {n} roll does not match the revealed seed.",
            "Your {n} rolls do not all match the revealed seed.",
            n,
        )),
        "sumBoxesOk": _("Every box was scored by the rules."),
        "sumBoxesBad": _("Some boxes were not scored by the rules."),
        "sumTotalOk": plural_forms(lambda n: ngettext(
            "Your total of {n} point is right and signed.",
            "Your total of {n} points is right and signed.",
            n,
        )),
        "sumTotalBad": plural_forms(lambda n: ngettext(
            "Your total of {n} point does not match your game or its signature.",
            "Your total of {n} points does not match your game or its signature.",
            n,
        )),
        "sumPublishedOk": _("Your game is in the published results."),
        "sumPublishedBad": _("Your game is not in the published results."),
        "sumLedgerOk": _("The public ledger is whole and signed."),
        "sumLedgerBad": _("The public ledger does not hold together."),
        "allChecks": plural_forms(lambda n: ngettext(
            "The {n} check in detail", "All {n} checks in detail", n
        )),
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
        "check_receipt_in_log": _("Receipt in the day’s log"),
        "check_receipt_time": _("Finished before its checkpoint"),
        # practice and games against the computer
        "opponentN": _("Opponent {n}"),
        "clientSeedInvalid": _("A client seed is 1 to 64 letters, digits or - . _ ~."),
        "botName": _("Computer {n} ({level})"),
        "youName": _("You"),
        "kindPractice": _("Practice"),
        "kindComputer": _("Against the computer"),
        "matchExpired": _("This game was left unplayed for a day: it has ended, and its seed "
                          "is revealed."),
        "computerPlaying": _("The computer is playing…"),
        "botRolled": _("{name} rolled {dice}."),
        "botScored": plural_forms(lambda n: ngettext(
            "{name} scored {n} point in {box}.", "{name} scored {n} points in {box}.", n)),
        "soloTotal": plural_forms(lambda n: ngettext(
            "You scored {n} point.", "You scored {n} points.", n)),
        "youWon": _("You won!"),
        "youTiedFirst": _("You tied for first place: every player tied at the top wins."),
        "youRanked": _("You finished number {rank} of {players}."),
        "rankRow": plural_forms(lambda n: ngettext("{name}: {n} point", "{name}: {n} points", n)),
        "reviewLoss": _("You gave away {loss} points of expectation to perfect play."),
        "reviewMistake": _("Turn {turn}, dice {dice}: you chose {chosen}, best was {best} "
                           "({loss} points)."),
        "reviewComputing": _("The review is being computed; it will appear here in a moment."),
        "keepDice": _("keep {dice} and roll"),
        "keepNothing": _("nothing"),
        "matchAllGood": _("Every check passed: every player’s dice came from the committed "
                          "seed and your client seed, and every score follows the rules."),
        "hintBoth": _("Best: {best} (expected final score {bestEv}). Next best: {next} "
                      "({nextEv})."),
        "hintOne": _("Best: {best} (expected final score {bestEv})."),
        "yesMark": _("passed"),
        "noMark": _("failed"),
        "skipMark": _("not checkable"),
        # a friend's share text against the day's log
        "friendNoLine": _(
            "No line “log <date>/<sheet> <size> XXXX-XXXX-XXXX-XXXX-XXXX” in this text: paste the "
            "whole result your friend shared."
        ),
        "friendNoLog": _("There is no log of finished games for {date} on this site."),
        "friendLogBad": _(
            "The list of finished games this browser is shown for {date} does not verify: do "
            "not trust this site’s results for that day."
        ),
        "friendMatch": plural_forms(lambda n: ngettext(
            "Match: this browser is shown the same signed list of finished games as your "
            "friend ({n} game, {fingerprint}).",
            "Match: this browser is shown the same signed list of finished games as your "
            "friend ({n} games, {fingerprint}).",
            n,
        )),
        "friendFork": plural_forms(lambda n: ngettext(
            "Mismatch: your friend was shown a list of {n} game with the fingerprint "
            "{fingerprint}, this browser one with {ours}. The site showed you two different "
            "histories: keep both results.",
            "Mismatch: your friend was shown a list of {n} games with the fingerprint "
            "{fingerprint}, this browser one with {ours}. The site showed you two different "
            "histories: keep both results.",
            n,
        )),
        # a table's live updates
        "streamPaused": plural_forms(lambda n: ngettext(
            "Live updates are paused: the server is holding as many live tables as it can. "
            "Trying again in {n} second…",
            "Live updates are paused: the server is holding as many live tables as it can. "
            "Trying again in {n} seconds…",
            n,
        )),
        "friendMissing": plural_forms(lambda n: ngettext(
            "Mismatch: this browser is shown no list of {n} game with the fingerprint "
            "{fingerprint}. Your friend was shown another history, or the text was changed.",
            "Mismatch: this browser is shown no list of {n} games with the fingerprint "
            "{fingerprint}. Your friend was shown another history, or the text was changed.",
            n,
        )),
    }


def api_error_messages() -> dict[str, str]:
    """What the page says for each error code the API (or the page's own fetch) can answer, in
    the request's language; a code missing here shows the API's own message.

    ``joker-forbids`` is missing on purpose: the API explains that refusal in the request's
    language already, naming the box the rule asks for.
    """
    unavailable = _("The server is not answering right now; try again in a few seconds.")
    return {
        # the connection, and answers a proxy gives without the API's JSON
        "network": _("The connection dropped; check your network and try again."),
        "http-502": unavailable,
        "http-503": unavailable,
        "http-504": unavailable,
        # the request itself
        "bad-request": _("The request is malformed."),
        "unsupported-media-type": _("The request was not sent as JSON."),
        "invalid-json": _("The request is not valid JSON."),
        "invalid-body": _("The request is not what this address expects."),
        "invalid-field": _("A field of the request is missing or has the wrong type."),
        "request-entity-too-large": _("The request is too large."),
        "not-found": _("This address does not exist."),
        "method-not-allowed": _("This address does not take this kind of request."),
        "too-many-requests": _(
            "Too many requests from your connection: wait a moment, then try again."
        ),
        # sheets, dates and names
        "unknown-ruleset": _("This sheet is not one of the daily sheets."),
        "not-a-daily-sheet": _("This sheet has no daily challenge on this date."),
        "invalid-paper": _("The printable sheet comes in A4 or US Letter."),
        "unknown-category": _("This box is not on the sheet."),
        "invalid-date": _("This is not a calendar date (YYYY-MM-DD)."),
        "chain-error": _("There is no challenge on this date."),
        "date-not-today": _("This date is not today anywhere on Earth: no new game can start."),
        "day-closed": _("This day’s challenge is closed: no more moves can be played."),
        "invalid-name": _("Use 1 to 24 characters: letters, digits, spaces or punctuation."),
        # games and moves
        "game-not-found": _("No game found with this id."),
        "not-your-game": _(
            "This game belongs to another player; it becomes public once its date is revealed."
        ),
        "stale-action": _("Your game moved on meanwhile (in another tab?): reload the page."),
        "busy": _("The game changed too often meanwhile; try again."),
        "illegal-move": _("The rules do not allow this move now."),
        "invalid-hold": _("The dice to keep must be five yes-or-no choices."),
        "hold-on-first-roll": _("No die can be kept before the turn’s first roll."),
        "no-rolls-left": _("No rolls left this turn: pick a box."),
        "not-rolled": _("Roll the dice before picking a box."),
        "box-filled": _("This box is already filled."),
        "game-over": _("The game is over: every box is filled."),
        "invalid-dice": _("Dice must be five whole numbers from 1 to 6."),
        "invalid-seed": _("A seed must be 64 hexadecimal digits."),
        "replay-mismatch": _("The transcript does not match the dice and the rules."),
        "fairness-error": _("The game data is not valid."),
        # the player's record and transfer codes
        "no-identity": _("This browser has no games yet: there is nothing to carry over."),
        "invalid-code": _("A transfer code is 10 letters and digits, like ABCDE-23456."),
        "unknown-code": _(
            "This code is unknown, already used or expired: make a new one on the other device."
        ),
        # results, ledger and verification
        "not-finished": _("The game is not finished yet."),
        "invalid-limit": _("The leaderboard size must be a whole number from 1 to 100."),
        "invalid-cursor": _("The page cursor must be a game id."),
        "not-revealed": _("This date is not revealed yet."),
        # the coach
        "invalid-order": _("A leaderboard is ranked by points or by skill."),
        "tables-not-ready": _("The strategy tables are being computed; try again in a minute."),
        "references-not-ready": _("The day’s references are being computed; try again soon."),
        "no-proof": _("A proof exists only for a finished game, once its date is revealed."),
        "no-receipt": _("Only a finished game has a receipt to verify."),
        "ledger-error": _("A ledger entry, receipt or proof is malformed."),
        # the day's log
        "unknown-log": _("This date and sheet have no log of finished games."),
        "no-checkpoint": _("This log has no checkpoint yet."),
        "invalid-size": _("That is not the size of a checkpoint of this log."),
        "bad-cosignature": _("This cosignature is malformed or does not verify."),
        "unknown-witness": _("This witness is not one the service trusts."),
        "unknown-checkpoint": _("This log cut no such checkpoint."),
        "implausible-time": _(
            "This cosignature’s time is before its checkpoint or too far ahead of our clock."
        ),
        "stale-cosignature": _("This witness already cosigned this checkpoint at a later time."),
        # practice and games against the computer
        "match-not-found": _("No such game (or it ended more than a week ago and was removed)."),
        "not-your-match": _("You have no seat in this game."),
        "not-your-turn": _("It is not your turn yet."),
        "match-over": _("This game is over."),
        "client-seed-required": _("Your first roll needs your client seed."),
        "invalid-client-seed": _("A client seed is 1 to 64 letters, digits or - . _ ~."),
        "client-seed-fixed": _("Your client seed is fixed since your first roll."),
        "waiting-for-seeds": _("Waiting for every player’s client seed."),
        "no-dice": _("Roll first: a hint needs your dice."),
        "no-hints": _("Hints are for practice and games against the computer only."),
        "invalid-bots": _("Choose at most 5 computer opponents, each with a known level."),
        "invalid-seat": _("There is no such seat in this game."),
        "invalid-match": _("The game data is not valid."),
        # tables
        "table-not-found": _("No table has this id or code (or it ended long ago)."),
        "invalid-clock": _("The turn clock is a whole number of seconds from 3 to 600, or none."),
        "invalid-seats": _("A table has 2 to 6 seats, each a friend, a player here or a bot."),
        "table-started": _("The table has started: watch it instead."),
        "table-full": _("Every seat of the table is taken."),
        "not-creator": _("Only the table’s creator starts it."),
        "seats-open": _("Some seats are still waiting for a friend."),
        "table-waiting": _("The table has not started yet."),
        "too-many-streams": _(
            "Your connection holds as many live tables as it may; close one, or try again later."
        ),
        "streams-busy": _(
            "The server is holding as many live tables as it can; try again in a moment."
        ),
        # the server
        "storage-unavailable": _(
            "The game store is unavailable for a moment; try again in a few seconds."
        ),
        "misconfigured": _("This server is being reconfigured; try again later."),
        "overloaded": _("The server is busy; trying again in a moment…"),
        "clock-unreadable": _("This server cannot read its clock; try again later."),
        "internal-error": _("Something went wrong on our side."),
    }

