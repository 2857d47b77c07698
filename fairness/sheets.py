"""The sheets: which boxes each ruleset has, in order, what they score, and their names.

``RULESETS`` lists every sheet a game can be played on (practice, matches, tables);
``DAILY_RULESETS`` those with a daily challenge in the first epoch, ``YATZY_DAILY`` the one a
later epoch adds (see ``daily_rulesets``).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from . import scoring
from .errors import UnknownRuleset

UPPER = "upper"
LOWER = "lower"
UPPER_BONUS_THRESHOLD = 63


@dataclass(frozen=True)
class Category:
    """One box of a sheet: its id, its section, its scorer and its names (``en``, ``fr``).

    ``kind`` is the box it repeats (``ones@2``'s kind is ``ones``; a one-column box is its own
    kind); ``column`` its column (1 on one-column sheets) and ``multiplier`` what its column
    multiplies the dice's worth by (the scorer already includes it).
    """

    id: str
    section: str
    scorer: scoring.Scorer = field(repr=False, compare=False)
    names: Mapping[str, str] = field(compare=False)
    rule: Mapping[str, str] = field(compare=False)
    kind: str = ""
    column: int = 1
    multiplier: int = 1

    def __post_init__(self):
        """A box without an explicit kind is its own kind."""
        if not self.kind:
            object.__setattr__(self, "kind", self.id)


@dataclass(frozen=True)
class Ruleset:
    """A sheet and its sheet-level rules.

    ``upper_bonus``: points added once the upper boxes total 63 (0: no bonus); on a sheet of
    several columns, per column, times its multiplier, once that column's upper boxes total
    63 × its multiplier.
    ``five_of_a_kind_box``: the kind of box five equal dice score in, where further ones
    matter (a "further" five-of-a-kind comes once every box of that kind is filled).
    ``extra_bonus``: points for each further five-of-a-kind while every box of that kind holds
    its value, times the multiplier of the box it is scored in (0: none).
    ``joker``: whether the forced Joker placement applies to further five-of-a-kinds.
    ``first_roll_bonus``: points a box of that kind adds when its dice came on the turn's
    first roll and qualify (Generala's "servida").
    ``second_five_box``: the kind of box that scores only a further five-of-a-kind, while the
    five-of-a-kind box holds its value (Generala's doble generala); 0 otherwise.
    ``columns``: how many columns the sheet has (its boxes are column 1's, then column 2's…);
    ``column_boxes``: on a sheet of several columns, the one-column boxes each column repeats.
    """

    id: str
    names: Mapping[str, str] = field(compare=False)
    categories: tuple[Category, ...] = field(compare=False)
    upper_bonus: int = 0
    five_of_a_kind_box: str | None = None
    extra_bonus: int = 0
    joker: bool = False
    first_roll_bonus: Mapping[str, int] = field(default_factory=dict, compare=False)
    second_five_box: str | None = None
    columns: int = 1
    column_boxes: tuple[Category, ...] = field(default=(), compare=False)

    @property
    def category_ids(self) -> tuple[str, ...]:
        """The box ids in sheet order."""
        return tuple(category.id for category in self.categories)

    def category(self, category_id: str) -> Category | None:
        """Return the box with this id, or None if the sheet has none."""
        return self._boxes_by_id.get(category_id)

    def boxes_of_kind(self, kind: str | None) -> tuple[str, ...]:
        """The ids of the boxes of ``kind`` in sheet order (one per column)."""
        return self._boxes_by_kind.get(kind, ())

    @cached_property
    def _boxes_by_kind(self) -> dict[str, tuple[str, ...]]:
        """The box ids of each kind in sheet order, built once per sheet."""
        kinds: dict[str, tuple[str, ...]] = {}
        for c in self.categories:
            kinds[c.kind] = (*kinds.get(c.kind, ()), c.id)
        return kinds

    @cached_property
    def _boxes_by_id(self) -> dict[str, Category]:
        """The boxes by id, built once per sheet."""
        return {c.id: c for c in self.categories}


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

YATZY = Ruleset(
    id="yatzy",
    names={"en": "Yatzy (Scandinavian)", "fr": "Yatzy (scandinave)"},
    categories=_upper_boxes()
    + (
        _box("one-pair", scoring.highest_pair, "One Pair", "Une paire",
             "Two equal: the sum of the highest pair", "Deux identiques : somme de la plus "
             "haute paire"),
        _box("two-pairs", scoring.two_pairs, "Two Pairs", "Deux paires",
             "Two pairs of different faces: the sum of those four dice",
             "Deux paires de valeurs différentes : somme de ces quatre dés"),
        _box("three-of-a-kind", scoring.of_a_kind_face(3), "Three of a Kind", "Brelan",
             "Three equal: the sum of those three dice",
             "Trois identiques : somme de ces trois dés"),
        _box("four-of-a-kind", scoring.of_a_kind_face(4), "Four of a Kind", "Carré",
             "Four equal: the sum of those four dice",
             "Quatre identiques : somme de ces quatre dés"),
        _box("small-straight", scoring.exact_run((1, 2, 3, 4, 5), 15),
             "Small Straight", "Petite suite",
             "Exactly 1-2-3-4-5: 15", "Exactement 1-2-3-4-5 : 15"),
        _box("large-straight", scoring.exact_run((2, 3, 4, 5, 6), 20),
             "Large Straight", "Grande suite",
             "Exactly 2-3-4-5-6: 20", "Exactement 2-3-4-5-6 : 20"),
        _box("full-house", scoring.full_house(None), "Full House", "Full",
             "Three of one face and two of another: sum of the dice",
             "Trois d'une valeur et deux d'une autre : somme des dés"),
        _box("chance", scoring.total, "Chance", "Chance",
             "Any dice: sum of the dice", "Dés quelconques : somme des dés"),
        _box("yatzy", scoring.five_of_a_kind(50), "Yatzy", "Yatzy",
             "Five equal: 50", "Cinq identiques : 50"),
    ),
    upper_bonus=50,
)

GENERALA = Ruleset(
    id="generala",
    names={"en": "Generala", "fr": "Générala"},
    categories=_upper_boxes()
    + (
        _box("escalera", scoring.any_run(((1, 2, 3, 4, 5), (2, 3, 4, 5, 6)), 20),
             "Straight (Escalera)", "Suite (Escalera)",
             "1-2-3-4-5 or 2-3-4-5-6: 20; 25 on the turn's first roll",
             "1-2-3-4-5 ou 2-3-4-5-6 : 20 ; 25 du premier lancer"),
        _box("full", scoring.full_house(30), "Full House (Full)", "Full",
             "Three of one face and two of another: 30; 35 on the first roll",
             "Trois d'une valeur et deux d'une autre : 30 ; 35 du premier lancer"),
        _box("poker", scoring.of_a_kind_points(4, 40), "Four of a Kind (Poker)", "Carré (Poker)",
             "At least four equal: 40; 45 on the first roll",
             "Au moins quatre identiques : 40 ; 45 du premier lancer"),
        _box("generala", scoring.five_of_a_kind(50), "Generala", "Générala",
             "Five equal: 50; 100 on the first roll (servida)",
             "Cinq identiques : 50 ; 100 du premier lancer (servie)"),
        _box("doble-generala", scoring.five_of_a_kind(100), "Double Generala", "Double générala",
             "Five equal again, the Generala box holding its points: 100",
             "Cinq identiques une seconde fois, la case Générala remplie de ses points : 100"),
    ),
    five_of_a_kind_box="generala",
    first_roll_bonus={"escalera": 5, "full": 5, "poker": 5, "generala": 50},
    second_five_box="doble-generala",
)

TRIPLE_COLUMNS = 3


def _in_column(box: Category, column: int) -> Category:
    """``box`` in column ``column`` of a triple sheet: id ``<box>@<column>``, worth × column."""
    return Category(
        f"{box.id}@{column}",
        box.section,
        scoring.times(box.scorer, column),
        {"en": f"{box.names['en']} ×{column}", "fr": f"{box.names['fr']} ×{column}"},
        {"en": f"{box.rule['en']} (× {column})", "fr": f"{box.rule['fr']} (× {column})"},
        kind=box.id,
        column=column,
        multiplier=column,
    )


YAHTZEE_TRIPLE = Ruleset(
    id="yahtzee-triple",
    names={"en": "Triple Yahtzee", "fr": "Yahtzee triple"},
    categories=tuple(
        _in_column(box, column)
        for column in range(1, TRIPLE_COLUMNS + 1)
        for box in YAHTZEE.categories
    ),
    upper_bonus=35,
    five_of_a_kind_box="yahtzee",
    extra_bonus=100,
    joker=True,
    columns=TRIPLE_COLUMNS,
    column_boxes=YAHTZEE.categories,
)

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
        YATZY,
        GENERALA,
        YAHTZEE_TRIPLE,
    )
}

# Every sheet a player can choose for a practice game, a game against the computer or a table.
PLAYABLE_RULESETS = tuple(RULESETS)

# The daily sheets of the first epoch (its entry's ``rulesets``): never changed, so that every
# day of it keeps verifying.
DAILY_RULESETS = ("yacht", "yacht-bonus", "yahtzee")

# The sheet a later epoch's entry adds to the daily challenges (see FAIRNESS.md, "Epochs"):
# an epoch's entry lists its daily sheets, and a new epoch publishes these four.
YATZY_DAILY = "yatzy"
DAILY_RULESETS_WITH_YATZY = (*DAILY_RULESETS, YATZY_DAILY)
NEW_EPOCH_RULESETS = DAILY_RULESETS_WITH_YATZY
# Every sheet that is a daily challenge on some date: the union of the epochs' lists.
ANY_DAILY_RULESETS = DAILY_RULESETS_WITH_YATZY

# Under the Joker rule these kinds of box score their fixed value (times their column's
# multiplier) even though the dice don't form them.
JOKER_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Return the ruleset with this id, or raise UnknownRuleset."""
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise UnknownRuleset(f"unknown ruleset {ruleset_id!r} (known: {known})") from None
