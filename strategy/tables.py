"""Solved tables: build, save with a checksum, load, and a cache that builds in the background.

A file holds the solver's value array, the key it was built for (format version, ruleset,
Joker reading and a fingerprint of the rule arrays) and the sha256 of key and values; a file
whose key or checksum does not match is refused, and the cache rebuilds it.
"""

import hashlib
import os
import threading
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import StrategyError, TableFileError, TablesNotReady
from .sheetrules import SheetRules, sheet_rules
from .solver import solve

FORMAT_VERSION = "yacht-daily/strategy-table/v1"


@dataclass(frozen=True, eq=False)  # arrays inside: identity, not value, equality
class Table:
    """The optimal expected points still to come from every turn-start state of one sheet."""

    rules: SheetRules
    values: np.ndarray = field(repr=False)
    # evaluate.py's few most recent turn-start states: (box values, keep values per rolls left)
    recent_turns: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def ruleset_id(self) -> str:
        """The ruleset the table is for."""
        return self.rules.ruleset_id

    @property
    def optimum(self) -> float:
        """The optimal expected final score from the empty sheet."""
        return float(self.values[0, 0, 0])


def table_key(rules: SheetRules) -> str:
    """The key a file must carry: format version, ruleset, Joker reading, rules fingerprint."""
    fingerprint = hashlib.sha256()
    for array in (rules.points, rules.joker_delta):
        fingerprint.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
    fingerprint.update(f"{rules.box_ids}|{rules.upper_bonus}|{rules.extra_bonus}|"
                       f"{rules.five_box}".encode())
    return f"{FORMAT_VERSION}|{rules.ruleset_id}|{rules.joker}|{fingerprint.hexdigest()[:16]}"


def _checksum(key: str, values: np.ndarray) -> str:
    """sha256 of the key and the little-endian float64 values."""
    digest = hashlib.sha256(key.encode())
    digest.update(np.ascontiguousarray(values, dtype="<f8").tobytes())
    return digest.hexdigest()


def build_table(ruleset_id: str, joker: str | None = None) -> Table:
    """Solve ``ruleset_id`` (``joker`` as in ``sheet_rules``) and return its table."""
    rules = sheet_rules(ruleset_id, joker)
    return Table(rules, solve(rules))


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
        with np.load(Path(path), allow_pickle=False) as data:
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


def load_or_build(directory: Path, ruleset_id: str, joker: str | None = None) -> Table:
    """The table from ``directory``, building and saving it first when missing or refused."""
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
    table) and raises TablesNotReady until it is saved.
    """

    def __init__(self, directory: Path):
        """Cache the tables of ``directory`` (created when the first table is saved)."""
        self.directory = Path(directory)
        self._tables: dict[tuple[str, str | None], Table] = {}
        self._builds: dict[tuple[str, str | None], threading.Thread] = {}
        self._failures: dict[tuple[str, str | None], Exception] = {}
        self._lock = threading.Lock()

    def get(self, ruleset_id: str, joker: str | None = None) -> Table:
        """The table of ``ruleset_id``, or raise TablesNotReady while it is being computed."""
        key = (ruleset_id, joker)
        with self._lock:
            if key in self._tables:
                return self._tables[key]
            if key in self._failures:
                raise StrategyError(f"building the {ruleset_id} table failed: "
                                    f"{self._failures[key]}") from self._failures[key]
            if key not in self._builds:
                rules = sheet_rules(ruleset_id, joker)
                try:
                    table = load_table(table_path(self.directory, rules), ruleset_id, joker)
                except TableFileError:
                    self._start_build(key)
                else:
                    self._tables[key] = table
                    return table
        raise TablesNotReady(f"the {ruleset_id} strategy table is being computed")

    def wait(self, ruleset_id: str, joker: str | None = None,
             timeout: float | None = None) -> Table:
        """The table of ``ruleset_id``, waiting up to ``timeout`` seconds for its build."""
        try:
            return self.get(ruleset_id, joker)
        except TablesNotReady:
            with self._lock:
                build = self._builds.get((ruleset_id, joker))
            if build is not None:
                build.join(timeout)
            return self.get(ruleset_id, joker)

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
