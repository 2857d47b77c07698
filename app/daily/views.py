"""The JSON shapes of the API: sheets, challenges, game states (docs/api.md), and the
cacheable answer of what a reveal made public."""

import datetime as dt
from collections.abc import Sequence

from flask import jsonify, request

from app.daily.actions import PLAYING, Played
from app.daily.compact import state_text
from app.ledger.days import DayWindow
from app.platform.clock import format_timestamp
from fairness import Ruleset, get_ruleset, rules
from fairness.scoring import is_five_of_a_kind

# A day after, a cache asks again: the audit data never changes, a player's display name may.
REVEALED_MAX_AGE = 24 * 3600


def ruleset_json(ruleset: Ruleset) -> dict:
    """A sheet with its boxes, names and rules in both languages."""
    return {
        "id": ruleset.id,
        "names": dict(ruleset.names),
        "upper_bonus": ruleset.upper_bonus,
        "extra_bonus": ruleset.extra_bonus,
        "joker": ruleset.joker,
        "categories": [
            {"id": c.id, "section": c.section, "names": dict(c.names), "rule": dict(c.rule)}
            for c in ruleset.categories
        ],
    }


def rulesets_json(rulesets: Sequence[str]) -> dict:
    """The sheets ``rulesets``, in that order."""
    return {"rulesets": [ruleset_json(get_ruleset(r)) for r in rulesets]}


def window_json(window: DayWindow) -> dict:
    """A date's four instants."""
    return {
        "opens_at": format_timestamp(window.opens_at),
        "ends_at": format_timestamp(window.ends_at),
        "closes_at": format_timestamp(window.closes_at),
        "reveal_at": format_timestamp(window.reveal_at),
    }


# What a game never changes once created, and its transcript: the fields the minimal answer of
# an action leaves out (it carries the transcript's ``last`` entry instead).
NOT_IN_MINIMAL = ("date", "ruleset", "player", "name", "turns", "transcript")


def game_state(played: Played, now: dt.datetime, language: str, minimal: bool = False) -> dict:
    """A game as the API shows it, its restriction message in ``language``; ``minimal``: without
    the ``NOT_IN_MINIMAL`` fields but with ``last``, the transcript's last entry (the answer of an
    action asked with ``Prefer: return=minimal``, which the client merges into the game it
    holds)."""
    record, game = played.record, played.game
    status = played.status(now)
    placement, previews = None, {}
    if status == PLAYING and game.dice is not None:  # (a playing game is not finished)
        placement, previews = rules.placement_and_previews(game.ruleset, game.dice, game.boxes,
                                                           game.first_roll)
    turns = len(get_ruleset(record.ruleset).categories)
    state = {
        "id": record.id,
        "status": status,
        "next_action": game.next_action,
        "turn": min(game.turn, turns),
        "dice": list(game.dice) if game.dice is not None else None,
        "rolls_in_turn": game.rolls_in_turn,
        "rolls_left": game.rolls_left if status == PLAYING else 0,
        "boxes": dict(game.boxes),
        "allowed": list(placement.allowed) if placement else [],
        "previews": previews,
        "restriction": restriction_view(placement, language),
        "totals": game.totals().as_dict(),
        "receipt": dict(record.receipt) if record.receipt else None,
        "token": record.state or state_text(game, record.version),
    }
    if minimal:
        state["last"] = record.transcript[-1] if record.transcript else None
    else:
        state.update(date=record.date, ruleset=record.ruleset, player=record.player,
                     name=record.name or None, turns=turns,
                     transcript=list(record.transcript))  # entries never change in place
    return state


def five_of_a_kind_count(played: Played) -> int:
    """How many times the game scored five of a kind."""
    count, dice = 0, None
    for entry in played.record.transcript:
        if entry["action"] == "roll":
            dice = entry["dice"]
        elif dice is not None and is_five_of_a_kind(dice):
            count += 1
    return count


def revealed_answer(payload: dict):
    """The JSON answer of data a reveal published, which no longer changes: cacheable by anyone
    for REVEALED_MAX_AGE (``immutable``: no revalidation meanwhile), with an ETag of its body;
    a bodiless 304 when the request's If-None-Match already names it."""
    response = jsonify(payload)
    response.cache_control.public = True
    response.cache_control.max_age = REVEALED_MAX_AGE
    response.cache_control.immutable = True
    response.add_etag()
    return response.make_conditional(request)


def restriction_view(placement, language: str) -> dict | None:
    """The Joker restriction on the current dice, explained in ``language``."""
    if placement is None or placement.restriction is None:
        return None
    return {"code": placement.restriction, "message": placement.reason(language)}
