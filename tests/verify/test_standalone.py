"""verify.py is what a player downloads: one file, standard library only, Python >= 3.9, not
importing the project; fairness.js is one ES module without dependencies."""

import ast
import re
import sys

from tests.verify.conftest import ROOT, VERIFY_PY

OLDEST_PYTHON = (3, 9)


def test_verify_py_parses_as_python_3_9():
    """No syntax newer than the oldest Python players may have."""
    ast.parse(VERIFY_PY.read_text(), feature_version=OLDEST_PYTHON)


def test_verify_py_imports_only_the_standard_library():
    """Standard library only (``cryptography`` is optional and guarded), never the project."""
    tree = ast.parse(VERIFY_PY.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"cryptography"}
    guarded = [node for node in ast.walk(tree) if isinstance(node, ast.Try)
               and any(isinstance(n, ast.ImportFrom) and n.module.startswith("cryptography")
                       for n in ast.walk(node))]
    assert guarded and all(handler.type.id == "ImportError"
                           for node in guarded for handler in node.handlers)


def test_fairness_js_has_no_dependencies():
    """The browser's verifier imports nothing: it runs as served, with no build step."""
    source = (ROOT / "app" / "static" / "js" / "fairness.js").read_text()
    assert not re.search(r"^\s*import\b|\brequire\(", source, re.MULTILINE)
    assert "crypto.subtle" in source
