"""The verifiers against a live server whose pages of a day's games are rate limited: both wait
out the 429 (its Retry-After) and finish the audit, as a big day's auditor would need."""

import random
import re
import subprocess
import sys
import urllib.request

from click.testing import CliRunner

from app.cli.main import main
from tests.app.playkit import play_to_end, start
from tests.verify.conftest import VERIFY_PY

PLAY_DATE = "2026-03-10"  # the live server's first clock is noon UTC that day
AFTER_REVEAL = "2026-03-11T14:00:00Z"
DAY_PAGES = "/api/v1/days/<date>/<ruleset>/games"


def refusals(server) -> float:
    """How many pages of a day's games the server has refused with 429 so far."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        text = response.read().decode()
    pattern = rf'yacht_daily_rate_limited_total\{{route="{re.escape(DAY_PAGES)}"\}} (\S+)'
    return sum(float(value) for value in re.findall(pattern, text))


def test_verifiers_wait_out_the_day_pages_rate_limit(make_live_server, monkeypatch):
    """One page a second allowed, one game a page: each verifier is refused at least once and
    still checks every game of the day (exit 0, every line a ✓)."""
    monkeypatch.setenv("YACHT_DAILY_RATE_LIMIT_DAY_GAMES", "1/second")
    server = make_live_server()
    rng = random.Random(5)
    for _ in range(2):
        player = server.client()
        play_to_end(player, start(player, "yacht", PLAY_DATE), rng)
    server.set_clock(AFTER_REVEAL)
    server.wait_for_reveal(PLAY_DATE)

    before = refusals(server)
    done = subprocess.run([sys.executable, str(VERIFY_PY), "day", server.url, PLAY_DATE, "yacht",
                           "--page-size", "1"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    checks = [line for line in done.stdout.splitlines() if line[:2] in ("✓ ", "✗ ")]
    assert checks and all(line.startswith("✓ ") for line in checks), done.stdout
    assert done.stdout.splitlines()[-1].startswith("All ")
    after_script = refusals(server)
    assert after_script > before

    result = CliRunner().invoke(main, ["verify", "day", server.url, PLAY_DATE, "yacht",
                                       "--page-size", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == done.stdout.splitlines()
    assert refusals(server) > after_script
