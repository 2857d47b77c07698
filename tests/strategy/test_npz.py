"""Reading a table's ``.npz`` without building an AST (strategy/npz.py): the same arrays as
``np.load``, read-only, and no ``compile`` (an AST) on the way, except for a header of
another form, which ``np.load`` reads."""

import sys

import numpy as np
import pytest

from strategy.npz import read_arrays
from strategy.tables import build_table, load_table, save_table, table_path

_compiles: list[str] = []
_watching: list[bool] = []


def _audit(event: str, args) -> None:
    """Count ``compile`` events (ast.parse, ast.literal_eval) while a test watches."""
    if event == "compile" and _watching:
        _compiles.append(str(args[1]))


sys.addaudithook(_audit)


def compiles_during(read) -> tuple[object, int]:
    """(``read()``, how many ASTs were built meanwhile)."""
    _compiles.clear()
    _watching.append(True)
    try:
        result = read()
    finally:
        _watching.clear()
    return result, len(_compiles)


def same_arrays(read: dict, path) -> bool:
    """True when ``read`` holds exactly ``np.load``'s arrays of ``path``, dtypes and shapes."""
    with np.load(path, allow_pickle=False) as loaded:
        return set(read) == set(loaded.files) and all(
            read[name].dtype == loaded[name].dtype and read[name].shape == loaded[name].shape
            and np.array_equal(read[name], loaded[name]) for name in loaded.files)


def test_a_saved_table_reads_as_np_load_reads_it_without_an_ast(tmp_path):
    table = build_table("yacht")
    path = table_path(tmp_path, table.rules)
    save_table(table, path)
    arrays, asts = compiles_during(lambda: read_arrays(path))
    assert asts == 0
    assert same_arrays(arrays, path)
    assert not arrays["values"].flags.writeable  # shared by threads and forks: never changed
    _, asts_of_np_load = compiles_during(lambda: dict(np.load(path, allow_pickle=False)))
    assert asts_of_np_load > 0  # what the reader avoids: np.load literal_evals each header
    loaded, asts = compiles_during(lambda: load_table(path, "yacht"))
    assert asts == 0 and np.array_equal(loaded.values, table.values)


@pytest.mark.parametrize("array", [
    np.asfortranarray(np.arange(12.0).reshape(3, 4)),  # 'fortran_order': True
    np.array([(1, 2.5)], dtype=[("a", "<i4"), ("b", "<f8")]),  # a structured dtype
])
def test_a_header_of_another_form_is_read_by_np_load(tmp_path, array):
    path = tmp_path / "other.npz"
    np.savez(path, plain=np.arange(3), other=array)
    arrays = read_arrays(path)
    assert same_arrays(arrays, path)
    assert not any(array.flags.writeable for array in arrays.values())


def test_no_pickle_is_ever_read(tmp_path):
    path = tmp_path / "objects.npz"
    np.savez(path, objects=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ValueError, match="allow_pickle"):
        read_arrays(path)
