"""The arrays of an ``.npz`` file, read without building an AST when ``np.savez`` wrote them.

``np.load`` parses each array's header with ``ast.literal_eval``. On CPython before 3.11.8,
two threads building an AST at once can fail with a spurious ``SystemError`` ("AST
constructor recursion depth mismatch", python/cpython#106905) in either thread: a table read
by a background thread could break a request's template compilation, or the read itself. The
header ``np.savez`` writes for a plain C-ordered array has one fixed form, matched here
exactly; a file with any other header is read by ``np.load``.
"""

import math
import re
import zipfile
from pathlib import Path

import numpy as np

_MAGIC = b"\x93NUMPY"
# np.lib.format's header: a dict literal in this key order, padded with spaces to a newline
_PLAIN_HEADER = re.compile(r"\{'descr': '([<>|=]?[A-Za-z]\d+)', 'fortran_order': False, "
                           r"'shape': \(((?:\d+(?:, \d+)*,?)?)\), \} *\n")


class _NotPlain(ValueError):
    """A member whose header is not the fixed form: ``np.load`` reads the file."""


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` file at ``path`` by name, read-only; never a pickle."""
    try:
        with zipfile.ZipFile(path) as archive:
            return {name.removesuffix(".npy"): _plain_array(archive.read(name))
                    for name in archive.namelist()}
    except _NotPlain:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    for array in arrays.values():
        if not isinstance(array, np.ndarray):  # np.load gives a member that is not .npy as bytes
            raise ValueError(f"{path}: a member is not an .npy array")
        array.setflags(write=False)
    return arrays


def _plain_array(member: bytes) -> np.ndarray:
    """The array of one ``.npy`` member whose header has the fixed form, else _NotPlain."""
    if len(member) < 10 or member[:6] != _MAGIC or member[6] not in (1, 2, 3):
        raise _NotPlain("not an .npy member of a known version")
    size_bytes = 2 if member[6] == 1 else 4
    start = 8 + size_bytes
    end = start + int.from_bytes(member[8:start], "little")
    match = _PLAIN_HEADER.fullmatch(member[start:end].decode("latin-1"))
    if match is None:
        raise _NotPlain("not the header np.savez writes for a plain array")
    shape = tuple(int(size) for size in match[2].replace(",", " ").split())
    array = np.frombuffer(member, dtype=np.dtype(match[1]), count=math.prod(shape), offset=end)
    return array.reshape(shape)
