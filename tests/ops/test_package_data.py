"""The installed package carries every file the service reads beside its code: each feature's
templates, the static files, the compiled translations (a container installs the package from
what deploy/Dockerfile copies, not the checkout)."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COPIED = ["pyproject.toml", "README.md", "fairness", "strategy", "verifier", "app"]  # Dockerfile


def test_the_wheel_holds_every_template_static_file_and_catalogue(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in COPIED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "--wheel-dir", str(tmp_path), str(source)],
                   check=True, capture_output=True, timeout=300)
    wheel, = tmp_path.glob("*.whl")
    packaged = set(zipfile.ZipFile(wheel).namelist())
    needed = {str(path.relative_to(ROOT)) for pattern in
              ("app/**/templates/**/*.html", "app/static/**/*", "app/translations/**/*.mo")
              for path in ROOT.glob(pattern) if path.is_file()}
    assert any("/tables/templates/" in name for name in needed)
    assert sorted(needed - packaged) == []
