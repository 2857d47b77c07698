"""Tampering with a match is caught, precisely, by the core, fairness.js and verify.py alike.

For every field of a match's signed result and of every seat's transcript, ``tampering.changes``
makes one change; the core and fairness.js must fail exactly the same checks, and verify.py
(built from the core, run by its command line on a few of the changes) print the core's lines.
Forgeries re-signed with the (test) key show that each field is also checked for what it means,
not only signed.
"""

import copy
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.ledger.signing import verify_signature
from fairness import Game, digest, ledger, ranks, seat_stream
from fairness.audit import answer_parts, check_match
from fairness.dice import PER_TURN
from fairness.match import DUPLICATE
from tests.verify.conftest import ROOT, exit_status, printed
from tests.verify.tampering import REMOVED, changes

PYTHON_STRIDE = 6
VECTORS = ROOT / "tests" / "vectors.json"
EXPIRED_MATCH = next(case for case in json.loads(VECTORS.read_text(encoding="utf-8"))["match"][
    "matches"] if case["label"] == "expired")
JS_STRIDE = 7
VERIFY_PY_SAMPLE_SIZE = 4  # answers of a test run by verify.py (a run is a Python process)


@pytest.fixture(scope="module", params=["computer", "table", "expired", "computer/per-turn",
                                        "table/per-turn", "expired/per-turn", "table/duplicate"])
def match(request, vectors):
    """A whole match of the vectors (its answer and key), v1 (dealt sequentially) or v2 (dealt
    per turn, or duplicate: every seat on seat 0's stream)."""
    return next(case for case in vectors["match"]["matches"] if case["label"] == request.param)


@pytest.fixture(scope="module")
def test_key(vectors) -> Ed25519PrivateKey:
    """The vectors' public TEST key (RFC 8032 test 1), which signed their matches."""
    return Ed25519PrivateKey.from_private_bytes(
        bytes.fromhex(vectors["signing"]["private_key_seed"]))


def failing_core(answer, key) -> list[str]:
    """The names of the checks the core fails."""
    result, transcripts = answer_parts(answer)
    return [c.name for c in check_match(result, transcripts, public_key_hex=key,
                                        verify_signature=verify_signature) if c.ok is False]


