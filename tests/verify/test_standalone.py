"""verify.py is what a player downloads: one file Python runs, holding the core and the
verifier's shell, standard library only, not importing the rest of the project; fairness.js is
one ES module without dependencies."""

import ast
import io
import re
import subprocess
import sys
import zipfile

from tests.verify.conftest import ROOT, VERIFY_PY, run_verify_py

OWN_PACKAGES = {"fairness", "verifier"}
ENTRY_POINT_SYNTAX = (3, 6)  # the oldest Python that reads the entry point


def archive_sources() -> dict[str, str]:
    """Every file verify.py holds, by its name in the archive, as text."""
    with zipfile.ZipFile(io.BytesIO(VERIFY_PY.read_bytes())) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def test_verify_py_is_a_zip_archive_python_runs():
    """A "#!/usr/bin/env python3" line, then a zip archive starting with __main__.py; nothing
    in it but the two packages' Python sources."""
    data = VERIFY_PY.read_bytes()
    assert data.startswith(b"#!/usr/bin/env python3\n")
    assert zipfile.is_zipfile(io.BytesIO(data))
    names = list(archive_sources())
    assert names[0] == "__main__.py"
    assert {name.split("/")[0] for name in names[1:]} == OWN_PACKAGES
    assert all(name.endswith(".py") and "__pycache__" not in name for name in names)


def test_verify_py_imports_only_the_standard_library():
    """Standard library only (``cryptography`` is optional and guarded), its own two packages,
    never the rest of the project."""
    imported, guarded = set(), []
    for name, source in archive_sources().items():
        tree = ast.parse(source, name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                imported.add(node.module.split(".")[0])
            elif isinstance(node, ast.Try):
                guarded += [node for inner in ast.walk(node) if isinstance(inner, ast.ImportFrom)
                            and (inner.module or "").startswith("cryptography")]
    assert imported - set(sys.stdlib_module_names) - OWN_PACKAGES == {"cryptography"}
    assert guarded and all(handler.type.id == "ImportError"
                           for node in guarded for handler in node.handlers)


def test_an_old_python_is_told_which_it_needs():
    """The entry point parses on an old Python 3, which it stops with a message naming the
    version the core needs (exit 2); the current one runs the command line."""
    ast.parse(archive_sources()["__main__.py"], feature_version=ENTRY_POINT_SYNTAX)
    done = run_verify_py("--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: verify.py"), done.stderr


def test_verify_py_runs_on_a_bare_python(tmp_path):
    """No site packages (so no ``cryptography``), isolated from the environment: it still runs,
    from any folder."""
    done = run_verify_py("files", "--ledger", tmp_path / "missing.json", "--receipt", "x",
                         "--transcript", "y")
    bare = subprocess.run(
        [sys.executable, "-I", "-S", str(VERIFY_PY), "--help"], capture_output=True, text=True,
        cwd=tmp_path, timeout=60, check=False)
    assert bare.returncode == 0, bare.stderr
    assert done.returncode == 2 and "cannot read the published data" in done.stderr


def test_fairness_js_has_no_dependencies():
    """The browser's verifier imports nothing: it runs as served, with no build step."""
    source = (ROOT / "app" / "static" / "js" / "fairness.js").read_text()
    assert not re.search(r"^\s*import\b|\brequire\(", source, re.MULTILINE)
    assert "crypto.subtle" in source
