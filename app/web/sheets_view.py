"""The sheets as the pages show them: names and rules in the reader's language."""

from dataclasses import dataclass

from flask_babel import get_locale

from fairness.sheets import DAILY_RULESETS, LOWER, UPPER, UPPER_BONUS_THRESHOLD, get_ruleset


@dataclass(frozen=True)
class BoxView:
    """One box of a sheet, named and explained in one language."""

    id: str
    section: str
    name: str
    rule: str


@dataclass(frozen=True)
class SheetView:
    """One daily sheet, named and explained in one language."""

    id: str
    name: str
    upper: tuple[BoxView, ...]
    lower: tuple[BoxView, ...]
    upper_bonus: int
    extra_bonus: int
    joker: bool
    five_of_a_kind_box: str | None

    @property
    def boxes(self) -> tuple[BoxView, ...]:
        """Every box in sheet order."""
        return self.upper + self.lower

    @property
    def bonus_threshold(self) -> int:
        """The upper-section total that earns the bonus."""
        return UPPER_BONUS_THRESHOLD


def language() -> str:
    """The two-letter language of the current request."""
    return get_locale().language


def sheet_view(ruleset_id: str) -> SheetView:
    """The daily sheet ``ruleset_id`` in the current language (raises UnknownRuleset)."""
    ruleset = get_ruleset(ruleset_id)
    lang = language()
    boxes = [
        BoxView(box.id, box.section, box.names[lang], box.rule[lang]) for box in ruleset.categories
    ]
    return SheetView(
        id=ruleset.id,
        name=ruleset.names[lang],
        upper=tuple(box for box in boxes if box.section == UPPER),
        lower=tuple(box for box in boxes if box.section == LOWER),
        upper_bonus=ruleset.upper_bonus,
        extra_bonus=ruleset.extra_bonus,
        joker=ruleset.joker,
        five_of_a_kind_box=ruleset.five_of_a_kind_box,
    )


def daily_sheets() -> list[SheetView]:
    """The three daily sheets, in their usual order."""
    return [sheet_view(ruleset_id) for ruleset_id in DAILY_RULESETS]


def is_daily(ruleset_id: str) -> bool:
    """True for a sheet that has a daily challenge."""
    return ruleset_id in DAILY_RULESETS