def assert_verify_py_prints_the_core(verify_py, answers, key, size=VERIFY_PY_SAMPLE_SIZE):
    """verify.py match, run on answers spread over ``answers`` (``size`` of them), prints the
    core's checks of each and exits as they say."""
    sample = answers[::max(len(answers) // size, 1)][:size]
    expected = []
    for answer in sample:
        result, transcripts = answer_parts(answer)
        checks = check_match(result, transcripts, public_key_hex=key,
                             verify_signature=verify_signature)
        expected.append((exit_status(checks), printed(checks)))
    assert verify_py.run_all([verify_py.match(answer, key) for answer in sample]) == expected


def failing_js(node, answers, key) -> list[list[str]]:
    """The names of the checks fairness.js fails, per answer (one Node run)."""
    values = node.values([{"fn": "verifyMatch", "args": [answer, key]} for answer in answers])
    return [[c["name"] for c in checks if c["ok"] is False] for checks in values]


def with_result(answer, result):
    """The answer with another result object."""
    changed = copy.deepcopy(answer)
    changed["match"]["result"] = result
    return changed


def with_transcript(answer, seat, transcript):
    """The answer with another transcript for ``seat``."""
    changed = copy.deepcopy(answer)
    changed["match"]["seats"][seat]["transcript"] = transcript
    return changed


def test_every_change_of_the_result_is_caught_alike(match, verify_py, node):
    """Each change of each field of the result fails at least one check, the same in the three."""
    answer, key = match["answer"], match["public_key"]
    result = answer["match"]["result"]
    tampered = [with_result(answer, change.apply(result)) for change in changes(result)]
    from_js = failing_js(node, tampered, key)
    assert len(tampered) > 40
    for changed, js in zip(tampered, from_js, strict=True):
        core = failing_core(changed, key)
        assert core, changed["match"]["result"]
        assert core == js
    assert_verify_py_prints_the_core(verify_py, tampered, key)


def test_every_change_of_a_transcript_is_caught_at_its_seat(match, verify_py, node):
    """A change in one seat's transcript fails only that seat's checks (its hash always), and a
    changed die fails that very roll; the three agree. (Every PYTHON_STRIDE-th change of each
    seat's transcript, every JS_STRIDE-th of those in fairness.js, a few in verify.py, to stay
    quick.)"""
    answer, key = match["answer"], match["public_key"]
    cases = []
    for seat, entry in enumerate(answer["match"]["seats"]):
        transcript = entry["transcript"]
        every = list(changes(transcript))
        cases += [(seat, transcript, change) for change in every[seat % PYTHON_STRIDE::
                                                                 PYTHON_STRIDE]]
    tampered = [with_transcript(answer, seat, change.apply(transcript))
                for seat, transcript, change in cases]
    from_js = failing_js(node, tampered[::JS_STRIDE], key)
    dice_changes = 0
    for number, ((seat, transcript, change), changed) in enumerate(
            zip(cases, tampered, strict=True)):
        core = failing_core(changed, key)
        assert f"seat {seat} transcript hash" in core, change
        others = [name for name in core if not name.startswith(f"seat {seat} ")]
        assert set(others) <= {"finished", "ranks"}, (change, others)
        if len(change.path) == 3 and change.path[1] == "dice" and change.value is not REMOVED:
            roll = sum(1 for e in transcript[:change.path[0]] if e["action"] == "roll")
            assert f"seat {seat} roll {roll}" in core, change
            dice_changes += 1
        if number % JS_STRIDE == 0:
            assert from_js[number // JS_STRIDE] == core, change
    assert dice_changes
    assert_verify_py_prints_the_core(verify_py, tampered, key)


FORGED = {  # field -> (forged value from the honest one, the check that must fail)
    "server_seed": (lambda seed: seed[:-1] + ("0" if seed[-1] != "0" else "1"), "commitment"),
    "commitment": (lambda value: value[:-1] + ("0" if value[-1] != "0" else "1"), "commitment"),
    "client_seeds": (lambda seeds: [seeds[0] + "x", *seeds[1:]], "seat 0 roll 0"),
    "match": (lambda match_id: match_id + "x", "seat 0 roll 0"),
    "finished": (lambda finished: not finished, "finished"),
    "winners": (lambda winners: [*winners, 99] if winners else [0], "ranks"),
}


def test_resigned_forgeries_are_caught_beyond_the_signature(match, verify_py, node, test_key):
    """A result forged and signed again by the key (an insider) still fails what it means."""
    answer, key = match["answer"], match["public_key"]
    honest = {k: v for k, v in answer["match"]["result"].items() if k != "sig"}
    cases = [(field, make(honest[field]), check) for field, (make, check) in FORGED.items()]
    for seat, row in enumerate(honest["seats"]):
        cases += [(("seats", seat, "total"), row["total"] + 1, f"seat {seat} total"),
                  (("seats", seat, "transcript_sha256"), "0" * 64, f"seat {seat} transcript hash"),
                  (("seats", seat, "rank"), None if honest["finished"] else 1, "ranks")]
    tampered = []
    for path, value, _ in cases:
        forged = copy.deepcopy(honest)
        if isinstance(path, tuple):
            forged[path[0]][path[1]][path[2]] = value
        else:
            forged[path] = value
        signed = {**forged, "sig": test_key.sign(ledger.signed_bytes(forged)).hex()}
        tampered.append(with_result(answer, signed))
    from_js = failing_js(node, tampered, key)
    for (path, _, check), changed, js in zip(cases, tampered, from_js, strict=True):
        core = failing_core(changed, key)
        assert "match signature" not in core and check in core, (path, core)
        assert core == js
    assert_verify_py_prints_the_core(verify_py, tampered, key)


def test_a_per_turn_match_cannot_be_claimed_another_dealing(vectors, verify_py, node,
                                                            test_key):
    """A v2 result re-signed as v1 (sequential, no dealing), with a dealing other than
    per-turn, or without its dealing: the commitment binds the dealing, and the seats' rolls
    and the format say so, the same in the three."""
    case = next(case for case in vectors["match"]["matches"] if case["label"] ==
                "computer/per-turn")
    answer, key = case["answer"], case["public_key"]
    honest = {k: v for k, v in answer["match"]["result"].items() if k != "sig"}
    as_v1 = {k: v for k, v in honest.items() if k != "dealing"}
    forgeries = [({**as_v1, "type": "yacht-daily/match/v1"}, "commitment"),
                 ({**honest, "dealing": "sequential"}, "match format"),
                 (as_v1, "match format")]
    tampered = [with_result(answer, {**forged, "sig": test_key.sign(
        ledger.signed_bytes(forged)).hex()}) for forged, _ in forgeries]
    from_js = failing_js(node, tampered, key)
    for (_, check), changed, js in zip(forgeries, tampered, from_js, strict=True):
        core = failing_core(changed, key)
        assert "match signature" not in core and check in core, core
        assert core == js
    assert_verify_py_prints_the_core(verify_py, tampered, key)
    as_sequential = failing_core(tampered[0], key)
    assert any(name.startswith("seat ") and " roll " in name for name in as_sequential)


def test_a_duplicate_match_cannot_be_claimed_another_dealing(vectors, verify_py, node,
                                                             test_key):
    """Re-signed: a duplicate result claimed per-turn, a per-turn result claimed duplicate (the
    commitment binds the dealing; the seats after seat 0 then replay on other streams), and a
    duplicate result whose seat 1 was played on the seat's own stream, its hash, total and ranks
    made to match (only that seat's replay fails), the same in the three."""
    cases = {case["label"]: case for case in vectors["match"]["matches"]}
    duplicate, per_turn = cases["table/duplicate"], cases["table/per-turn"]
    key = duplicate["public_key"]
    honest = {k: v for k, v in duplicate["answer"]["match"]["result"].items() if k != "sig"}
    per_turn_result = {k: v for k, v in per_turn["answer"]["match"]["result"].items()
                       if k != "sig"}
    own = seat_stream(honest["server_seed"], honest["client_seeds"], honest["match"], 1,
                      honest["ruleset"], PER_TURN)
    assert own.roll(0) != seat_stream(honest["server_seed"], honest["client_seeds"],
                                      honest["match"], 1, honest["ruleset"], DUPLICATE).roll(0)
    game = Game.new_match(honest["ruleset"])
    while not game.finished:  # a plausible seat: one roll a turn, the best box
        game = game.roll(None, own)
        placement = game.placement()
        game = game.score(max(placement.allowed, key=lambda box: game.previews()[box]))
    own_transcript = [dict(entry) for entry in game.transcript]
    seats = [dict(row) for row in honest["seats"]]
    seats[1].update(transcript_sha256=digest(own_transcript), total=game.totals().total)
    seat_ranks = ranks([row["total"] for row in seats])
    for row, rank in zip(seats, seat_ranks, strict=True):
        row["rank"] = rank
    replayed_alone = {**honest, "seats": seats,
                      "winners": [row["seat"] for row in seats if row["rank"] == 1]}
    forgeries = [(duplicate["answer"], {**honest, "dealing": PER_TURN}, None, "commitment"),
                 (per_turn["answer"], {**per_turn_result, "dealing": DUPLICATE}, None,
                  "commitment"),
                 (duplicate["answer"], replayed_alone, own_transcript, "seat 1 roll 0")]
    tampered = []
    for answer, forged, transcript, _ in forgeries:
        changed = with_result(answer, {**forged, "sig": test_key.sign(
            ledger.signed_bytes(forged)).hex()})
        if transcript is not None:
            changed["match"]["seats"][1]["transcript"] = transcript
        tampered.append(changed)
    from_js = failing_js(node, tampered, key)
    for (_, _, _, check), changed, js in zip(forgeries, tampered, from_js, strict=True):
        core = failing_core(changed, key)
        assert "match signature" not in core and check in core, core
        assert core == js
    assert_verify_py_prints_the_core(verify_py, tampered, key)
    alone = failing_core(tampered[2], key)
    assert alone and all(name.startswith("seat 1 ") for name in alone), alone
    assert "seat 1 transcript hash" not in alone
    claimed = failing_core(tampered[0], key)
    assert "seat 0 roll 0" not in claimed and "seat 1 roll 0" in claimed


def test_a_changed_client_seed_or_server_seed_changes_every_seats_dice(match):
    """The client seeds and the server seed feed every seat's stream."""
    answer, key = match["answer"], match["public_key"]
    result = answer["match"]["result"]
    seats = range(len(result["seats"]))
    for field, value in (("client_seeds", [result["client_seeds"][0][:-1] + "z",
                                           *result["client_seeds"][1:]]),
                         ("server_seed", "f" * 64)):
        core = failing_core(with_result(answer, {**result, field: value}), key)
        assert all(f"seat {seat} roll 0" in core for seat in seats), (field, core)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.text(max_size=8)
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=3),
    max_leaves=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=json_values)
def test_any_value_anywhere_fails_cleanly_never_crashes(data, value):
    """Whatever value replaces whatever field (result, seat or transcript entry) of the short
    expired match, the core answers checks, some failing, and never raises (verify.py prints
    the core's checks)."""
    case = EXPIRED_MATCH
    answer = copy.deepcopy(case["answer"])
    paths = [change.path for change in changes(answer["match"]) if change.path and (
        change.path[0] == "result" or change.path[2:3] == ("transcript",))]
    path = data.draw(st.sampled_from(paths))
    parent = answer["match"]
    for step in path[:-1]:
        parent = parent[step]
    assume(parent.get(path[-1]) != value if isinstance(parent, dict) else
           path[-1] >= len(parent) or parent[path[-1]] != value)
    parent[path[-1]] = value
    assert failing_core(answer, case["public_key"])


@pytest.mark.parametrize("transcript", [None, "roll", 7, {"action": "roll"}])
def test_a_seat_transcript_that_is_not_a_list_fails_cleanly(verify_py, transcript):
    """A seat whose transcript is not a list of actions: a failing transcript check and an
    incomplete seat in the core and in verify.py alike, never an exception (the core once
    raised StopIteration looking for the seat's "game complete" check)."""
    case = EXPIRED_MATCH
    answer = copy.deepcopy(case["answer"])
    answer["match"]["seats"][0]["transcript"] = transcript
    core = failing_core(answer, case["public_key"])
    assert "seat 0 transcript" in core
    assert_verify_py_prints_the_core(verify_py, [answer], case["public_key"])
