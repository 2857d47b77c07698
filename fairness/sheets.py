"""The sheets: which boxes each ruleset has, in order, what they score, and their names."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from . import scoring
from .errors import UnknownRuleset

UPPER = "upper"
LOWER = "lower"
UPPER_BONUS_THRESHOLD = 63


@dataclass(frozen=True)
class Category:
    """One box of a sheet: its id, its section, its scorer and its names (``en``, ``fr``)."""

    id: str
    section: str
    scorer: scoring.Scorer = field(repr=False, compare=False)
    names: Mapping[str, str] = field(compare=False)
    rule: Mapping[str, str] = field(compare=False)


@dataclass(frozen=True)
class Ruleset:
    """A sheet and its sheet-level rules.

    ``upper_bonus``: points added once the upper boxes total 63 (0: no bonus).
    ``five_of_a_kind_box``: the box five equal dice score in, where extra ones matter.
    ``extra_bonus``: points for each further five-of-a-kind while that box holds 50 (0: none).
    ``joker``: whether the forced Joker placement applies to further five-of-a-kinds.
    """

    id: str
    names: Mapping[str, str] = field(compare=False)
    categories: tuple[Category, ...] = field(compare=False)
    upper_bonus: int = 0
    five_of_a_kind_box: str | None = None
    extra_bonus: int = 0
    joker: bool = False

    @property
    def category_ids(self) -> tuple[str, ...]:
        """The box ids in sheet order."""
        return tuple(category.id for category in self.categories)

    def category(self, category_id: str) -> Category | None:
        """Return the box with this id, or None if the sheet has none."""
        return next((c for c in self.categories if c.id == category_id), None)


_FACE_NAMES = {
    1: ("ones", "Ones", "As"),
    2: ("twos", "Twos", "Deux"),
    3: ("threes", "Threes", "Trois"),
    4: ("fours", "Fours", "Quatre"),
    5: ("fives", "Fives", "Cinq"),
    6: ("sixes", "Sixes", "Six"),
}


# The upper boxes' display names by id, e.g. UPPER_NAMES["sixes"]["fr"] == "Six".
UPPER_NAMES = {box_id: {"en": en, "fr": fr} for box_id, en, fr in _FACE_NAMES.values()}


def _upper_boxes() -> tuple[Category, ...]:
    """The six number boxes shared by every sheet."""
    return tuple(
        Category(
            box_id,
            UPPER,
            scoring.face_count(face),
            {"en": en, "fr": fr},
            {
                "en": f"Only the dice showing {face}: {face} × their number",
                "fr": f"Seuls les dés montrant {face} : {face} × leur nombre",
            },
        )
        for face, (box_id, en, fr) in _FACE_NAMES.items()
    )


def _box(box_id, scorer, en, fr, rule_en, rule_fr) -> Category:
    """A lower-section box."""
    return Category(box_id, LOWER, scorer, {"en": en, "fr": fr}, {"en": rule_en, "fr": rule_fr})


YACHT = Ruleset(
    id="yacht",
    names={"en": "Yacht (traditional)", "fr": "Yacht (traditionnel)"},
    categories=_upper_boxes()
    + (
        _box("full-house", scoring.full_house(None), "Full House", "Full",
             "Three of one face and two of another: sum of the dice",
             "Trois dés d'une valeur et deux d'une autre : somme des dés"),
        _box("four-of-a-kind", scoring.four_of_a_kind_face, "Four of a Kind", "Carré",
             "At least four equal: 4 × that face", "Au moins quatre identiques : 4 × leur valeur"),
        _box("little-straight", scoring.exact_run((1, 2, 3, 4, 5), 30),
             "Little Straight", "Petite suite",
             "Exactly 1-2-3-4-5: 30", "Exactement 1-2-3-4-5 : 30"),
        _box("big-straight", scoring.exact_run((2, 3, 4, 5, 6), 30),
             "Big Straight", "Grande suite",
             "Exactly 2-3-4-5-6: 30", "Exactement 2-3-4-5-6 : 30"),
        _box("choice", scoring.total, "Choice", "Choix",
             "Any dice: sum of the dice", "Dés quelconques : somme des dés"),
        _box("yacht", scoring.five_of_a_kind(50), "Yacht", "Yacht",
             "Five equal: 50", "Cinq identiques : 50"),
    ),
)

YACHT_BONUS = Ruleset(
    id="yacht-bonus",
    names={"en": "Yacht with upper bonus", "fr": "Yacht avec bonus"},
    categories=_upper_boxes()
    + (
        _box("choice", scoring.total, "Choice", "Choix",
             "Any dice: sum of the dice", "Dés quelconques : somme des dés"),
        _box("four-of-a-kind", scoring.of_a_kind_sum(4), "Four of a Kind", "Carré",
             "At least four equal: sum of the dice", "Au moins quatre identiques : somme des dés"),
        _box("full-house", scoring.full_house(None), "Full House", "Full",
             "Three of one face and two of another: sum of the dice",
             "Trois d'une valeur et deux d'une autre : somme des dés"),
        _box("small-straight", scoring.small_straight(15), "Small Straight", "Petite suite",
             "Four in a row: 15", "Quatre qui se suivent : 15"),
        _box("large-straight", scoring.large_straight(30), "Large Straight", "Grande suite",
             "Five in a row: 30", "Cinq qui se suivent : 30"),
        _box("yacht", scoring.five_of_a_kind(50), "Yacht", "Yacht",
             "Five equal: 50", "Cinq identiques : 50"),
    ),
    upper_bonus=35,
)


def _yahtzee(ruleset_id: str, en: str, fr: str, joker: bool, extra_bonus: int) -> Ruleset:
    """The 13-box sheet, with or without the Joker rule and the +100 bonus."""
    return Ruleset(
        id=ruleset_id,
        names={"en": en, "fr": fr},
        categories=_upper_boxes()
        + (
            _box("three-of-a-kind", scoring.of_a_kind_sum(3), "Three of a Kind", "Brelan",
                 "At least three equal: sum of the dice",
                 "Au moins trois identiques : somme des dés"),
            _box("four-of-a-kind", scoring.of_a_kind_sum(4), "Four of a Kind", "Carré",
                 "At least four equal: sum of the dice",
                 "Au moins quatre identiques : somme des dés"),
            _box("full-house", scoring.full_house(25), "Full House", "Full",
                 "Three of one face and two of another: 25",
                 "Trois d'une valeur et deux d'une autre : 25"),
            _box("small-straight", scoring.small_straight(30), "Small Straight", "Petite suite",
                 "Four in a row: 30", "Quatre qui se suivent : 30"),
            _box("large-straight", scoring.large_straight(40), "Large Straight", "Grande suite",
                 "Five in a row: 40", "Cinq qui se suivent : 40"),
            _box("yahtzee", scoring.five_of_a_kind(50), "Yahtzee", "Yahtzee",
                 "Five equal: 50", "Cinq identiques : 50"),
            _box("chance", scoring.total, "Chance", "Chance",
                 "Any dice: sum of the dice", "Dés quelconques : somme des dés"),
        ),
        upper_bonus=35,
        five_of_a_kind_box="yahtzee",
        extra_bonus=extra_bonus,
        joker=joker,
    )


YAHTZEE = _yahtzee("yahtzee", "Yahtzee", "Yahtzee", joker=True, extra_bonus=100)

RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (
        YACHT,
        YACHT_BONUS,
        YAHTZEE,
        _yahtzee("yahtzee-no-joker", "Yahtzee, no Joker", "Yahtzee sans joker", False, 100),
        _yahtzee("yahtzee-no-bonus", "Yahtzee, no +100", "Yahtzee sans +100", True, 0),
        _yahtzee("yahtzee-no-joker-no-bonus", "Yahtzee, no Joker, no +100",
                 "Yahtzee sans joker ni +100", False, 0),
    )
}

DAILY_RULESETS = ("yacht", "yacht-bonus", "yahtzee")

# Under the Joker rule these boxes score their fixed value even though the dice don't form them.
JOKER_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset with this id, or raise UnknownRuleset."""
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None
