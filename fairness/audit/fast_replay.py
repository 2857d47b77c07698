"""The whole-day audit's fast path: a transcript replayed on steps learnt from the day's games.

Every game of a (date, sheet) draws from one stream, so the same entry recurs, in the same
replay state, in thousands of games. A transcript is cut into its entries' exact encodings, and
each (state, entry) step is checked by the detailed replay's rules once, then looked up. What
an entry is (its keys and types, its canonical JSON, the box it fills) does not depend on the
state: it is read once per distinct entry.
"""

import json
import marshal
from dataclasses import dataclass

from .. import rules
from ..dice import PER_TURN, ROLLS_PER_TURN
from ..scoring import is_five_of_a_kind
from .checks import unchecked_canonical
from .entry_text import canonical_entry, entry_text
from .published import PublishedTranscript
from .replay import (
    ROLL_KEYS,
    SCORE_KEYS,
    CachedRules,
    SharedStream,
    rolled,
    turn_roll_problem,
)

# marshal version 2 writes no back-references and no interning marks: its bytes are a function
# of the value alone, and it refuses every type but the exact built-in ones (no bool for an int,
# no int subclass, no mapping but a dict), telling True from 1 and 1.0.
MARSHAL_VERSION = 2
_LIST, _DICT, _DICT_END = b"[", b"{", b"0"
_BETWEEN_DICTS = _DICT_END + _DICT  # one entry's end and the next one's start
_UNSEEN = object()


