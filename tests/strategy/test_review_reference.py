"""The review, computed a turn at a time in batches, gives exactly the JSON of the review read
position by position through ``evaluate`` and ``ranked_choices`` (the reference below: the
review as it stood before it was batched), on seeded games of every sheet: bots of every level
(near-ties and mistakes), random play (every kind of keep and box), and unfinished games.

Exact: the JSON texts are compared, so a last-bit difference in any figure fails.
"""

import json

import pytest

from fairness import RULESETS, Game
from strategy import (
    Decision,
    Review,
    RollLuck,
    Turn,
    evaluate,
    expected_from_turn_start,
    load_or_build,
    ranked_choices,
    review,
)
from strategy.bots import LEVELS, play_bot_game, seeded_game
from strategy.position import Position
from tests.strategy.seeded_play import random_game

SEED = 14
BOT_GAMES = 1  # per level and sheet
RANDOM_GAMES = 20  # per sheet (4 on triple Yahtzee, whose games are three times as long)


def reference_review(table, transcript) -> Review:
    """The review position by position: an ``evaluate`` of every position with dice showing,
    the best choice as ``ranked_choices`` orders them."""
    ruleset = table.ruleset_id
    position = Position(ruleset)
    start = expected_from_turn_start(table, position)
    value = start
    decisions, rolls, turns = [], [], []
    turn_loss = turn_luck = 0.0
    evaluation = None
    for index, entry in enumerate(transcript):
        turn = len(position.boxes) + 1
        if entry["action"] == "roll":
            if evaluation is not None:
                kept = tuple(sorted(d for d, held in zip(position.dice, entry["hold"],
                                                         strict=True) if held))
                decision = reference_decision(evaluation, turn, index, position, None, kept,
                                              table)
                decisions.append(decision)
                turn_loss += decision.loss
                value = decision.chosen["expected"]
            position = Position(ruleset, position.boxes, tuple(entry["dice"]),
                                position.rolls_left - 1, position.extra_bonus)
            evaluation = evaluate(table, position)
            luck = evaluation.best - value
            rolls.append(RollLuck(turn, index, list(entry["dice"]), value, evaluation.best, luck))
            turn_luck += luck
            value = evaluation.best
            continue
        decision = reference_decision(evaluation, turn, index, position, entry["category"],
                                      None, table)
        decisions.append(decision)
        turn_loss += decision.loss
        value = decision.chosen["expected"]
        turns.append(Turn(turn, entry["category"], entry["points"], turn_loss, turn_luck))
        turn_loss = turn_luck = 0.0
        position = Position(ruleset, {**position.boxes, entry["category"]: entry["points"]},
                            None, 3, position.extra_bonus + entry["bonus"])
        evaluation = None
    finished = len(position.boxes) == table.rules.boxes
    if rolls and not finished and position.dice is not None:
        turns.append(Turn(len(position.boxes) + 1, None, None, turn_loss, turn_luck))
    return Review(ruleset, finished, start, value, sum(d.loss for d in decisions),
                  sum(r.luck for r in rolls), decisions, rolls, turns)


def reference_decision(evaluation, turn, index, position, box, keep, table) -> Decision:
    """The reference's record of choosing ``box`` or ``keep`` in ``evaluation``."""
    best = ranked_choices(evaluation, table.rules.box_ids)[0].as_dict()
    if box is not None:
        chosen = {"kind": "box", "box": box, "expected": evaluation.boxes[box]}
    else:
        chosen = {"kind": "keep", "keep": list(keep), "expected": evaluation.keeps[keep]}
    loss = max(0.0, best["expected"] - chosen["expected"])
    return Decision(turn, index, list(position.dice), position.rolls_left, best, chosen, loss)


def games_of(table) -> list[Game]:
    """Every seeded game the test reviews on ``table``'s sheet."""
    ruleset = table.ruleset_id
    games = []
    for level in LEVELS:
        for index in range(BOT_GAMES):
            stream, rng = seeded_game(SEED, index, ruleset)
            games.append(play_bot_game(table, level, stream, rng))
    count = RANDOM_GAMES // 5 if table.rules.boxes > 20 else RANDOM_GAMES
    return games + [random_game(SEED, index, ruleset) for index in range(count)]


@pytest.fixture(scope="module", params=list(RULESETS))
def table(request, strategy_tables_dir):
    """Each sheet's table, from the session's directory (the one the app tests use)."""
    return load_or_build(strategy_tables_dir, request.param)


def test_the_batched_review_is_the_reference_to_the_last_bit(table):
    compared = 0
    for number, game in enumerate(games_of(table)):
        transcript = game.transcript
        cuts = [len(transcript)]
        if number % 3 == 0:  # unfinished: after a score, with dice showing, before any roll
            cuts += [len(transcript) // 2, len(transcript) // 2 + 1, 1, 0]
        for cut in cuts:
            expected = reference_review(table, transcript[:cut])
            for checked in (True, False):
                got = review(table, transcript[:cut], checked=checked)
                assert json.dumps(got.to_json()) == json.dumps(expected.to_json()), (
                    game.ruleset, number, cut, checked)
            compared += 1
    assert compared >= len(LEVELS) * BOT_GAMES + 4
