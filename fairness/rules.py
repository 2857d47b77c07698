"""Scoring, box choice and totals: the rules of every sheet as small pure functions.

``score`` says what dice are worth in a box, ``placement`` which free boxes they may go in
now (and why, when the Joker rule narrows it), ``extra_bonus`` what a further
five-of-a-kind adds, ``totals`` the final breakdown. ``first_roll`` says the dice came on
the turn's first roll (the game knows it from its transcript), which only Generala rewards.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import InvalidDice, UnknownCategory
from .scoring import Dice, is_five_of_a_kind
from .sheets import (
    JOKER_POINTS,
    LOWER,
    UPPER,
    UPPER_BONUS_THRESHOLD,
    UPPER_NAMES,
    Ruleset,
    get_ruleset,
)

UPPER_KINDS = tuple(UPPER_NAMES)

Sheet = Mapping[str, int]

JOKER_UPPER = "joker-upper"
JOKER_LOWER = "joker-lower"
JOKER_UPPER_ZERO = "joker-upper-zero"

_REASONS = {
    JOKER_UPPER: {
        "en": "Joker rule: five {face}s must go in the {box} box while it is free: "
        "{points} points.",
        "fr": "Règle du joker : cinq {face} vont obligatoirement dans la case {box} "
        "tant qu'elle est libre : {points} points.",
    },
    JOKER_LOWER: {
        "en": "Joker rule: the {box} box is already filled, so these five {face}s go in a free "
        "lower box: {choices}.",
        "fr": "Règle du joker : la case {box} est déjà remplie, ces cinq {face} vont donc dans une "
        "case libre du bas : {choices}.",
    },
    JOKER_UPPER_ZERO: {
        "en": "Joker rule: the lower section is full, so a 0 goes in a free upper box.",
        "fr": "Règle du joker : la partie basse est pleine, inscrivez donc 0 dans une case "
        "libre du haut.",
    },
}
# Joker rule, several columns: five 4s may go in any free Fours box.
_UPPER_CHOICE = {
    "en": "Joker rule: five {face}s must go in a free {box} box: {choices}.",
    "fr": "Règle du joker : cinq {face} vont obligatoirement dans une case {box} libre : "
    "{choices}.",
}
_BONUS = {
    "en": " Your Yahtzee box holds 50, so you also get +{bonus}.",
    "fr": " Votre case Yahtzee vaut 50 : vous gagnez aussi +{bonus}.",
}
_BONUS_COLUMNS = {
    "en": " Your Yahtzee boxes hold their points, so you also get +{bonus} × the column's "
    "multiplier.",
    "fr": " Vos cases Yahtzee sont remplies de leurs points : vous gagnez aussi +{bonus} × le "
    "multiplicateur de la colonne.",
}


@dataclass(frozen=True)
class Placement:
    """The free boxes the current dice may go in, and the Joker restriction if one applies:
    its code, the face and upper box of the dice, what each allowed box would score and the
    extra bonus scoring them earns."""

    allowed: tuple[str, ...]
    restriction: str | None = None
    face: int | None = None
    box: str | None = None
    ruleset: str | None = None
    points: tuple[int, ...] = ()
    bonus: int = 0

    def reason(self, language: str = "en") -> str | None:
        """Explain the restriction in ``language`` (``en`` or ``fr``), or None if there is none:
        which boxes the dice may go in on this sheet now, what each scores, and the extra bonus
        when the sheet gives it."""
        if self.restriction is None:
            return None
        texts = _REASONS[self.restriction]
        if self.restriction == JOKER_UPPER and len(self.allowed) > 1:
            texts = _UPPER_CHOICE
        language = language if language in texts else "en"
        ruleset = get_ruleset(self.ruleset)
        choices = ", ".join(
            f"{ruleset.category(box).names[language]} {points}"
            for box, points in zip(self.allowed, self.points, strict=True)
        )
        text = texts[language].format(
            face=self.face,
            box=UPPER_NAMES[self.box][language],
            choices=choices,
            points=self.points[0],
        )
        if not self.bonus:
            return text
        if ruleset.columns > 1:
            return text + _BONUS_COLUMNS[language].format(bonus=ruleset.extra_bonus)
        return text + _BONUS[language].format(bonus=self.bonus)


@dataclass(frozen=True)
class Totals:
    """A sheet's final breakdown."""

    upper: int
    upper_bonus: int
    lower: int
    extra_bonus: int

    @property
    def total(self) -> int:
        """The grand total."""
        return self.upper + self.upper_bonus + self.lower + self.extra_bonus

    def as_dict(self) -> dict[str, int]:
        """The breakdown with its total, as plain JSON-ready data."""
        return {
            "upper": self.upper,
            "upper_bonus": self.upper_bonus,
            "lower": self.lower,
            "extra_bonus": self.extra_bonus,
            "total": self.total,
        }


