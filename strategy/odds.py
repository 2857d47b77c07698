"""Document 001's odds table, from the same reroll code the solver uses.

For a target (a set of hands), the first-roll odds are the chance that five fresh dice hit it;
the best-of-three odds are the chance of ending the turn on it when every keep is chosen to
maximise that chance alone (stopping as soon as it is reached).
"""

from collections import Counter

import numpy as np

from fairness import scoring

from .dice import FIRST_ROLL, HANDS
from .turn import turn_values

TARGETS = {
    "small-straight": lambda hand: scoring.small_straight(1)(hand) > 0,
    "full-house": lambda hand: scoring.full_house(None)(hand) > 0,
    "four-of-a-kind": lambda hand: max(Counter(hand).values()) >= 4,
    "large-straight": lambda hand: scoring.large_straight(1)(hand) > 0,
    "five-of-a-kind": scoring.is_five_of_a_kind,
}


def target_odds(target: str) -> tuple[float, float]:
    """(first roll, best of three rolls) probabilities of reaching ``target`` (a TARGETS key)."""
    hits = np.array([[1.0 if TARGETS[target](hand) else 0.0 for hand in HANDS]])
    return float(hits[0] @ FIRST_ROLL), float(turn_values(hits).start[0])


def odds_table() -> dict[str, tuple[float, float]]:
    """Every target's (first roll, best of three) probabilities, in document 001's order."""
    return {target: target_odds(target) for target in TARGETS}
