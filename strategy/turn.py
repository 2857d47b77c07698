"""One turn's three rolls: from what each final hand is worth to what each keep is worth.

Arrays are laid out with the hand or keep first and the ``n`` states last, so that the
keep-to-hand maximum reads whole rows. ``hand_values[r][h]`` is the value of holding hand ``h``
with ``r`` rolls left and playing on optimally; ``keep_values[r][k]`` the value of keeping ``k``
and rolling the rest with ``r`` rolls left (the roll leaves ``r - 1``). Keeping all five dice is
the same as stopping, so ``hand_values[r]`` is the maximum over the hand's keeps. On a sheet
with a first-roll bonus, stopping on the first roll is worth its own box values
(``first_values``), so ``hand_values[2]`` is also at least those.
"""

from dataclasses import dataclass

import numpy as np

from fairness.dice import ROLLS_PER_TURN

from .dice import FIRST_ROLL, best_sub_keep, keep_values_from


@dataclass(frozen=True)
class TurnValues:
    """Values within a turn for ``n`` states at once.

    ``hand_values[r]``: shape (252, n), for r = 0, 1, 2 rolls left.
    ``keep_values[r]``: shape (462, n), for r = 1, 2 (index 0 is None).
    ``start``: shape (n,), the value before the turn's first roll.
    """

    hand_values: tuple[np.ndarray, ...]
    keep_values: tuple[np.ndarray | None, ...]
    start: np.ndarray


def turn_values(final_values: np.ndarray, first_values: np.ndarray | None = None) -> TurnValues:
    """All of a turn's values from ``final_values`` (n, 252): each hand's best box (and
    ``first_values``, the same for dice of the first roll, where they score otherwise)."""
    hands = [np.ascontiguousarray(final_values.T)]
    keeps: list[np.ndarray | None] = [None]
    for _ in range(1, ROLLS_PER_TURN):
        keep = keep_values_from(hands[-1])
        keeps.append(keep)
        hands.append(best_sub_keep(keep))
    if first_values is not None:
        hands[-1] = np.maximum(hands[-1], first_values.T)
    return TurnValues(tuple(hands), tuple(keeps), FIRST_ROLL @ hands[-1])


def turn_start_values(final_values: np.ndarray,
                      first_values: np.ndarray | None = None) -> np.ndarray:
    """Only the value before the first roll, for each of the ``n`` states: shape (n,)."""
    hands = np.ascontiguousarray(final_values.T)
    for _ in range(1, ROLLS_PER_TURN):
        hands = best_sub_keep(keep_values_from(hands), in_place=True)
    if first_values is not None:
        np.maximum(hands, first_values.T, out=hands)
    return FIRST_ROLL @ hands
