"""What five dice are worth in each kind of box, before any sheet-level rule applies."""

from collections.abc import Callable

Dice = tuple[int, int, int, int, int]
Scorer = Callable[[Dice], int]

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_five_of_a_kind(dice: Dice) -> bool:
    """Return True when all five dice show the same face."""
    return len(set(dice)) == 1


def most_copies(dice: Dice) -> int:
    """How many dice show the face shown most (5 for five of a kind, 1 for five faces)."""
    return max(map(dice.count, dice))


def most_shown_face(dice: Dice) -> int:
    """The face shown most; among faces shown equally often, the one the dice show first."""
    return max(dice, key=dice.count)


def faces_shown_twice(dice: Dice) -> list[int]:
    """The faces at least two dice show, in no particular order."""
    return [face for face in set(dice) if dice.count(face) >= 2]


def face_count(face: int) -> Scorer:
    """Upper box for ``face``: face times the number of dice showing it."""
    return lambda dice: face * dice.count(face)


def total(dice: Dice) -> int:
    """Choice / Chance: the sum of all five dice."""
    return sum(dice)


def of_a_kind_sum(needed: int) -> Scorer:
    """At least ``needed`` equal dice: the sum of all five, else 0."""
    return lambda dice: sum(dice) if most_copies(dice) >= needed else 0


def of_a_kind_face(needed: int) -> Scorer:
    """Yatzy: at least ``needed`` equal dice score ``needed`` × that face (only those dice)."""

    def score(dice: Dice) -> int:
        face = most_shown_face(dice)
        return needed * face if dice.count(face) >= needed else 0

    return score


def of_a_kind_points(needed: int, points: int) -> Scorer:
    """At least ``needed`` equal dice: ``points`` (Generala's poker), else 0."""
    return lambda dice: points if most_copies(dice) >= needed else 0


def highest_pair(dice: Dice) -> int:
    """Yatzy's one pair: 2 × the highest face shown at least twice, else 0."""
    pairs = faces_shown_twice(dice)
    return 2 * max(pairs) if pairs else 0


def two_pairs(dice: Dice) -> int:
    """Yatzy's two pairs: two different faces each shown at least twice: 2 × each, else 0."""
    pairs = faces_shown_twice(dice)
    return 2 * sum(pairs) if len(pairs) == 2 else 0


def any_run(runs: tuple[tuple[int, ...], ...], points: int) -> Scorer:
    """Exactly the faces of one of ``runs``: ``points``, else 0."""
    wanted = [list(run) for run in runs]
    return lambda dice: points if sorted(dice) in wanted else 0


def times(scorer: Scorer, multiplier: int) -> Scorer:
    """``scorer``'s points times ``multiplier`` (a column of a triple sheet)."""
    return lambda dice: multiplier * scorer(dice)


def four_of_a_kind_face(dice: Dice) -> int:
    """Traditional Yacht: at least four equal dice score 4 × that face; the fifth never counts."""
    face = most_shown_face(dice)
    return 4 * face if dice.count(face) >= 4 else 0


def full_house(points: int | None) -> Scorer:
    """Three of one face and two of another (five equal is not one): ``points``, or the sum."""

    def score(dice: Dice) -> int:
        if len(set(dice)) != 2 or most_copies(dice) != 3:  # two faces, shown 3 and 2 times
            return 0
        return sum(dice) if points is None else points

    return score


def exact_run(run: tuple[int, ...], points: int) -> Scorer:
    """Exactly the faces of ``run`` (e.g. 1-2-3-4-5): ``points``, else 0."""
    return lambda dice: points if sorted(dice) == list(run) else 0


def small_straight(points: int) -> Scorer:
    """Four consecutive faces anywhere among the five (a duplicate allowed): ``points``."""
    return lambda dice: points if shows_four_in_a_row(dice) else 0


def shows_four_in_a_row(dice: Dice) -> bool:
    """True when four consecutive faces are among the dice (the set of faces built once)."""
    faces = set(dice)
    return any(run <= faces for run in _SMALL_RUNS)


def large_straight(points: int) -> Scorer:
    """Five consecutive faces (1-5 or 2-6): ``points``."""
    return lambda dice: points if set(dice) in _LARGE_RUNS else 0


def five_of_a_kind(points: int) -> Scorer:
    """All five dice equal: ``points``."""
    return lambda dice: points if is_five_of_a_kind(dice) else 0
