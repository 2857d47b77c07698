"""Solved tables: build, save with a checksum, load, and a cache that builds in the background.

A sheet of several columns (triple Yahtzee) has no file of its own: its ``ColumnsTable``
(strategy.columns) approximates it over its one-column sheet's table, loaded or built as usual.

A file holds the solver's value array, the key it was built for (format version, ruleset,
Joker reading and a fingerprint of the rule arrays) and the sha256 of key and values; a file
whose key or checksum does not match is refused, and the cache rebuilds it.
"""

import dataclasses
import hashlib
import os
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from fairness import get_ruleset

from .boxvalues import box_values
from .columns import ColumnsTable, column_ruleset, columns_rules
from .errors import StrategyError, TableFileError, ValueTablesNotReady
from .npz import read_arrays
from .sheetrules import SheetRules, sheet_rules
from .solver import solve

FORMAT_VERSION = "yacht-daily/strategy-table/v1"


@dataclass(frozen=True, eq=False)  # arrays inside: identity, not value, equality
class Table:
    """The optimal expected points still to come from every turn-start state of one sheet."""

    rules: SheetRules
    values: np.ndarray = field(repr=False)
    # evaluate.py's few most recent turn-start states: (box values, the same for the first
    # roll, keep values per rolls left)
    recent_turns: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def ruleset_id(self) -> str:
        """The ruleset the table is for."""
        return self.rules.ruleset_id

    @property
    def optimum(self) -> float:
        """The optimal expected final score from the empty sheet."""
        return float(self.values[0, 0, 0])

    @property
    def exact(self) -> bool:
        """True: these values are the optimum (``strategy.columns`` approximates instead)."""
        return True

    def start_value(self, state: tuple[int, int, int]) -> float:
        """The expected points still to come from the start of a turn in ``state``."""
        return float(self.values[state])

    def box_values(self, masks: np.ndarray, uppers: np.ndarray, flags: np.ndarray,
                   first_roll: bool = False) -> np.ndarray:
        """(boxes, n, 252): each box's points now plus what is still to come, ``-inf`` where
        the rules forbid it (``boxvalues.box_values``)."""
        return box_values(self.rules, self.values, masks, uppers, flags, first_roll)

    def immediate_values(self, masks: np.ndarray, flags: np.ndarray,
                         first_roll: bool = False) -> np.ndarray:
        """(boxes, n, 252): the points each box scores now, +extra bonus included, the upper
        bonus not (``-inf`` where the rules forbid the box)."""
        blind = bonus_blind_rules(self.rules)
        zeros = np.zeros((1 << blind.boxes, blind.upper_states, blind.flag_states))
        return box_values(blind, zeros, masks, np.zeros_like(masks), flags, first_roll)

    def bonus_blind(self) -> "Table":
        """The optimal table of the same sheet without its upper bonus (solved once)."""
        return _bonus_blind_table(self.rules.ruleset_id, self.rules.joker)


def bonus_blind_rules(rules: SheetRules) -> SheetRules:
    """``rules`` without the upper bonus."""
    return dataclasses.replace(rules, upper_bonus=0)


@lru_cache(maxsize=16)
def _bonus_blind_table(ruleset_id: str, joker: str) -> Table:
    """The solved sheet ``ruleset_id`` without its upper bonus."""
    rules = bonus_blind_rules(sheet_rules(ruleset_id, joker))
    return Table(rules, solve(rules))


def table_key(rules: SheetRules) -> str:
    """The key a file must carry: format version, ruleset, Joker reading, rules fingerprint
    (the points in every context count only where they differ from the plain points, so the
    older sheets keep their keys)."""
    fingerprint = hashlib.sha256()
    arrays = [rules.points, rules.joker_delta]
    if rules.first_roll_bonus or rules.fifty_dependent:
        arrays.append(rules.scores)
    for array in arrays:
        fingerprint.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    fingerprint.update(f"{rules.box_ids}|{rules.upper_bonus}|{rules.extra_bonus}|"
                       f"{rules.five_box}".encode())
    return f"{FORMAT_VERSION}|{rules.ruleset_id}|{rules.joker}|{fingerprint.hexdigest()[:16]}"


