"""Solved tables shared by the strategy tests: each sheet is built once per session."""

import pytest

from strategy import load_or_build
from tests.conftest import run_lock


@pytest.fixture(scope="session")
def tables_dir(strategy_tables_dir):
    """The run's one table cache directory, every sheet's table in it (parallel test processes
    and the app's tests share it)."""
    return strategy_tables_dir


@pytest.fixture(scope="session")
def solved(tables_dir):
    """``solved(ruleset_id, joker=None)``: the table, built on first use and then cached
    (built by one test process of the run, loaded by the others)."""
    built = {}

    def get(ruleset_id, joker=None):
        """The table of ``ruleset_id``, built once."""
        if (ruleset_id, joker) not in built:
            with run_lock(tables_dir, f"{ruleset_id}-{joker}"):
                built[ruleset_id, joker] = load_or_build(tables_dir, ruleset_id, joker)
        return built[ruleset_id, joker]

    return get
