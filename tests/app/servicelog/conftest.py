"""Fixtures of the service log's tests."""

import pytest

from tests.app.playkit import app_on


@pytest.fixture
def logged_app_factory(redis_url, data_dir, clock, strategy_tables_dir, witness):
    """``make(**config)``: another app (another process) on the same Redis and data directory."""
    return lambda **config: app_on(redis_url, data_dir, clock, DAY_FORMAT="2",
                                   WITNESSES=witness.vkey, **config)