def _checksum(key: str, values: np.ndarray) -> str:
    """sha256 of the key and the little-endian float64 values."""
    digest = hashlib.sha256(key.encode())
    digest.update(np.ascontiguousarray(values, dtype="<f8").tobytes())
    return digest.hexdigest()


def build_table(ruleset_id: str, joker: str | None = None) -> Table | ColumnsTable:
    """Solve ``ruleset_id`` (``joker`` as in ``sheet_rules``) and return its table; a sheet of
    several columns gets its approximation over its one-column sheet's table."""
    if _has_columns(ruleset_id, joker):
        return ColumnsTable(columns_rules(ruleset_id), build_table(column_ruleset(ruleset_id)))
    rules = sheet_rules(ruleset_id, joker)
    return Table(rules, solve(rules))


def _has_columns(ruleset_id: str, joker: str | None) -> bool:
    """True for a sheet of several columns (which takes no ``joker`` reading)."""
    if get_ruleset(ruleset_id).columns == 1:
        return False
    if joker is not None:
        raise ValueError(f"{ruleset_id} plays its own Joker rule: no joker reading")
    return True


def table_file(directory: Path, ruleset_id: str) -> Path:
    """The file ``ruleset_id``'s table is read from (a several-column sheet: its column's)."""
    if _has_columns(ruleset_id, None):
        ruleset_id = column_ruleset(ruleset_id)
    return table_path(directory, sheet_rules(ruleset_id))


def table_path(directory: Path, rules: SheetRules) -> Path:
    """Where ``directory`` keeps the table of ``rules``."""
    return Path(directory) / f"{rules.ruleset_id}.{rules.joker}.npz"


