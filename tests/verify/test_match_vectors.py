"""Games on their own, every verifier and one set of vectors: the core and fairness.js agree
with tests/vectors.json's ``match`` section check for check, verify.py (built from the core, run
by its command line) prints the core's lines, and the commitments and seat streams there are
right by recomputation from FAIRNESS.md."""

import copy
import hashlib
import hmac

import pytest

from app.ledger.signing import verify_signature
from fairness import commitment, ledger, seat_stream
from fairness.audit import answer_parts, check_match, check_match_in_ledger
from fairness.dice import PER_TURN, SEQUENTIAL
from fairness.match import DUPLICATE
from tests.verify.conftest import exit_status, printed


@pytest.fixture(scope="module")
def section(vectors):
    """The vectors' match section."""
    return vectors["match"]


def as_tuples(checks) -> list:
    """Checks as [name, ok, detail] lists, whichever implementation wrote them."""
    return [[c.name, c.ok, c.detail] if hasattr(c, "name") else
            [c["name"], c["ok"], c["detail"]] if isinstance(c, dict) else list(c)
            for c in checks]


def core_checks(answer, key):
    """``fairness.audit.check_match`` on an answer."""
    result, transcripts = answer_parts(answer)
    return as_tuples(check_match(result, transcripts, public_key_hex=key,
                                 verify_signature=verify_signature))


def output(checks) -> tuple[int, list[str]]:
    """(exit status, lines) verify.py must print for these checks."""
    return exit_status(checks), printed([tuple(check) for check in checks])


def tampered(answer, case):
    """The answer with one tampered case's change made."""
    changed = copy.deepcopy(answer)
    parent = changed
    for step in case["path"][:-1]:
        parent = parent[step]
    parent[case["path"][-1]] = case["value"]
    return changed


COMMIT_PREFIXES = {SEQUENTIAL: b"yacht-daily/match-commit/v1|",
                   PER_TURN: b"yacht-daily/match-commit/v2|per-turn|",
                   DUPLICATE: b"yacht-daily/match-commit/v2|duplicate|"}


def test_commitments(section, node):
    """SHA-256 of the domain (v2: and the dealing) and the seed bytes, the same in both."""
    assert {case["dealing"] for case in section["commitments"]} == set(COMMIT_PREFIXES)
    jobs = [{"fn": "matchCommitment", "args": [case["server_seed"], case["dealing"]]}
            for case in section["commitments"]]
    for case, from_js in zip(section["commitments"], node.values(jobs), strict=True):
        seed, dealing = bytes.fromhex(case["server_seed"]), case["dealing"]
        expected = hashlib.sha256(COMMIT_PREFIXES[dealing] + seed).hexdigest()
        assert case["commitment"] == expected == commitment(seed, dealing) == from_js
    first = section["commitments"][0]
    assert commitment(bytes.fromhex(first["server_seed"])) == first["commitment"]  # sequential


def test_the_matches_cover_every_dealing(section):
    """Each old match (v1, sequential) again as v2, dealt per turn, and the computer and table
    matches as v2 dealt duplicate, each committed to its dealing."""
    results = {case["label"]: case["answer"]["match"]["result"] for case in section["matches"]}
    old = [label for label in results if "/" not in label]
    assert old and sorted(results) == sorted(
        old + [f"{label}/{PER_TURN}" for label in old]
        + [f"{label}/{DUPLICATE}" for label in ("computer", "table")])
    for label, result in results.items():
        dealing = label.partition("/")[2] or None
        assert result["type"] == ("yacht-daily/match/v2" if dealing else "yacht-daily/match/v1")
        assert result.get("dealing") == dealing
        assert result["commitment"] == commitment(result["server_seed"], dealing or SEQUENTIAL)


def test_a_duplicate_match_deals_every_seat_the_same_dice(section):
    """In the duplicate matches every seat's roll r of turn t is seat 0's stream's slot 3t + r:
    every turn starts with the same five dice for everyone, and a seat's rerolls draw the same
    fresh dice as any other seat's at the same roll."""
    for case in section["matches"]:
        state = case["answer"]["match"]
        result = state["result"]
        if result.get("dealing") != DUPLICATE:
            continue
        shared = seat_stream(result["server_seed"], result["client_seeds"], result["match"], 0,
                             result["ruleset"], PER_TURN)
        firsts = []
        for seat in state["seats"]:
            turn, roll, rolls = 0, 0, []
            for entry in seat["transcript"]:
                if entry["action"] == "score":
                    turn, roll = turn + 1, 0
                    continue
                fresh = shared.roll(3 * turn + roll)
                assert all(die == new for die, new, held in zip(
                    entry["dice"], fresh, entry["hold"], strict=True) if not held)
                if roll == 0:
                    rolls.append(entry["dice"])
                roll += 1
            firsts.append(rolls)
        assert len(firsts) >= 2 and all(rolls == firsts[0] for rolls in firsts), case["label"]


