"""The whole path against a live ``yacht-daily serve``: play, let the day be revealed, then
verify it from the outside with ``verify.py`` (as a player runs it) and ``yacht-daily verify``,
and see a tampered download fail. ``POST /api/v1/verify`` must say what the script says."""

import json
import os
import pty
import random
import urllib.request

import pytest
from click.testing import CliRunner

from app.cli.main import main
from tests.app.playkit import call, next_move, play_to_end, start
from tests.verify.conftest import printed, run_verify_py
from tests.verify.published_server import PublishedServer

PLAY_DATE = "2026-03-10"  # the live server's first clock is noon UTC that day
AFTER_REVEAL = "2026-03-11T14:00:00Z"  # ended everywhere at 12:00Z, + 1 h grace + 1 min


@pytest.fixture(scope="module")
def revealed(make_live_server):
    """A live server whose PLAY_DATE has finished games on two sheets (and an abandoned one),
    revealed: (server, finished game states)."""
    server = make_live_server()
    rng = random.Random(11)
    finished = []
    for _ in range(3):
        player = server.client()
        for ruleset in ("yahtzee", "yacht"):
            finished.append(play_to_end(player, start(player, ruleset, PLAY_DATE), rng))
    quitter = server.client()
    state = start(quitter, "yahtzee", PLAY_DATE)
    for _ in range(4):
        action, body = next_move(state, rng)
        status, answer = call(quitter, "POST", f"/games/{state['id']}/{action}", body)
        assert status == 200, answer
        state = answer["game"]
    server.set_clock(AFTER_REVEAL)
    server.wait_for_reveal(PLAY_DATE)
    return server, finished


def download(server, path: str, target):
    """Save one API document to a file, as a player would; returns its JSON."""
    with urllib.request.urlopen(server.url + "/api/v1" + path, timeout=30) as response:
        document = json.loads(response.read())
    target.write_text(json.dumps(document))
    return document


def test_verify_py_game_holds(revealed):
    """``verify.py game URL ID``: every check holds, exit 0, one line per check."""
    server, finished = revealed
    for state in finished[:2]:
        done = run_verify_py("game", server.url, state["id"])
        assert done.returncode == 0, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert lines[-1].startswith("All ") and lines[-1].endswith(" checks hold.")
        assert all(line.startswith("✓ ") for line in lines[:-1])
        names = {line[2:].split(":")[0] for line in lines[:-1]}
        assert {"ledger links", "seed chains", "seed successions", "total", "transcript hash",
                "receipt signature", "inclusion proof", "box sixes"} <= names


@pytest.mark.parametrize("sheet", ["yahtzee", "yacht", "yacht-bonus"])
def test_verify_py_day_holds(revealed, sheet):
    """``verify.py day URL DATE SHEET``: all games, the root, the count and the leaderboard."""
    server, finished = revealed
    done = run_verify_py("day", server.url, PLAY_DATE, sheet)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
    count = sum(1 for state in finished if state["ruleset"] == sheet)
    assert f"✓ game count: {count} receipts = reveal games[{sheet}] {count}" in done.stdout
    assert "✓ merkle root:" in done.stdout and "✓ leaderboard:" in done.stdout


def test_verify_py_day_shows_progress_on_a_terminal(revealed):
    """On a terminal, the day audit draws a progress bar on stderr."""
    server, _ = revealed
    controller, terminal = pty.openpty()
    try:
        done = run_verify_py("day", server.url, PLAY_DATE, "yahtzee", stderr=terminal)
        os.close(terminal)
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(controller)
    assert done.returncode == 0, done.stdout
    assert b"] 4/4 games" in drawn and b"[####" in drawn


