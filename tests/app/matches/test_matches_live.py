"""A match played on a live ``yacht-daily serve`` verifies with the standalone verify.py from
its URL alone: every check with the venv's Python, every roll and score on a bare Python."""

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from matchkit import create, play_to_end

pytestmark = pytest.mark.own_redis  # live servers on their own Redis

VERIFY_PY = Path(__file__).resolve().parents[3] / "app" / "static" / "verify.py"


def test_a_match_against_two_bots_verifies_from_its_url(live_server):
    player = live_server.client()
    final = play_to_end(player, create(player, "yahtzee", bots=["medium", "perfect"]),
                        random.Random(7))
    url = f"{live_server.url}/api/v1/matches/{final['id']}"
    done = subprocess.run([sys.executable, str(VERIFY_PY), "match", url], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "✓ match signature" in done.stdout and "✓ seat 2 total" in done.stdout
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is not None:  # no site packages: no signature check (exit 3), every roll still
        bare = subprocess.run([python, "-I", "-S", str(VERIFY_PY), "match", url],
                              capture_output=True, text=True, timeout=120, check=False)
        assert bare.returncode in (0, 3), bare.stdout + bare.stderr
        assert "✓ seat 0 total" in bare.stdout and "✗" not in bare.stdout
