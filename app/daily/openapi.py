"""The daily challenge's part of the OpenAPI document (docs/api.md): the sheets, the
challenges, a player's game and its actions, share text and proof, and a past day played
again, joined to it by ``app.api.openapi.add_part``."""

from app.api.openapi import (
    DATE,
    GAME_ID,
    HEX64,
    LANG,
    RULESET,
    TIME,
    answer,
    body,
    errors,
    path_param,
    ref,
    size_param,
)
from app.daily.views import NOT_IN_MINIMAL

PREFER = {"name": "Prefer", "in": "header", "required": False,
          "schema": {"type": "string", "examples": ["return=minimal"]},
          "description": "RFC 7240. `return=minimal`: the answer's game leaves out what an "
                         "action does not change (date, ruleset, player, name, turns) and the "
                         "transcript but for its `last` entry, the action's: the client merges "
                         "it into the game it holds; "
                         "`Preference-Applied: return=minimal` says so. Without it, the whole "
                         "game."}

SHARE_STYLE = {"name": "style", "in": "query", "required": False,
               "schema": {"type": "string", "enum": ["plain", "squares"], "default": "plain"},
               "description": "plain: the text as it always was; squares: a first line a "
                              "friend reads without playing, then one mark per turn by the "
                              "points it gave away to perfect play (🟩 none, 🟡 under 1, 🔶 "
                              "under 5, ❌ 5 or more), once the coach's review is ready. Any "
                              "other value is a 400 invalid-field."}

_NAMES = {"type": "object", "properties": {"en": {"type": "string"}, "fr": {"type": "string"}},
          "required": ["en", "fr"]}