class FastReplay:
    """The whole-day audit's fast path: replays a transcript on memoised steps in one go.

    A transcript's marshal bytes are a list header, then each entry's bytes ``{...0``. Cut at
    every ``0{``, they give one piece per entry; a piece seen before, in the same replay state
    (the next roll's slot, rolls in the turn, dice), is the same entry (marshal's bytes decode
    to one value only), so its step (the next state, the box it fills) is looked up, and its
    canonical JSON, which does not depend on the state. A new piece is read once from its
    entry, after checking that the entry encodes to exactly that piece: its keys and types,
    its canonical JSON, the box it fills. A new
    step is then checked by the detailed replay's rules, the stream's dice with the holds or
    the box's points, in that state. Anything the rules do not give returns None, and the
    caller runs ``replay_checks`` to name the wrong entry.

    What depends on the whole sheet stays out of the steps: a box filled twice, a roll after
    the last box, and the Joker rule and extra bonus (a box scored on five of a kind), checked
    per game.
    """

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring."""
        self.stream = stream
        self.scorer = scorer
        self.ruleset = scorer.ruleset
        self.size = len(self.ruleset.categories)
        self._nodes: dict[tuple, _Node] = {}
        self._texts: dict[bytes, bytes] = {}  # piece -> its entry's canonical JSON
        self._entries: dict[bytes, tuple | None] = {}  # piece -> what it says (``_read``)
        self._text_of = self._texts.__getitem__
        self.start = self._node((0, 0, None))

    def run(self, transcript) -> "FastReplayed | None":
        """The replay's outcome when every entry is exactly what the rules give, else None."""
        sheet = self.sheet(transcript)
        if sheet is None:
            return None
        boxes, extra, encoded = sheet
        return FastReplayed(boxes, self.scorer.totals(boxes, extra), encoded)

    def sheet(self, transcript) -> tuple[dict, int, bytes] | None:
        """(boxes, extra bonus, the transcript's canonical bytes) when every entry is exactly
        what the rules give, else None: ``run`` without building the breakdown."""
        try:
            encoded = marshal.dumps(transcript, MARSHAL_VERSION)
        except ValueError:  # not plain JSON values: the detailed replay decides
            return None
        pieces = _pieces(encoded)
        if pieces is None:
            return None
        sheet = self._walk(pieces, transcript)
        if sheet is None:
            return None
        return *sheet, b"[" + b",".join(map(self._text_of, pieces)) + b"]"

    def _walk(self, pieces: tuple | list, entries: list | None) -> tuple[dict, int] | None:
        """(boxes, extra bonus) of the transcript cut into ``pieces``, when every entry is
        exactly what the rules give, else None. A step not learnt yet is learnt from its entry:
        ``entries`` holds them beside the pieces (equal pieces encode equal entries), None when
        each piece is its entry's own text."""
        node, filled = self.start, []
        for piece in pieces:
            try:
                node, box = node[piece]
            except KeyError:
                entry = None if entries is None else entries[pieces.index(piece)]
                step = self._learn(node, piece, entry)
                if step is None:
                    return None
                node, box = step
            if box is not None:
                filled.append(box)
        return self._sheet(filled, node)

    def _sheet(self, filled: list, last: "_Node") -> tuple[dict, int] | None:
        """(boxes, extra bonus) of the boxes a walk filled in order, ending on node ``last``;
        None when a box is filled twice, a roll follows the last box, or a five of a kind
        scores otherwise than the sheet as it then stood allows."""
        try:
            boxes, extra = dict(filled), 0
        except ValueError:  # a five of a kind's box is a longer tuple: the sheet may matter
            sheet = self._sheet_with_fives(filled)
            if sheet is None:
                return None
            boxes, extra = sheet
        if len(boxes) != len(filled) or (len(boxes) == self.size and last.state[1]):
            return None  # a box filled twice, or a roll after the last box
        return boxes, extra

    def _sheet_with_fives(self, filled: list) -> tuple[dict, int] | None:
        """(boxes, extra bonus) of boxes filled in order, some of them by five of a kind: each
        of those is checked on the sheet as it then stood (the Joker rule, the extra bonus);
        None when one is not what the rules give."""
        boxes, extra, scorer = {}, 0, self.scorer
        for box in filled:
            if len(box) == 2:
                category, points = box
                boxes[category] = points
                continue
            category, points, bonus, five, first_roll, as_if_empty = box
            if category in boxes:
                return None
            if scorer.five_boxes_filled(boxes):  # a further five of a kind: the sheet matters
                if scorer.further_five(category, five, boxes, first_roll) != (points, bonus):
                    return None
            elif not as_if_empty:  # what the box scores on any sheet is not what it says
                return None
            boxes[category] = points
            extra += bonus
        return boxes, extra

    def _node(self, state: tuple) -> "_Node":
        """The one node of a replay state (the slot the next roll takes, rolls in the turn,
        dice or None)."""
        node = self._nodes.get(state)
        if node is None:
            node = self._nodes[state] = _Node(state)
        return node

    def _learn(self, node: "_Node", piece: bytes, entry) -> tuple | None:
        """The step the entry encoded by ``piece`` makes from ``node`` (the next node; the box
        it fills: (box, points), or on five of a kind what ``_sheet_with_fives`` checks), kept
        under ``piece``; None when ``piece`` is not a well-formed entry's exact encoding or the
        rules do not allow that entry there: the detailed replay's own ``turn_roll_problem``
        and ``rolled`` for a roll, its scorer for a box."""
        read = self._entries.get(piece, _UNSEEN)
        if read is _UNSEEN:
            read = self._entries[piece] = self._read(piece, entry)
        if read is None:
            return None
        taken, in_turn, dice = node.state
        if read[0] == "roll":
            _, hold, recorded = read
            if taken >= len(self.stream.rolls) or turn_roll_problem(in_turn, dice, hold) \
                    or recorded != rolled(self.stream.rolls[taken], dice, hold):
                return None
            after, score = (taken + 1, in_turn + 1, recorded), None
        else:  # five of a kind may score otherwise once the sheet matters: checked per game
            _, category, points, bonus = read
            if dice is None:
                return None
            # on an empty sheet no box pays an extra bonus
            as_if_empty = bonus == 0 and points == self.scorer.points_anywhere(
                category, dice, in_turn == 1)
            if not (node.five or as_if_empty):
                return None
            after = (self._next_turn_slot(taken, in_turn), 0, None)
            # off five of a kind the box scores the same on every sheet, and bonus is 0
            score = (category, points, bonus, dice, in_turn == 1, as_if_empty) if node.five \
                else (category, points)
        step = node[piece] = (self._node(after), score)
        return step

    def _next_turn_slot(self, slot: int, in_turn: int) -> int:
        """The slot of the next turn's first roll, after a turn of ``in_turn`` rolls whose
        next roll would have taken ``slot``: the same slot when dealing sequentially, the turn's
        first slot plus ``ROLLS_PER_TURN`` when dealing per turn."""
        return slot - in_turn + ROLLS_PER_TURN if self.stream.dealing == PER_TURN else slot

    def _read(self, piece: bytes, entry) -> tuple | None:
        """What ``entry``, encoded by ``piece``, says whatever the state: ("roll", hold, dice)
        or ("score", box, points, bonus), its canonical JSON kept; None when it does not
        encode to exactly ``piece`` or is not a well-formed entry (the keys, types and box
        ``ReplayState`` requires)."""
        entry = self._entry(piece, entry)
        if entry is None:
            return None
        action = entry.get("action")
        if action == "roll" and entry.keys() == ROLL_KEYS:
            hold, dice = entry["hold"], entry["dice"]
            if not (isinstance(hold, list | tuple) and len(hold) == 5
                    and all(type(flag) is bool for flag in hold)
                    and isinstance(dice, list | tuple) and len(dice) == 5
                    and all(type(die) is int for die in dice)):
                return None
            read = ("roll", tuple(hold), tuple(dice))
        elif action == "score" and entry.keys() == SCORE_KEYS:
            category, points, bonus = entry["category"], entry["points"], entry["bonus"]
            if not (isinstance(category, str) and self.ruleset.category(category) is not None
                    and type(points) is int and type(bonus) is int):
                return None
            read = ("score", category, points, bonus)
        else:
            return None
        # every value is a str, bool or int: its canonical JSON is json.dumps's text
        self._keep_text(piece, unchecked_canonical(entry))
        return read

    def _entry(self, piece: bytes, entry) -> dict | None:
        """``entry`` when it marshals to exactly ``piece``, else None."""
        try:
            return entry if marshal.dumps(entry, MARSHAL_VERSION) == _DICT + piece + _DICT_END \
                else None
        except ValueError:
            return None

    def _keep_text(self, piece, text: str) -> None:
        """Keep the canonical JSON ``text`` of the entry ``piece`` encodes."""
        self._texts[piece] = text.encode("utf-8")


