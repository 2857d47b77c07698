"""Build app/static/verify.py, the standalone verifier players download, from the sources.

Usage (from the repository root):

    make verify-py                            # rewrite app/static/verify.py
    .venv/bin/python scripts/build_verify.py  # the same
    .venv/bin/python scripts/build_verify.py --check   # exit 1 if the file is out of date

verify.py is one file Python runs directly: a "#!/usr/bin/env python3" line, then a zip archive
(PEP 441, what ``zipapp`` writes) of the core ``fairness/`` and the verifier's shell
``verifier/``, whose ``__main__.py`` runs first. ``python3 verify.py …`` runs it,
``python3 -m zipfile -l verify.py`` lists it, unzipping it gives the sources it runs.

The archive is a function of the sources alone: the .py files of both packages (nothing else:
no caches) in path order, stored uncompressed (no compressor's version can change its bytes),
each with the same fixed time and permissions. tests/verify/test_verify_py_is_built.py builds it
in memory and compares it with the committed file, so it can never drift from the sources.
"""

import argparse
import io
import stat
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "app" / "static" / "verify.py"
PACKAGES = ("fairness", "verifier")
ENTRY_POINT = Path("verifier", "__main__.py")  # also the archive's own __main__.py
SHEBANG = b"#!/usr/bin/env python3\n"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
FILE_MODE = stat.S_IFREG | 0o644


def sources(root: Path = ROOT) -> list[tuple[str, bytes]]:
    """(path in the archive, content) of every file the verifier runs, in path order: the
    entry point first, then each package's .py files."""
    files = [("__main__.py", (root / ENTRY_POINT).read_bytes())]
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files.append((path.relative_to(root).as_posix(), path.read_bytes()))
    return files


def build(root: Path = ROOT) -> bytes:
    """The bytes of verify.py for the sources under ``root``."""
    buffer = io.BytesIO()
    buffer.write(SHEBANG)
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, content in sources(root):
            entry = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            entry.external_attr = FILE_MODE << 16
            entry.create_system = 3  # Unix, so that the permissions above are read as such
            archive.writestr(entry, content)
    return buffer.getvalue()


def main(argv=None) -> int:
    """Write verify.py (or, with --check, say whether the committed one is up to date)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if app/static/verify.py is not what the sources build")
    args = parser.parse_args(argv)
    built = build()
    if args.check:
        if TARGET.read_bytes() != built:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run scripts/build_verify.py",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_bytes(built)
    TARGET.chmod(0o755)  # runnable as ./verify.py too
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(built)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
