"""The whole-day audit's fast path: a transcript replayed on steps learnt from the day's games.

Every game of a (date, sheet) draws from one stream, so the same entry recurs, in the same
replay state, in thousands of games. A transcript is cut into its entries' exact encodings, and
each (state, entry) step is checked by the detailed replay's own rules once, then looked up.
"""

import marshal
from dataclasses import dataclass

from .. import rules
from ..scoring import is_five_of_a_kind
from .checks import unchecked_canonical
from .replay import CachedRules, ReplayState, SharedStream

# marshal version 2 writes no back-references and no interning marks: its bytes are a function
# of the value alone, and it refuses every type but the exact built-in ones (no bool for an int,
# no int subclass, no mapping but a dict), telling True from 1 and 1.0.
MARSHAL_VERSION = 2
_LIST, _DICT, _DICT_END = b"[", b"{", b"0"
_BETWEEN_DICTS = _DICT_END + _DICT  # one entry's end and the next one's start


class FastReplay:
    """The whole-day audit's fast path: replays a transcript on memoised steps in one go.

    A transcript's marshal bytes are a list header, then each entry's bytes ``{...0``. Cut at
    every ``0{``, they give one piece per entry; a piece seen before, in the same replay state
    (rolls taken, rolls in the turn, dice), is the same entry (marshal's bytes decode to one
    value only), so its step (the next state, the entry's canonical JSON, what it scores) is
    looked up. A new piece is learnt from the entry itself, checked by the detailed replay's
    rules, after checking that it encodes to exactly that piece. Anything the rules do not
    give returns None, and the caller runs ``replay_checks`` to name the wrong entry.

    What depends on the whole sheet stays out of the steps: a box filled twice, a roll after
    the last box, and the Joker rule and extra bonus (five of a kind only), checked per game.
    """

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring."""
        self.stream = stream
        self.scorer = scorer
        self.ruleset = scorer.ruleset
        self.size = len(self.ruleset.categories)
        self._nodes: dict[tuple, _Node] = {}
        self.start = self._node((0, 0, None))

    def run(self, transcript) -> "FastReplayed | None":
        """The replay's outcome when every entry is exactly what the rules give, else None."""
        try:
            encoded = marshal.dumps(transcript, MARSHAL_VERSION)
        except ValueError:  # not plain JSON values: the detailed replay decides
            return None
        pieces = _pieces(encoded)
        if pieces is None:
            return None
        node, boxes, extra, texts, scorer = self.start, {}, 0, [], self.scorer
        for piece, entry in zip(pieces, transcript, strict=True):
            step = node.get(piece) or self._learn(node, piece, entry)
            if step is None:
                return None
            node, text, score = step
            texts.append(text)
            if score is not None:
                category, points, bonus, five, first_roll = score
                if category in boxes or five is not None and (
                        scorer.allowed(category, five, boxes) is not None
                        or points != scorer.points(category, five, boxes, first_roll)
                        or bonus != scorer.bonus(five, boxes, category)):
                    return None
                boxes[category] = points
                extra += bonus
        if len(boxes) == self.size and node.state[1]:  # rolled after the last box
            return None
        return FastReplayed(boxes, scorer.totals(boxes, extra), b"[" + b",".join(texts) + b"]")

    def _node(self, state: tuple) -> "_Node":
        """The one node of a replay state (rolls taken, rolls in the turn, dice or None)."""
        node = self._nodes.get(state)
        if node is None:
            node = self._nodes[state] = _Node(state)
        return node

    def _learn(self, node: "_Node", piece: bytes, entry) -> tuple | None:
        """The step ``entry`` makes from ``node``, kept under ``piece``; None when ``entry``
        does not encode to exactly ``piece`` or is not what the rules allow there."""
        try:
            if marshal.dumps(entry, MARSHAL_VERSION) != _DICT + piece + _DICT_END:
                return None
        except ValueError:
            return None
        taken, in_turn, dice = node.state
        sheet = ReplayState(self.ruleset, explain=False)
        sheet.rolls_taken, sheet.rolls_in_turn, sheet.dice = taken, in_turn, dice
        action = entry.get("action")
        five = dice is not None and is_five_of_a_kind(dice)
        score = None
        if action == "roll":
            if taken >= len(self.stream.rolls):
                return None
            sheet.roll(0, entry, self.stream)
        elif action == "score" and not five:  # the sheet does not matter: any free box
            sheet.score(0, entry, self.scorer)
            category = entry["category"]
            score = (category, entry["points"], entry["bonus"], None, False)
        elif action == "score":  # checked against the whole sheet in every game
            if sheet.score_problem(entry, self.scorer) or not all(
                    type(entry[key]) is int for key in ("points", "bonus")):
                return None
            score = (entry["category"], entry["points"], entry["bonus"], dice, in_turn == 1)
        else:
            return None
        if sheet.checks:
            return None
        after = (sheet.rolls_taken, sheet.rolls_in_turn, sheet.dice) if score is None else \
            (taken, 0, None)
        # the rules accept no float in an entry: its canonical JSON is json.dumps's text
        text = unchecked_canonical(entry).encode("utf-8")
        step = node[piece] = (self._node(after), text, score)
        return step


class _Node(dict):
    """A replay state's learnt steps: entry piece -> (next node, canonical JSON, score)."""

    __slots__ = ("state",)

    def __init__(self, state: tuple):
        """No step learnt yet from ``state``."""
        super().__init__()
        self.state = state


def _pieces(encoded: bytes) -> list[bytes] | None:
    """A marshalled list of dicts cut into one piece per dict (its bytes without ``{`` and
    ``0``), or None when the bytes are not a list of as many pieces as the list holds."""
    if encoded[:1] != _LIST:
        return None
    count = int.from_bytes(encoded[1:5], "little")
    if count == 0:
        return [] if len(encoded) == 5 else None
    if encoded[5:6] != _DICT or encoded[-1:] != _DICT_END:
        return None
    pieces = encoded[6:-1].split(_BETWEEN_DICTS)
    return pieces if len(pieces) == count else None


@dataclass
class FastReplayed:
    """A fast replay that matched: the sheet, its totals, the transcript's canonical bytes."""

    boxes: dict
    totals: rules.Totals
    encoded: bytes
