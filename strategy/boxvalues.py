"""What each final hand is worth in each box, for many states at once.

A state is ``(mask, upper, flag)``: the filled boxes as a bit mask (bit ``b`` = box ``b`` in
sheet order), the upper total capped at 63 (0 on sheets without a bonus) and whether the
five-of-a-kind box holds its points, 50 (or Generala's 100 servida), not 0 (always 0 on sheets
where that does not matter: no +extra bonus and no Doble Generala). ``values[mask, upper, flag]``
is the expected sum of every point still to come from the start of a turn in that state.
"""

from collections.abc import Iterator

import numpy as np

from .dice import FIVE_OF_A_KIND, HANDS
from .sheetrules import UPPER_CAP, SheetRules

UPPER_BOXES = 6
_BOX_BITS = np.arange(64, dtype=np.int64)  # bit b of a mask: box b


def box_values(rules: SheetRules, values: np.ndarray, masks: np.ndarray, uppers: np.ndarray,
               flags: np.ndarray, first_roll: bool = False) -> np.ndarray:
    """(boxes, n, 252): points now plus expected points to come, per box and final hand.

    A box the rules do not allow for that state and hand is ``-inf``. ``first_roll``: the
    dice are the turn's first roll (it matters on sheets with a first-roll bonus). Every box
    of every state is valued at once, with the same floating-point operations as
    ``_candidates`` (the integer points added as float64, as numpy converts them), and the
    filled ones are then set to ``-inf``.
    """
    bits = _BOX_BITS[:rules.boxes, None]
    flat, flags_count = values.reshape(-1), rules.flag_states
    scores = rules.scores[int(first_roll)]
    points = scores[flags].transpose(1, 0, 2) if rules.fifty_dependent else scores[0][:, None]
    points_now = points.astype(np.float64)
    next_masks = (masks[None, :] | (1 << bits)) * rules.upper_states  # (boxes, n)
    starts = (next_masks + uppers[None, :]) * flags_count
    out = flat.take(starts + flags[None, :])[:, :, None] + points_now
    if rules.five_box is not None and flags_count > 1:
        five = rules.five_box
        out[five] = np.where(points[five] > 0, flat.take(starts[five] + 1)[:, None],
                             flat.take(starts[five])[:, None]) + points_now[five]
    if rules.upper_bonus:
        np.add(_upper_futures(rules, flat, next_masks[:UPPER_BOXES], uppers, flags,
                              points[:UPPER_BOXES]),
               points_now[:UPPER_BOXES], out=out[:UPPER_BOXES])
    out[((masks[None, :] >> bits) & 1) == 1] = -np.inf
    if rules.extra_bonus:
        out[:, :, FIVE_OF_A_KIND] += rules.extra_bonus * flags[None, :, None]
    joker_rows = _joker_rows(rules, masks)
    if joker_rows.size:
        columns = out[:, joker_rows[:, None], FIVE_OF_A_KIND[None, :]]
        _apply_joker(rules, columns, masks[joker_rows])
        out[:, joker_rows[:, None], FIVE_OF_A_KIND[None, :]] = columns
    return out