def test_verify_py_says_when_signatures_are_not_checked(revealed, tmp_path):
    """Without ``cryptography`` the signatures are reported NOT checked, never as ✓."""
    server, finished = revealed
    blocked = tmp_path / "cryptography"
    blocked.mkdir()
    (blocked / "__init__.py").write_text("raise ImportError('not installed for this test')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = run_verify_py("game", server.url, finished[0]["id"], env=env)
    assert done.returncode == 3, done.stdout
    assert "- receipt signature: NOT checked" in done.stdout
    assert "- ledger signatures: NOT checked" in done.stdout
    assert "✓ receipt signature" not in done.stdout
    assert "NOT fully verified" in done.stdout.splitlines()[-1]


def test_downloaded_files_verify_and_a_tampered_one_fails(revealed, tmp_path):
    """``verify.py files``: 0 on the downloads; 1 once a die or a seed is changed, naming it."""
    server, finished = revealed
    game_id = finished[0]["id"]
    ledger = download(server, "/ledger", tmp_path / "ledger.json")
    game = download(server, f"/games/{game_id}", tmp_path / "game.json")
    download(server, f"/games/{game_id}/proof", tmp_path / "proof.json")
    arguments = ["files", "--ledger", str(tmp_path / "ledger.json"), "--receipt",
                 str(tmp_path / "game.json"), "--transcript", str(tmp_path / "game.json"),
                 "--proof", str(tmp_path / "proof.json")]
    assert run_verify_py(*arguments).returncode == 0

    roll = game["game"]["transcript"][0]
    roll["dice"][2] = roll["dice"][2] % 6 + 1
    (tmp_path / "game.json").write_text(json.dumps(game))
    done = run_verify_py(*arguments)
    assert done.returncode == 1
    assert "✗ roll 0: stream dice 0–4 give" in done.stdout
    assert "✗ transcript hash:" in done.stdout

    roll["dice"][2] = (roll["dice"][2] - 2) % 6 + 1  # back to the original die
    (tmp_path / "game.json").write_text(json.dumps(game))
    reveal = next(e for e in ledger["entries"] if e.get("date") == PLAY_DATE)
    reveal["seed"] = reveal["seed"][:-1] + ("0" if reveal["seed"][-1] != "0" else "1")
    (tmp_path / "ledger.json").write_text(json.dumps(ledger))
    done = run_verify_py(*arguments)
    assert done.returncode == 1
    assert f"✗ seed chains: entry {reveal['seq']}: seed {reveal['seed']}" in done.stdout


def test_an_unrevealed_day_cannot_be_read(revealed):
    """A date not revealed yet: the script says it cannot read the data (exit 2)."""
    server, _ = revealed
    done = run_verify_py("day", server.url, "2026-03-12", "yahtzee")
    assert done.returncode == 2
    assert "cannot read the published data" in done.stderr
    assert "HTTP 404: 2026-03-12 is not revealed yet." in done.stderr


def test_yacht_daily_verify_command(revealed, tmp_path):
    """``yacht-daily verify game|day|files`` run the core's audit with the same lines."""
    server, finished = revealed
    runner = CliRunner()
    game_id = finished[1]["id"]
    result = runner.invoke(main, ["verify", "game", server.url, game_id])
    assert result.exit_code == 0, result.output
    standalone = run_verify_py("game", server.url, game_id)
    assert result.output.splitlines() == standalone.stdout.splitlines()

    result = runner.invoke(main, ["verify", "day", server.url, PLAY_DATE, "yacht"])
    assert result.exit_code == 0, result.output
    assert "✓ leaderboard:" in result.output

    game = download(server, f"/games/{game_id}", tmp_path / "game.json")
    download(server, "/ledger", tmp_path / "ledger.json")
    game["game"]["receipt"]["total"] += 1
    (tmp_path / "game.json").write_text(json.dumps(game))
    result = runner.invoke(main, ["verify", "files", "--ledger", str(tmp_path / "ledger.json"),
                                  "--receipt", str(tmp_path / "game.json"),
                                  "--transcript", str(tmp_path / "game.json")])
    assert result.exit_code == 1
    assert "✗ total: recomputed" in result.output and "✗ receipt signature" in result.output


def test_the_verify_endpoint_says_what_the_script_says(revealed):
    """``POST /api/v1/verify`` and verify.py on the same game give the very same checks."""
    server, finished = revealed
    game_id = finished[2]["id"]
    status, answer = call(server.client(), "POST", "/verify", {"game": game_id})
    assert status == 200, answer
    assert answer["ok"] is True
    done = run_verify_py("game", server.url, game_id)
    assert done.returncode == 0, done.stdout + done.stderr
    assert printed([(c["name"], c["ok"], c["detail"]) for c in answer["checks"]]) == \
        done.stdout.splitlines()


def copied_day(server, sheet: str, page_size: int) -> PublishedServer:
    """A server publishing what ``verify.py day --page-size N`` reads of the live server's
    (date, sheet), copied as served: the ledger, the leaderboard, each page of the day."""
    copy = PublishedServer()

    def copied(path: str) -> str:
        """The live server's text at ``path``, published again as it is."""
        with urllib.request.urlopen(server.url + "/api/v1" + path, timeout=30) as response:
            text = response.read().decode("utf-8")
        copy.publish(path, text)
        return text

    copied("/ledger")
    copied(f"/leaderboard/{PLAY_DATE}/{sheet}?limit=100")
    path, after = f"/days/{PLAY_DATE}/{sheet}/games?limit={page_size}", None
    while True:
        after = json.loads(copied(path if after is None else f"{path}&after={after}"))["next"]
        if after is None:
            return copy


def test_verify_py_day_reads_the_day_page_by_page(revealed):
    """With one game a page, verify.py follows every ``next`` cursor and prints exactly what it
    prints when one page holds the whole day."""
    server, _ = revealed
    whole = run_verify_py("day", server.url, PLAY_DATE, "yahtzee")
    copy = copied_day(server, "yahtzee", 1)
    try:
        paged = run_verify_py("day", copy.url, PLAY_DATE, "yahtzee", "--page-size", "1")
    finally:
        copy.close()
    assert (whole.returncode, paged.returncode) == (0, 0), paged.stdout + paged.stderr
    assert paged.stdout == whole.stdout
    pages = [path for path in copy.requested
             if path.startswith(f"/api/v1/days/{PLAY_DATE}/yahtzee/games")]
    assert len(pages) == 4  # three finished games and an abandoned one
    assert pages[0] == f"/api/v1/days/{PLAY_DATE}/yahtzee/games?limit=1"
    cursors = [path.split("&after=")[1] for path in pages[1:]]
    assert cursors == sorted(cursors) and len(set(cursors)) == 3


def tamper_later_page(copy: PublishedServer, chosen, change, **dumps) -> str:
    """Apply ``change`` to the first game ``chosen`` accepts from the day's third page on (the
    pages in cursor order), that page published again as ``json.dumps(page, **dumps)``; the
    changed game's id."""
    pages = sorted((path for path in copy.documents if "&after=" in path),
                   key=lambda path: path.split("&after=")[1])
    for path in pages[1:]:
        page = json.loads(copy.documents[path])
        games = [game for game in page["games"] if chosen(game)]
        if games:
            change(games[0])
            copy.documents[path] = json.dumps(page, **dumps)
            return games[0]["id"]
    raise AssertionError("no game to change from the third page on")


def test_verify_py_day_fails_on_a_tampered_later_page(revealed):
    """A total changed on a later page of a paged audit (the third or after) is caught: ✗ totals,
    exit 1. (Game ids are random, so the third game may be the day's abandoned one: the first
    finished game from the third page on is changed.)"""
    server, _ = revealed
    copy = copied_day(server, "yahtzee", 1)

    def add_a_point(game: dict) -> None:
        game["receipt"]["total"] += 1

    changed = tamper_later_page(copy, lambda game: game["receipt"], add_a_point)
    try:
        done = run_verify_py("day", copy.url, PLAY_DATE, "yahtzee", "--page-size", "1")
    finally:
        copy.close()
    assert done.returncode == 1, done.stdout + done.stderr
    assert any(line.startswith(f"✗ totals: game {changed}: recomputed")
               for line in done.stdout.splitlines()), done.stdout


def test_both_verifiers_fail_on_a_transcript_tampered_on_a_later_page(revealed):
    """A roll's dice changed in a transcript from the third page on, the page written as the service
    writes it (compact, keys sorted: read by the pages' fast path, the day's replay then at
    work): verify.py and ``yacht-daily verify day`` both say ✗ games replayed for that game."""
    server, _ = revealed
    copy = copied_day(server, "yahtzee", 1)

    def change_a_die(game: dict) -> None:
        dice = game["transcript"][0]["dice"]
        dice[0] = dice[0] % 6 + 1

    changed = tamper_later_page(copy, lambda game: game["transcript"], change_a_die,
                                separators=(",", ":"), sort_keys=True)
    try:
        standalone = run_verify_py("day", copy.url, PLAY_DATE, "yahtzee", "--page-size", "1")
        command = CliRunner().invoke(main, ["verify", "day", copy.url, PLAY_DATE, "yahtzee",
                                            "--page-size", "1"])
    finally:
        copy.close()
    assert standalone.returncode == 1, standalone.stdout + standalone.stderr
    assert command.exit_code == 1, command.output
    for printed_lines in (standalone.stdout.splitlines(), command.output.splitlines()):
        assert any(line.startswith("✗ games replayed") and changed in line
                   for line in printed_lines), printed_lines


def test_yacht_daily_verify_day_pages_say_what_verify_py_says(revealed):
    """``yacht-daily verify day --page-size 1`` prints verify.py's very lines."""
    server, _ = revealed
    result = CliRunner().invoke(main, ["verify", "day", server.url, PLAY_DATE, "yahtzee",
                                       "--page-size", "1"])
    assert result.exit_code == 0, result.output
    standalone = run_verify_py("day", server.url, PLAY_DATE, "yahtzee", "--page-size", "2")
    assert result.output.splitlines() == standalone.stdout.splitlines()


def epoch_key(server) -> tuple[int, str]:
    """The number and public key of the server's (only) epoch entry."""
    _, ledger = call(server.client(), "GET", "/ledger")
    [(number, key)] = [(e["epoch"], e["public_key"]) for e in ledger["entries"]
                       if "public_key" in e]
    return number, key


def test_an_expected_key_is_checked_against_the_epoch_entries(revealed, tmp_path):
    """``--expect-key``: ✓ for the recorded key; ✗ naming both keys for another, exit 1."""
    server, finished = revealed
    (number, key), other = epoch_key(server), "ab" * 32
    done = run_verify_py("game", server.url, finished[0]["id"], "--expect-key", key)
    assert done.returncode == 0, done.stdout
    assert f"✓ epoch {number} key: public_key {key} = a recorded key" in done.stdout.splitlines()
    done = run_verify_py("day", server.url, PLAY_DATE, "yacht", "--expect-key", other)
    assert done.returncode == 1, done.stdout
    assert f"✗ epoch {number} key: public_key '{key}' ≠ the recorded key {other}" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("FAILED: 1 of ")

    recorded = tmp_path / "keys.txt"
    recorded.write_text(f"{other}\n{key.upper()}\n")
    runner = CliRunner()
    result = runner.invoke(main, ["verify", "game", server.url, finished[0]["id"],
                                  "--expect-key", str(recorded)])
    assert result.exit_code == 0, result.output
    assert f"✓ epoch {number} key: public_key {key} = a recorded key" in result.output
    result = runner.invoke(main, ["verify", "day", server.url, PLAY_DATE, "yacht",
                                  "--expect-key", other])
    assert result.exit_code == 1
    assert f"✗ epoch {number} key: public_key '{key}' ≠ the recorded key {other}" in result.output
    assert result.output.splitlines() == done.stdout.splitlines()
