"""The rounding of a game's skill figure: hundredths half up for the skill board, tenths half
up from those hundredths wherever a sentence says it."""

from hypothesis import given
from hypothesis import strategies as st

from app.boards.figures import centipoints, loss_text


def test_a_loss_is_ranked_in_hundredths_half_up_and_never_below_zero():
    """Ties round up, float noise below zero is zero."""
    assert [centipoints(x) for x in (0.0, 0.004, 0.005, 0.25, 12.345, 123.449, -1e-9)] == \
        [0, 0, 1, 25, 1235, 12345, 0]


def test_a_sentence_says_the_tenth_of_the_hundredths():
    """123.449 is 123.45 on the board, so 123.5 in every sentence; ties go up."""
    assert [loss_text(x) for x in (0, 0.04, 0.05, 0.25, 12.25, 123.449, 123.4449, 99.95, 7)] == \
        ["0.0", "0.0", "0.1", "0.3", "12.3", "123.5", "123.4", "100.0", "7.0"]


@given(st.floats(min_value=-1, max_value=400, allow_nan=False))
def test_the_board_figure_and_the_game_figure_read_the_same(loss):
    """A sentence made from the board's hundredths says what one made from the review says."""
    assert loss_text(centipoints(loss) / 100) == loss_text(loss)
