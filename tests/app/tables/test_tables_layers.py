"""The tables feature's layers: below its edge (its routes, its pages and the package's
``init_app``) no module of it imports the API, and the layers it builds on (the match engine in
app/play, the API, the pages, storage, the ledger) import nothing of it."""

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[3] / "app"
EDGE = {"__init__.py", "routes.py", "pages.py"}


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or in a function (``from a import b``
    counts as ``a`` and ``a.b``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def imports_of(path: Path, package: str) -> list[str]:
    """The modules of ``package`` that ``path`` imports."""
    return sorted(name for name in imported(path)
                  if name == package or name.startswith(f"{package}."))


def test_below_its_edge_the_tables_import_nothing_of_the_api():
    below = [path for path in (APP / "tables").glob("*.py") if path.name not in EDGE]
    assert len(below) >= 9
    assert {path.name: imports_of(path, "app.api") for path in below
            if imports_of(path, "app.api")} == {}


@pytest.mark.parametrize("layer", ["play", "api", "web", "storage", "ledger"])
def test_the_layers_the_tables_build_on_import_nothing_of_them(layer):
    assert {str(path.relative_to(APP)): imports_of(path, "app.tables")
            for path in (APP / layer).rglob("*.py")
            if imports_of(path, "app.tables")} == {}
