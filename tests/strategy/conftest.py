"""Solved tables shared by the strategy tests: each sheet is built once per session."""

import pytest

from strategy import load_or_build


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    """One table cache directory for the whole session."""
    return tmp_path_factory.mktemp("strategy-tables")


@pytest.fixture(scope="session")
def solved(tables_dir):
    """``solved(ruleset_id, joker=None)``: the table, built on first use and then cached."""
    built = {}

    def get(ruleset_id, joker=None):
        """The table of ``ruleset_id``, built once."""
        if (ruleset_id, joker) not in built:
            built[ruleset_id, joker] = load_or_build(tables_dir, ruleset_id, joker)
        return built[ruleset_id, joker]

    return get
