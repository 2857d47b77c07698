"""A game's compact state: what its next action needs, as one canonical JSON text.

Every compare-and-set stores it beside the transcript (the ``state`` field of the game's hash)
and every answer carries it as ``token``. A worker that reads a game rebuilds it from this
state instead of replaying its transcript; a worker that holds no current copy of a game
computes the action from the token the client echoes, and the compare-and-set applies it only
if the stored state is exactly that text, so the game's truth stays in Redis.
"""

import orjson

from fairness import Game, get_ruleset
from fairness.game import ROLLS_PER_TURN
from fairness.sheets import ANY_DAILY_RULESETS

MAX_TEXT = 1000
_FIELDS = {"boxes", "date", "dice", "extra_bonus", "rolls_in_turn", "rolls_taken", "ruleset",
           "version"}


def state_text(game: Game, version: int) -> str:
    """The compact state of ``game`` as action ``version`` (its transcript's length) left it:
    canonical JSON (sorted keys, no spaces; its values are ints, ASCII strings and null only,
    so orjson writes the same bytes as canonical JSON, without its check for floats)."""
    return orjson.dumps({
        "boxes": dict(game.boxes),
        "date": game.date,
        "dice": list(game.dice) if game.dice is not None else None,
        "extra_bonus": game.extra_bonus,
        "rolls_in_turn": game.rolls_in_turn,
        "rolls_taken": game.rolls_taken,
        "ruleset": game.ruleset,
        "version": version,
    }, option=orjson.OPT_SORT_KEYS).decode()


def game_from_state(text: str, transcript: tuple = ()) -> tuple[int, Game] | None:
    """(version, the game) that ``text`` describes, with ``transcript`` attached; None when the
    text is not exactly a compact state this module writes (a client's token may be anything)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return None
    try:
        fields = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(fields, dict) or fields.keys() != _FIELDS or not _valid(fields):
        return None
    game = Game(fields["ruleset"], fields["date"], boxes=fields["boxes"],
                dice=tuple(fields["dice"]) if fields["dice"] is not None else None,
                rolls_in_turn=fields["rolls_in_turn"], rolls_taken=fields["rolls_taken"],
                extra_bonus=fields["extra_bonus"], transcript=transcript)
    if state_text(game, fields["version"]) != text:
        return None
    return fields["version"], game


def _valid(fields: dict) -> bool:
    """True when every field has the type and range a real game's state has."""
    if fields["ruleset"] not in ANY_DAILY_RULESETS or not isinstance(fields["date"], str):
        return False
    boxes, dice = fields["boxes"], fields["dice"]
    ruleset = get_ruleset(fields["ruleset"])
    if not isinstance(boxes, dict) or any(
            ruleset.category(box) is None or type(points) is not int
            for box, points in boxes.items()):
        return False
    if dice is not None and (not isinstance(dice, list) or len(dice) != 5 or any(
            type(die) is not int or not 1 <= die <= 6 for die in dice)):
        return False
    counts = (fields["version"], fields["rolls_taken"], fields["extra_bonus"])
    return (all(type(count) is int and count >= 0 for count in counts)
            and type(fields["rolls_in_turn"]) is int
            and 0 <= fields["rolls_in_turn"] <= ROLLS_PER_TURN)
