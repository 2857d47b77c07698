"""A v2 date on a live server (gunicorn, 2 workers, their reveal threads cutting the
checkpoints): a witness cosigns through the API, then verify.py, `yacht-daily verify` and the
Verify page check the game live from the server — ledger, log, receipt, inclusion,
consistency, close = reveal root, cosignatures — before and after the reveal."""

import subprocess
import sys
import time

import pytest
from playwright.sync_api import expect

from tests.app.logplay import Witness
from tests.web.test_verify import failed, play_through_the_api, verify

DAY_FORMAT = "2"  # the web_server fixture starts this module's dates in v2
PLAY_DATE = "2026-03-10"
AFTER_MINUTE = "2026-03-10T12:02:00Z"
AFTER_REVEAL = "2026-03-11T14:00:00Z"
WAIT_SECONDS = 60


@pytest.fixture(scope="module")
def witness(web_server):
    """A witness the server trusts (its key in the data directory's witnesses.txt)."""
    witness = Witness()
    (web_server.data_dir / "witnesses.txt").write_text(witness.vkey + "\n")
    return witness


def wait_for(client, path: str, ready) -> dict:
    """GET ``path`` until ``ready(answer)``; the answer."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        status, _, answer = client.get(path)
        if status == 200 and ready(answer):
            return answer
        assert time.monotonic() < deadline, (path, status, answer)
        time.sleep(0.2)


def cosign_latest(client, witness: Witness, ruleset: str) -> None:
    """The witness cosigns the log's latest checkpoint."""
    note = client.get(f"/api/v1/logs/{PLAY_DATE}/{ruleset}/checkpoint")[2]["note"]
    body = note[:note.rindex("\n\n") + 1]
    status, _, answer = client.post(f"/api/v1/logs/{PLAY_DATE}/{ruleset}/cosignatures",
                                    {"body": body, "signature": witness.line(body)})
    assert (status, answer) == (201, {"ok": True})


def run(*command) -> subprocess.CompletedProcess:
    """A verifier's run."""
    return subprocess.run([sys.executable, *command], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def logged_game(web_server, witness):
    """A finished Yahtzee game, its minute's checkpoint cut and cosigned, then the reveal."""
    client = web_server.client()
    game = play_through_the_api(client, "yahtzee")
    assert game["receipt"]["index"] == 0
    web_server.set_clock(AFTER_MINUTE)
    wait_for(client, f"/api/v1/logs/{PLAY_DATE}/yahtzee",
             lambda log: len(log["checkpoints"]) == 1)
    cosign_latest(client, witness, "yahtzee")
    url = web_server.url
    before = run("app/static/verify.py", "log", "--url", url, "--date", PLAY_DATE,
                 "--sheet", "yahtzee", "--witness", witness.vkey)
    assert before.returncode == 0, before.stdout + before.stderr
    assert "✓ log close: not revealed yet" in before.stdout  # the close is still to come
    assert "✓ cosignatures" in before.stdout
    web_server.set_clock(AFTER_REVEAL)
    web_server.wait_for_reveal(PLAY_DATE)
    wait_for(client, "/api/v1/logs", lambda _: True)
    cosign_latest(client, witness, "yahtzee")
    return game


def test_both_command_line_verifiers_check_the_day_live(web_server, witness, logged_game):
    """After the reveal, verify.py and yacht-daily verify check the log, the final transcripts
    and the game's receipt in it from the URL alone, with the witness required."""
    url, vkey = web_server.url, witness.vkey
    standalone = run("app/static/verify.py", "log", "--url", url, "--date", PLAY_DATE,
                     "--sheet", "yahtzee", "--witness", vkey, "--game", logged_game["id"])
    assert standalone.returncode == 0, standalone.stdout + standalone.stderr
    core = run("-c", "from app.cli.main import main; main()", "verify", "log", "--url", url,
               "--date", PLAY_DATE, "--sheet", "yahtzee", "--witness", vkey,
               "--game", logged_game["id"])
    assert core.returncode == 0, core.stdout + core.stderr
    checked = [line.split(":")[0] for line in standalone.stdout.splitlines() if ":" in line]
    assert {"✓ log close", "✓ final transcripts", "✓ receipt in log", "✓ cosignatures"} <= \
        set(checked)
    day = run("app/static/verify.py", "day", url, PLAY_DATE, "yahtzee")
    assert day.returncode == 0, day.stdout + day.stderr


def test_the_verify_page_finds_a_v2_game_in_its_log(page, logged_game):
    """Every check passes in the browser, the receipt's place in the log included."""
    checks = verify(page, logged_game["id"])
    assert "receipt in log" in checks
    assert failed(checks) == set()
    expect(page.locator("[data-verdict]")).to_have_class("verdict ok")
