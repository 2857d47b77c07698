"""A real witness through a whole date: ``yacht-daily witness --once`` (a subprocess, as a third
party runs it) beside a live ``yacht-daily serve`` on a test clock — the date opens, games
finish, checkpoints are cut, the date closes and is revealed. Its cosignatures are served, and
all three verifiers, told to require it (``--witness``), hold; requiring a witness that never
cosigned fails. Then a fork — a second checkpoint of the same size signed with the epoch key,
served by a machine in the middle — is refused and reported, its evidence kept."""

import random
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives import serialization
from logserver import LogServer, forged_same_size
from witnessing import WitnessRun

from app.cli.main import main
from app.ledger.secrets import SIGNING_KEY_FILE
from fairness.checkpoint import parse_checkpoint
from fairness.note import parse_note
from tests.app.playkit import PLAY_DATE, call, next_move, play_to_end, start
from tests.verify.conftest import VERIFY_PY, NodeRunner, find_node

CUT_WAIT_SECONDS = 30
AFTER_CLOSE = "2026-03-11T14:00:00Z"  # closed at 13:00Z (12:00Z + 1 h grace), revealed 13:01Z
OTHER_WITNESS = "witness.example/w2+20fc3ed5+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


def latest_size(server, sheet: str) -> int | None:
    """The size of the log's latest checkpoint, or None before the first."""
    status, _, answer = server.client().get(f"/api/v1/logs/{PLAY_DATE}/{sheet}/checkpoint")
    if status == 404:
        return None
    assert status == 200, answer
    return parse_checkpoint(parse_note(answer["note"])[0]).size


def wait_for_size(server, sheet: str, size: int) -> None:
    """Until the server's worker threads have cut a checkpoint of ``size`` games."""
    deadline = time.monotonic() + CUT_WAIT_SECONDS
    while latest_size(server, sheet) != size:
        assert time.monotonic() < deadline, f"no checkpoint of {size} {sheet} games"
        time.sleep(0.2)


def finish(server, sheet: str, seed: int) -> dict:
    """One new player finishes a game."""
    player = server.client()
    return play_to_end(player, start(player, sheet, PLAY_DATE), random.Random(seed))


def statuses(done: subprocess.CompletedProcess) -> dict[str, str]:
    """The status of each PLAY_DATE log in a witness's pass, by sheet (other dates open or
    recently closed are listed too)."""
    found = {}
    for line in done.stdout.splitlines()[1:]:  # after "witness <vkey>"
        _, _, rest = line.split(" ", 2)  # time, mark, then "<status> <origin>: <detail>"
        status = next(s for s in ("cosigned", "up to date", "no checkpoint", "refused", "error")
                      if rest.startswith(s + " "))
        where = rest[len(status) + 1:].split(": ", 1)[0].split("/")
        if where[-2] == PLAY_DATE:
            found[where[-1]] = status
    return found


@pytest.fixture(scope="module")
def witnessed(make_live_server, tmp_path_factory):
    """A v2 date witnessed from its first checkpoint to its close: (server, witness, vkey)."""
    folder = tmp_path_factory.mktemp("witness")
    witness = WitnessRun(folder / "key.pem", folder / "state.json")
    vkey = witness.create_key()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("YACHT_DAILY_WITNESSES", vkey)
        server = make_live_server(day_format="2")
    witness.clock_file = server.clock_file  # the witness's clock agrees with the server's
    first = witness.once(server.url)
    assert first.returncode == 0, first.stdout + first.stderr
    assert statuses(first) == {}  # /logs lists a log once it has a checkpoint

    finish(server, "yahtzee", 1), finish(server, "yahtzee", 2), finish(server, "yacht", 3)
    server.set_clock("2026-03-10T12:01:00Z")
    wait_for_size(server, "yahtzee", 2), wait_for_size(server, "yacht", 1)
    second = witness.once(server.url)
    assert second.returncode == 0, second.stdout + second.stderr
    assert statuses(second) == {"yahtzee": "cosigned", "yacht": "cosigned"}

    finish(server, "yahtzee", 4)
    quitter = server.client()
    state = start(quitter, "yahtzee", PLAY_DATE)
    action, body = next_move(state, random.Random(5))
    assert call(quitter, "POST", f"/games/{state['id']}/{action}", body)[0] == 200
    server.set_clock("2026-03-10T12:02:00Z")
    wait_for_size(server, "yahtzee", 3)
    third = witness.once(server.url)
    assert third.returncode == 0, third.stdout + third.stderr
    assert statuses(third)["yahtzee"] == "cosigned" and "size 3" in third.stdout
    assert statuses(third)["yacht"] == "up to date"

    server.set_clock(AFTER_CLOSE)
    server.wait_for_reveal(PLAY_DATE)
    closing = witness.once(server.url)
    assert closing.returncode == 0, closing.stdout + closing.stderr
    assert statuses(closing) == dict.fromkeys(("yacht", "yacht-bonus", "yahtzee"), "cosigned")
    return server, witness, vkey


