"""A v2 day's log, tampered every way a forger could, is caught alike by the core, fairness.js
and verify.py (built from the core, run by its command line: it prints the core's lines): every
field of the published log, every line of every checkpoint note, every field of a v2 receipt and
of the final transcripts; and the operator's own forgeries (it holds the key): a game added at
the reveal, a game dropped from a checkpoint, a fork shown to two people, an abandoned game's
transcript changed after close."""

import copy

import pytest

from fairness import checkpoint as tlog
from fairness import ledger, merkle
from fairness.audit import log_checks
from tests.verify.conftest import exit_status, printed
from tests.verify.logkit import (
    body_of,
    checkpoint_of,
    leaf_hashes,
    log_case,
    note_line_changes,
    resign_entry,
    sign_body,
)
from tests.verify.tampering import changes
from tests.verify.test_tamper import failing

JS_SAMPLE_EVERY = 3
VERIFY_PY_SAMPLE_SIZE = 6  # changes of the log run by verify.py (a run is a Python process)


def run_all(cases, node=None, verify_py=None):
    """(core, fairness.js or None) failing checks of each case; with ``verify_py``, its log
    mode runs on each case and must print the core's lines."""
    core = [failing(case.checks_core()) for case in cases]
    if verify_py is not None:
        expected = [case.checks_of_verify_py() for case in cases]
        assert verify_py.run_all([case.verify_py_arguments(verify_py) for case in cases]) == \
            [(exit_status(checks), printed(checks)) for checks in expected]
    js = None
    if node is not None:
        jobs = [job for case in cases for job in case.js_jobs()]
        values = node.values(jobs)
        js = [failing([(c["name"], c["ok"], c["detail"]) for value in values[3 * i:3 * i + 3]
                       for c in value]) for i in range(len(cases))]
    return core, js


def same_names(results) -> list:
    """Indexes where fairness.js fails other checks than the core."""
    core, js = results
    return [i for i in range(len(core)) if js is not None and set(core[i]) != set(js[i])]


def test_the_v2_day_verifies_alike(vectors, verify_py, node):
    """Baseline: every sheet's log, final transcripts and saved checkpoints hold, alike."""
    for ruleset in ("yacht", "yacht-bonus", "yahtzee"):
        case = log_case(vectors, ruleset)
        core = case.checks_core()
        assert [c for c in core if c[1] is not True] == [], ruleset
        run_all([case], verify_py=verify_py)
        values = node.values(case.js_jobs())
        assert [(c["name"], c["ok"]) for value in values for c in value] == \
            [(n, ok) for n, ok, _ in core]


def log_changes(case):
    """(what, case) for every change of the published log's JSON and of its notes' lines,
    and whether it must be caught (dropping a witness's cosignature from an earlier checkpoint
    forges nothing: a witness need not cosign every checkpoint)."""
    for change in changes(case.log):
        tampered = copy.deepcopy(case)
        tampered.log = change.apply(case.log)
        yield f"{change.path} {change.what}", tampered, True
    last = len(case.log["checkpoints"]) - 1
    for position, item in enumerate(case.log["checkpoints"]):
        for what, note in note_line_changes(item["note"]):
            tampered = copy.deepcopy(case)
            tampered.log["checkpoints"][position]["note"] = note
            dropped_line = note.count("\n") < item["note"].count("\n")
            witness_line = "witness.example" in item["note"].split("\n")[
                int(what.split()[1])]
            must = not (dropped_line and witness_line and position < last)
            yield f"checkpoint {position} {what}", tampered, must


