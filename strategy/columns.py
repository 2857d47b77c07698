"""Sheets of several columns (triple Yahtzee): the rules as arrays and an approximate value.

The exact state space of triple Yahtzee (2^39 filled-box sets × three upper totals) is out of
reach, so a turn-start state is valued by the columns' own optimal tables:

    V̂(state) = Σ_c m_c · V1(state of column c)

where ``m_c`` is column ``c``'s multiplier (1, 2, 3) and ``V1`` the solved table of the
one-column sheet (``yahtzee``); a column's state is its filled boxes, its upper total capped at
63 and, for its flag, whether the +100 is live (every Yahtzee box of the sheet filled, none
with 0). It is what the columns would still give if each were played on its own, optimally,
on the turns still to come. Within a turn the values are exact against V̂: every allowed box
is worth its points now (the triple sheet's own Joker and bonus rules, cross-column) plus V̂
of the state it leads to, and keeps are valued by the same reroll code as the exact tables.
docs/strategy.md gives the measured means.

State ``(mask, upper, flag)`` as the exact tables have it: ``mask`` the 39 filled boxes in
sheet order, ``upper`` the three capped upper totals packed as ``u1 + 64·u2 + 4096·u3``, and
``flag`` 1 once some Yahtzee box holds 0 (no +100 can come any more).
"""

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from fairness import RULESETS, get_ruleset
from fairness.sheets import UPPER

from .dice import FACES, FIVE_OF_A_KIND, HANDS
from .sheetrules import UPPER_CAP, SheetRules, five_box_ids, sheet_rules

UPPER_STATES = UPPER_CAP + 1  # one column's capped upper totals 0..63


def column_ruleset(ruleset_id: str) -> str:
    """The one-column sheet a sheet of several columns repeats (``yahtzee`` for the triple)."""
    ruleset = get_ruleset(ruleset_id)
    kinds = tuple(c.kind for c in ruleset.categories if c.column == 1)
    for candidate in RULESETS.values():
        if (candidate.columns == 1 and candidate.category_ids == kinds
                and (candidate.upper_bonus, candidate.extra_bonus, candidate.joker)
                == (ruleset.upper_bonus, ruleset.extra_bonus, ruleset.joker)):
            return candidate.id
    raise ValueError(f"{ruleset_id}: no one-column sheet has its boxes and rules")


