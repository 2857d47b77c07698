"""What a table's ``actions`` event carries: the actions an action (or the clock's or the bots'
move) brought, with the seats' totals after them (docs/api.md, "Tables", live events).

The event is broadcast: one stream per table, read by every seat and every spectator. So at a
duplicate table being played it carries what a spectator may see (``duplicate.py``): the
complete rounds, a prefix of the log. An action inside the open round publishes no actions;
the one that closes a round publishes the whole round; each event also says whose turn it is.
"""

from app.matches.model import PLAYING, TABLE, Match
from app.tables.duplicate import SCORE, shared_length, visible_games
from fairness.match import DUPLICATE


def withholds(match: Match) -> bool:
    """Whether the match is a duplicate table's, whose events carry complete rounds only."""
    return match.kind == TABLE and match.dealing == DUPLICATE


def actions_event(match: Match, before: int, by: str) -> dict | None:
    """The ``actions`` event's fields (before the turn's) for the match's actions from number
    ``before`` on, played ``by`` the player, the clock or the bots: ``from`` and ``to``, the
    action numbers the event's ``actions`` fill, ``totals`` and the ``sheets`` of the seats
    that filled a box among them. At a duplicate table, ``from``/``to`` bound the shared
    prefix before and after (``shared_length``) and ``next_action`` is the match's next action
    number. None when there is nothing to publish: no action, or (duplicate) an action that
    neither hands the turn over, shows a round nor ends the match."""
    log, version = match.record.log, match.record.version
    if not withholds(match):
        if version == before and match.status == PLAYING:
            return None
        first, last, games, extra = before, version, match.games, {}
    else:
        first, last = shared_length(match, before), shared_length(match)
        handed_over = any(action.entry["action"] == SCORE for action in log[before:])
        if last == first and not handed_over and match.status == PLAYING:
            return None
        games, extra = visible_games(match, None), {"next_action": version}
    actions = [action.to_json() for action in log[first:last]]
    filled = sorted({action["seat"] for action in actions if action["entry"]["action"] == SCORE})
    return {"from": first, "to": last, "by": by, "actions": actions,
            "totals": [game.totals().total for game in games],
            "sheets": {str(seat): games[seat].totals().as_dict() for seat in filled}, **extra}
