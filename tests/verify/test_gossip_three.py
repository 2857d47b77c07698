"""The share text's gossip line in the core and fairness.js: the same fingerprint of every
checkpoint of the vectors' v2 day, the same line found in the same texts, and the same verdict
on a friend's line — a match, a fork (another checkpoint of that size, signed by the log's key)
or another history — also from both command lines (``--friend``), verify.py printing the
core's lines."""

import json

import pytest
from click.testing import CliRunner

from app.cli.main import main as cli
from fairness import gossip
from fairness.audit.gossip_checks import check_gossip
from tests.verify.conftest import run_verify_py
from tests.verify.logkit import body_of, checkpoint_of, leaf_hashes, log_case

DATE, SHEET = "2026-12-02", "yahtzee"
TEXTS = [
    "Yacht Daily 2026-12-02 - Yahtzee - 118 points\n"
    "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI\n",
    "log 2026-12-02/yacht-bonus 0 AAAA-BBBB-CCCC-DDDD-EEEE",
    "\tlog 2026-12-02/yahtzee 13 VFOJ-F4DH-7QFX-BYV3-F7XI and more",
    "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI2",
    "log 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3",
    "blog 2026-12-02/yahtzee 2 VFOJ-F4DH-7QFX-BYV3-F7XI",
    "log 2026-12-02/yahtzee 002 VFOJ-F4DH-7QFX-BYV3-F7XI",
]


def bodies(vectors) -> list[str]:
    """Every checkpoint body of the vectors' v2 day, all sheets."""
    return [body_of(item["note"]) for log in vectors["tlog"]["day"]["logs"].values()
            for item in log["checkpoints"]]


def test_every_checkpoint_has_one_fingerprint_in_both(vectors, verifiers):
    """The core and fairness.js agree on each body, and on FAIRNESS.md's vector."""
    all_bodies = bodies(vectors)
    core = [gossip.fingerprint(body) for body in all_bodies]
    assert len(set(core)) == len(core)
    js = verifiers.node.values([{"fn": "checkpointFingerprint", "args": [body]}
                                for body in all_bodies])
    assert js == core
    assert gossip.fingerprint(vectors["tlog"]["checkpoint"]["body"]) == \
        "2 VFOJ-F4DH-7QFX-BYV3-F7XI"


def test_the_same_line_is_found_in_the_same_texts(verifiers):
    """Found, or not, alike; the first three texts hold a line, the others do not."""
    core = []
    for text in TEXTS:
        try:
            line = gossip.find_gossip_line(text)
            core.append({"date": line.date, "sheet": line.sheet, "fingerprint": line.fingerprint})
        except ValueError:
            core.append(None)
    js = verifiers.node.values([{"fn": "findGossipLine", "args": [text]} for text in TEXTS])
    assert core == js
    assert [found is not None for found in core] == [True] * 3 + [False] * 4


@pytest.fixture(scope="module")
def friends(vectors):
    """(what, the friend's line, must it match) against the vectors' yahtzee log."""
    case = log_case(vectors)
    served = [body_of(item["note"]) for item in case.log["checkpoints"]]
    fork = checkpoint_of(case, leaf_hashes(case.games)[:1] * 2, "2026-12-01T10:01:00Z", None)
    assert gossip.fingerprint(fork).split(" ")[0] == "2"
    missing = checkpoint_of(case, leaf_hashes(case.games)[:1], "2026-12-01T10:01:00Z", None)
    return case, [("the first checkpoint", gossip.gossip_line(served[0]), True),
                  ("the close", gossip.gossip_line(served[-1]), True),
                  ("a fork of size 2", gossip.gossip_line(fork), False),
                  ("a size the log never served", gossip.gossip_line(missing), False)]


def test_both_give_the_same_verdict(friends, verifiers):
    """One gossip check each, the same (ok, detail) in both; the log itself holds."""
    case, lines = friends
    for what, line, must in lines:
        core = [(c.name, c.ok, c.detail) for c in check_gossip(case.log, DATE, SHEET, line)]
        js = verifiers.node.call("verifyGossip", {"ledger": case.entries, "date": DATE,
                                                  "ruleset": SHEET, "log": case.log,
                                                  "fingerprint": line.fingerprint})
        assert all(check["ok"] is not False for check in js[:-1]), (what, js)
        js_gossip = [(js[-1]["name"], js[-1]["ok"], js[-1]["detail"])]
        assert core == js_gossip, what
        assert core[0][1] is must, (what, core)
    fork_detail = next(c.detail for c in check_gossip(case.log, DATE, SHEET, lines[2][1]))
    assert "a fork" in fork_detail


def test_both_command_lines_check_a_friends_share_text(friends, tmp_path):
    """``--friend FILE``: exit 0 on a match, 1 on a fork, the same lines in both."""
    case, lines = friends
    ledger, log = tmp_path / "ledger.json", tmp_path / "log.json"
    ledger.write_text(json.dumps({"entries": case.entries}))
    log.write_text(json.dumps(case.log))
    for _, line, must in (lines[0], lines[2]):
        share = tmp_path / "share.txt"
        share.write_text(f"Yacht Daily {DATE} - Yahtzee - 201 points\n{line.text()}\n")
        arguments = ["log", "--ledger", str(ledger), "--log", str(log), "--date", DATE,
                     "--sheet", SHEET, "--friend", str(share)]
        standalone = run_verify_py(*arguments)
        core = CliRunner().invoke(cli, ["verify", *arguments])
        for status, output in ((standalone.returncode, standalone.stdout),
                               (core.exit_code, core.output)):
            assert status == (0 if must else 1), output
            assert ("✓ gossip:" if must else "✗ gossip:") in output
        assert standalone.stdout.splitlines() == core.output.splitlines()