@dataclass(frozen=True, eq=False)  # arrays inside: identity, not value, equality
class ColumnsRules:
    """A sheet of several columns of ``column``'s boxes, column ``c`` worth ``multipliers[c]``
    times the dice; the Joker and the +extra bonus count once every Yahtzee box is filled."""

    ruleset_id: str
    box_ids: tuple[str, ...]
    column: SheetRules
    multipliers: tuple[int, ...]
    upper_bonus: int
    extra_bonus: int
    joker: bool
    points: np.ndarray = field(repr=False)  # (boxes, 252): each box's points, multiplied

    first_roll_bonus = False
    fifty_dependent = False

    @property
    def boxes(self) -> int:
        """The number of boxes on the sheet."""
        return len(self.box_ids)

    @property
    def columns(self) -> int:
        """The number of columns."""
        return len(self.multipliers)

    @property
    def upper_states(self) -> int:
        """How many packed upper values the state has: 64 per column with a bonus, else 1."""
        return UPPER_STATES ** self.columns if self.upper_bonus else 1

    @property
    def flag_states(self) -> int:
        """2 when a +extra bonus exists (the flag says it can no longer come), else 1."""
        return 2 if self.extra_bonus else 1

    @property
    def five_box_ids(self) -> tuple[str, ...]:
        """The Yahtzee box of every column."""
        return five_box_ids(self.ruleset_id)

    def box_column(self, box: int) -> tuple[int, int]:
        """(column index, box index within the column) of sheet box ``box``."""
        return divmod(box, self.column.boxes)

    def state_of(self, boxes: Mapping[str, int]) -> tuple[int, int, int]:
        """(mask, packed capped upper totals, flag) of a sheet filled with ``boxes``."""
        mask = sum(1 << b for b, box in enumerate(self.box_ids) if box in boxes)
        upper = 0
        if self.upper_bonus:
            for c, multiplier in enumerate(self.multipliers):
                ids = self.box_ids[c * self.column.boxes : c * self.column.boxes + len(FACES)]
                total = sum(boxes.get(box, 0) for box in ids) // multiplier
                upper += min(UPPER_CAP, total) * UPPER_STATES ** c
        dead = any(box in boxes and boxes[box] == 0 for box in self.five_box_ids)
        return mask, upper, int(dead and self.flag_states > 1)

    def after_scoring(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray,
                      boxes: np.ndarray, hands: np.ndarray, first_roll: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(masks, uppers, flags, upper bonus earned) once box ``boxes[i]`` of state ``i`` is
        filled with hand ``hands[i]`` (``first_roll`` plays no part on these sheets)."""
        columns, inner = np.divmod(boxes, self.column.boxes)
        raw = self.column.points[inner, hands]
        bonus = np.zeros(len(boxes), dtype=np.int64)
        if self.upper_bonus:
            place = UPPER_STATES ** columns
            before = uppers // place % UPPER_STATES
            after = np.where(inner < len(FACES), np.minimum(before + raw, UPPER_CAP), before)
            crossed = (before < UPPER_CAP) & (after >= UPPER_CAP)
            bonus = crossed * self.upper_bonus * np.array(self.multipliers)[columns]
            uppers = uppers + (after - before) * place
        if self.flag_states > 1:
            flags = flags | ((inner == self.column.five_box) & (raw == 0)).astype(np.int64)
        return masks | (1 << boxes), uppers, flags, bonus


def columns_rules(ruleset_id: str) -> ColumnsRules:
    """The arrays of the sheet of several columns ``ruleset_id``."""
    ruleset = get_ruleset(ruleset_id)
    column = sheet_rules(column_ruleset(ruleset_id))
    multipliers = tuple(sorted({c.multiplier for c in ruleset.categories}))
    if len(multipliers) != ruleset.columns or ruleset.categories[0].section != UPPER:
        raise ValueError(f"{ruleset_id}: one multiplier per column, upper boxes first")
    points = np.concatenate([column.points * m for m in multipliers])
    return ColumnsRules(ruleset.id, ruleset.category_ids, column, multipliers,
                        ruleset.upper_bonus, ruleset.extra_bonus, ruleset.joker, points)


@dataclass(frozen=True, eq=False)
class ColumnsTable:
    """V̂ of a sheet of several columns over ``column_table``, the one-column sheet's table
    (a ``strategy.Table``); the same methods as a Table, for evaluate, bots and reviews."""

    rules: ColumnsRules
    column_table: object = field(repr=False)
    recent_turns: OrderedDict = field(default_factory=OrderedDict, repr=False)

    exact = False

    @property
    def ruleset_id(self) -> str:
        """The ruleset the table is for."""
        return self.rules.ruleset_id

    @property
    def optimum(self) -> float:
        """V̂ of the empty sheet: the one-column optimum times the sum of the multipliers."""
        return self.start_value((0, 0, 0))

    def start_value(self, state: tuple[int, int, int]) -> float:
        """V̂ of a turn-start state."""
        parts = self._columns(*(np.array([part]) for part in state))
        return float(self._estimate(parts, parts.live)[0])

    def box_values(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray,
                   first_roll: bool = False) -> np.ndarray:
        """(boxes, n, 252): each box's points now (bonuses included) plus V̂ of the next
        state, ``-inf`` where the rules forbid it."""
        return self._values(masks, uppers, flags, future=True)

    def immediate_values(self, masks: np.ndarray, flags: np.ndarray,
                         first_roll: bool = False) -> np.ndarray:
        """(boxes, n, 252): the points each box scores now, +extra bonus included, the upper
        bonus not (``-inf`` where the rules forbid the box)."""
        blind = replace(self.rules, upper_bonus=0)
        return ColumnsTable(blind, self.column_table)._values(masks, np.zeros_like(masks),
                                                               flags, future=False)

    def bonus_blind(self) -> "ColumnsTable":
        """The same approximation for the sheet without its upper bonus."""
        return ColumnsTable(replace(self.rules, upper_bonus=0), self.column_table.bonus_blind())

    def _columns(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray) -> "_Columns":
        """Each column's mask and upper total, and the sheet's Joker and +extra conditions."""
        rules = self.rules
        size = rules.column.boxes
        column_masks = np.stack([(masks >> (c * size)) & ((1 << size) - 1)
                                 for c in range(rules.columns)])
        if rules.upper_bonus:
            column_uppers = np.stack([uppers // UPPER_STATES ** c % UPPER_STATES
                                      for c in range(rules.columns)])
        else:
            column_uppers = np.zeros_like(column_masks)
        five_bit = 1 << rules.column.five_box
        fives_filled = ((column_masks & five_bit) != 0).all(axis=0)
        alive = flags == 0
        live = fives_filled & alive & (rules.extra_bonus > 0)
        return _Columns(column_masks, column_uppers, fives_filled, alive, live)

    def _column_value(self, masks: np.ndarray, uppers: np.ndarray, live: np.ndarray) -> np.ndarray:
        """V1 of column states (any matching shapes); ``live`` sets the column table's flag."""
        values = self.column_table.values
        flags = live.astype(np.int64) if values.shape[2] > 1 else np.zeros_like(masks)
        return values[masks, uppers if values.shape[1] > 1 else 0, flags]

    def _estimate(self, parts: "_Columns", live: np.ndarray) -> np.ndarray:
        """V̂ per state (n,) of the columns ``parts`` with the +extra ``live`` or not."""
        return sum(m * self._column_value(parts.masks[c], parts.uppers[c], live)
                   for c, m in enumerate(self.rules.multipliers))

    def _values(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray,
                future: bool) -> np.ndarray:
        """The box values with (``future``) or without V̂ of the next state."""
        rules = self.rules
        column = rules.column
        parts = self._columns(masks, uppers, flags)
        out = np.full((rules.boxes, len(masks), len(HANDS)), -np.inf)
        now = self._estimate(parts, parts.live) if future else np.zeros(len(masks))
        for box in range(rules.boxes):
            c, b = rules.box_column(box)
            rows = np.nonzero(((parts.masks[c] >> b) & 1) == 0)[0]
            if rows.size == 0:
                continue
            m = rules.multipliers[c]
            raw = column.points[b]
            candidate = np.broadcast_to((m * raw).astype(np.float64), (rows.size, len(HANDS)))
            candidate = candidate.copy()
            if future:
                candidate += self._future(parts, now, rows, c, b)[..., None] \
                    if b >= len(FACES) and b != column.five_box else self._future_by_hand(
                        parts, now, rows, c, b)
            if b < len(FACES) and rules.upper_bonus:
                before = parts.uppers[c, rows][:, None]
                crossed = (before < UPPER_CAP) & (before + raw[None, :] >= UPPER_CAP)
                candidate += rules.upper_bonus * m * crossed
            out[box, rows] = candidate
        self._apply_five_of_a_kind(out, parts)
        return out

    def _future(self, parts: "_Columns", now: np.ndarray, rows: np.ndarray, c: int,
                b: int) -> np.ndarray:
        """(rows,): V̂ after filling lower box ``b`` of column ``c`` (not its Yahtzee box)."""
        m = self.rules.multipliers[c]
        mask, upper, live = parts.masks[c, rows], parts.uppers[c, rows], parts.live[rows]
        return now[rows] + m * (self._column_value(mask | (1 << b), upper, live)
                                - self._column_value(mask, upper, live))

    def _future_by_hand(self, parts: "_Columns", now: np.ndarray, rows: np.ndarray, c: int,
                        b: int) -> np.ndarray:
        """(rows, 252): V̂ after filling upper box ``b`` or the Yahtzee box of column ``c``."""
        rules, column = self.rules, self.rules.column
        m = rules.multipliers[c]
        raw = column.points[b]
        mask, upper = parts.masks[c, rows], parts.uppers[c, rows]
        live = parts.live[rows]
        if b < len(FACES):
            after = np.minimum(upper[:, None] + raw[None, :], UPPER_CAP) if rules.upper_bonus \
                else np.zeros((rows.size, len(HANDS)), dtype=np.int64)
            return now[rows, None] + m * (
                self._column_value((mask | (1 << b))[:, None], after, live[:, None])
                - self._column_value(mask, upper, live)[:, None])
        # the Yahtzee box: filling it may make the +extra live for every column, or kill it
        masks_after = parts.masks[:, rows].copy()
        masks_after[c] |= 1 << b
        others_filled = np.ones(rows.size, dtype=bool)
        for other in range(rules.columns):
            if other != c:
                others_filled &= (parts.masks[other, rows] >> b) & 1 == 1
        after = _Columns(masks_after, parts.uppers[:, rows], None, None, None)
        live_if_points = others_filled & parts.alive[rows] & (rules.extra_bonus > 0)
        with_points = self._estimate(after, live_if_points)
        with_zero = self._estimate(after, np.zeros(rows.size, dtype=bool))
        return np.where(raw[None, :] > 0, with_points[:, None], with_zero[:, None])

    def _apply_five_of_a_kind(self, out: np.ndarray, parts: "_Columns") -> None:
        """The Joker's placement and points and the +extra bonus, for five of a kind, in place:
        both apply once every Yahtzee box is filled (the bonus while none holds 0)."""
        rules, column = self.rules, self.rules.column
        size, faces = column.boxes, len(FACES)
        multipliers = np.repeat(np.array(rules.multipliers), size)  # (boxes,)
        if rules.extra_bonus:
            live = np.nonzero(parts.live)[0]
            block = out[:, live[:, None], FIVE_OF_A_KIND[None, :]]
            block += (rules.extra_bonus * multipliers)[:, None, None]
            out[:, live[:, None], FIVE_OF_A_KIND[None, :]] = block
        if not rules.joker:
            return
        rows = np.nonzero(parts.fives_filled)[0]
        if rows.size == 0:
            return
        block = out[:, rows[:, None], FIVE_OF_A_KIND[None, :]]  # (boxes, rows, 6)
        inner = np.tile(np.arange(size), rules.columns)
        lower = inner >= faces
        delta = column.joker_delta[inner] * multipliers[:, None]  # (boxes, 6)
        block[lower] += delta[lower][:, None, :]
        free = np.isfinite(block)
        upper_of_face = inner[:, None] == np.arange(faces)[None, :]  # (boxes, 6)
        matching = free & upper_of_face[:, None, :]
        any_matching = matching.any(axis=0)  # (rows, 6)
        any_lower = (free & lower[:, None, None]).any(axis=0)
        allowed = np.where(any_matching[None], matching,
                           np.where(any_lower[None], free & lower[:, None, None], free))
        block[~allowed] = -np.inf
        out[:, rows[:, None], FIVE_OF_A_KIND[None, :]] = block


@dataclass(frozen=True)
class _Columns:
    """A batch of states by column: ``masks`` and ``uppers`` (columns, n); ``fives_filled``
    (every Yahtzee box filled), ``alive`` (none holds 0) and ``live`` (the +extra applies)."""

    masks: np.ndarray
    uppers: np.ndarray
    fives_filled: np.ndarray | None
    alive: np.ndarray | None
    live: np.ndarray | None