class PublishedReplay(FastReplay):
    """The fast path on published transcripts (``PublishedTranscript``): the pieces are the
    entries' own texts (after their opening ``{"action":"``, ``entry_text``), the lookup keys
    as published, and the transcript's text is its
    canonical bytes unless an entry is not written canonically (its keys unsorted, a space, an
    escape, a key twice...): then the bytes are its entries' canonical texts joined."""

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring; no piece read yet."""
        super().__init__(stream, scorer)
        self._recoded: set[str] = set()  # pieces that are not their entry's canonical JSON

    def sheet(self, transcript: PublishedTranscript) -> tuple[dict, int, bytes] | None:
        """(boxes, extra bonus, the transcript's canonical bytes) when every entry is exactly
        what the rules give, else None."""
        pieces = transcript.pieces
        sheet = self._walk(pieces, None)
        if sheet is None:
            return None
        if not self._recoded or self._recoded.isdisjoint(pieces):
            return *sheet, transcript.text.encode("utf-8")
        return *sheet, b"[" + b",".join(map(self._text_of, pieces)) + b"]"

    def _read(self, piece: str, entry) -> tuple | None:
        """``FastReplay._read`` of the entry ``piece`` is the piece of: at once when ``piece``
        is the piece of a well-formed entry's canonical text naming a box of the sheet, else by
        parsing it and encoding it again."""
        read = canonical_entry(piece)
        if read is None or (read[0] == "score" and self.ruleset.category(read[1]) is None):
            return super()._read(piece, entry)
        self._keep_text(piece, entry_text(piece))
        return read

    def _entry(self, piece: str, entry) -> dict:
        """The entry ``piece`` is the piece of (the page reader checked that it parses)."""
        return json.loads(entry_text(piece))

    def _keep_text(self, piece: str, text: str) -> None:
        """Keep the canonical JSON ``text`` of the entry ``piece`` is the piece of, and whether
        they differ."""
        super()._keep_text(piece, text)
        if text != entry_text(piece):
            self._recoded.add(piece)


class _Node(dict):
    """A replay state's learnt steps: entry piece -> the next state's node."""

    __slots__ = ("state", "five")

    def __init__(self, state: tuple):
        """No step learnt yet from ``state``; ``five`` when its dice are five of a kind."""
        super().__init__()
        self.state = state
        self.five = state[2] is not None and is_five_of_a_kind(state[2])


def _pieces(encoded: bytes) -> list[bytes] | None:
    """A marshalled list of dicts cut into one piece per dict (its bytes without ``{`` and
    ``0``), or None when the bytes are not a list of as many pieces as the list holds."""
    if encoded[:1] != _LIST:
        return None
    length = int.from_bytes(encoded[1:5], "little")
    if length == 0:
        return [] if len(encoded) == 5 else None
    if encoded[5:6] != _DICT or encoded[-1:] != _DICT_END:
        return None
    pieces = encoded[6:-1].split(_BETWEEN_DICTS)
    return pieces if len(pieces) == length else None


@dataclass
class FastReplayed:
    """A fast replay that matched: the sheet, its totals, the transcript's canonical bytes."""

    boxes: dict
    totals: rules.Totals
    encoded: bytes