def validate_dice(dice) -> Dice:
    """Return ``dice`` as a tuple of five ints 1..6, or raise InvalidDice."""
    if not isinstance(dice, list | tuple) or len(dice) != 5:
        raise InvalidDice(f"dice must be a list of five values, got {dice!r}")
    if any(type(die) is not int or not 1 <= die <= 6 for die in dice):
        raise InvalidDice(f"each die must be an integer from 1 to 6, got {list(dice)!r}")
    return tuple(dice)


def validate_sheet(ruleset: Ruleset, sheet: Sheet | None) -> Sheet:
    """Return the filled boxes, checking each names a box of ``ruleset``."""
    sheet = sheet or {}
    for category in sheet:
        _require_category(ruleset, category)
    return sheet


def joker_applies(ruleset: Ruleset, dice: Dice, sheet: Sheet) -> bool:
    """True when these dice are a further five-of-a-kind that the forced Joker rule places:
    every box of the five-of-a-kind kind (one per column) is already filled."""
    return ruleset.joker and is_five_of_a_kind(dice) and five_boxes_filled(ruleset, sheet)


def score(ruleset_id: str, category: str, dice, sheet: Sheet | None = None,
          first_roll: bool = False) -> int:
    """Points ``dice`` are worth in box ``category`` of ``ruleset_id`` given the filled ``sheet``.

    The sheet matters only for a further five-of-a-kind: where the Joker rule gives Full House
    and the straights their fixed value, and in Generala's doble generala box, which scores
    only while the generala box holds its points. ``first_roll`` (the dice came on the turn's
    first roll) adds the sheet's first-roll bonus to a box that qualifies (Generala's servida).
    """
    ruleset = get_ruleset(ruleset_id)
    dice = validate_dice(dice)
    sheet = validate_sheet(ruleset, sheet)
    return score_of_valid(ruleset, _require_category(ruleset, category), dice, sheet, first_roll)


def score_of_valid(ruleset: Ruleset, box, dice: Dice, sheet: Sheet, first_roll: bool) -> int:
    """``score`` for a box object of ``ruleset``, dice and a sheet already known valid."""
    if box.kind in JOKER_POINTS and joker_applies(ruleset, dice, sheet):
        return JOKER_POINTS[box.kind] * box.multiplier
    points = box.scorer(dice)
    if box.kind == ruleset.second_five_box and not _five_boxes_hold_points(ruleset, sheet):
        return 0
    if first_roll and points:
        points += ruleset.first_roll_bonus.get(box.kind, 0)
    return points


def extra_bonus(ruleset_id: str, dice, sheet: Sheet | None = None,
                category: str | None = None) -> int:
    """Bonus points scoring ``dice`` now adds: a further five-of-a-kind while every box of the
    five-of-a-kind kind holds its points, times the multiplier of ``category``'s column (the
    box the dice go in; one-column sheets need not name it)."""
    ruleset = get_ruleset(ruleset_id)
    dice = validate_dice(dice)
    sheet = validate_sheet(ruleset, sheet)
    if not (ruleset.extra_bonus and is_five_of_a_kind(dice)):
        return 0
    if not _five_boxes_hold_points(ruleset, sheet):
        return 0
    box = _require_category(ruleset, category) if category is not None else None
    return extra_bonus_of_valid(ruleset, dice, sheet, box)


def extra_bonus_of_valid(ruleset: Ruleset, dice: Dice, sheet: Sheet, box=None) -> int:
    """``extra_bonus`` for dice, a sheet and a box object (or None) already known valid."""
    if not (ruleset.extra_bonus and is_five_of_a_kind(dice)):
        return 0
    if not _five_boxes_hold_points(ruleset, sheet):
        return 0
    return ruleset.extra_bonus * (box.multiplier if box is not None else 1)


def placement(ruleset_id: str, dice, sheet: Sheet | None = None,
              first_roll: bool = False) -> Placement:
    """The free boxes ``dice`` may go in now, narrowed by the forced Joker rule where it applies."""
    ruleset = get_ruleset(ruleset_id)
    dice = validate_dice(dice)
    return placement_of_valid(ruleset, dice, validate_sheet(ruleset, sheet), first_roll)


def placement_and_previews(ruleset_id: str, dice, sheet: Sheet | None = None,
                           first_roll: bool = False) -> tuple[Placement, dict[str, int]]:
    """``placement`` of ``dice`` and what they would score in each box it allows (``score`` of
    each), the dice and the sheet validated once rather than once per box."""
    ruleset = get_ruleset(ruleset_id)
    dice = validate_dice(dice)
    sheet = validate_sheet(ruleset, sheet)
    found = placement_of_valid(ruleset, dice, sheet, first_roll)
    return found, {box: score_of_valid(ruleset, ruleset.category(box), dice, sheet, first_roll)
                   for box in found.allowed}


