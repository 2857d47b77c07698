"""The perfect policy through fairness.Game, hints, evaluation, and the review's figures."""

import dataclasses

import pytest

from fairness import DiceStream, Game, replay
from strategy import (
    InvalidPosition,
    InvalidTranscript,
    Position,
    evaluate,
    expected_from_turn_start,
    hint,
    hold_for,
    perfect_choice,
    play_game,
    review,
)

SEED = "5a" * 32
DATE = "2026-03-10"


@pytest.fixture(scope="module", params=["yacht", "yacht-bonus", "yahtzee"])
def perfect(request, solved):
    """(table, stream, the perfect policy's game on that stream) for each daily sheet."""
    table = solved(request.param)
    stream = DiceStream(SEED, DATE, request.param)
    return table, stream, play_game(table, stream)


def test_the_perfect_game_is_legal_and_finished(perfect):
    table, stream, game = perfect
    assert game.finished
    assert replay(game.transcript, stream).totals() == game.totals()


def test_the_perfect_game_is_deterministic(perfect):
    table, stream, game = perfect
    assert play_game(table, DiceStream(SEED, DATE, stream.ruleset)).transcript == game.transcript


def test_the_perfect_game_reviews_as_nothing_lost(perfect):
    table, _, game = perfect
    result = review(table, game.transcript)
    assert result.finished
    assert result.loss == 0.0
    assert all(decision.loss == 0.0 for decision in result.decisions)
    assert f"{result.loss:.2f}" == "0.00"


def test_review_identity_final_equals_start_plus_luck_minus_loss(perfect):
    table, _, game = perfect
    result = review(table, game.transcript)
    assert result.value == game.totals().total
    assert result.start == pytest.approx(table.optimum)
    assert result.start + result.luck - result.loss == pytest.approx(result.value, abs=1e-9)
    assert sum(turn.loss for turn in result.turns) == pytest.approx(result.loss, abs=1e-12)
    assert sum(turn.luck for turn in result.turns) == pytest.approx(result.luck, abs=1e-9)
    assert len(result.turns) == table.rules.boxes


def bad_keep_game(table, stream):
    """A game whose first keep throws every die back though the best keep holds some."""
    game = Game.new(stream.ruleset, stream.date).roll(None, stream)
    position = Position.from_game(game)
    evaluation = evaluate(table, position)
    assert perfect_choice(table, position).keep != ()
    game = game.roll([False] * 5, stream)
    return game, evaluation


def test_a_bad_keep_loses_exactly_the_difference(perfect):
    table, stream, _ = perfect
    game, evaluation = bad_keep_game(table, stream)
    best = perfect_choice(table, Position.from_game(Game.new(stream.ruleset, stream.date)
                                                    .roll(None, stream)))
    result = review(table, game.transcript)
    decision = result.decisions[0]
    assert decision.chosen == {"kind": "keep", "keep": [], "expected": evaluation.keeps[()]}
    assert decision.best["expected"] == best.expected
    assert decision.loss == best.expected - evaluation.keeps[()]
    assert decision.loss > 0
    assert result.start + result.luck - result.loss == pytest.approx(result.value, abs=1e-9)


def test_a_bad_box_loses_exactly_the_difference(solved):
    table = solved("yacht")
    stream = DiceStream(SEED, DATE, "yacht")
    game = Game.new("yacht", DATE).roll(None, stream)
    evaluation = evaluate(table, Position.from_game(game))
    worst = min(evaluation.boxes, key=evaluation.boxes.get)
    result = review(table, game.score(worst).transcript)
    decision = result.decisions[0]
    assert decision.loss == decision.best["expected"] - evaluation.boxes[worst]
    assert decision.loss > 0
    assert result.turns[0].box == worst


def test_in_progress_review_ends_on_the_last_position(perfect):
    table, _, game = perfect
    partial = game.transcript[:7]
    result = review(table, partial)
    assert not result.finished
    assert result.start + result.luck - result.loss == pytest.approx(result.value, abs=1e-9)
    payload = result.to_json()
    assert {"best", "chosen", "loss"} <= set(payload["decisions"][0])


def test_the_review_text_is_every_field_of_its_records(perfect):
    """``to_json_text`` (what the coach keeps and the page reads) writes every field of the
    review and its nested records, as ``dataclasses.asdict`` reads them."""
    table, _, game = perfect
    for transcript in (game.transcript, game.transcript[:7]):
        result = review(table, transcript)
        assert result.to_json() == dataclasses.asdict(result)


def test_a_transcript_that_breaks_the_rules_is_refused(solved):
    with pytest.raises(InvalidTranscript):
        review(solved("yacht"), [{"action": "score", "category": "choice", "points": 0,
                                  "bonus": 0}])


def test_hint_gives_the_best_and_the_runner_up(solved):
    table = solved("yacht-bonus")
    position = Position("yacht-bonus", {}, (6, 6, 6, 2, 1), 2)
    given = hint(table, position)
    assert given.best.keep == (6, 6, 6)
    assert given.runner_up is not None
    assert given.runner_up.expected <= given.best.expected
    assert given.as_dict()["best"]["keep"] == [6, 6, 6]


def test_turn_start_value_is_the_mean_of_the_first_roll(solved):
    table = solved("yacht")
    start = expected_from_turn_start(table, Position("yacht"))
    assert start == pytest.approx(table.optimum)


def test_no_dice_no_evaluation(solved):
    with pytest.raises(InvalidPosition):
        evaluate(solved("yacht"), Position("yacht"))


def test_hold_for_keeps_the_leftmost_dice():
    assert hold_for((6, 1, 6, 6, 2), (6, 6)) == [True, False, True, False, False]
    with pytest.raises(ValueError):
        hold_for((1, 2, 3, 4, 5), (6,))
