"""The sentences the page scripts show, translated on the server and handed to them as JSON.

Placeholders are ``{name}``, filled in by ``static/js/i18n.js``. A sentence about a number is
given in every plural form of the language (gettext's ``ngettext``), keyed by its CLDR plural
category (``one``, ``other``…), and ``plural()`` in i18n.js picks the form with the browser's
``Intl.PluralRules``: "1 point", "2 points"; in French "0 point" too. ``ordinal`` holds the
forms of a rank by CLDR ordinal category ("1st", "2nd"; "1er", "2e"), ``levels`` the computer
opponents' levels (``strategy.bots.LEVELS``) by name, which the templates read here too.
"""

from collections.abc import Callable
from functools import cache

from babel import Locale
from flask_babel import get_locale, ngettext, pgettext
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


def level_names() -> dict[str, str]:
    """The computer opponents' levels (``strategy.bots.LEVELS`` ids) in the reader's language."""
    return {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard"),
            "perfect": _("Perfect")}


def ordinal_forms() -> dict[str, str]:
    """A rank ``{n}`` by CLDR ordinal category; French uses two of English's four, Hungarian
    writes every rank "{n}." (its categories ``one`` and ``other``)."""
    return {"one": pgettext("ordinal one", "{n}st"), "two": pgettext("ordinal two", "{n}nd"),
            "few": pgettext("ordinal few", "{n}rd"), "other": pgettext("ordinal other", "{n}th")}


