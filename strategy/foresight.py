"""The perfect-foresight maximum: the best total any line of play can reach on a known stream.

Knowing every die of the day in advance, a player chooses at each turn how many of the three
rolls to take and which positions to hold, then a box. A roll takes the five dice of one slot
of the stream (slot ``n`` is dice ``5n .. 5n+4``) whatever is held, and the stream's dealing
(``fairness.dice``) says which:

- ``per-turn``: roll ``r`` of turn ``t`` takes slot ``3t + r``. A turn's dice depend on the
  turn alone, so a turn start is (boxes filled, upper total capped at 63, "the five-of-a-kind
  box holds 50"): its turn is the number of boxes filled. A die held through the later rolls
  stays, so every hand a turn can end with, three rolls reach: one table per turn, each filled
  from the next with the end hands of the turn's three slots.
- ``sequential``: roll ``n`` of the game takes slot ``n``, so stopping a turn early shifts every
  later turn's dice and a turn start also holds the rolls taken: one table per roll position,
  each filled from the three after it, once per number of rolls the turn takes.

Either way this module finds the exact maximum by dynamic programming over those states, and
the line that reaches it, in the transcript form of ``fairness.game``. Filling a box is a
whole-table numpy operation (2^free × 2 × 64 values at most); a search fills each free box once
per table and set of end hands: about ``free²`` fillings dealt per turn (169 on Yahtzee), about
``9 × free²`` sequentially (3 × 37 × 13 = 1,443), where there are three times as many tables and
three sets of end hands each. docs/strategy.md defines the maximum and proves the search exact.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import numpy as np

from fairness import DiceStream, Ruleset, get_ruleset, rules
from fairness.dice import (
    DICE_PER_ROLL,
    PER_TURN,
    ROLLS_PER_TURN,
    SEQUENTIAL,
    slots_of_game,
    validate_dealing,
)
from fairness.sheets import UPPER, UPPER_BONUS_THRESHOLD

Hand = tuple[int, int, int, int, int]
RollSource = Callable[[int], Sequence[int]]

# Values below this mark states that no line reaches; int16 holds every reachable total.
_UNREACHABLE = -16000
_VALUE_TYPE = np.int16


@dataclass(frozen=True)
class ForesightResult:
    """The foresight maximum of one stream on one sheet and a line of play that reaches it.

    ``total``: the best final total (boxes, upper bonus and extra five-of-a-kind bonuses).
    ``line``: the actions from the start state, as ``fairness.game`` transcript entries; they
    replay on a stream dealt ``dealing``.
    """

    ruleset: str
    total: int
    line: tuple[Mapping, ...]
    dealing: str = SEQUENTIAL

    @property
    def rolls(self) -> int:
        """How many rolls the line takes."""
        return sum(1 for entry in self.line if entry["action"] == "roll")


def foresight_maximum(
    ruleset_id: str,
    dice: Sequence[int] | RollSource,
    *,
    boxes: Mapping[str, int] | None = None,
    rolls_taken: int = 0,
    extra_bonus: int = 0,
    dealing: str = SEQUENTIAL,
) -> ForesightResult:
    """The best final total reachable on ``dice`` dealt ``dealing`` and a line reaching it, by
    exact search.

    ``dice`` is the stream from its first die (at least ``5 × 3 × boxes`` dice), or a callable
    giving slot ``n``'s five dice like ``DiceStream.roll``. The search starts from an empty
    sheet, or from the turn start where ``boxes`` are filled with those points, ``rolls_taken``
    rolls are used and ``extra_bonus`` points of extra five-of-a-kind bonus are earned. Dealt
    per turn, the turn's slots follow from the boxes filled and ``rolls_taken`` changes nothing.
    Sheets of several columns are refused (ValueError): their 2^39 filled-box sets are out of
    reach of an exact search.
    """
    ruleset = get_ruleset(ruleset_id)
    if ruleset.columns > 1:
        raise ValueError(f"{ruleset.id} has {ruleset.columns} columns: the exact search covers "
                         f"one-column sheets ({len(ruleset.categories)} boxes are 2^"
                         f"{len(ruleset.categories)} filled-box sets)")
    sheet = rules.validate_sheet(ruleset, dict(boxes or {}))
    search = _Search(ruleset, sheet, rolls_taken, extra_bonus, dice, validate_dealing(dealing))
    return search.best_line()


def foresight_for_day(seed, date, ruleset_id: str, dealing: str = SEQUENTIAL) -> ForesightResult:
    """The foresight maximum of the day's stream of ``ruleset_id`` dealt ``dealing`` (seed as
    for DiceStream; the dealing is the date's epoch's: sequential for a v1 epoch)."""
    stream = DiceStream(seed, date, ruleset_id, dealing)
    slots = slots_of_game(len(get_ruleset(ruleset_id).categories))
    return foresight_maximum(ruleset_id, stream.dice(DICE_PER_ROLL * slots),
                             dealing=stream.dealing)


class _Search:
    """The value tables of every state from the start state on, and the line they give.

    A table is kept per *position*: per turn (0 = the start state's) when dealing per turn, per
    roll taken since the start state when dealing sequentially. ``rolls[i]`` is the ``i``-th
    slot the free boxes can use: slot ``3 × boxes filled + i`` per turn, ``rolls_taken + i``
    sequentially; a position's turn reads ``rolls[first_roll(position) + j]`` at its roll ``j``.
    """

    def __init__(self, ruleset, sheet, rolls_taken, extra_bonus, dice, dealing):
        """Read the slots the free boxes can use and fill the value tables backwards."""
        for name, number in (("rolls_taken", rolls_taken), ("extra_bonus", extra_bonus),
                             *((f"points of {box}", p) for box, p in sheet.items())):
            if type(number) is not int or number < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {number!r}")
        self.ruleset = ruleset
        self.sheet = dict(sheet)
        self.start_extra = extra_bonus
        self.dealing = dealing
        self.free = tuple(c.id for c in ruleset.categories if c.id not in sheet)
        if not self.free:
            raise ValueError("the sheet is already full: there is nothing to search")
        first_slot = ROLLS_PER_TURN * len(sheet) if dealing == PER_TURN else rolls_taken
        self.rolls = _read_rolls(dice, first_slot, ROLLS_PER_TURN * len(self.free))
        self.five_box = ruleset.five_of_a_kind_box
        self.upper_boxes = {c.id for c in ruleset.categories if c.section == UPPER}
        self.tracks_upper = ruleset.upper_bonus > 0
        self.tracks_fifty = bool(ruleset.extra_bonus and self.five_box)
        self.start_state = self._state_of(sheet)
        self.values = _fill_values(self)

    @property
    def last_position(self) -> int:
        """The position at which the sheet is full, whatever line led there (per turn), or
        the furthest one (sequentially: every turn takes three rolls)."""
        turns = len(self.free)
        return turns if self.dealing == PER_TURN else ROLLS_PER_TURN * turns

    def first_roll(self, position: int) -> int:
        """The index in ``rolls`` of the first roll of the turn starting at ``position``."""
        return ROLLS_PER_TURN * position if self.dealing == PER_TURN else position

    def next_position(self, position: int, rolls: int) -> int:
        """Where the next turn starts after a turn of ``rolls`` rolls from ``position``."""
        return position + 1 if self.dealing == PER_TURN else position + rolls

    def turn_ends(self, position: int) -> list[tuple[int, dict[Hand, tuple]]]:
        """The ways a turn from ``position`` can end, for the tables: (next position, the end
        hands that lead there), none when no turn starts there.

        Per turn: the turn reads its three slots whatever it stops at, and a die held through
        the later rolls stays, so the hands one or two rolls reach, three reach too: one entry,
        at the next turn. Sequentially: one entry per number of rolls, each reading that many
        slots; a turn starting at relative roll r has at least r / 3 turns behind it and at most
        one box fewer than there are free, so from the last three positions (full sheet only)
        no turn starts.
        """
        first = self.first_roll(position)
        if self.dealing == PER_TURN:
            if position == self.last_position:
                return []
            return [(position + 1, end_hands(self.rolls, first, ROLLS_PER_TURN))]
        if position > self.last_position - ROLLS_PER_TURN:
            return []
        return [(position + rolls, end_hands(self.rolls, first, rolls))
                for rolls in range(1, ROLLS_PER_TURN + 1)]

    def _state_of(self, sheet: Mapping[str, int]) -> tuple[int, ...]:
        """The table index of a turn start with ``sheet`` filled (its position aside)."""
        filled = tuple(int(box in sheet) for box in self.free)
        return filled + (self.fifty_index(sheet), self.upper_index(sheet))

    def upper_index(self, sheet: Mapping[str, int]) -> int:
        """The upper total of ``sheet`` capped at 63 (always 0 on a sheet without the bonus)."""
        if not self.tracks_upper:
            return 0
        upper = sum(points for box, points in sheet.items() if box in self.upper_boxes)
        return min(upper, UPPER_BONUS_THRESHOLD)

    def fifty_index(self, sheet: Mapping[str, int]) -> int:
        """1 when the five-of-a-kind box holds 50 and extra ones earn a bonus, else 0."""
        return int(self.tracks_fifty and sheet.get(self.five_box) == 50)

    def best_line(self) -> ForesightResult:
        """Follow the tables from the start state and return the line with its total."""
        sheet, extra, position = dict(self.sheet), self.start_extra, 0
        line: list[Mapping] = []
        while len(sheet) < len(self.ruleset.categories):
            turn = self._best_turn(position, sheet)
            line.extend(turn.entries(self.rolls, self.first_roll(position)))
            sheet[turn.box] = turn.points
            extra += turn.bonus
            position = self.next_position(position, turn.rolls)
        total = rules.totals(self.ruleset.id, sheet, extra).total
        if total != self._start_total() + int(self.values[0][self.start_state]):
            raise RuntimeError("foresight line and value tables disagree")
        return ForesightResult(self.ruleset.id, total, tuple(line), self.dealing)

    def _start_total(self) -> int:
        """The total the start state already has."""
        return rules.totals(self.ruleset.id, self.sheet, self.start_extra).total

    def _best_turn(self, position: int, sheet: Mapping[str, int]) -> "_Turn":
        """The turn from ``position`` with ``sheet`` filled that attains the table's value.

        Every reachable end hand and every box ``fairness.rules`` allows for it is weighed with
        the rules' own scores, so this also checks the table at each state of the line.
        Ties go to the fewest rolls, then the first hand in enumeration order, then sheet order.
        """
        state = self._state_of(sheet)
        best: _Turn | None = None
        best_value: int | None = None
        first = self.first_roll(position)
        for rolls in range(1, ROLLS_PER_TURN + 1):
            for hand, sources in end_hands(self.rolls, first, rolls).items():
                scores, bonus = self._scores_now(hand, sheet)
                for box in rules.placement(self.ruleset.id, hand, sheet).allowed:
                    turn = _Turn(rolls, sources, box, scores[box], bonus)
                    value = self._turn_value(position, turn, sheet)
                    if best_value is None or value > best_value:
                        best, best_value = turn, value
        if best_value != self.values[position][state]:
            raise RuntimeError("foresight tables are not the best value of their state")
        return best

    def _scores_now(self, hand: Hand, sheet: Mapping[str, int]) -> tuple[Mapping[str, int], int]:
        """What ``hand`` scores in each box with ``sheet`` filled, and the extra bonus it earns.

        Only a five-of-a-kind's worth depends on the sheet (``fairness.rules.score``).
        """
        if len(set(hand)) > 1:
            return _normal_scores(self.ruleset.id, hand), 0
        scores = {box: rules.score(self.ruleset.id, box, hand, sheet) for box in self.free}
        return scores, rules.extra_bonus(self.ruleset.id, hand, sheet)

    def _turn_value(self, position: int, turn: "_Turn", sheet) -> int:
        """The points ``turn`` earns (with the bonus it crosses) plus its next state's value."""
        after = {**sheet, turn.box: turn.points}
        upper_before, upper_after = self.upper_index(sheet), self.upper_index(after)
        crossed = upper_before < UPPER_BONUS_THRESHOLD <= upper_after
        earned = turn.points + turn.bonus + (self.ruleset.upper_bonus if crossed else 0)
        after_turn = self.next_position(position, turn.rolls)
        return earned + int(self.values[after_turn][self._state_of(after)])


@dataclass(frozen=True)
class _Turn:
    """One turn's choice: how many rolls, which roll each position's die comes from, the box."""

    rolls: int
    sources: tuple[int, ...]
    box: str
    points: int
    bonus: int

    def entries(self, stream_rolls: Sequence[Hand], first: int) -> list[Mapping]:
        """The transcript entries of this turn, its first roll being ``stream_rolls[first]``."""
        entries: list[Mapping] = []
        dice: list[int] = []
        for step in range(self.rolls):
            hold = [source < step for source in self.sources]
            drawn = stream_rolls[first + step]
            dice = [dice[i] if hold[i] else drawn[i] for i in range(5)]
            entries.append({"action": "roll", "hold": hold, "dice": dice})
        entries.append(
            {"action": "score", "category": self.box, "points": self.points, "bonus": self.bonus}
        )
        return entries


def end_hands(stream_rolls: Sequence[Hand], first: int, rolls: int) -> dict[Hand, tuple]:
    """Every hand (sorted) a turn can end with after ``rolls`` rolls, its roll ``j`` drawing
    ``stream_rolls[first + j]``.

    Position ``i`` ends with the die of any one of those rolls: held at every reroll after the
    roll that drew it. Each hand maps to the first ``sources`` giving it in enumeration order,
    ``sources[i]`` being the roll (0-based in the turn) whose die position ``i`` keeps.
    """
    hands: dict[Hand, tuple] = {}
    for sources in product(range(rolls), repeat=5):
        hand = tuple(sorted(stream_rolls[first + s][i] for i, s in enumerate(sources)))
        hands.setdefault(hand, sources)
    return hands


def _read_rolls(dice, start: int, count: int) -> list[Hand]:
    """Slots ``start .. start + count - 1`` of the stream, relative to ``start``."""
    if callable(dice):
        rolls = [tuple(dice(start + n)) for n in range(count)]
    else:
        needed = DICE_PER_ROLL * (start + count)
        if len(dice) < needed:
            raise ValueError(f"the search needs the first {needed} dice, got {len(dice)}")
        rolls = [tuple(dice[DICE_PER_ROLL * n : DICE_PER_ROLL * (n + 1)])
                 for n in range(start, start + count)]
    return [rules.validate_dice(roll) for roll in rolls]


def _fill_values(search: _Search) -> list[np.ndarray]:
    """Value tables by position: the most points still to earn from each turn start.

    A table has one axis per free box (1 = filled), then the fifty flag, then the capped
    upper total. Positions are filled from the last one back: a turn ends at a later position
    (``_Search.turn_ends``: the next one per turn, one of the three after it sequentially).
    Dealt per turn, table ``t`` means something only where ``t`` of the free boxes are filled.
    """
    free_count = len(search.free)
    shape = (2,) * free_count + (
        2 if search.tracks_fifty else 1,
        UPPER_BONUS_THRESHOLD + 1 if search.tracks_upper else 1,
    )
    last = search.last_position
    boxes = _BoxMoves(search)
    values: list[np.ndarray] = [None] * (last + 1)
    for position in range(last, -1, -1):
        table = np.full(shape, _UNREACHABLE, dtype=_VALUE_TYPE)
        table[(1,) * free_count] = 0
        for after, hands in search.turn_ends(position):
            boxes.relax(table, values[after], hands)
        values[position] = table
    return values


class _BoxMoves:
    """Scoring a box, as whole-table operations: each free box's best points for a set of hands.

    For a box and a set of reachable end hands the best choice does not depend on the state
    except through the five-of-a-kind rules, since a higher score never leads to a worse future
    (docs/strategy.md). So each box takes its best score over the ordinary hands, and each
    five-of-a-kind the Joker or the extra bonus treats apart is weighed on its own.
    """

    def __init__(self, search: _Search):
        """Index the free boxes and, where a sheet has one, a five-of-a-kind's Joker points."""
        self.search = search
        self.ruleset: Ruleset = search.ruleset
        self.axis = {box: i for i, box in enumerate(search.free)}
        self.upper = {box for box in search.free if self.ruleset.category(box).section == UPPER}
        five = search.five_box
        self.five_axis = self.axis.get(five)
        self.five_filled = five is not None and five in search.sheet
        self.box_axes = len(search.free)
        if five is not None:
            filled_sheet = {five: 0}
            self.joker_points = {
                face: {
                    box: rules.score(self.ruleset.id, box, (face,) * 5, filled_sheet)
                    for box in search.free
                }
                for face in range(1, 7)
            }
            self.extra = rules.extra_bonus(self.ruleset.id, (6,) * 5, {five: 50})

    def relax(self, table: np.ndarray, after: np.ndarray, hands: Mapping[Hand, tuple]) -> None:
        """Raise ``table`` to the best value of ending the turn with one of ``hands``."""
        scores = {hand: _normal_scores(self.ruleset.id, hand) for hand in hands}
        faces = sorted(hand[0] for hand in hands if len(set(hand)) == 1)
        ordinary = [s for hand, s in scores.items() if len(set(hand)) > 1]
        for index, box in enumerate(self.search.free):
            best_any = max(s[box] for s in scores.values())
            if box == self.search.five_box:
                self._score_five_box(table, after, best_any)
                continue
            if self.five_axis is None and not self.five_filled:
                self._score(table, after, box, best_any, {})
                continue
            if self.five_axis is not None:
                self._score(table, after, box, best_any, {self.five_axis: 0})
            filled = {} if self.five_axis is None else {self.five_axis: 1}
            if ordinary:
                self._score(table, after, box, max(s[box] for s in ordinary), filled)
            for face in faces:
                allowed = _five_of_a_kind_allowed(
                    self.ruleset.id, self.search.free, tuple(self.search.sheet), face
                )
                mask = allowed[index]
                self._score(table, after, box, self.joker_points[face][box], filled,
                            extra=self.extra, mask=mask)

    def _score_five_box(self, table, after, points: int) -> None:
        """Fill the five-of-a-kind box (free until now, so fifty flag 0): 50 sets the flag."""
        axis = self.five_axis
        source = _fix(table, self.box_axes, {axis: 0})
        flag = 1 if points == 50 and self.search.tracks_fifty else 0
        target = _fix(after, self.box_axes, {axis: 1})[..., flag, :] + np.int16(points)
        np.maximum(source[..., 0, :], target, out=source[..., 0, :])

    def _score(self, table, after, box, points, fixed, extra=0, mask=None) -> None:
        """Raise the states of ``table`` matching ``fixed`` by scoring ``points`` in ``box``.

        ``extra`` is added where the fifty flag is set; ``mask`` (over the box axes) limits the
        states to those where the rules allow the box.
        """
        axis = self.axis[box]
        source = _fix(table, self.box_axes, {**fixed, axis: 0})
        target = _fix(after, self.box_axes, {**fixed, axis: 1})
        if fixed.get(self.five_axis) == 0:
            # While the five-of-a-kind box is free its fifty flag is 0: skip the unused half.
            source, target = source[..., :1, :], target[..., :1, :]
        if box in self.upper and self.search.tracks_upper:
            gained = _add_upper(target, points, self.ruleset.upper_bonus)
        else:
            gained = target + np.int16(points)
        if extra:
            gained[..., 1, :] += np.int16(extra)
        if mask is None:
            np.maximum(source, gained, out=source)
        else:
            mask = _fix(mask, self.box_axes, {**fixed, axis: 0})[..., None, None]
            np.maximum(source, gained, out=source, where=mask)


def _add_upper(target: np.ndarray, points: int, bonus: int) -> np.ndarray:
    """Values of scoring ``points`` in an upper box, per upper total before it, with the bonus.

    From upper total ``u`` the next state has ``min(63, u + points)``; the bonus is earned
    where ``u < 63 <= u + points``.
    """
    cap = UPPER_BONUS_THRESHOLD
    gained = np.empty_like(target)
    below = max(cap - points, 0)
    gained[..., :below] = target[..., points : points + below] + np.int16(points)
    gained[..., below:cap] = target[..., cap : cap + 1] + np.int16(points + bonus)
    gained[..., cap:] = target[..., cap:] + np.int16(points)
    return gained


def _fix(array: np.ndarray, box_axes: int, fixed: Mapping[int, int]) -> np.ndarray:
    """The view of ``array`` (C-contiguous) with the box axes of ``fixed`` at the given indices.

    ``array`` has ``box_axes`` leading axes of length 2, one per free box; the runs of those
    left free are merged into one axis, so that numpy walks a few long axes, not 13 short ones.
    """
    shape: list[int] = []
    index: list = []
    run = 1
    for axis in range(box_axes):
        if axis in fixed:
            shape += [run, 2]
            index += [slice(None), fixed[axis]]
            run = 1
        else:
            run *= 2
    shape += [run, *array.shape[box_axes:]]
    index.append(slice(None))
    return array.reshape(shape)[tuple(index)]


@lru_cache(maxsize=2048)
def _normal_scores(ruleset_id: str, hand: Hand) -> dict[str, int]:
    """What ``hand`` scores in each box while the five-of-a-kind box is free."""
    ruleset = get_ruleset(ruleset_id)
    return {box: rules.score(ruleset_id, box, hand) for box in ruleset.category_ids}


@lru_cache(maxsize=256)
def _five_of_a_kind_allowed(
    ruleset_id: str, free: tuple[str, ...], prefilled: tuple[str, ...], face: int
) -> np.ndarray:
    """Where ``fairness.rules.placement`` lets five of ``face`` go, the five-of-a-kind box filled.

    ``allowed[i][filled]`` is True when free box ``i`` may take them on the sheet whose free
    boxes are filled as the 0/1 flags ``filled`` say (unused where that box is free).
    """
    ruleset = get_ruleset(ruleset_id)
    allowed = np.zeros((len(free),) + (2,) * len(free), dtype=bool)
    for filled in product((0, 1), repeat=len(free)):
        sheet = dict.fromkeys(prefilled, 0) | {b: 0 for b, f in zip(free, filled, strict=True) if f}
        if ruleset.five_of_a_kind_box not in sheet or len(sheet) == len(free) + len(prefilled):
            continue
        permitted = rules.placement(ruleset_id, (face,) * 5, sheet).allowed
        allowed[(slice(None), *filled)] = [box in permitted for box in free]
    return allowed
