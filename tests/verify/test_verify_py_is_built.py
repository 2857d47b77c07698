"""app/static/verify.py is built from the sources by scripts/build_verify.py: the committed file
is exactly what they build now, the same sources always build the same bytes, and unzipped it
holds those very sources."""

import importlib.util
import io
import shutil
import zipfile

import pytest

from tests.verify.conftest import ROOT, VERIFY_PY


@pytest.fixture(scope="module")
def build_verify():
    """scripts/build_verify.py as a module."""
    spec = importlib.util.spec_from_file_location("build_verify",
                                                  ROOT / "scripts" / "build_verify.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_verify_py_is_built_from_the_sources(build_verify):
    """Rebuilt in memory, byte for byte the committed file."""
    assert VERIFY_PY.read_bytes() == build_verify.build(), \
        "app/static/verify.py is out of date: run scripts/build_verify.py (make verify-py)"


def test_it_holds_the_sources_as_they_are(build_verify):
    """Each file in the archive is its source file, unchanged."""
    with zipfile.ZipFile(io.BytesIO(VERIFY_PY.read_bytes())) as archive:
        held = {name: archive.read(name) for name in archive.namelist()}
    assert held == dict(build_verify.sources())
    assert held["__main__.py"] == (ROOT / "verifier" / "__main__.py").read_bytes()
    assert held["fairness/audit/day.py"] == (ROOT / "fairness" / "audit" / "day.py").read_bytes()


def test_the_same_sources_build_the_same_bytes(build_verify, tmp_path):
    """A copy of the sources elsewhere, with other file times and caches beside them, builds
    the very same bytes; a changed source builds other bytes."""
    for package in build_verify.PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package)
    (tmp_path / "fairness" / "__pycache__").mkdir(exist_ok=True)
    (tmp_path / "fairness" / "__pycache__" / "stale.cpython-311.pyc").write_bytes(b"\0")
    assert build_verify.build(tmp_path) == build_verify.build()
    rules = tmp_path / "fairness" / "rules.py"
    rules.write_text(rules.read_text() + "\n")
    assert build_verify.build(tmp_path) != build_verify.build()


def test_the_check_mode_says_when_it_is_stale(build_verify, monkeypatch, tmp_path, capsys):
    """``--check`` exits 0 on the committed file, 1 (naming the script) on a stale one."""
    assert build_verify.main(["--check"]) == 0
    stale = tmp_path / "verify.py"
    stale.write_bytes(VERIFY_PY.read_bytes()[:-1])
    monkeypatch.setattr(build_verify, "TARGET", stale)
    monkeypatch.setattr(build_verify, "ROOT", tmp_path)
    assert build_verify.main(["--check"]) == 1
    assert "run scripts/build_verify.py" in capsys.readouterr().err