def test_every_change_to_the_log_is_caught_alike(vectors, verify_py, node):
    """Each change fails a log check (naming its checkpoint when one is named), fairness.js
    fails exactly the same checks (on every third change), and verify.py prints the core's
    lines (on a few changes spread over them)."""
    case = log_case(vectors)
    cases = list(log_changes(case))
    results = run_all([c for _, c, _ in cases])
    uncaught = [what for (what, _, must), core in zip(cases, results[0], strict=True)
                if must and not core]
    assert len(cases) > 60
    assert uncaught == []
    sample = [c for i, (_, c, _) in enumerate(cases) if i % JS_SAMPLE_EVERY == 0]
    assert same_names(run_all(sample, node)) == []
    run_all([c for _, c, _ in cases[::len(cases) // VERIFY_PY_SAMPLE_SIZE]],
            verify_py=verify_py)


def receipt_failing(receipt, log, proof) -> dict:
    """The core's failing checks of one receipt in the log."""
    return failing([(c.name, c.ok, c.detail)
                    for c in log_checks.check_receipt_in_log(receipt, log, proof)])


def test_every_change_to_a_receipt_or_its_proof_is_caught_alike(vectors, verify_py, node):
    """A v2 receipt is found in the log by its proof, and not once it is changed (but for its
    signature, which its leaf does not cover), alike in the core, fairness.js and verify.py
    (on a few changes)."""
    day = vectors["tlog"]["day"]
    log = day["logs"]["yahtzee"]
    game = [g for g in day["games"]["yahtzee"] if g["receipt"]][1]
    proof = next({k: p[k] for k in ("index", "size", "path")} for p in day["proofs"]
                 if p["game"] == game["id"])
    assert receipt_failing(game["receipt"], log, proof) == {}
    jobs, expected, forged = [], [], [(game["receipt"], proof)]
    for target, value in (("receipt", game["receipt"]), ("proof", proof)):
        for change in changes(value):
            if change.field == "sig":
                continue
            receipt = change.apply(value) if target == "receipt" else game["receipt"]
            forged_proof = change.apply(value) if target == "proof" else proof
            core = receipt_failing(receipt, log, forged_proof)
            assert core, (target, change.path, change.what)
            forged.append((receipt, forged_proof))
            jobs.append({"fn": "verifyReceiptInLog", "args": [{"receipt": receipt, "log": log,
                                                               "proof": forged_proof}]})
            expected.append(set(core))
    assert len(jobs) > 20
    assert [set(found) for found in js_failing(node, jobs)] == expected
    cases = []
    for receipt_and_proof in forged[::len(forged) // VERIFY_PY_SAMPLE_SIZE]:
        case = log_case(vectors)
        case.receipt = receipt_and_proof
        cases.append(case)
    run_all(cases, verify_py=verify_py)


def finals_failing(case) -> dict:
    """The core's failing checks of the final transcripts alone."""
    return failing([(c.name, c.ok, c.detail)
                    for c in log_checks.check_final_transcripts(case.log, case.games)])


def js_failing(node, jobs) -> list:
    """fairness.js's failing checks of each job, in one Node run."""
    return [failing([(c["name"], c["ok"], c["detail"]) for c in value])
            for value in node.values(jobs)]


def final_tuple(games):
    """What the close commits to for each game."""
    return sorted((repr(g.get("id")), repr(g.get("player")), g.get("status") == "finished",
                   repr(g.get("transcript"))) for g in games)


def committed_changes(games):
    """Changes of a game's id, player, status, or of its first, second or last transcript
    entry (every entry has the same fields), that change what the close commits to."""
    for change in changes(games):
        path = change.path
        if len(path) < 2 or path[1] not in ("id", "player", "status", "transcript"):
            continue
        if path[1] == "transcript" and len(path) > 2 and path[2] not in (
                0, 1, len(games[path[0]]["transcript"]) - 1):
            continue
        changed = change.apply(games)
        if final_tuple(changed) != final_tuple(games):
            yield change, changed


def test_every_change_to_the_final_transcripts_is_caught_alike(vectors, node):
    """Changing any game's id, player, status or transcript after close breaks the close
    checkpoint's final-transcripts root (abandoned games included)."""
    case = log_case(vectors)
    jobs, expected = [], []
    for number, (change, games) in enumerate(committed_changes(case.games)):
        tampered = copy.deepcopy(case)
        tampered.games = games
        core = finals_failing(tampered)
        assert set(core) == {"final transcripts"}, change
        if number % JS_SAMPLE_EVERY == 0:
            jobs.append({"fn": "verifyFinalTranscripts", "args": [{"log": case.log,
                                                                   "games": games}]})
            expected.append(set(core))
    assert len(jobs) > 30
    assert [set(found) for found in js_failing(node, jobs)] == expected


def test_an_abandoned_transcript_changed_after_close_is_caught(vectors, verify_py, node):
    """The operator rewrites an abandoned game's last roll: the close does not commit to it."""
    case = log_case(vectors)
    abandoned = next(g for g in case.games if g["status"] != "finished")
    roll = next(e for e in reversed(abandoned["transcript"]) if e["action"] == "roll")
    roll["dice"][0] = roll["dice"][0] % 6 + 1
    results = run_all([case], node, verify_py)
    assert set(results[0][0]) == {"final transcripts"}
    assert same_names(results) == []


def reveal_with(case, hashes, close_body):
    """The case's ledger with its v2 reveal re-signed for another log of ``case.ruleset``."""
    entries = copy.deepcopy(case.entries)
    reveal = entries[-1]
    reveal["games"][case.ruleset] = len(hashes)
    reveal["roots"][case.ruleset] = merkle.root(hashes).hex()
    reveal["logs"][case.ruleset] = tlog.body_hash(close_body).hex()
    entries[-1] = resign_entry(reveal)
    return entries


def forged_game(case):
    """A v2 receipt the operator adds at the reveal, signed by the key, appended to the log."""
    receipt = copy.deepcopy(next(g["receipt"] for g in case.games if g["receipt"]))
    receipt.update(game="f" * 32, player="p-0perator000", index=len(leaf_hashes(case.games)),
                   total=receipt["total"] + 1, finished_at=f"{case.date[:8]}02T23:59:00Z")
    return resign_entry(receipt)


def test_a_game_added_at_the_reveal_is_caught(vectors, verify_py, node):
    """The reveal counts a game the close checkpoint does not: the log close fails. If the
    operator also forges a new close checkpoint, only the witness's cosignature (and a
    player's saved close) stand against it, and they catch it."""
    case = log_case(vectors)
    hashes = [*leaf_hashes(case.games), ledger.receipt_leaf_hash(forged_game(case))]
    genuine_close = body_of(case.log["checkpoints"][-1]["note"])
    only_reveal = copy.deepcopy(case)
    only_reveal.entries = reveal_with(case, hashes, genuine_close)
    # the reveal re-signed over the new root; the close kept
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
    rewritten.saved = rewritten.saved[:-1]  # nobody saved the genuine close
    core, js = run_all([rewritten], node, verify_py)
    assert set(core[0]) == {"cosignatures", "final transcripts"}
    assert same_names((core, js)) == []
    rewritten.saved = [case.log["checkpoints"][-1]["note"]]  # a player kept the genuine close
    core, _ = run_all([rewritten])
    assert "saved checkpoints" in core[0]
    assert any("does not serve" in detail for detail in core[0]["saved checkpoints"])


def test_a_game_dropped_from_a_checkpoint_is_caught(vectors, verify_py, node):
    """A checkpoint re-signed without the first game: not an extension of the one before."""
    case = log_case(vectors)
    hashes = leaf_hashes(case.games)
    first = body_of(case.log["checkpoints"][0]["note"])
    second = tlog.parse_checkpoint(body_of(case.log["checkpoints"][1]["note"]))
    body = checkpoint_of(case, hashes[1:second.size], second.time, first)
    case.log["checkpoints"][1]["note"] = sign_body(body)
    results = run_all([case], node, verify_py)
    assert {"log consistency", "log chain"} <= set(results[0][0])
    assert same_names(results) == []


@pytest.mark.parametrize("shown_to", ["one log", "two people"])
def test_a_fork_is_caught(vectors, verify_py, node, shown_to):
    """Two signed checkpoints of one size with different roots: inconsistent in one log, or a
    saved checkpoint that the later log contradicts."""
    case = log_case(vectors)
    hashes = leaf_hashes(case.games)
    first = tlog.parse_checkpoint(body_of(case.log["checkpoints"][0]["note"]))
    other = checkpoint_of(case, [*hashes[:first.size - 1], merkle.leaf_hash(b"forged")],
                          first.time, None)
    if shown_to == "one log":
        case.log["checkpoints"].insert(1, {"note": sign_body(other), "consistency": []})
        case.saved = []
        expected = "log consistency"
    else:
        case.saved = [sign_body(other)]
        expected = "saved checkpoints"
    results = run_all([case], node, verify_py)
    assert expected in results[0][0]
    assert any("fork" in detail for detail in results[0][0][expected])
    assert same_names(results) == []


def test_a_v1_day_has_no_log(vectors, verify_py, node):
    """A day revealed by a v1 entry commits to no log: even a well-signed one offered for it
    fails the close check, alike."""
    case = log_case(vectors)
    case.date = vectors["tlog"]["day"]["entries"][1]["date"]
    body = tlog.Checkpoint(origin=tlog.origin(case.entries[0]["public_key"], case.date,
                                              case.ruleset), size=0, root=merkle.root([]),
                           time=f"{case.date}T13:00:00Z", prev=tlog.NO_PREVIOUS,
                           close=tlog.Close(0, merkle.root([]))).body()
    case.log, case.games, case.saved = {"checkpoints": [{"note": sign_body(body),
                                                         "consistency": []}]}, [], []
    case.quorum, case.witnesses = 0, []
    results = run_all([case], node, verify_py)
    assert set(results[0][0]) == {"log close"}
    assert same_names(results) == []


def with_epoch_entry(case, **changed):
    """The case with its epoch entry changed (``None`` removes a key), every entry then
    re-linked and signed again by the test key."""
    entries = [dict(entry) for entry in case.entries]
    epoch = {**entries[0], **changed}
    entries[0] = resign_entry({k: v for k, v in epoch.items() if v is not None})
    for position in range(1, len(entries)):
        entries[position] = resign_entry({**entries[position],
                                          "prev": ledger.entry_hash(entries[position - 1])})
    tampered = copy.deepcopy(case)
    tampered.entries = entries
    return tampered


def test_a_v2_epochs_day_log_verifies_alike(vectors, verify_py, node):
    """The log of a date owned by a v2 epoch entry (per-turn dealing) holds, alike: the log
    checks read the epoch's key and dates whichever its dealing. A v2 entry with another
    dealing is malformed: no epoch covers the date, alike."""
    honest = with_epoch_entry(log_case(vectors), type="yacht-daily/epoch/v2",
                              dealing="per-turn")
    sequential = with_epoch_entry(log_case(vectors), type="yacht-daily/epoch/v2",
                                  dealing="sequential")
    results = run_all([honest, sequential], node, verify_py)
    assert results[0][0] == {}
    assert set(results[0][1]) == {"log format"}
    assert results[0][1]["log format"] == [f"no published epoch covers {honest.date}"]
    assert same_names(results) == []
