"""``placement_and_previews``: the placement and every allowed box's score in one call, the dice
and the sheet validated once, the very results of ``placement`` and ``score`` box by box; and
``score_placement_and_bonus``, what a scoring needs in one call: ``score``, ``placement`` and
``extra_bonus``."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import (
    RULESETS,
    InvalidDice,
    UnknownCategory,
    UnknownRuleset,
    extra_bonus,
    get_ruleset,
    placement,
    score,
)
from fairness.rules import placement_and_previews, score_placement_and_bonus

DIE = st.integers(min_value=1, max_value=6)


@st.composite
def positions(draw):
    """A sheet's id, dice (a five-of-a-kind one time in three, for the Joker rule and the extra
    bonus) and a partial sheet of its boxes (points 0 or drawn), and the first-roll flag."""
    ruleset_id = draw(st.sampled_from(sorted(RULESETS)))
    face = draw(DIE)
    dice = draw(st.just([face] * 5) | st.lists(DIE, min_size=5, max_size=5))
    boxes = get_ruleset(ruleset_id).category_ids
    filled = draw(st.lists(st.sampled_from(boxes), unique=True, max_size=len(boxes) - 1))
    sheet = {box: draw(st.sampled_from((0, 5, 50, 100))) for box in filled}
    return ruleset_id, dice, sheet, draw(st.booleans())


@settings(max_examples=400, deadline=None)
@given(positions())
def test_the_same_placement_and_scores_as_box_by_box(position):
    """Same allowed boxes, restriction and Joker points, and each box's score as ``score``."""
    ruleset_id, dice, sheet, first_roll = position
    expected = placement(ruleset_id, dice, sheet, first_roll)
    found, previews = placement_and_previews(ruleset_id, dice, sheet, first_roll)
    assert found == expected
    assert previews == {box: score(ruleset_id, box, dice, sheet, first_roll)
                        for box in expected.allowed}
    assert list(previews) == list(expected.allowed)


def test_bad_dice_or_sheet_are_refused_as_placement_refuses_them():
    """Invalid dice or a box of another sheet: the errors ``placement`` raises."""
    with pytest.raises(InvalidDice):
        placement_and_previews("yacht", [1, 2, 3, 4, 7])
    with pytest.raises(UnknownCategory):
        placement_and_previews("yacht", [1, 2, 3, 4, 5], {"upper-bonus": 3})


@settings(max_examples=400, deadline=None)
@given(positions(), st.data())
def test_a_scoring_gets_what_score_placement_and_extra_bonus_give(position, data):
    """Any box of the sheet, free or not: the box's score, the dice's placement and the extra
    bonus of that box, each as its own function gives it."""
    ruleset_id, dice, sheet, first_roll = position
    box = data.draw(st.sampled_from(get_ruleset(ruleset_id).category_ids))
    assert score_placement_and_bonus(ruleset_id, box, dice, sheet, first_roll) == (
        score(ruleset_id, box, dice, sheet, first_roll),
        placement(ruleset_id, dice, sheet, first_roll),
        extra_bonus(ruleset_id, dice, sheet, box),
    )


@pytest.mark.parametrize(("arguments", "error"), [
    (("no-such-sheet", "ones", [1, 2, 3, 4, 5], {"twos": 2}), UnknownRuleset),
    (("yacht", "no-such-box", [1, 2, 3, 4, 7], {"twos": 2}), InvalidDice),
    (("yacht", "no-such-box", [1, 2, 3, 4, 5], {"upper-bonus": 2}), UnknownCategory),
    (("yacht", "no-such-box", [1, 2, 3, 4, 5], {"twos": 2}), UnknownCategory),
    (("yacht", ["ones"], [1, 2, 3, 4, 5], None), UnknownCategory),
])
def test_a_scoring_is_refused_as_score_refuses_it(arguments, error):
    """The sheet, the dice, the sheet's boxes, then the box: the first error ``score`` raises,
    with its message."""
    with pytest.raises(error) as expected:
        score(*arguments)
    with pytest.raises(error) as found:
        score_placement_and_bonus(*arguments)
    assert str(found.value) == str(expected.value)
