"""The whole-day audit's fast path: a transcript replayed and compared as canonical text."""

from dataclasses import dataclass

from .. import rules
from ..canonical import canonical_json
from ..game import ROLLS_PER_TURN
from .checks import unchecked_canonical
from .replay import CachedRules, SharedStream


class FastReplay:
    """The whole-day audit's fast path: replays a transcript and compares it in one go.

    It rebuilds the canonical JSON the rules and the stream give and compares it with the
    transcript's own canonical JSON (which the transcript hash needs anyway): equal text means
    every entry is exactly what ``fairness.game.replay`` would accept, types included, without
    a check object per action. Anything else returns None, and the caller runs
    ``replay_checks`` to name the wrong entry.
    """

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring."""
        self.stream = stream
        self.scorer = scorer
        self.ruleset = scorer.ruleset
        self.box_ids = frozenset(self.ruleset.category_ids)
        self._entries: dict = {}  # (kind, ...) -> canonical text of an entry

    def run(self, transcript) -> "FastReplayed | None":
        """The replay's outcome when every entry is exactly what the rules give, else None."""
        try:
            text = unchecked_canonical(transcript)
            return self._replay(transcript, text)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            return None

    def _replay(self, transcript: list, text: str) -> "FastReplayed | None":
        """Replay, rebuilding the expected canonical text entry by entry.

        Only five of a kind can bring the Joker rule or an extra bonus into play, so other
        dice go straight to the cached points of their box.
        """
        parts = []
        boxes: dict[str, int] = {}
        extra, dice, in_turn, taken = 0, None, 0, 0
        size, rolls, texts, scorer = (len(self.box_ids), self.stream.rolls, self._entries,
                                      self.scorer)
        for entry in transcript:
            if entry["action"] == "roll":
                h0, h1, h2, h3, h4 = entry["hold"]
                if len(boxes) == size or in_turn >= ROLLS_PER_TURN or (
                        dice is None and (h0 or h1 or h2 or h3 or h4)):
                    return None
                drawn = rolls[taken]
                if dice is not None:
                    drawn = (dice[0] if h0 else drawn[0], dice[1] if h1 else drawn[1],
                             dice[2] if h2 else drawn[2], dice[3] if h3 else drawn[3],
                             dice[4] if h4 else drawn[4])
                dice = drawn
                key = (h0, h1, h2, h3, h4, dice)
                parts.append(texts.get(key) or self._text(key))
                in_turn, taken = in_turn + 1, taken + 1
            else:
                category = entry["category"]
                if (dice is None or len(boxes) == size or category not in self.box_ids
                        or category in boxes):
                    return None
                if dice[0] == dice[1] == dice[2] == dice[3] == dice[4]:
                    if scorer.allowed(category, dice, boxes) is not None:
                        return None
                    bonus = scorer.bonus(dice, boxes)
                else:
                    bonus = 0
                points = scorer.points(category, dice, boxes)
                key = (category, points, bonus)
                parts.append(texts.get(key) or self._text(key))
                boxes[category] = points
                extra, dice, in_turn = extra + bonus, None, 0
        if "[" + ",".join(parts) + "]" != text:
            return None
        return FastReplayed(boxes, scorer.totals(boxes, extra), text.encode("utf-8"))

    def _text(self, key: tuple) -> str:
        """The canonical JSON of the entry ``key`` describes, kept: entries recur all day.

        A roll's key is its five holds (as recorded: a 1 for a true is caught by the text
        comparison, whose expected text always says true) and its dice; a score's is its box,
        points and bonus.
        """
        if len(key) == 6:
            entry = {"action": "roll", "hold": [bool(h) for h in key[:5]], "dice": list(key[5])}
        else:
            entry = {"action": "score", "category": key[0], "points": key[1], "bonus": key[2]}
        text = self._entries[key] = canonical_json(entry).decode("utf-8")
        return text


@dataclass
class FastReplayed:
    """A fast replay that matched: the sheet, its totals, the transcript's canonical bytes."""

    boxes: dict
    totals: rules.Totals
    encoded: bytes