def save_table(table: Table, path: Path) -> None:
    """Write ``table`` to ``path`` atomically (a temporary file, then a rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    key = table_key(table.rules)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    with open(temporary, "wb") as file:
        np.savez(file, values=table.values, key=np.array(key),
                 checksum=np.array(_checksum(key, table.values)))
    os.replace(temporary, path)


def load_table(path: Path, ruleset_id: str, joker: str | None = None) -> Table:
    """Read the table of ``ruleset_id`` from ``path``; raise TableFileError unless it is intact."""
    rules = sheet_rules(ruleset_id, joker)
    key = table_key(rules)
    try:
        data = read_arrays(Path(path))
        values, stored_key, checksum = data["values"], str(data["key"]), str(data["checksum"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise TableFileError(f"{path}: unreadable table ({error})") from None
    if stored_key != key:
        raise TableFileError(f"{path}: built for {stored_key!r}, expected {key!r}")
    expected_shape = (1 << rules.boxes, rules.upper_states, rules.flag_states)
    if values.shape != expected_shape or values.dtype != np.float64:
        raise TableFileError(f"{path}: shape {values.shape} {values.dtype}, "
                             f"expected {expected_shape} float64")
    if _checksum(key, values) != checksum:
        raise TableFileError(f"{path}: checksum mismatch")
    return Table(rules, values)


def load_or_build(directory: Path, ruleset_id: str,
                  joker: str | None = None) -> Table | ColumnsTable:
    """The table from ``directory``, building and saving it first when missing or refused."""
    if _has_columns(ruleset_id, joker):
        return ColumnsTable(columns_rules(ruleset_id),
                            load_or_build(directory, column_ruleset(ruleset_id)))
    path = table_path(directory, sheet_rules(ruleset_id, joker))
    try:
        return load_table(path, ruleset_id, joker)
    except TableFileError:
        table = build_table(ruleset_id, joker)
        save_table(table, path)
        return table


class TableCache:
    """Tables kept in memory, read from ``directory``, and built by a background thread.

    ``get`` never blocks on a build: a missing or refused file starts one (one thread per
    table) and raises ValueTablesNotReady until it is saved. The lock guards the dictionaries
    only, never a file's read, so a table already kept is served while another one loads.
    """

    def __init__(self, directory: Path):
        """Cache the tables of ``directory`` (created when the first table is saved)."""
        self.directory = Path(directory)
        self._tables: dict[tuple[str, str | None], Table] = {}
        self._builds: dict[tuple[str, str | None], threading.Thread] = {}
        self._failures: dict[tuple[str, str | None], Exception] = {}
        self._lock = threading.Lock()

    def get(self, ruleset_id: str, joker: str | None = None) -> Table | ColumnsTable:
        """The table of ``ruleset_id``, or raise ValueTablesNotReady while it is being computed
        (a sheet of several columns: while its column's is)."""
        if _has_columns(ruleset_id, joker):
            return self._columns_table(ruleset_id)
        key = (ruleset_id, joker)
        with self._lock:
            known = self._known(key)
        if known is not None:
            return known
        # The file is read and checked outside the lock: that takes a while, and a thread
        # (a gevent worker's event loop) asking for a table already here must not wait on it.
        try:
            table = load_table(table_path(self.directory, sheet_rules(ruleset_id, joker)),
                               ruleset_id, joker)
        except TableFileError:
            table = None
        with self._lock:
            known = self._known(key)
            if known is not None:  # another thread's read or build came first: keep one copy
                return known
            if table is not None:
                self._tables[key] = table
                return table
            self._start_build(key)
        raise ValueTablesNotReady(f"the {ruleset_id} strategy table is being computed")

    def _known(self, key: tuple[str, str | None]) -> Table | None:
        """The kept table of ``key``, None if there is none yet; ValueTablesNotReady while it is
        being built, StrategyError if its build failed (the caller holds the lock)."""
        if key in self._tables:
            return self._tables[key]
        if key in self._failures:
            raise StrategyError(f"building the {key[0]} table failed: "
                                f"{self._failures[key]}") from self._failures[key]
        if key in self._builds:
            raise ValueTablesNotReady(f"the {key[0]} strategy table is being computed")
        return None

    def wait(self, ruleset_id: str, joker: str | None = None,
             timeout: float | None = None) -> Table | ColumnsTable:
        """The table of ``ruleset_id``, waiting up to ``timeout`` seconds for its build."""
        if _has_columns(ruleset_id, joker):
            self.wait(column_ruleset(ruleset_id), timeout=timeout)
            return self._columns_table(ruleset_id)
        try:
            return self.get(ruleset_id, joker)
        except ValueTablesNotReady:
            with self._lock:
                build = self._builds.get((ruleset_id, joker))
            if build is not None:
                build.join(timeout)
            return self.get(ruleset_id, joker)

    def _columns_table(self, ruleset_id: str) -> ColumnsTable:
        """The approximation of a sheet of several columns over its column's loaded table."""
        column = self.get(column_ruleset(ruleset_id))
        with self._lock:
            key = (ruleset_id, None)
            if key not in self._tables or self._tables[key].column_table is not column:
                self._tables[key] = ColumnsTable(columns_rules(ruleset_id), column)
            return self._tables[key]

    def _start_build(self, key: tuple[str, str | None]) -> None:
        """Start the background build of ``key`` (the caller holds the lock)."""
        build = threading.Thread(target=self._build, args=key, daemon=True,
                                 name=f"strategy-table-{key[0]}")
        self._builds[key] = build
        build.start()

    def _build(self, ruleset_id: str, joker: str | None) -> None:
        """Build, save and keep one table; remember a failure so that ``get`` reports it."""
        key = (ruleset_id, joker)
        try:
            table = build_table(ruleset_id, joker)
            save_table(table, table_path(self.directory, table.rules))
        except Exception as error:  # reported by get(), never lost in the thread
            with self._lock:
                self._failures[key] = error
                del self._builds[key]
            return
        with self._lock:
            self._tables[key] = table
            del self._builds[key]