def score_placement_and_bonus(ruleset_id: str, category: str, dice, sheet: Sheet | None = None,
                              first_roll: bool = False) -> tuple[int, Placement, int]:
    """What scoring ``dice`` in box ``category`` needs: (``score`` of the box, ``placement`` of
    the dice, ``extra_bonus`` the box earns), the dice, the sheet and the box validated once
    rather than once each."""
    ruleset = get_ruleset(ruleset_id)
    dice = validate_dice(dice)
    sheet = validate_sheet(ruleset, sheet)
    box = _require_category(ruleset, category)
    return (score_of_valid(ruleset, box, dice, sheet, first_roll),
            placement_of_valid(ruleset, dice, sheet, first_roll),
            extra_bonus_of_valid(ruleset, dice, sheet, box))


def placement_of_valid(ruleset: Ruleset, dice: Dice, sheet: Sheet, first_roll: bool) -> Placement:
    """``placement`` for dice and a sheet already known valid."""
    if not joker_applies(ruleset, dice, sheet):
        return Placement(tuple(c.id for c in ruleset.categories if c.id not in sheet))
    face = dice[0]
    upper_kind = UPPER_KINDS[face - 1]
    allowed, code = joker_boxes(ruleset, dice, sheet)
    return Placement(
        allowed,
        code,
        face,
        upper_kind,
        ruleset.id,
        tuple(score_of_valid(ruleset, ruleset.category(box), dice, sheet, first_roll)
              for box in allowed),
        extra_bonus_of_valid(ruleset, dice, sheet,
                             ruleset.category(allowed[0]) if allowed else None),
    )


def joker_boxes(ruleset: Ruleset, dice: Dice, sheet: Sheet) -> tuple[tuple[str, ...], str]:
    """(the free boxes the forced Joker rule allows, its code) for a further five-of-a-kind
    on a valid sheet where the rule applies: the face's upper box, else a lower box, else any."""
    free = tuple(c.id for c in ruleset.categories if c.id not in sheet)
    upper_kind = UPPER_KINDS[dice[0] - 1]
    free_upper = tuple(c for c in free if ruleset.category(c).kind == upper_kind)
    free_lower = tuple(c for c in free if _section(ruleset, c) == LOWER)
    if free_upper:
        return free_upper, JOKER_UPPER
    if free_lower:
        return free_lower, JOKER_LOWER
    return free, JOKER_UPPER_ZERO


def totals(ruleset_id: str, sheet: Sheet, extra_bonus_points: int = 0) -> Totals:
    """The breakdown of a (possibly partial) sheet plus the extra five-of-a-kind bonuses earned.

    The upper bonus is counted per column: column ``k`` (multiplier ``k``, 1 on one-column
    sheets) earns ``upper_bonus × k`` once its upper boxes total ``63 × k``.
    """
    ruleset = get_ruleset(ruleset_id)
    sheet = validate_sheet(ruleset, sheet)
    return totals_of_valid(ruleset, sheet, extra_bonus_points)


def totals_of_valid(ruleset: Ruleset, sheet: Sheet, extra_bonus_points: int = 0) -> Totals:
    """``totals`` for a sheet whose boxes are known to be boxes of ``ruleset``."""
    upper = lower = bonus = 0
    upper_by_column: dict[int, int] = {}
    for box_id, points in sheet.items():
        box = ruleset.category(box_id)
        if box.section == UPPER:
            upper += points
            upper_by_column[box.column] = upper_by_column.get(box.column, 0) + points
        else:
            lower += points
    if ruleset.upper_bonus:
        for column, column_upper in upper_by_column.items():
            if column_upper >= UPPER_BONUS_THRESHOLD * column:
                bonus += ruleset.upper_bonus * column
    return Totals(upper, bonus, lower, extra_bonus_points)


def five_boxes_filled(ruleset: Ruleset, sheet: Sheet) -> bool:
    """True when every box of the sheet's five-of-a-kind kind is filled (with points or 0)."""
    boxes = ruleset.boxes_of_kind(ruleset.five_of_a_kind_box)
    return bool(boxes) and all(box in sheet for box in boxes)


def _five_boxes_hold_points(ruleset: Ruleset, sheet: Sheet) -> bool:
    """True when every box of the sheet's five-of-a-kind kind holds its points (not 0)."""
    boxes = ruleset.boxes_of_kind(ruleset.five_of_a_kind_box)
    return bool(boxes) and all(sheet.get(box) for box in boxes)


def _require_category(ruleset: Ruleset, category: str):
    """Return the box ``category`` of ``ruleset`` or raise UnknownCategory."""
    box = ruleset.category(category) if isinstance(category, str) else None
    if box is None:
        known = ", ".join(ruleset.category_ids)
        raise UnknownCategory(f"{category!r} is not a box of {ruleset.id} (boxes: {known})")
    return box


def _section(ruleset: Ruleset, category: str) -> str:
    """The section (upper or lower) of a box."""
    return ruleset.category(category).section
