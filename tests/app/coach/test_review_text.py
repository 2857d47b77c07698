"""The review's text the coach keeps (``app.coach.service.review_text``, orjson) reads back as
``Review.to_json_text`` (pinned byte for byte in tests/strategy/test_review_stored.py) does:
every field, every float to the bit, on every daily sheet."""

import dataclasses
import json

import orjson
import pytest

from app.coach.service import review_text
from fairness import DAILY_RULESETS
from strategy import load_or_build
from tests.strategy.test_review_stored import seeded_reviews


def same_bits(left, right) -> bool:
    """True when two JSON values are equal, their floats compared by their bits (so that 0.0
    and -0.0 differ and every digit counts)."""
    if isinstance(left, float) or isinstance(right, float):
        return type(left) is type(right) and left.hex() == right.hex()
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(same_bits(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(same_bits, left, right))
    return left == right


@pytest.mark.parametrize("ruleset", DAILY_RULESETS)
def test_the_kept_text_reads_back_as_to_json_text(ruleset, strategy_tables_dir):
    """Seeded finished and unfinished reviews, and ones with figures ``repr`` writes with an
    exponent: the same value, field by field and bit by bit."""
    reviews = [one for _, one in seeded_reviews(load_or_build(strategy_tables_dir, ruleset))]
    reviews += [dataclasses.replace(reviews[0], luck=luck) for luck in (-2.5e-14, 2.5e-5, 1e16)]
    for one in reviews:
        assert same_bits(orjson.loads(review_text(one)), json.loads(one.to_json_text()))
