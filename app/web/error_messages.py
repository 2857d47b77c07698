"""What the pages say for each error code the API can answer, translated on the server and
handed to the scripts as JSON (``static/js/api.js`` shows them); a code missing here shows the
API's own message. ``tests/web/test_error_messages.py`` holds every code the API documents to
a sentence here."""

from flask_babel import gettext as _


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
        # friend groups
        "invalid-group-name": _("A group's name is 1 to 40 characters."),
        "invalid-group-code": _("A group's code is 10 letters and digits, like ABCDE-23456."),
        "unknown-group-code": _("No group has this code: check it with the friend who sent it."),
        "group-not-found": _("This group is not one of yours: join it with its code first."),
        "group-full": _("This group is full: it has 50 members already."),
        "too-many-groups": _("You are in 20 groups already: leave one to join another."),
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
        "table-match": _("This game is played at its table: open the table’s page."),
        "client-seed-required": _("Your first roll needs your client seed."),
        "invalid-client-seed": _("A client seed is 1 to 64 letters, digits or - . _ ~."),
        "client-seed-fixed": _("Your client seed is fixed since your first roll."),
        "waiting-for-seeds": _("Waiting for every player’s client seed."),
        "no-dice": _("Roll first: a hint needs your dice."),
        "no-hints": _("Hints are for practice and games against the computer only."),
        "invalid-bots": _("Choose at most 5 computer opponents, each with a known level."),
        "invalid-seat": _("There is no such seat in this game."),
        "invalid-match": _("The game data is not valid."),
        "invalid-transcript": _("This game is not a whole legal game on that day’s dice."),
        "invalid-duplicate": _("Same dice for everyone is either on or off."),
        # tables
        "table-not-found": _("No table has this id or code (or it ended long ago)."),
        "invalid-clock": _("The turn clock is a whole number of seconds from 3 to 600, or none."),
        "invalid-seats": _(
            "A table has 2 to 6 seats, each a friend, a player here or the computer."
        ),
        "table-started": _("The table has started: watch it instead."),
        "table-full": _("Every seat of the table is taken."),
        "not-creator": _("Only the table’s creator starts it."),
        "seats-open": _("Some seats are still waiting for a friend."),
        "table-waiting": _("The table has not started yet."),
        "not-seated": _("Only the table’s players can start another game with the same seats."),
        "table-not-over": _("The table is still playing: play again once it has ended."),
        "too-many-streams": _(
            "Your connection holds as many live tables as it may; close one, or try again later."
        ),
        "streams-busy": _(
            "The server is holding as many live tables as it can; try again in a moment."
        ),
        # the service log (its tiles and proofs, read by the pages' log monitor)
        "bad-tile-path": _("This tile address is not written as the tiled-log format says."),
        "tile-error": _("This tile address is not written as the tiled-log format says."),
        "no-such-tile": _("The log has no such tile yet."),
        "unknown-size": _("The log has no checkpoint of that size."),
        "unknown-entry": _("The log has no such entry yet."),
        "witness-protocol": _("The witness request is malformed."),
        "log-origin-mismatch": _("This server is being reconfigured; try again later."),
        "log-key-mismatch": _("This server is being reconfigured; try again later."),
        # the server
        "storage-unavailable": _(
            "The game store is unavailable for a moment; try again in a few seconds."
        ),
        "misconfigured": _("This server is being reconfigured; try again later."),
        "overloaded": _("The server is busy; trying again in a moment…"),
        "clock-unreadable": _("This server cannot read its clock; try again later."),
        "internal-error": _("Something went wrong on our side."),
    }