SCHEMAS = {
    "Ruleset": {
        "type": "object",
        "required": ["id", "names", "upper_bonus", "extra_bonus", "joker", "categories"],
        "properties": {
            "id": {"type": "string"},
            "names": _NAMES,
            "upper_bonus": {"type": "integer"},
            "extra_bonus": {"type": "integer"},
            "joker": {"type": "boolean"},
            "categories": {"type": "array", "items": {
                "type": "object", "required": ["id", "section", "names", "rule"],
                "properties": {"id": {"type": "string"},
                               "section": {"type": "string", "enum": ["upper", "lower"]},
                               "names": _NAMES, "rule": _NAMES}}},
        },
    },
    "Challenge": {
        "type": "object",
        "required": ["date", "ruleset", "epoch", "day", "anchor", "status", "opens_at", "ends_at",
                     "closes_at", "reveal_at", "game"],
        "properties": {
            "date": DATE, "ruleset": RULESET, "epoch": {"type": "integer"},
            "day": {"type": "integer", "minimum": 1}, "anchor": HEX64,
            "status": {"type": "string", "enum": ["upcoming", "open", "closed", "revealed"]},
            "opens_at": TIME, "ends_at": TIME, "closes_at": TIME, "reveal_at": TIME,
            "game": {"oneOf": [GAME_ID, {"type": "null"}]},
        },
    },
    "Action": {
        "oneOf": [
            {"type": "object", "required": ["action", "hold", "dice"], "properties": {
                "action": {"const": "roll"},
                "hold": {"type": "array", "items": {"type": "boolean"}, "minItems": 5,
                         "maxItems": 5},
                "dice": {"type": "array", "items": {"type": "integer", "minimum": 1,
                                                    "maximum": 6}, "minItems": 5, "maxItems": 5}}},
            {"type": "object", "required": ["action", "category", "points", "bonus"],
             "properties": {"action": {"const": "score"}, "category": {"type": "string"},
                            "points": {"type": "integer"}, "bonus": {"type": "integer"}}},
        ],
    },
    "Receipt": {
        "type": "object",
        "required": ["type", "game", "epoch", "date", "ruleset", "player", "transcript_sha256",
                     "total", "sig"],
        "description": "v1, or on a day of the log (v2) with its leaf index and finish time.",
        "properties": {
            "type": {"enum": ["yacht-daily/receipt/v1", "yacht-daily/receipt/v2"]},
            "game": GAME_ID,
            "epoch": {"type": "integer"}, "date": DATE, "ruleset": RULESET,
            "player": {"type": "string"}, "transcript_sha256": HEX64,
            "total": {"type": "integer"}, "sig": {"type": "string", "pattern": "^[0-9a-f]{128}$"},
            "index": {"type": "integer", "description": "v2: the game's leaf in its log."},
            "finished_at": TIME,
        },
    },
    "GameCheckpoint": {
        "type": "object", "required": ["size", "fingerprint", "note"],
        "description": "The latest checkpoint of the game's log that covers it.",
        "properties": {"size": {"type": "integer"},
                       "fingerprint": {"type": "string", "description": "FAIRNESS.md, "
                                       "\"Gossip\": size and 20 base32 characters."},
                       "note": {"type": "string"}},
    },
    "Game": {
        "type": "object",
        "required": ["id", "date", "ruleset", "player", "name", "status", "next_action", "turn",
                     "turns", "dice", "rolls_in_turn", "rolls_left", "boxes", "allowed",
                     "previews", "restriction", "totals", "transcript", "receipt", "token"],
        "properties": {
            "id": GAME_ID, "date": DATE, "ruleset": RULESET, "player": {"type": "string"},
            "name": {"type": ["string", "null"]},
            "status": {"type": "string", "enum": ["playing", "finished", "abandoned"]},
            "next_action": {"type": "integer"}, "turn": {"type": "integer"},
            "turns": {"type": "integer"},
            "dice": {"oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]},
            "rolls_in_turn": {"type": "integer"}, "rolls_left": {"type": "integer"},
            "boxes": {"type": "object", "additionalProperties": {"type": "integer"}},
            "allowed": {"type": "array", "items": {"type": "string"}},
            "previews": {"type": "object", "additionalProperties": {"type": "integer"}},
            "restriction": {"oneOf": [
                {"type": "object", "required": ["code", "message"],
                 "properties": {"code": {"type": "string"}, "message": {"type": "string"}}},
                {"type": "null"}]},
            "totals": {"type": "object", "required": ["upper", "upper_bonus", "lower",
                                                      "extra_bonus", "total"],
                       "additionalProperties": {"type": "integer"}},
            "transcript": {"type": "array", "items": ref("Action")},
            "receipt": {"oneOf": [ref("Receipt"), {"type": "null"}]},
            "checkpoint": {"oneOf": [ref("GameCheckpoint"), {"type": "null"}],
                           "description": "A finished game of a v2 day only."},
            "token": {"type": "string", "description": "The game's compact state: echo it as "
                                                      "the next action's `token`."},
        },
    },
    "GameAnswer": {"type": "object", "required": ["game"], "properties": {"game": ref("Game")}},
    "GameChangeAnswer": {"type": "object", "required": ["game"],
                         "properties": {"game": ref("GameChange")}},
    "WouldRank": {
        "type": "object", "required": ["rank", "players"],
        "description": "Where the game would have ranked on the day's board: competition rank "
                       "(equal figures share it), among the board's games and this one.",
        "properties": {"rank": {"type": "integer", "minimum": 1},
                       "players": {"type": "integer", "minimum": 1}},
    },
    "PastDayReplay": {
        "type": "object",
        "required": ["date", "ruleset", "epoch", "day", "dealing", "total", "totals", "loss",
                     "points", "skill", "review"],
        "properties": {
            "date": DATE, "ruleset": RULESET, "epoch": {"type": "integer"},
            "day": {"type": "integer", "minimum": 1},
            "dealing": {"type": "string", "enum": ["per-turn", "sequential"]},
            "total": {"type": "integer"},
            "totals": {"type": "object", "required": ["upper", "upper_bonus", "lower",
                                                      "extra_bonus", "total"],
                       "additionalProperties": {"type": "integer"}},
            "loss": {"type": "number", "minimum": 0,
                     "description": "Points of expectation given away to perfect play, to the "
                                    "hundredth as the skill board ranks them."},
            "points": ref("WouldRank"), "skill": ref("WouldRank"),
            "review": {"type": "object", "description": "The coach's review (docs/strategy.md): "
                                                       "the Review's figures without game, "
                                                       "player and name."},
        },
    },
}


def _game_change(game: dict) -> dict:
    """The game of a minimal action answer: the game's schema without ``NOT_IN_MINIMAL``."""
    return {
        "type": "object",
        "description": "The game without what an action does not change (Prefer: "
                       "return=minimal): merge it into the game the client holds.",
        "required": [*(name for name in game["required"] if name not in NOT_IN_MINIMAL),
                     "last"],
        "properties": {**{name: schema for name, schema in game["properties"].items()
                          if name not in NOT_IN_MINIMAL},
                       "last": {"oneOf": [ref("Action"), {"type": "null"}],
                                "description": "The transcript's last entry: the action's."}},
    }


SCHEMAS["GameChange"] = _game_change(SCHEMAS["Game"])


def paths() -> dict:
    """The daily challenge's routes."""
    game_param = path_param("game_id", GAME_ID)
    action = {"roll": {"type": "integer", "minimum": 0, "maximum": 1000,
                       "description": "The number of the action the client believes is next."},
              "token": {"type": "string", "maxLength": 1000,
                        "description": "The token of the game answer the action follows "
                                       "(optional): any server applies the action in one "
                                       "Redis round trip if the game is still in that state."}}
    action_answer = {"anyOf": [ref("GameAnswer"), ref("GameChangeAnswer")]}
    return {
        "/rulesets": {"get": {
            "summary": "The daily sheets and their boxes",
            "responses": {"200": answer({"type": "object", "required": ["rulesets"], "properties": {
                "rulesets": {"type": "array", "items": ref("Ruleset")}}}, "The sheets.")}}},
        "/challenges": {"get": {
            "summary": "Each sheet's challenge on a date and this player's game",
            "parameters": [{"name": "date", "in": "query", "required": False, "schema": DATE}],
            "responses": {"200": answer({"type": "object",
                                         "required": ["date", "now", "challenges"],
                                         "properties": {"date": DATE, "now": TIME,
                                                        "challenges": {"type": "array",
                                                                       "items": ref("Challenge")}}},
                                        "The challenges."), **errors(400, 404)}}},
        "/games": {"post": {
            "summary": "Create or resume this player's game",
            "requestBody": body({"type": "object", "required": ["ruleset", "date"], "properties": {
                "ruleset": RULESET, "date": DATE,
                "name": {"type": "string", "minLength": 1, "maxLength": 24, "pattern": r"\S",
                         "description": "Printable characters only; surrounding spaces are "
                                        "removed."}}}),
            "responses": {"200": answer(ref("GameAnswer"), "Resumed."),
                          "201": answer(ref("GameAnswer"), "Created."),
                          **errors(400, 404, 409, 413, 415)}}},
        "/games/{game_id}": {"get": {
            "summary": "A game (own, or anyone's once revealed)", "parameters": [game_param, LANG],
            "responses": {"200": answer(ref("GameAnswer"), "The game."), **errors(403, 404)}}},
        "/games/{game_id}/roll": {"post": {
            "summary": "Roll the dice not held", "parameters": [game_param, LANG, PREFER],
            "requestBody": body({"type": "object", "required": ["roll"], "properties": {
                **action, "hold": {"type": ["array", "null"], "items": {"type": "boolean"},
                                   "minItems": 5, "maxItems": 5}}}),
            "responses": {"200": answer(action_answer, "The game after the roll."),
                          **errors(400, 403, 404, 409, 413, 415)}}},
        "/games/{game_id}/score": {"post": {
            "summary": "Fill a box with the current dice", "parameters": [game_param, LANG, PREFER],
            "requestBody": body({"type": "object", "required": ["category", "roll"],
                                 "properties": {**action, "category": {"type": "string"}}}),
            "responses": {"200": answer(action_answer, "The game after scoring."),
                          **errors(400, 403, 404, 409, 413, 415)}}},
        "/games/{game_id}/share": {"get": {
            "summary": "The spoiler-free share text of a finished game",
            "parameters": [game_param, LANG, SHARE_STYLE],
            "responses": {"200": {"description": "Plain text.",
                                  "content": {"text/plain": {"schema": {"type": "string"}}}},
                          **errors(400, 403, 404, 409)}}},
        "/games/{game_id}/proof": {"get": {
            "summary": "The receipt's inclusion proof in its revealed date's root; on a v2 day "
                       "in its log's latest checkpoint (or ?size=), before the reveal too",
            "parameters": [game_param, size_param("size", False)],
            "responses": {"200": answer({"type": "object",
                                         "required": ["date", "ruleset", "receipt", "proof", "root",
                                                      "entry"],
                                         "properties": {"date": DATE, "ruleset": RULESET,
                                                        "receipt": ref("Receipt"),
                                                        "proof": ref("Proof"), "root": HEX64,
                                                        "entry": {"type": ["integer", "null"]},
                                                        "checkpoint": {"type": "string"}}},
                                        "The proof (v2: checkpoint = the signed note it is "
                                        "against; entry null before the reveal)."),
                          **errors(400, 403, 404)}}},
        "/days/{date}/{ruleset}/replay": {"post": {
            "summary": "A revealed day played again as practice: the whole game replayed on "
                       "that day's dice, its review, and where it would have ranked (nothing "
                       "is written)",
            "parameters": [path_param("date", DATE), path_param("ruleset", RULESET)],
            "requestBody": body({"type": "object", "required": ["transcript"], "properties": {
                "transcript": {"type": "array", "items": ref("Action"),
                               "description": "The whole game, as FAIRNESS.md writes "
                                              "transcripts."}}}),
            "responses": {"200": answer(ref("PastDayReplay"), "The replayed game."),
                          **errors(400, 404, 409, 413, 415)}}},
    }
