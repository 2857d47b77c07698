"""A whole v2 date through the API on a real Redis with a test clock: games finishing over
several minutes, checkpoints cut each minute, proofs served before the reveal, consistency
between every pair, the close checkpoint as the reveal's root, and the core's log checks."""

import random

from app.ledger.reveal_runner import RevealRunner
from app.ledger.signing import verify_signature
from app.services import EXTENSION
from fairness import audit, merkle
from fairness import checkpoint as tlog
from fairness.audit import log_checks
from fairness.ledger import RECEIPT_V2_TYPE, REVEAL_V2_TYPE, receipt_leaf_hash
from fairness.note import parse_note
from tests.app.playkit import PLAY_DATE, call, play_to_end, start


def run_pass(app):
    """One pass of the reveal runner: checkpoints due, then reveals due."""
    return RevealRunner(app.extensions[EXTENSION]).run_once()


def play_games(app, clock, count: int, ruleset: str, seed: int) -> list[dict]:
    """``count`` players each finish a game of ``ruleset``, a minute apart."""
    rng = random.Random(seed)
    finished = []
    for _ in range(count):
        player = app.test_client()
        finished.append((player, play_to_end(player, start(player, ruleset, PLAY_DATE), rng)))
        clock.advance(seconds=70)
        run_pass(app)
    return finished


def test_a_whole_date_logged(app, clock):
    """Checkpoints are cut, proofs verify before the reveal, the reveal is v2 and all checks
    pass."""
    games = play_games(app, clock, 3, "yacht", 1)
    player, state = games[0]
    assert state["receipt"]["type"] == RECEIPT_V2_TYPE
    assert [g[1]["receipt"]["index"] for g in games] == [0, 1, 2]
    status, published = call(player, "GET", f"/logs/{PLAY_DATE}/yacht")
    assert status == 200 and len(published["checkpoints"]) == 3
    status, proof = call(player, "GET", f"/games/{state['id']}/proof")
    assert status == 200, proof
    body, _ = parse_note(proof["checkpoint"])
    cp = tlog.parse_checkpoint(body)
    assert merkle.verify_inclusion(receipt_leaf_hash(state["receipt"]), proof["proof"]["index"],
                                   cp.size, [bytes.fromhex(h) for h in proof["proof"]["path"]],
                                   cp.root)
    sizes = [tlog.parse_checkpoint(parse_note(c["note"])[0]).size
             for c in published["checkpoints"]]
    roots = {s: tlog.parse_checkpoint(parse_note(c["note"])[0]).root
             for s, c in zip(sizes, published["checkpoints"], strict=True)}
    for m in sizes:
        for n in sizes:
            if m <= n:
                status, answer = call(player, "GET", f"/logs/{PLAY_DATE}/yacht/consistency"
                                      f"?from={m}&to={n}")
                assert status == 200
                assert merkle.verify_consistency(m, n, roots[m], roots[n],
                                                 [bytes.fromhex(h) for h in answer["proof"]])
    clock.set("2026-03-11T13:02:00Z")
    assert run_pass(app).revealed[-1] == PLAY_DATE
    status, ledger = call(player, "GET", "/ledger")
    entries = ledger["entries"]
    assert entries[-1]["type"] == REVEAL_V2_TYPE
    status, published = call(player, "GET", f"/logs/{PLAY_DATE}/yacht")
    status, day = call(player, "GET", f"/days/{PLAY_DATE}/yacht/games")
    checks = [*log_checks.check_log(entries, PLAY_DATE, "yacht", published, verify_signature),
              *log_checks.check_final_transcripts(published, day["games"])]
    assert all(c.ok is not False for c in checks), [c for c in checks if c.ok is False]
    for _, state in games:
        status, proof = call(player, "GET", f"/games/{state['id']}/proof")
        checks = audit.check_game(entries, state["receipt"], [], proof["proof"], verify_signature)
        assert any(c.name for c in checks)
