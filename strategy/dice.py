"""Dice as multisets: the 252 sorted hands, the 462 keeps, and keep → hand probabilities.

A *hand* is five dice sorted ascending; a *keep* is a sorted sub-multiset of 0 to 5 dice.
``TRANSITION[k, h]`` is the probability that keeping ``KEEPS[k]`` and rerolling the other dice
gives the hand ``HANDS[h]`` (exact multinomial probabilities, stored as float64).
"""

import itertools
from collections import Counter
from math import factorial

import numpy as np

FACES = (1, 2, 3, 4, 5, 6)
DICE = 5


def _multisets(size: int) -> list[tuple[int, ...]]:
    """Every sorted multiset of ``size`` faces, in lexicographic order."""
    return list(itertools.combinations_with_replacement(FACES, size))


def _keep_order(keep: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """Keeps by size, then most distinct faces first (so a layer's rows with ``j`` one-die-smaller
    keeps form a prefix), then lexicographically."""
    return len(keep), -len(set(keep)), keep


HANDS: tuple[tuple[int, ...], ...] = tuple(_multisets(DICE))
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    sorted((k for size in range(DICE + 1) for k in _multisets(size)), key=_keep_order))
HAND_INDEX = {hand: index for index, hand in enumerate(HANDS)}
KEEP_INDEX = {keep: index for index, keep in enumerate(KEEPS)}
EMPTY_KEEP = KEEP_INDEX[()]
# The keep index of each hand (a hand is also the keep of all five dice).
HAND_AS_KEEP = np.array([KEEP_INDEX[hand] for hand in HANDS])
FIVE_OF_A_KIND = np.array([HAND_INDEX[(face,) * DICE] for face in FACES])


def _probability(added: tuple[int, ...]) -> float:
    """The probability that ``len(added)`` fresh dice show exactly the multiset ``added``."""
    ways = factorial(len(added))
    for count in Counter(added).values():
        ways //= factorial(count)
    return ways / 6 ** len(added)


def _transition() -> np.ndarray:
    """The (462, 252) matrix of keep → hand probabilities."""
    matrix = np.zeros((len(KEEPS), len(HANDS)))
    for k, keep in enumerate(KEEPS):
        for added in _multisets(DICE - len(keep)):
            matrix[k, HAND_INDEX[tuple(sorted(keep + added))]] += _probability(added)
    return matrix


TRANSITION = _transition()
FIRST_ROLL = TRANSITION[EMPTY_KEEP].copy()


def sub_keeps(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct keeps of ``hand`` (its sub-multisets), smallest first."""
    counts = Counter(hand)
    faces = sorted(counts)
    keeps = []
    for taken in itertools.product(*(range(counts[f] + 1) for f in faces)):
        keeps.append(tuple(f for f, n in zip(faces, taken, strict=True) for _ in range(n)))
    return sorted(keeps, key=lambda keep: (len(keep), keep))


def _layers() -> list[slice]:
    """The slice of KEEPS holding the keeps of each size 0..5."""
    sizes = [len(keep) for keep in KEEPS]
    return [slice(sizes.index(size), len(sizes) - sizes[::-1].index(size))
            for size in range(DICE + 1)]


LAYERS = _layers()


def _successors() -> list[np.ndarray]:
    """For each keep size 0..4: (6, keeps) indices of each keep with one more die of each face."""
    return [np.array([[KEEP_INDEX[tuple(sorted(KEEPS[k] + (face,)))] for k in range(
        layer.start, layer.stop)] for face in FACES]) for layer in LAYERS[:DICE]]


def _predecessors() -> list[list[tuple[int, np.ndarray]]]:
    """For each keep size 1..5: per j, (rows with a j-th one-die-smaller keep, those keeps).

    Within a layer the keeps with more distinct faces come first, so the rows are a prefix.
    """
    layers = []
    for layer in LAYERS[1:]:
        smaller = [sorted({KEEP_INDEX[KEEPS[k][:i] + KEEPS[k][i + 1:]] for i in range(
            len(KEEPS[k]))}) for k in range(layer.start, layer.stop)]
        steps = []
        for j in range(DICE):
            count = sum(1 for row in smaller if len(row) > j)
            steps.append((count, np.array([row[j] for row in smaller[:count]])))
        layers.append(steps)
    return layers


def _predecessor_tables() -> list[np.ndarray]:
    """For each keep size 1..5: (5, keeps) indices of each keep's one-die-smaller keeps, padded
    with the keep itself (``_PREDECESSORS`` as one array per layer)."""
    tables = []
    for layer, steps in zip(LAYERS[1:], _PREDECESSORS, strict=True):
        table = np.tile(np.arange(layer.start, layer.stop), (DICE, 1))
        for j, (count, rows) in enumerate(steps):
            table[j, :count] = rows
        tables.append(table)
    return tables


_SUCCESSORS = _successors()
_PREDECESSORS = _predecessors()
_PREDECESSOR_TABLES = _predecessor_tables()
GATHER_COLUMNS = 64  # up to this many columns, each layer's rows are read in one take


def keep_values_from(hand_values: np.ndarray) -> np.ndarray:
    """For values of shape (252, n) per final hand, the expected value of every keep: (462, n).

    Rolling ``m`` dice is rolling one die, then ``m - 1``: a keep is worth the mean of the
    six keeps one die larger, which costs six rows per keep instead of a dense product. For
    few columns (a review's turns) the six rows are read in one take, summed in the same order.
    """
    values = np.empty((len(KEEPS), hand_values.shape[1]))
    values[HAND_AS_KEEP] = hand_values
    gather = hand_values.shape[1] <= GATHER_COLUMNS
    for layer, successors in zip(LAYERS[DICE - 1::-1], _SUCCESSORS[::-1], strict=True):
        block = values[layer]  # a view: filled in place
        if gather:
            rows = values.take(successors, axis=0)
            np.add(rows[0], rows[1], out=block)
            for row in rows[2:]:
                block += row
        else:
            np.take(values, successors[0], axis=0, out=block)
            for row in successors[1:]:
                block += values[row]
        block /= len(FACES)
    return values


def best_sub_keep(keep_values: np.ndarray, in_place: bool = False) -> np.ndarray:
    """For values of shape (462, n) per keep, the best keep value inside each hand: (252, n).

    ``result[h]`` is the maximum of ``keep_values[k]`` over every keep ``k`` of hand ``h``,
    found through one-die-smaller keeps instead of listing each hand's sub-multisets (for few
    columns, a layer's in one take: a maximum does not depend on the order).
    ``in_place`` lets it overwrite ``keep_values``.
    """
    best = keep_values if in_place else keep_values.copy()
    if keep_values.shape[1] <= GATHER_COLUMNS:
        for layer, table in zip(LAYERS[1:], _PREDECESSOR_TABLES, strict=True):
            block = best[layer]  # a view: updated in place
            np.maximum(block, best.take(table, axis=0).max(axis=0), out=block)
        return best[HAND_AS_KEEP]
    for layer, steps in zip(LAYERS[1:], _PREDECESSORS, strict=True):
        for count, rows in steps:
            if count:
                block = best[layer.start : layer.start + count]  # a view: updated in place
                np.maximum(block, best[rows], out=block)
    return best[HAND_AS_KEEP]