def script_messages() -> dict[str, str | dict[str, str]]:
    """Every string the browser scripts may show, in the request's language (a sentence about
    a number as its plural forms)."""
    return {
        "ordinal": ordinal_forms(),
        "levels": level_names(),
        **table_messages(),
        **group_messages(),
        **log_monitor_messages(),
        # dice and rolls
        "die": _("Die {n}: {face}"),
        "dieHeld": _("Die {n}: {face}, held"),
        "dieBlank": _("Die {n}: not rolled yet"),
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
        "youRanked": _("You finished {rank} of {players}."),
        "rankRow": plural_forms(lambda n: ngettext("{name}: {n} point", "{name}: {n} points", n)),
        "reviewLoss": plural_forms(lambda n: ngettext(
            "You gave away {n} point of expectation to perfect play.",
            "You gave away {n} points of expectation to perfect play.", n)),
        "reviewMistake": plural_forms(lambda n: ngettext(
            "Turn {turn}, dice {dice}: you chose {chosen}, best was {best} ({n} point).",
            "Turn {turn}, dice {dice}: you chose {chosen}, best was {best} ({n} points).", n)),
        "seatReviewLoss": plural_forms(lambda n: ngettext(
            "{name} gave away {n} point of expectation to perfect play.",
            "{name} gave away {n} points of expectation to perfect play.", n)),
        "seatMistake": plural_forms(lambda n: ngettext(
            "Turn {turn}, dice {dice}: {name} chose {chosen}, best was {best} ({n} point).",
            "Turn {turn}, dice {dice}: {name} chose {chosen}, best was {best} ({n} points).", n)),
        "reviewComputing": _("The review is being computed; it will appear here in a moment."),
        "keepDice": _("keep {dice} and roll"),
        "keepNothing": _("nothing"),
        "matchAllGood": _("Every check passed: every player’s dice came from the committed "
                          "seed and your client seed, and every score follows the rules."),
        "hintBoth": _("Best: {best} (expected final score {bestEv}). Next best: {next} "
                      "({nextEv})."),
        "hintOne": _("Best: {best} (expected final score {bestEv})."),
        "checkSeat": _("{seat}: {check}"),
        "check_match_format": _("Match format"),
        "check_match_signature": _("Match signature"),
        "check_match_epoch": _("Epoch of the match"),
        "check_commitment": _("Server commitment"),
        "check_commitment_shown": _("Commitment shown before the first roll"),
        "check_your_client_seed": _("Your client seed"),
        "check_transcripts": _("Every seat’s transcript"),
        "check_finished": _("Every seat finished"),
        "check_ranks": _("Ranks and winners"),
        "check_receipt_version": _("Receipt version"),
        "check_log_format": _("Log format"),
        "check_log_signatures": _("Log signatures"),
        "check_log_close": _("Log closed"),
        "check_cosignatures": _("Witnesses’ cosignatures"),
        "check_final_transcripts": _("Final transcripts"),
        "check_saved_checkpoints": _("Saved checkpoints"),
        "check_gossip": _("Fingerprint in the log"),
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


def table_messages() -> dict[str, str | dict[str, str]]:
    """The sentences of a table's page (``static/js/table.js``)."""
    return {
        "tableWaiting": _("Waiting for every seat to be taken…"),
        "tableReady": _("Every seat is taken: the creator can start."),
        "tableYourTurn": _("Your turn: roll, hold, then choose a box."),
        "tablePassTo": _("Pass the device to {name}: their turn."),
        "tableTheirTurn": _("{name} is playing."),
        "tableWatching": _("You are watching: the table is read-only. {name} is playing."),
        "tableClock": _("{n} s left"),
        "tableClockPlayed": _("The clock played for {name}."),
        "tableEnded": _("The table is over."),
        "tableWinners": plural_forms(lambda n: ngettext(
            "Winner: {names}", "Winners (tied): {names}", n)),
        "tableOpenSeat": _("open seat"),
        "tableYou": _("(you)"),
        "seatPoints": plural_forms(lambda n: ngettext("{n} point", "{n} points", n)),
        "tableVerifying": _("Checking every roll in your browser…"),
        "tableVerifyOk": _("{name}: ✓ every roll and box of this seat checks"),
        "tableVerifyBad": _("{name}: ✗ a check failed: {detail}"),
        "tableReview": plural_forms(lambda n: ngettext(
            "Coach: {n} expected point given away", "Coach: {n} expected points given away", n)),
        "tableReviewComputing": _("Coach: the review is being computed…"),
        "tableReconnecting": _("Reconnecting…"),
        "tableYourDice": _("Your dice"),
        "tableDiceOf": _("Dice of {name}"),
        "tableDuplicatePlaying": _("Dice of {name}: shown once everyone has played this round"),
    }


def group_messages() -> dict[str, str]:
    """The friend groups' page script's sentences (``static/js/groups-page.js``)."""
    return {
        "groupCopied": _("Copied: send it to your friends."),
        "groupCopyRefused": _("Your browser did not allow copying: select the text and copy it."),
        "groupRenamed": _("Renamed."),
    }


def log_monitor_messages() -> dict[str, str]:
    """The service log monitor's alarm (``static/js/log-monitor.js``): ``proven`` only when the
    browser's own check proves that the site signed two histories."""
    return {
        "logAlarmTitleProven": _("Warning: this site showed two different histories"),
        "logAlarmTitle": _("Warning: this site may have shown two different histories"),
        "logAlarmProven": _(
            "This browser kept a checkpoint of the site’s public log (size {old}). The site now "
            "shows one (size {new}) that contradicts it, and both are signed with the log’s "
            "key: this proves the site showed two different histories, so what it shows you "
            "may not be what others see. Download the evidence and keep it."
        ),
        "logAlarmUnproven": _(
            "The site’s public log (size {new}) could not be shown to extend the checkpoint "
            "this browser kept (size {old}). It may mean the site showed two different "
            "histories; this browser could not check it to the end. Download the evidence and "
            "keep it: it can be checked later."
        ),
        "logAlarmKey": _(
            "The site’s public log is now signed with another key than the one this browser "
            "recorded at its first visit. It may mean the site showed two different histories; "
            "this could not be checked. Download the evidence and keep it."
        ),
        "logAlarmDownload": _("Download the evidence"),
        "logAlarmHow": _("Anyone can check the file with verify.py:"),
    }