def _upper_futures(rules: SheetRules, flat: np.ndarray, next_masks: np.ndarray,
                   uppers: np.ndarray, flags: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(6, n, 252): what is still to come after each upper box (the upper bonus it earns
    included), valued once per distinct number of points it can score and then spread over
    the hands that score it (``_candidates``' figures)."""
    width = int(points.max()) + 1
    before = uppers[None, :, None]
    after = np.minimum(before + np.arange(width)[None, None, :], UPPER_CAP)
    crossed = rules.upper_bonus * ((before < UPPER_CAP) & (after >= UPPER_CAP))
    index = (next_masks[:, :, None] + after) * rules.flag_states + flags[None, :, None]
    by_points = flat.take(index) + crossed  # (6, n, width)
    rows = np.arange(next_masks.size).reshape(next_masks.shape)[:, :, None] * width
    return by_points.reshape(-1).take(rows + points)


def best_box_values(rules: SheetRules, values: np.ndarray, masks: np.ndarray,
                    uppers: np.ndarray, flags: np.ndarray, first_roll: bool = False) -> np.ndarray:
    """(n, 252): the best allowed box's value for each state and final hand."""
    n = len(masks)
    best = np.full((n, len(HANDS)), -np.inf)
    joker_rows = _joker_rows(rules, masks)
    position = np.full(n, -1)
    position[joker_rows] = np.arange(joker_rows.size)
    columns = np.full((rules.boxes, joker_rows.size, len(FIVE_OF_A_KIND)), -np.inf)
    for b, rows, candidate in _candidates(rules, values, masks, uppers, flags, first_roll):
        best[rows] = np.maximum(best[rows], candidate)
        if joker_rows.size:
            at = position[rows]
            columns[b, at[at >= 0]] = candidate[at >= 0][:, FIVE_OF_A_KIND]
    if joker_rows.size:
        _apply_joker(rules, columns, masks[joker_rows])
        best[joker_rows[:, None], FIVE_OF_A_KIND[None, :]] = columns.max(axis=0)
    return best


def _candidates(rules: SheetRules, values: np.ndarray, masks: np.ndarray, uppers: np.ndarray,
                flags: np.ndarray, first_roll: bool
                ) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """For each box: the states where it is free and its (rows, 252) values, Joker aside."""
    flat = values.reshape(-1)
    uppers_count, flags_count = rules.upper_states, rules.flag_states
    scores = rules.scores[int(first_roll)]
    for b in range(rules.boxes):
        rows = np.nonzero(((masks >> b) & 1) == 0)[0]
        if rows.size == 0:
            continue
        points = scores[:, b][flags[rows]] if rules.fifty_dependent else scores[0, b][None, :]
        next_masks = (masks[rows] | (1 << b)) * uppers_count
        if b < UPPER_BOXES and rules.upper_bonus:
            before = uppers[rows, None]
            after = np.minimum(before + points, UPPER_CAP)
            crossed = rules.upper_bonus * ((before < UPPER_CAP) & (after >= UPPER_CAP))
            index = (next_masks[:, None] + after) * flags_count + flags[rows, None]
            future = flat.take(index) + crossed
        elif b == rules.five_box and flags_count > 1:
            holds_fifty = (points > 0).astype(np.int64)
            future = flat.take(((next_masks + uppers[rows]) * flags_count)[:, None]
                               + holds_fifty)
        else:
            future = flat.take((next_masks + uppers[rows]) * flags_count + flags[rows])[:, None]
        candidate = future + points
        if rules.extra_bonus:
            candidate[:, FIVE_OF_A_KIND] += rules.extra_bonus * flags[rows, None]
        yield b, rows, candidate


def _joker_rows(rules: SheetRules, masks: np.ndarray) -> np.ndarray:
    """The indices of the states where a further five-of-a-kind is a Joker."""
    bit = rules.joker_active_bit
    return np.nonzero(masks & bit)[0] if bit else np.array([], dtype=np.int64)


def _apply_joker(rules: SheetRules, columns: np.ndarray, masks: np.ndarray) -> None:
    """Apply the Joker to (boxes, rows, 6) five-of-a-kind values of Joker states, in place."""
    lower = slice(UPPER_BOXES, rules.boxes)
    faces = np.arange(UPPER_BOXES)
    upper_filled = ((masks[:, None] >> faces[None, :]) & 1) == 1  # (rows, 6)
    delta = rules.joker_delta[lower][:, None, :]
    if rules.joker == "free":
        columns[lower] += delta * upper_filled[None, :, :]
        return
    columns[lower] += delta
    lower_free = ((~masks) & rules.lower_bits) != 0  # (rows,)
    allowed = np.zeros(columns.shape, dtype=bool)
    allowed[faces, :, faces] = ~upper_filled.T  # the matching upper box while it is free
    allowed[lower] = (upper_filled & lower_free[:, None])[None]  # else a free lower box
    allowed[:UPPER_BOXES] |= (upper_filled & ~lower_free[:, None])[None]  # else a 0 above
    columns[~allowed] = -np.inf
