"""Scandinavian Yatzy's optimum under other readings of its boxes, beside ours (docs/strategy.md).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/yatzy_readings.py
    .venv/bin/python bench/yatzy_readings.py --readings published-code

Each reading changes one box's points in the solver's arrays (``strategy.sheetrules``) and the
sheet is solved again from scratch (about 45 s of one core each); nothing is saved and the
game's rules (``fairness``) are untouched. The readings:

- ``ours``: the sheet as played (docs/sheets.md);
- ``published-code``: Two Pairs as Larsson and Sjöberg's published solver scores it
  (github.com/ansjob/optimalt-yatzy, ``ScoreCard.scorePair(hand, 2)``): twice the highest face
  shown at least twice plus twice the next such face, that second term 0 when there is none,
  so that one pair alone (or four or five alike) scores in Two Pairs;
- ``five-alike-full-house``: five equal dice also make a Full House (their sum);
- ``four-alike-two-pairs``: four or five equal dice also make Two Pairs (four of them count).
"""

import argparse
import dataclasses
import time
from collections import Counter

import numpy as np

from strategy.dice import HANDS
from strategy.sheetrules import sheet_rules
from strategy.solver import solve


def published_code_two_pairs(hand: tuple[int, ...]) -> int:
    """Two Pairs as ``scorePair(hand, 2)`` scores it: the two highest faces shown at least
    twice, each twice, the second one 0 when only one face is paired."""
    paired = sorted((face for face, count in Counter(hand).items() if count >= 2), reverse=True)
    return 2 * sum(paired[:2])


def five_alike_full_house(hand: tuple[int, ...]) -> int:
    """Full House with five equal dice accepted: three of one face and two of another, or five
    of one face, score the sum."""
    counts = sorted(Counter(hand).values())
    return sum(hand) if counts in ([2, 3], [5]) else 0


def four_alike_two_pairs(hand: tuple[int, ...]) -> int:
    """Two Pairs with four equal dice accepted: two different pairs score their four dice,
    four or five of one face score four of them."""
    counts = Counter(hand)
    paired = [face for face, count in counts.items() if count >= 2]
    if len(paired) == 2:
        return 2 * sum(paired)
    face, count = counts.most_common(1)[0]
    return 4 * face if count >= 4 else 0


READINGS = {
    "ours": None,
    "published-code": ("two-pairs", published_code_two_pairs),
    "five-alike-full-house": ("full-house", five_alike_full_house),
    "four-alike-two-pairs": ("two-pairs", four_alike_two_pairs),
}


def reading_rules(name: str):
    """Yatzy's solver arrays with the box of reading ``name`` scored its way."""
    rules = sheet_rules("yatzy")
    if READINGS[name] is None:
        return rules
    box, scorer = READINGS[name]
    scores = rules.scores.copy()
    scores[:, :, rules.box_ids.index(box)] = [scorer(hand) for hand in HANDS]
    return dataclasses.replace(rules, scores=scores)


def main() -> None:
    """Solve every chosen reading and print its optimum and its difference with ours."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readings", nargs="+", default=list(READINGS), choices=list(READINGS))
    args = parser.parse_args()
    ours = None
    for name in args.readings:
        start = time.process_time()
        values = solve(reading_rules(name))
        optimum = float(np.asarray(values)[0, 0, 0])
        if name == "ours":
            ours = optimum
        difference = "" if ours is None or name == "ours" else f"  ({optimum - ours:+.4f})"
        print(f"{name:24} {optimum:.4f}{difference}  [{time.process_time() - start:.0f} s CPU]",
              flush=True)


if __name__ == "__main__":
    main()
