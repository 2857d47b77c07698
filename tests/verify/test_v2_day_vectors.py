"""The vectors' v2 day (a v1 day before it in the same ledger): each v2 receipt verifies as a
game, each sheet as a whole day, with the very same lines in the core, fairness.js and verify.py
(run by its command line); a v2 receipt's own fields are bound by its signature and its
proof."""

import copy

import pytest

from tests.verify.conftest import day_output, exit_status, printed
from tests.verify.test_tamper import failing


def v2_game_cases(vectors):
    """(ledger, receipt, transcript, proof) of every finished game of the v2 day."""
    day = vectors["tlog"]["day"]
    for ruleset, games in day["games"].items():
        for game in games:
            if game["receipt"]:
                proof = next({k: p[k] for k in ("index", "size", "path")}
                             for p in day["proofs"] if p["game"] == game["id"])
                yield day["entries"], game["receipt"], game["transcript"], proof
                assert ruleset == game["receipt"]["ruleset"]


def test_v2_receipts_verify_alike(vectors, verifiers, verify_py):
    """Every check holds, the same lines in the three, a receipt version check among them."""
    cases = list(v2_game_cases(vectors))
    assert len(cases) == 5
    for case, from_js, from_script in zip(cases, verifiers.js_games(cases),
                                          verify_py.games(cases), strict=True):
        core = verifiers.core_game(*case)
        assert [line for line in core if line[1] is not True] == []
        assert "receipt version" in [line[0] for line in core]
        assert from_js == core
        assert from_script == (0, printed(core))


@pytest.mark.parametrize("ruleset", ["yacht", "yacht-bonus", "yahtzee"])
def test_v2_days_audit_alike(vectors, core, verify_py, ruleset):
    """The whole-day audits of a v2 sheet: leaves in index order, all hold, the same lines by
    the fast paths and by the plain checks, and verify.py day prints them."""
    day = vectors["tlog"]["day"]
    arguments = (day["entries"], day["date"], ruleset, day["games"][ruleset])
    checks, _ = core.core_day(*arguments)
    assert [line for line in checks if line[1] is not True] == []
    assert core.plain_day(*arguments)[0] == checks
    assert verify_py.day(*arguments) == day_output(*arguments)


def test_a_v2_receipts_index_and_time_are_bound(vectors, verifiers, verify_py):
    """Changing a v2 receipt's index or finish time breaks its signature and its proof; a v1
    receipt offered for a v2 day fails the version check — alike in the three."""
    ledger, receipt, transcript, proof = list(v2_game_cases(vectors))[1]
    cases, must = [], []
    for field, value in (("index", receipt["index"] + 1), ("finished_at",
                                                          "2026-12-01T10:00:00Z")):
        cases.append((ledger, {**receipt, field: value}, transcript, proof))
        must.append({"receipt signature", "inclusion proof"})
    v1 = {key: value for key, value in receipt.items() if key not in ("index", "finished_at")}
    cases.append((ledger, {**v1, "type": "yacht-daily/receipt/v1"}, transcript,
                  copy.deepcopy(proof)))
    must.append({"receipt version", "receipt signature"})
    for case, wanted, from_js, from_script in zip(cases, must, verifiers.js_games(cases),
                                                  verify_py.games(cases), strict=True):
        checks = verifiers.core_game(*case)
        core = failing(checks)
        assert wanted <= set(core), (wanted, core)
        assert set(failing(from_js)) == set(core)
        assert from_script == (exit_status(checks), printed(checks))


def test_a_duplicate_leaf_index_fails_the_day(vectors, core):
    """Two receipts claiming one leaf index: the day's receipts check names it, by the fast
    paths and by the plain checks alike."""
    day = vectors["tlog"]["day"]
    games = copy.deepcopy(day["games"]["yahtzee"])
    finished = [g for g in games if g["receipt"]]
    finished[1]["receipt"]["index"] = finished[0]["receipt"]["index"]
    checks, _ = core.core_day(day["entries"], day["date"], "yahtzee", games)
    assert any("leaf indexes" in detail for detail in failing(checks)["receipts"])
    assert core.plain_day(day["entries"], day["date"], "yahtzee", games)[0] == checks