def test_seat_streams(section, node):
    """Block messages, HMAC blocks, dice and rolls of each seat's stream agree."""
    jobs, expected = [], []
    for case in section["streams"]:
        seed = bytes.fromhex(case["server_seed"])
        args = (case["client_seeds"], case["match"], case["seat"], case["ruleset"])
        for k, (message, block) in enumerate(zip(case["messages"], case["blocks"], strict=True)):
            assert message == (f"yacht-daily/match-dice/v1|{case['match']}|{case['ruleset']}|"
                               f"{case['seat']}|{','.join(case['client_seeds'])}|{k}")
            assert hmac.new(seed, message.encode(), hashlib.sha256).hexdigest() == block
            jobs.append({"fn": "seatBlockMessage", "args": [case["match"], case["ruleset"],
                                                            case["seat"], case["client_seeds"],
                                                            k]})
            expected.append(message)
        stream = seat_stream(seed, *args)
        assert stream.dice(len(case["dice"])) == case["dice"]
        assert [list(stream.roll(n)) for n in range(len(case["rolls"]))] == case["rolls"]
        jobs.append({"fn": "seatDice", "args": [case["server_seed"], *args, len(case["dice"])]})
        expected.append(case["dice"])
    assert node.values(jobs) == expected


def test_every_seat_has_its_own_dice(section):
    """Two seats of one match, same seed and client seeds: different streams."""
    first, second = section["streams"][1], section["streams"][2]
    assert (first["server_seed"], first["client_seeds"], first["match"]) == (
        second["server_seed"], second["client_seeds"], second["match"])
    assert first["dice"] != second["dice"]


def test_whole_matches_check_for_check(section, verify_py, node):
    """Each whole match: every check holds, with the vectors' exact names and details."""
    jobs = [{"fn": "verifyMatch", "args": [case["answer"], case["public_key"]]}
            for case in section["matches"]]
    printed_lines = verify_py.run_all([verify_py.match(case["answer"], case["public_key"])
                                       for case in section["matches"]])
    for case, from_js, from_script in zip(section["matches"], node.values(jobs),
                                          printed_lines, strict=True):
        assert all(ok is True for _, ok, _ in case["checks"]), case["label"]
        result = case["answer"]["match"]["result"]
        assert ledger.signed_bytes(result).decode() == case["signed_bytes"]
        assert core_checks(case["answer"], case["public_key"]) == case["checks"]
        assert as_tuples(from_js) == case["checks"]
        assert from_script == output(case["checks"])
    kinds = {case["answer"]["match"]["result"]["kind"] for case in section["matches"]}
    assert kinds == {"practice", "computer", "table"}
    assert any(not case["answer"]["match"]["result"]["finished"] for case in section["matches"])


def test_tampered_cases_fail_the_same_checks(section, verify_py, node):
    """Every tampered case fails exactly the vectors' checks in the core and fairness.js, and
    verify.py prints the core's lines."""
    answers = [case["answer"] for case in section["matches"]]
    key = section["matches"][0]["public_key"]
    cases = section["tampered"]
    changed = [tampered(answers[case["match"]], case) for case in cases]
    from_js = node.values([{"fn": "verifyMatch", "args": [answer, key]} for answer in changed])
    from_script = verify_py.run_all([verify_py.match(answer, key) for answer in changed])
    for case, answer, js, script in zip(cases, changed, from_js, from_script, strict=True):
        expected = case["failing"]
        assert expected, case["what"]
        core = core_checks(answer, key)
        for name, checks in (("core", core), ("fairness.js", as_tuples(js))):
            assert [c[0] for c in checks if c[1] is False] == expected, (name, case["what"])
        assert script == output(core), case["what"]
    whats = {case["what"] for case in cases}
    assert {"server_seed changed", "client_seeds changed", "sig changed"} <= whats
    assert {f"seat {seat}: one die of roll 19 changed" for seat in (0, 1)} <= whats


def test_a_changed_die_is_caught_at_its_roll_and_seat_only(section):
    """A die changed in one seat's transcript fails that seat's roll, nothing of the others."""
    for case in section["tampered"]:
        if "one die" in case["what"]:
            seat = case["path"][2]
            assert case["failing"] == [f"seat {seat} roll 19", f"seat {seat} transcript hash"]


