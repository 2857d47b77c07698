"""Solved tables shared by the strategy tests: each sheet is built once per session."""

import pytest

from strategy import load_or_build
from tests.conftest import run_lock, run_scratch_dir


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    """One table cache directory for the whole run (parallel test processes share it)."""
    return run_scratch_dir(tmp_path_factory, "strategy-tables")


@pytest.fixture(scope="session")
def solved(tables_dir):
    """``solved(ruleset_id, joker=None)``: the table, built on first use and then cached
    (built by one test process of the run, loaded by the others)."""
    built = {}

    def get(ruleset_id, joker=None):
        """The table of ``ruleset_id``, built once."""
        if (ruleset_id, joker) not in built:
            with run_lock(tables_dir):
                built[ruleset_id, joker] = load_or_build(tables_dir, ruleset_id, joker)
        return built[ruleset_id, joker]

    return get
