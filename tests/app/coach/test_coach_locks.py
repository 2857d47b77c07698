"""The strategy tables' build locks: one per table file, so that a sheet whose table is saved
loads while another process builds another sheet's table (a real file lock, real tables)."""

import shutil
import time

import pytest

from app.coach import tables as coach
from app.coach.tables import TableSource, lock_file
from strategy import table_file

LOAD_SECONDS = 60


def test_a_saved_table_loads_while_another_sheets_table_is_being_built(strategy_tables_dir,
                                                                       tmp_path):
    """Another worker holds Yatzy's build lock: Generala's saved table still loads, in a source
    of its own and in a source that lists Yatzy first; Yatzy's waits, then loads the file the
    builder saved."""
    fresh = tmp_path / "tables"
    fresh.mkdir()
    shutil.copy(table_file(strategy_tables_dir, "generala"), fresh)
    alone = TableSource(fresh, ("generala",))
    behind = TableSource(fresh, ("yatzy", "generala"))
    with coach._file_lock(fresh, "yatzy"):  # the builder of Yatzy's table
        assert alone.wait(LOAD_SECONDS)
        behind.start()
        assert loads(behind, "generala")
        assert not behind.ready("yatzy")
        shutil.copy(table_file(strategy_tables_dir, "yatzy"), fresh)
    assert behind.wait(LOAD_SECONDS)
    assert behind.get("yatzy").optimum == pytest.approx(248.4400, abs=5e-5)


def loads(source: TableSource, ruleset: str) -> bool:
    """Whether ``source`` has ``ruleset``'s table loaded within LOAD_SECONDS."""
    deadline = time.monotonic() + LOAD_SECONDS
    while not source.ready(ruleset):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_sheets_sharing_a_table_file_share_its_lock(tmp_path):
    """Triple Yahtzee is valued from Yahtzee's table: one file, one lock; other sheets have
    their own, hidden beside their file."""
    assert lock_file(tmp_path, "yahtzee-triple") == lock_file(tmp_path, "yahtzee")
    locks = {lock_file(tmp_path, sheet) for sheet in ("yacht", "yahtzee", "yatzy", "generala")}
    assert len(locks) == 4
    assert all(lock.parent == tmp_path and lock.name.startswith(".") for lock in locks)
