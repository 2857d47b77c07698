"""Backward induction over every state of a sheet, one layer of filled boxes at a time.

All states with ``n`` boxes filled depend only on states with ``n + 1``, so each layer is one
batch: box values (states × 252), then two (states × 252) @ (252 × 462) products for the keeps.
"""

import numpy as np

from .boxvalues import UPPER_BOXES, best_box_values
from .sheetrules import UPPER_CAP, SheetRules
from .turn import turn_start_values

CHUNK = 256  # states per batch: small enough for the keep arrays to stay in cache


def reachable_uppers(upper_mask: int, tracked: bool) -> list[int]:
    """The capped upper totals that filling the upper boxes of ``upper_mask`` can give."""
    if not tracked:
        return [0]
    totals = {0}
    for face in range(1, UPPER_BOXES + 1):
        if upper_mask >> (face - 1) & 1:
            totals = {min(UPPER_CAP, t + face * count) for t in totals for count in range(6)}
    return sorted(totals)


def layer_states(rules: SheetRules, filled: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(masks, uppers, flags) of every reachable state with ``filled`` boxes filled."""
    uppers_of = [reachable_uppers(m, rules.upper_states > 1) for m in range(1 << UPPER_BOXES)]
    masks, uppers, flags = [], [], []
    for mask in range(1 << rules.boxes):
        if mask.bit_count() != filled:
            continue
        five_filled = rules.five_box is not None and mask >> rules.five_box & 1
        state_flags = (0, 1) if rules.flag_states > 1 and five_filled else (0,)
        for upper in uppers_of[mask & ((1 << UPPER_BOXES) - 1)]:
            for flag in state_flags:
                masks.append(mask)
                uppers.append(upper)
                flags.append(flag)
    as_array = np.array
    return as_array(masks, np.int64), as_array(uppers, np.int64), as_array(flags, np.int64)


def solve(rules: SheetRules, lowest_layer: int = 0) -> np.ndarray:
    """The expected points still to come from the start of a turn, for every state.

    Shape (2**boxes, upper_states, flag_states); unreachable states hold 0, and so do the
    states with fewer than ``lowest_layer`` boxes filled (to solve only the end of a game).
    """
    values = np.zeros((1 << rules.boxes, rules.upper_states, rules.flag_states))
    for filled in range(rules.boxes - 1, lowest_layer - 1, -1):
        masks, uppers, flags = layer_states(rules, filled)
        for start in range(0, len(masks), CHUNK):
            part = slice(start, start + CHUNK)
            state = (masks[part], uppers[part], flags[part])
            best = best_box_values(rules, values, *state)
            first = best_box_values(rules, values, *state, first_roll=True) \
                if rules.first_roll_bonus else None
            values[state] = turn_start_values(best, first)
    return values