@pytest.mark.parametrize("ledger_section", ["ledger", "dealing"])
def test_with_the_ledger_the_three_agree(vectors, section, verify_py, node, ledger_section):
    """The key from the ledger (the epoch owning the date the match ended, a v1 or a v2 epoch
    entry): ledger checks, ``match epoch``, then the match, the same in the three."""
    entries = (vectors["ledger"] if ledger_section == "ledger"
               else vectors["dealing"]["ledger"])["entries"]
    jobs = [{"fn": "verifyMatchInLedger", "args": [entries, case["answer"]]}
            for case in section["matches"]]
    from_script = verify_py.run_all([verify_py.match(case["answer"], entries=entries)
                                     for case in section["matches"]])
    for case, from_js, script in zip(section["matches"], node.values(jobs), from_script,
                                     strict=True):
        result, transcripts = answer_parts(case["answer"])
        core = as_tuples(check_match_in_ledger(entries, result, transcripts, verify_signature))
        assert core == as_tuples(from_js)
        assert script == output(core)
        assert all(ok is True for _, ok, _ in core)
        assert [c for c in core if c[0] == "match epoch"] == [
            ["match epoch", True, f"the match ended on {result['ended_at'][:10]}, a day of "
                                  "epoch 1, whose key d75a980182b1… signs its result"]]


def test_a_match_ended_outside_its_epoch_fails_in_the_three(vectors, section, verify_py, node):
    """A result claiming a date no epoch covers, or another epoch, has no key to check with."""
    entries = vectors["ledger"]["entries"]
    answer = copy.deepcopy(section["matches"][0]["answer"])
    answers = []
    for ended, epoch in (("2030-01-01T00:00:00Z", 1), ("2026-12-01T10:25:00Z", 2)):
        changed = copy.deepcopy(answer)
        changed["match"]["result"].update(ended_at=ended, epoch=epoch)
        answers.append(changed)
    from_js = node.values([{"fn": "verifyMatchInLedger", "args": [entries, a]} for a in answers])
    from_script = verify_py.run_all([verify_py.match(a, entries=entries) for a in answers])
    for changed, js, script in zip(answers, from_js, from_script, strict=True):
        result, transcripts = answer_parts(changed)
        core = as_tuples(check_match_in_ledger(entries, result, transcripts, verify_signature))
        failing = [c[0] for c in core if c[1] is False]
        assert failing == ["match epoch", "match signature"]
        assert core == as_tuples(js)
        assert script == output(core)


def test_an_unended_match_and_a_wrong_answer(section, verify_py, node):
    """No result yet, or not even an answer: one failing format check, alike."""
    answer = copy.deepcopy(section["matches"][0]["answer"])
    del answer["match"]["result"]
    key = section["matches"][0]["public_key"]
    values = (answer, [1, 2], {"match": None})
    from_script = verify_py.run_all([verify_py.match(value, key) for value in values])
    for value, script in zip(values, from_script, strict=True):
        expected = [["match format", False, "no result: the match has not ended"]]
        assert core_checks(value, key) == expected
        assert as_tuples(node.call("verifyMatch", value, key)) == expected
        assert script == output(expected)


def test_what_the_player_noted_is_checked_alike(section, verify_py, node):
    """The commitment shown before the first roll and the player's client seed, when given,
    are two more checks, right after the commitment, the same in the three."""
    case = section["matches"][1]
    answer, key = case["answer"], case["public_key"]
    result = answer["match"]["result"]
    other = "0" * 64
    cases = [(result["commitment"], result["client_seeds"][1], True, True),
             (other, "someone-else", False, False)]
    jobs = [{"fn": "verifyMatch", "args": [answer, key, {"commitment": shown,
                                                         "clientSeed": seed}]}
            for shown, seed, _, _ in cases]
    from_script = verify_py.run_all([verify_py.match(answer, key, shown=shown, client_seed=seed)
                                     for shown, seed, _, _ in cases])
    for (shown, seed, shown_ok, seed_ok), from_js, script in zip(cases, node.values(jobs),
                                                                 from_script, strict=True):
        parts = answer_parts(answer)
        core = as_tuples(check_match(*parts, public_key_hex=key,
                                     verify_signature=verify_signature,
                                     shown_commitment=shown, client_seed=seed))
        assert core == as_tuples(from_js)
        assert script == output(core)
        assert [c[0] for c in core[2:5]] == ["commitment", "commitment shown", "your client seed"]
        assert (core[3][1], core[4][1]) == (shown_ok, seed_ok)
        assert core[:3] + core[5:] == case["checks"]
    assert core[4][2] == "client seed someone-else is not in client_seeds"