def test_the_witness_state_follows_the_log(witnessed):
    """Per origin: the close it accepted and cosigned; nothing refused."""
    server, witness, _ = witnessed
    state = witness.read_state()
    assert state["refused"] == [] and len(state["epochs"]) == 1
    sizes = {origin.split("/")[-1]: accepted["size"] for origin, accepted in state["logs"].items()
             if origin.split("/")[-2] == PLAY_DATE}
    assert sizes == {"yahtzee": 3, "yacht": 1, "yacht-bonus": 0}
    assert all(accepted["cosigned"] for accepted in state["logs"].values())  # other dates too
    status, _, log = server.client().get(f"/api/v1/logs/{PLAY_DATE}/yahtzee")
    assert status == 200
    served = [parse_note(item["note"]) for item in log["checkpoints"]]
    assert sum(1 for _, signatures in served
               if any(s.name == witness.name for s in signatures)) == 3


@pytest.mark.parametrize("sheet", ["yahtzee", "yacht", "yacht-bonus"])
def test_both_command_lines_require_the_witness_live(witnessed, sheet):
    """``verify.py log --url`` and ``yacht-daily verify log --url`` with ``--witness``: every
    check holds, the cosignatures one included; adding a witness that never cosigned fails."""
    server, _, vkey = witnessed
    arguments = ["log", "--url", server.url, "--date", PLAY_DATE, "--sheet", sheet]
    for extra, status in ((["--witness", vkey], 0),
                          (["--witness", vkey, "--witness", OTHER_WITNESS], 1)):
        standalone = subprocess.run([sys.executable, str(VERIFY_PY), *arguments, *extra],
                                    capture_output=True, text=True, timeout=120, check=False)
        core = CliRunner().invoke(main, ["verify", *arguments, *extra])
        for code, output in ((standalone.returncode, standalone.stdout + standalone.stderr),
                             (core.exit_code, core.output)):
            assert code == status, output
            assert ("✓ cosignatures:" if status == 0 else "✗ cosignatures:") in output
            assert "✓ log close:" in output


def test_fairness_js_requires_the_witness_live(witnessed, tmp_path):
    """The browser's verifier on the same live log and ledger, the witness required."""
    node = find_node()
    if node is None:
        pytest.skip("Node >= 20 is needed to run app/static/js/fairness.js")
    server, _, vkey = witnessed
    client = server.client()
    entries = client.get("/api/v1/ledger")[2]["entries"]
    log = client.get(f"/api/v1/logs/{PLAY_DATE}/yahtzee")[2]
    job = {"ledger": entries, "date": PLAY_DATE, "ruleset": "yahtzee", "log": log}
    runner = NodeRunner(node, tmp_path)
    held, missing = runner.values([
        {"fn": "verifyLog", "args": [{**job, "witnesses": [vkey], "quorum": 1}]},
        {"fn": "verifyLog", "args": [{**job, "witnesses": [vkey, OTHER_WITNESS], "quorum": 2}]}])
    assert [check["ok"] for check in held] == [True] * len(held)
    assert held[-1]["name"] == "cosignatures"
    assert missing[-1]["name"] == "cosignatures" and missing[-1]["ok"] is False


def test_a_fork_shown_to_the_witness_is_refused_and_reported(witnessed):
    """A machine in the middle serves, for the yahtzee log, another checkpoint of the size the
    witness accepted, signed with the epoch key: exit 1, REFUSED on stderr, both notes kept,
    no cosignature posted; the other logs are still up to date."""
    server, witness, _ = witnessed
    epoch_key = serialization.load_pem_private_key(
        (server.data_dir / SIGNING_KEY_FILE).read_bytes(), password=None)
    path = f"/api/v1/logs/{PLAY_DATE}/yahtzee/checkpoint"
    honest = server.client().get(path)[2]["note"]
    middle = LogServer([], upstream=server.url)
    middle.overrides[path] = forged_same_size(honest, epoch_key)
    try:
        done = witness.once(middle.url)
    finally:
        middle.stop()
    assert done.returncode == 1, done.stdout + done.stderr
    assert statuses(done) == {"yahtzee": "refused", "yacht": "up to date",
                              "yacht-bonus": "up to date"}
    assert "REFUSED" in done.stderr and "fork" in done.stderr
    [evidence] = witness.read_state()["refused"]
    assert evidence["kind"] == "fork" and evidence["offered_note"] == middle.overrides[path]
    assert parse_note(evidence["accepted_note"])[0] == parse_note(honest)[0]
