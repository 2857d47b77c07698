"""The forgeries of test_log_tamper on a log the service produced live (not the vectors'): a
whole v2 date played through the API over several minutes, an abandoned game, every checkpoint
cosigned through the API, revealed; then a game added at the reveal, a game dropped from a
checkpoint and a fork are caught alike by the core, fairness.js and verify.py. The service
signs with the vectors' public TEST key here, so that the kit can forge as the operator."""

import copy

import pytest
from cryptography.hazmat.primitives import serialization

from app.ledger.secrets import SIGNING_KEY_FILE
from fairness import checkpoint as tlog
from fairness import ledger, merkle
from tests.app.logplay import cosign_all, day_games, finish_games, run_pass
from tests.app.playkit import PLAY_DATE, app_on, call, start
from tests.verify.conftest import day_output
from tests.verify.logkit import (
    TEST_KEY,
    LogCase,
    body_of,
    checkpoint_of,
    leaf_hashes,
    resign_entry,
    sign_body,
)
from tests.verify.test_log_tamper import forged_game, reveal_with, run_all, same_names
from tests.verify.test_tamper import failing

RULESET = "yahtzee"


@pytest.fixture
def live_case(redis_client, redis_url, data_dir, clock, strategy_tables_dir, witness) -> LogCase:
    """A date played live on an app signing with the TEST key: two games finished in the first
    minute, one in each of the next two, one abandoned; cosigned, closed and revealed."""
    (data_dir / SIGNING_KEY_FILE).write_bytes(TEST_KEY.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    app = app_on(redis_url, data_dir, clock, DAY_FORMAT="2", WITNESSES=witness.vkey)
    finish_games(app, clock, 2, RULESET, seed=11, pause=20)  # 12:00:00 and 12:00:20
    clock.advance(seconds=30)
    run_pass(app)
    finish_games(app, clock, 2, RULESET, seed=12, pause=70)
    quitter = app.test_client()
    state = start(quitter, RULESET, PLAY_DATE)
    call(quitter, "POST", f"/games/{state['id']}/roll", {"hold": None, "roll": 0})
    clock.set("2026-03-11T13:02:00Z")
    assert run_pass(app).revealed[-1] == PLAY_DATE
    cosign_all(quitter, witness, RULESET)
    entries = call(quitter, "GET", "/ledger")[1]["entries"]
    log = call(quitter, "GET", f"/logs/{PLAY_DATE}/{RULESET}")[1]
    games = day_games(quitter, RULESET)
    assert sorted(g["status"] for g in games) == ["abandoned"] + ["finished"] * 4
    return LogCase(entries, PLAY_DATE, RULESET, log, [witness.vkey], 1, games,
                   [c["note"] for c in log["checkpoints"]])


def test_the_live_log_verifies_alike(live_case, verify_py, node):
    """The produced log, its final transcripts and the saved checkpoints hold, alike."""
    sizes = [tlog.parse_checkpoint(body_of(c["note"])).size
             for c in live_case.log["checkpoints"]]
    assert sizes[0] == 2 and sizes[-2:] == [4, 4]  # the close adds nothing
    assert run_all([live_case], node, verify_py) == ([{}], [{}])


def test_a_game_added_at_the_reveal_is_caught_live(live_case, verify_py, node, witness):
    """The operator's reveal counts one more game than the close: the close check fails; a
    re-signed close lacks the witness's cosignature and contradicts a player's saved close."""
    case = live_case
    hashes = [*leaf_hashes(case.games), ledger.receipt_leaf_hash(forged_game(case))]
    genuine_close = body_of(case.log["checkpoints"][-1]["note"])
    only_reveal = copy.deepcopy(case)
    only_reveal.entries = reveal_with(case, hashes, genuine_close)
    results = run_all([only_reveal], node, verify_py)
    assert "log close" in results[0][0]
    assert same_names(results) == []
    rewritten = copy.deepcopy(case)
    previous = body_of(case.log["checkpoints"][-2]["note"])
    close = tlog.parse_checkpoint(genuine_close)
    body = checkpoint_of(case, hashes, close.time, previous,
                         tlog.Close(close.close.games + 1, close.close.transcripts_root))
    rewritten.log["checkpoints"][-1] = {
        "note": sign_body(body),
        "consistency": [h.hex() for h in merkle.consistency_path(
            tlog.parse_checkpoint(previous).size, hashes)]}
    rewritten.entries = reveal_with(case, hashes, body)
    rewritten.saved = [case.log["checkpoints"][-1]["note"]]
    core, js = run_all([rewritten], node, verify_py)
    assert {"cosignatures", "final transcripts", "saved checkpoints"} <= set(core[0])
    assert same_names((core, js)) == []


def test_a_game_dropped_from_a_live_checkpoint_is_caught(live_case, verify_py, node):
    """The second checkpoint re-signed without the first game: no longer an extension."""
    case = live_case
    hashes = leaf_hashes(case.games)
    first = body_of(case.log["checkpoints"][0]["note"])
    second = tlog.parse_checkpoint(body_of(case.log["checkpoints"][1]["note"]))
    case.log["checkpoints"][1]["note"] = sign_body(
        checkpoint_of(case, hashes[1:second.size], second.time, first))
    case.saved = []
    results = run_all([case], node, verify_py)
    assert {"log consistency", "log chain"} <= set(results[0][0])
    assert same_names(results) == []


def test_a_live_fork_is_caught(live_case, verify_py, node):
    """A checkpoint of the first size with another last game, shown to someone who saved it:
    the later log contradicts it."""
    case = live_case
    hashes = leaf_hashes(case.games)
    first = tlog.parse_checkpoint(body_of(case.log["checkpoints"][0]["note"]))
    other = checkpoint_of(case, [*hashes[:first.size - 1], merkle.leaf_hash(b"forged")],
                          first.time, None)
    case.saved = [sign_body(other)]
    results = run_all([case], node, verify_py)
    assert any("fork" in detail for detail in results[0][0]["saved checkpoints"])
    assert same_names(results) == []


def day_failing(case, core, verify_py) -> dict:
    """The failing checks of the whole-day audit of the case's games, the same by the fast
    paths and by the plain checks; verify.py day prints its lines."""
    arguments = (case.entries, case.date, case.ruleset, case.games)
    checks, _ = core.core_day(*arguments)
    assert core.plain_day(*arguments)[0] == checks
    assert verify_py.day(*arguments) == day_output(*arguments)
    return failing(checks)


def test_the_live_day_audits_and_its_finish_order_is_fixed(live_case, core, verify_py):
    """The whole-day audit of the live v2 day holds; two receipts re-signed with their
    indexes swapped (the operator reordering who finished first) no longer give the root."""
    assert day_failing(live_case, core, verify_py) == {}
    first, second = sorted((g for g in live_case.games if g["receipt"]),
                           key=lambda g: g["receipt"]["index"])[:2]
    first["receipt"], second["receipt"] = (
        resign_entry({**first["receipt"], "index": 1}),
        resign_entry({**second["receipt"], "index": 0}))
    assert "merkle root" in day_failing(live_case, core, verify_py)
