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
        self._kept: dict[bytes, bytes] = {}  # each piece learnt from, one copy
        self._text_of = self._texts.__getitem__
        # (the dice as a multiset, on the turn's first roll) -> piece -> the box it fills
        self._scorings: dict[tuple, dict] = {}
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
            node = self._nodes[state] = self._new_node(state)
            taken, in_turn, dice = state
            if dice is not None:  # a box may be scored: what it scores, where the turn ends
                node.scoring = self._scorings.setdefault(
                    (tuple(sorted(dice)), in_turn == 1), {})
                node.turn_end = self._node((self._next_turn_slot(taken, in_turn), 0, None))
        return node

    def _new_node(self, state: tuple) -> "_Node":
        """A node for ``state``, no step learnt yet."""
        return _Node(state)

    def _learn(self, node: "_Node", piece: bytes, entry=None) -> tuple | None:
        """The step the entry encoded by ``piece`` makes from ``node`` (the next node; the box
        it fills: (box, points), or on five of a kind what ``_sheet_with_fives`` checks), kept
        under the replay's one copy of ``piece``; None when ``piece`` is not a well-formed
        entry's exact encoding or the rules do not allow that entry there: the detailed
        replay's own ``turn_roll_problem`` and ``rolled`` for a roll, its scorer for a box."""
        piece = self._kept.setdefault(piece, piece)
        read = self._entries.get(piece, _UNSEEN)
        if read is _UNSEEN:
            read = self._entries[piece] = self._read(piece, entry)
        if read is None:
            return None
        if read[0] == "roll":
            after = self._rolled(node, read)
            if after is None:
                return None
            step = node[piece] = (after, None)
            return step
        if node.scoring is None:  # no dice: a box scored before the turn's first roll
            return None
        score = node.scoring.get(piece, _UNSEEN)
        if score is _UNSEEN:
            score = node.scoring[piece] = self._score(node, read)
        if score is None:
            return None
        step = node[piece] = (node.turn_end, score)
        return step

    def _rolled(self, node: "_Node", read: tuple) -> "_Node | None":
        """The node a roll (``read``: "roll", its hold, its dice) leads to from ``node``; None
        when the rules do not allow it there or the stream does not give those dice."""
        _, hold, recorded = read
        taken, in_turn, dice = node.state
        if taken >= len(self.stream.rolls) or turn_roll_problem(in_turn, dice, hold) \
                or recorded != rolled(self.stream.rolls[taken], dice, hold):
            return None
        return self._node((taken + 1, in_turn + 1, recorded))

    def _score(self, node: "_Node", read: tuple) -> tuple | None:
        """The box a score (``read``: "score", box, points, bonus) fills from ``node``, whose
        dice are on the table: (box, points), or on five of a kind what ``_sheet_with_fives``
        checks; None when it does not score what the rules give. It depends on the dice as a
        multiset and on whether they came on the turn's first roll alone (``node.scoring``)."""
        _, category, points, bonus = read
        _, in_turn, dice = node.state
        # on an empty sheet no box pays an extra bonus
        as_if_empty = bonus == 0 and points == self.scorer.points_on_empty_sheet(
            category, dice, in_turn == 1)
        if not (node.five or as_if_empty):
            return None
        # off five of a kind the box scores the same on every sheet, and bonus is 0
        return (category, points, bonus, dice, in_turn == 1, as_if_empty) if node.five \
            else (category, points)

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
            if not (isinstance(category, str) and type(points) is int and type(bonus) is int):
                return None
            read = self._score_read(category, points, bonus)
            if read is None:
                return None
        else:
            return None
        # every value is a str, bool or int: its canonical JSON is json.dumps's text
        self._keep_text(piece, unchecked_canonical(entry))
        return read

    def _score_read(self, category: str, points: int, bonus: int) -> tuple | None:
        """("score", box, points, bonus), the box its id as the sheet holds it (the same str
        object for it in every sheet filled); None when the sheet has no box ``category``."""
        box = self.ruleset.category(category)
        return None if box is None else ("score", box.id, points, bonus)

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
    escape, a key twice...): then the bytes are its entries' canonical texts joined.

    Its nodes learn a step as it is looked up (``_LearningNode``), so that a page reader can
    replay a transcript on its pieces as it cuts them: a step is learnt only from a piece whose
    entry text parses as a JSON object, so a transcript replayed to the end is a JSON array of
    objects, which the reader needs to know."""

    def __init__(self, stream: SharedStream, scorer: CachedRules):
        """Bind the day's rolls and the sheet's cached scoring; no piece read yet."""
        self._learn_missing = self._learn  # bound once, for every node
        super().__init__(stream, scorer)
        # the pieces that are not their entry's canonical JSON -> the entry's canonical JSON
        self._recoded: dict[str, bytes] = {}

    def sheet(self, transcript: PublishedTranscript) -> tuple[dict, int, bytes] | None:
        """(boxes, extra bonus, the transcript's canonical bytes) when every entry is exactly
        what the rules give, else None: what this replay made of it as it was read, if it
        did."""
        if transcript.replay is self:
            return transcript.sheet
        return self.sheet_of_pieces(transcript.text, transcript.pieces)

    def sheet_of_pieces(self, text: str, pieces: tuple | list) -> tuple[dict, int, bytes] | None:
        """``sheet`` of the transcript of text ``text`` cut into the entries' ``pieces``; None
        as well when a piece does not give a JSON object (no step is learnt from it)."""
        sheet = self._walk(pieces, None)
        if sheet is None:
            return None
        if not self._recoded or self._recoded.keys().isdisjoint(pieces):
            return *sheet, text.encode("utf-8")
        return *sheet, b"[" + b",".join(map(self._canonical_text, pieces)) + b"]"

    def _walk(self, pieces: tuple | list, entries: None) -> tuple[dict, int] | None:
        """``FastReplay._walk`` of a transcript cut into its entries' own texts: a step not
        learnt yet is learnt as it is looked up (``_LearningNode``), and one the rules do not
        give leads to the dead end, where the walk ends up."""
        node, filled = self.start, []
        for piece in pieces:
            node, box = node[piece]
            if box is not None:
                filled.append(box)
        return None if node is _DEAD_END else self._sheet(filled, node)

    def _new_node(self, state: tuple) -> "_LearningNode":
        """A node for ``state`` that learns its steps as they are looked up."""
        return _LearningNode(state, self._learn_missing)

    def _read(self, piece: str, entry) -> tuple | None:
        """``FastReplay._read`` of the entry ``piece`` is the piece of: at once when ``piece``
        is the piece of a well-formed entry's canonical text naming a box of the sheet, else by
        parsing it and encoding it again."""
        read = canonical_entry(piece)
        if read is not None and read[0] == "score":
            read = self._score_read(*read[1:])
        return read if read is not None else super()._read(piece, entry)

    def _entry(self, piece: str, entry) -> dict | None:
        """The entry ``piece`` is the piece of, None when its text does not parse (a piece
        cut from a page not yet checked)."""
        try:
            return json.loads(entry_text(piece))
        except (ValueError, RecursionError):
            return None

    def _keep_text(self, piece: str, text: str) -> None:
        """Keep the canonical JSON ``text`` of the entry ``piece`` is the piece of when it is
        not ``entry_text(piece)``."""
        if text != entry_text(piece):
            self._recoded[piece] = text.encode("utf-8")

    def _canonical_text(self, piece: str) -> bytes:
        """The canonical JSON of the entry ``piece`` is the piece of."""
        recoded = self._recoded.get(piece)
        return entry_text(piece).encode("utf-8") if recoded is None else recoded


class _Node(dict):
    """A replay state's learnt steps: entry piece -> (the next state's node, the box filled or
    None).

    A state with dice on the table also has ``scoring``, what each score entry fills from there
    (piece -> box, or None when the rules do not give it), shared by every state whose dice are
    the same multiset, on the turn's first roll or not: a box scores the same from each; and
    ``turn_end``, the node after any score."""

    __slots__ = ("state", "five", "scoring", "turn_end")

    def __init__(self, state: tuple):
        """No step learnt yet from ``state`` (the dict is empty); ``five`` when its dice are
        five of a kind."""
        self.state = state
        self.five = state[2] is not None and is_five_of_a_kind(state[2])
        self.scoring = self.turn_end = None


class _LearningNode(_Node):
    """A node that learns a step when it is looked up and not known yet, by ``learn(node,
    piece)`` (``FastReplay._learn``): a walk needs no other lookup. A step the rules do not
    give leads to the dead end."""

    __slots__ = ("learn",)

    def __init__(self, state: tuple, learn):
        """No step learnt yet from ``state``; ``learn`` learns one."""
        super().__init__(state)
        self.learn = learn

    def __missing__(self, piece: str) -> tuple:
        """The step ``piece`` makes from here, learnt now."""
        return self.learn(self, piece) or _TO_DEAD_END


class _DeadEnd(_Node):
    """Where a walk goes at a step the rules do not give, and stays: every piece leads back
    (nothing is ever kept in it, so one serves every replay)."""

    __slots__ = ()

    def __init__(self):
        """No state: nothing is learnt from here."""
        super().__init__((None, None, None))

    def __missing__(self, piece: str) -> tuple:
        """The step back here, whatever the piece."""
        return _TO_DEAD_END


_DEAD_END = _DeadEnd()
_TO_DEAD_END = (_DEAD_END, None)


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
