"""A server's master reads the saved strategy tables before it forks its workers
(``app.preload``): a source made afterwards, in the master or in a fork, starts with them loaded
and no thread, and a sheet whose table was not saved is left to the source's warming thread."""

import os
import shutil

import pytest

from app.coach import tables as coach
from app.coach.tables import TableSource, preload_tables
from strategy import table_file


@pytest.fixture
def preloaded():
    """Forget what the test preloads."""
    yield
    coach._preloaded.clear()


def test_a_source_made_after_the_preload_starts_with_the_saved_tables(strategy_tables_dir,
                                                                      tmp_path, preloaded):
    fresh = tmp_path / "tables"
    fresh.mkdir()
    shutil.copy(table_file(strategy_tables_dir, "yacht"), fresh)
    preload_tables(fresh, ("yacht", "generala"))

    source = TableSource(fresh / ".." / "tables", ("yacht", "generala"))  # the same folder
    assert source.ready("yacht") and source._thread is None
    assert source.get("yacht").optimum == pytest.approx(166.9551, abs=5e-5)
    assert not source.ready("generala")  # not saved: the warming thread's work
    assert not TableSource(tmp_path / "elsewhere", ("yacht",)).ready("yacht")

    child = os.fork()
    if child == 0:  # a worker: the same tables, already there
        os._exit(0 if TableSource(fresh, ("yacht",)).ready("yacht") else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
