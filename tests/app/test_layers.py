"""The shell's layers, read from the code's own imports: the platform imports no feature; below
its edge (its routes, pages, OpenAPI part and package ``init_app``) a feature imports nothing of
the edge (the API, the pages, the wiring, observability, the command line); no module imports
itself back through others; the core imports nothing of the shell."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
FEATURES = ["daily", "players", "boards", "coach", "matches", "tables", "ledger", "daylog",
            "witness", "groups", "servicelog"]
EDGE_FILES = {"__init__.py", "routes.py", "pages.py", "openapi.py"}
EDGE_PACKAGES = ["app.api", "app.web", "app.services", "app.observability", "app.cli"]


def module_name(path: Path) -> str:
    """``app/daily/service.py`` → ``app.daily.service``; a package's ``__init__`` → the
    package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_files(folder: Path) -> list[Path]:
    """The Python source files under ``folder`` (the generated verifier aside)."""
    return [path for path in folder.rglob("*.py") if "static" not in path.parts]


MODULES = {module_name(path): path for path in python_files(APP)}


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or in a function, not under
    ``TYPE_CHECKING``; ``from a import b`` is ``a.b`` when that is a module, else ``a``."""
    tree = ast.parse(path.read_text())
    typing_only = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
                   and ast.unparse(block.test).endswith("TYPE_CHECKING")
                   for node in ast.walk(block)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                found.add(dotted if dotted in MODULES else node.module)
    return found


IMPORTS = {name: {target for target in imported(path) if target in MODULES}
           for name, path in MODULES.items()}


def inside(name: str, package: str) -> bool:
    """True when module ``name`` is ``package`` or lies under it."""
    return name == package or name.startswith(f"{package}.")


def test_the_platform_imports_no_feature_and_nothing_of_the_edge():
    platform = {name: sorted(target for target in targets
                             if not inside(target, "app.platform") and target != "app.config")
                for name, targets in IMPORTS.items() if inside(name, "app.platform")}
    assert len(platform) >= 6
    assert {name: targets for name, targets in platform.items() if targets} == {}


@pytest.mark.parametrize("feature", FEATURES)
def test_below_its_edge_a_feature_imports_nothing_of_the_edge(feature):
    below = {name: sorted(target for target in IMPORTS[name]
                          if any(inside(target, edge) for edge in EDGE_PACKAGES))
             for name, path in MODULES.items()
             if inside(name, f"app.{feature}") and path.name not in EDGE_FILES}
    assert below, f"app/{feature} has modules below its edge"
    assert {name: targets for name, targets in below.items() if targets} == {}


def cycles() -> list[list[str]]:
    """Every strongly connected set of two or more modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for target in IMPORTS[name]:
            if target not in index:
                visit(target)
                low[name] = min(low[name], low[target])
            elif target in on_stack:
                low[name] = min(low[name], index[target])
        if low[name] == index[name]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == name:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for name in sorted(IMPORTS):
        if name not in index:
            visit(name)
    return found


def test_no_module_imports_itself_back():
    assert cycles() == []


def test_the_cycle_finder_finds_a_cycle():
    IMPORTS_BEFORE = dict(IMPORTS)
    try:
        IMPORTS["app.platform.clock"] = IMPORTS["app.platform.clock"] | {"app.config"}
        IMPORTS["app.config"] = IMPORTS["app.config"] | {"app.platform.clock"}
        assert ["app.config", "app.platform.clock"] in cycles()
    finally:
        IMPORTS.clear()
        IMPORTS.update(IMPORTS_BEFORE)


@pytest.mark.parametrize("core", ["fairness", "strategy", "verifier"])
def test_the_core_imports_nothing_of_the_shell(core):
    shell = {str(path.relative_to(ROOT)) for path in python_files(ROOT / core)
             if any(inside(target, "app") for target in imported(path))}
    assert shell == set()
