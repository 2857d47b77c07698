"""The sheets as the pages show them: names and rules in the reader's language, set in its
typography (the sheets' own texts, which the API serves as they are, put a plain space before a
French colon). The sheets name themselves in English and French; the Hungarian names come from
``sheets_hungarian``."""

import re
from dataclasses import dataclass

from flask_babel import get_locale

from app.services import services
from app.web import sheets_hungarian
from fairness.sheets import (
    LOWER,
    PLAYABLE_RULESETS,
    UPPER,
    UPPER_BONUS_THRESHOLD,
    get_ruleset,
)

# The printable score sheet's papers: ``?paper=`` values and their page formats.
PAPERS = {"a4": "A4", "letter": "Letter"}


@dataclass(frozen=True)
class BoxView:
    """One box of a sheet, named and explained in one language."""

    id: str
    section: str
    name: str
    rule: str


@dataclass(frozen=True)
class SheetView:
    """One sheet, named and explained in one language.

    ``upper`` and ``lower`` are its boxes; ``rows`` what its rules table and printed sheet list:
    the boxes, or on a sheet of several columns the boxes each column repeats.
    """

    id: str
    name: str
    upper: tuple[BoxView, ...]
    lower: tuple[BoxView, ...]
    upper_bonus: int
    extra_bonus: int
    joker: bool
    five_of_a_kind_box: str | None
    daily: bool = False
    columns: int = 1
    rows: tuple[BoxView, ...] = ()
    first_roll_bonus: tuple[tuple[str, int], ...] = ()
    second_five_box: str | None = None

    @property
    def boxes(self) -> tuple[BoxView, ...]:
        """Every box in sheet order."""
        return self.upper + self.lower

    @property
    def bonus_threshold(self) -> int:
        """The upper-section total that earns the bonus."""
        return UPPER_BONUS_THRESHOLD

    @property
    def upper_rows(self) -> tuple[BoxView, ...]:
        """The rows of the upper section."""
        return tuple(row for row in self.rows if row.section == UPPER)

    @property
    def lower_rows(self) -> tuple[BoxView, ...]:
        """The rows of the lower section."""
        return tuple(row for row in self.rows if row.section == LOWER)


FRENCH_SPACE_BEFORE = re.compile(r"[ \u00a0]+([:;!?»])")
FRENCH_SPACE_AFTER = re.compile(r"«[ \u00a0]+")
NARROW_NO_BREAK_SPACE = "\u202f"


def typeset(text: str, lang: str) -> str:
    """``text`` with the spaces ``lang`` sets: in French, a narrow no-break space before
    ``: ; ! ? »`` and after ``«``."""
    if lang != "fr":
        return text
    text = FRENCH_SPACE_BEFORE.sub(NARROW_NO_BREAK_SPACE + r"\1", text)
    return FRENCH_SPACE_AFTER.sub("«" + NARROW_NO_BREAK_SPACE, text)


def language() -> str:
    """The two-letter language of the current request."""
    return get_locale().language


def box_name(box, lang: str) -> str:
    """A box's (``fairness.sheets.Category``) name in ``lang``."""
    if lang == "hu":
        return sheets_hungarian.box_name(box.names["en"])
    return box.names[lang]


def box_rule(box, lang: str) -> str:
    """A box's one-line rule in ``lang``."""
    if lang == "hu":
        return sheets_hungarian.box_rule(box.rule["en"])
    return box.rule[lang]


def sheet_name(ruleset, lang: str) -> str:
    """A sheet's (``fairness.sheets.Ruleset``) name in ``lang``."""
    if lang == "hu":
        return sheets_hungarian.sheet_name(ruleset.names["en"])
    return ruleset.names[lang]


def _box_views(categories, lang: str) -> tuple[BoxView, ...]:
    """Boxes named and explained in ``lang``."""
    return tuple(BoxView(box.id, box.section, typeset(box_name(box, lang), lang),
                         typeset(box_rule(box, lang), lang))
                 for box in categories)


def sheet_view(ruleset_id: str) -> SheetView:
    """The sheet ``ruleset_id`` in the current language (raises UnknownRuleset)."""
    ruleset = get_ruleset(ruleset_id)
    lang = language()
    boxes = _box_views(ruleset.categories, lang)
    names = {box.id: box_name(box, lang) for box in ruleset.column_boxes or ruleset.categories}
    return SheetView(
        id=ruleset.id,
        name=sheet_name(ruleset, lang),
        upper=tuple(box for box in boxes if box.section == UPPER),
        lower=tuple(box for box in boxes if box.section == LOWER),
        upper_bonus=ruleset.upper_bonus,
        extra_bonus=ruleset.extra_bonus,
        joker=ruleset.joker,
        five_of_a_kind_box=ruleset.five_of_a_kind_box,
        daily=is_daily(ruleset.id),
        columns=ruleset.columns,
        rows=_box_views(ruleset.column_boxes, lang) if ruleset.column_boxes else boxes,
        first_roll_bonus=tuple((names[kind], bonus)
                               for kind, bonus in ruleset.first_roll_bonus.items()),
        second_five_box=ruleset.second_five_box,
    )


def daily_sheets() -> list[SheetView]:
    """The daily sheets of the dates being played now, in their usual order."""
    return [sheet_view(ruleset_id) for ruleset_id in services().games.offered_rulesets()]


def playable_sheets() -> list[SheetView]:
    """Every sheet a game can be played on (practice, against the computer, tables)."""
    return [sheet_view(ruleset_id) for ruleset_id in PLAYABLE_RULESETS]


def is_daily(ruleset_id: str) -> bool:
    """True for a sheet that has a daily challenge on a date being played now."""
    return ruleset_id in services().games.offered_rulesets()
