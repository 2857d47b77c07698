"""Table files (checksum, key, atomic save), the background-building cache, and the CLI."""

import os
import shutil
import threading
import time
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

from app.cli.main import main
from strategy import (
    TableCache,
    TableFileError,
    ValueTablesNotReady,
    build_table,
    load_or_build,
    load_table,
    save_table,
    table_file,
    table_path,
)


@pytest.fixture(scope="module")
def yacht_table():
    """The traditional Yacht table (the quickest sheet to solve)."""
    return build_table("yacht")


def test_save_then_load_gives_the_same_values(tmp_path, yacht_table):
    path = tmp_path / "yacht.npz"
    save_table(yacht_table, path)
    loaded = load_table(path, "yacht")
    assert np.array_equal(loaded.values, yacht_table.values)
    assert loaded.optimum == yacht_table.optimum
    assert [p.name for p in tmp_path.iterdir()] == ["yacht.npz"]  # no temporary file left


def test_a_changed_value_is_refused(tmp_path, yacht_table):
    path = tmp_path / "yacht.npz"
    save_table(yacht_table, path)
    with np.load(path) as data:
        fields = dict(data)
    fields["values"] = fields["values"].copy()
    fields["values"][5, 0, 0] += 1e-9
    np.savez(path, **fields)
    with pytest.raises(TableFileError, match="checksum"):
        load_table(path, "yacht")


def test_a_table_of_another_sheet_is_refused(tmp_path, yacht_table):
    path = tmp_path / "other.npz"
    save_table(yacht_table, path)
    with pytest.raises(TableFileError, match="built for"):
        load_table(path, "yacht-bonus")


def test_garbage_is_refused_and_rebuilt(tmp_path, yacht_table):
    path = table_path(tmp_path, yacht_table.rules)
    path.write_bytes(b"not a table")
    with pytest.raises(TableFileError, match="unreadable"):
        load_table(path, "yacht")
    assert load_or_build(tmp_path, "yacht").optimum == yacht_table.optimum
    assert load_table(path, "yacht").optimum == yacht_table.optimum


@pytest.mark.parametrize("cut", [3, 200, -8])  # inside the magic, the header, the values
def test_a_truncated_array_is_refused(tmp_path, yacht_table, cut):
    path = table_path(tmp_path, yacht_table.rules)
    save_table(yacht_table, path)
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    members["values.npy"] = members["values.npy"][:cut]
    with zipfile.ZipFile(path, "w") as archive:  # a well-formed zip of a cut member
        for name, member in members.items():
            archive.writestr(name, member)
    with pytest.raises(TableFileError, match="unreadable"):
        load_table(path, "yacht")


def test_cache_says_not_ready_then_serves_the_built_table(tmp_path, yacht_table):
    cache = TableCache(tmp_path / "tables")
    with pytest.raises(ValueTablesNotReady):
        cache.get("yacht")
    table = cache.wait("yacht", timeout=120)
    assert table.optimum == yacht_table.optimum
    assert cache.get("yacht") is table
    assert TableCache(tmp_path / "tables").get("yacht").optimum == table.optimum  # from disk


def test_cache_rebuilds_a_corrupt_file(tmp_path, yacht_table):
    path = table_path(tmp_path, yacht_table.rules)
    save_table(yacht_table, path)
    path.write_bytes(path.read_bytes()[:-40])
    cache = TableCache(tmp_path)
    with pytest.raises(ValueTablesNotReady):
        cache.get("yacht")
    assert cache.wait("yacht", timeout=120).optimum == yacht_table.optimum
    assert load_table(path, "yacht").optimum == yacht_table.optimum


def test_a_kept_table_is_served_while_another_tables_file_is_being_read(tmp_path, yacht_table,
                                                                       solved, tables_dir):
    """The cache reads a file without its lock: a thread asking for a table it keeps is
    answered while another thread's read hangs (here Yacht's file is a FIFO whose writer
    sends nothing; in a gevent worker: a read in a native thread, the event loop asking)."""
    solved("yacht-bonus")
    shutil.copy(table_file(tables_dir, "yacht-bonus"), tmp_path)
    cache = TableCache(tmp_path)
    kept = cache.get("yacht-bonus")
    fifo = table_path(tmp_path, yacht_table.rules)
    os.mkfifo(fifo)
    reading = threading.Thread(target=refused, args=(cache, "yacht"), daemon=True)
    reading.start()
    writer = writer_once_read(fifo)  # the reading thread now waits for bytes in load_table
    served = []
    asking = threading.Thread(target=lambda: served.append(cache.get("yacht-bonus")), daemon=True)
    asking.start()
    asking.join(30)
    served_during_the_read = list(served)
    os.close(writer)  # the read ends: an empty file, refused, so Yacht's table is rebuilt
    reading.join(30)
    assert served_during_the_read == [kept]
    assert not reading.is_alive()
    assert cache.wait("yacht", timeout=120).optimum == yacht_table.optimum


def refused(cache: TableCache, ruleset: str) -> None:
    """``cache.get(ruleset)``, which must refuse the file it reads and start a build."""
    with pytest.raises(ValueTablesNotReady):
        cache.get(ruleset)


def writer_once_read(fifo, seconds: float = 30) -> int:
    """A write end of ``fifo``, opened once a reader has opened it (within ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: nobody reads it yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def test_cli_prints_the_optimum_with_four_decimals(tmp_path):
    result = CliRunner().invoke(main, ["strategy", "ev", "yacht", "--tables", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "166.9551"


def test_cli_refuses_an_unknown_sheet(tmp_path):
    result = CliRunner().invoke(main, ["strategy", "ev", "nope", "--tables", str(tmp_path)])
    assert result.exit_code == 2
    assert "nope" in result.output


def test_cli_prints_generalas_optimum(tmp_path):
    result = CliRunner().invoke(main, ["strategy", "ev", "generala", "--tables", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "159.9410"


def test_cli_says_the_triple_sheets_figure_is_an_approximation(tmp_path, solved):
    save_table(solved("yahtzee"), table_path(tmp_path, solved("yahtzee").rules))
    result = CliRunner().invoke(main, ["strategy", "ev", "yahtzee-triple", "--tables",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "not solved exactly" in result.output
    assert result.output.strip().splitlines()[-1] == f"{6 * solved('yahtzee').optimum:.4f}"


def test_yatzys_optimum(strategy_tables_dir):
    """From the session's daily tables (tests/conftest.py builds Yatzy's: about 45 s of one
    core once per session, nothing more here)."""
    table = load_or_build(strategy_tables_dir, "yatzy")
    assert f"{table.optimum:.4f}" == "248.4400"
