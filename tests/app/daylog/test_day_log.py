"""A whole v2 date through the API on a real Redis with a test clock: games finishing over
several minutes, a checkpoint cut at the end of each of those minutes, proofs served before the
reveal, consistency between every pair of checkpoints, witnesses' cosignatures, the close
checkpoint as the reveal's root, and the core's checks of it all; dates begun in v1 stay v1."""

import random

from app import create_app
from app.cli.main import main
from app.daylog.store import log_key
from app.ledger.signing import verify_signature
from app.services import EXTENSION
from fairness import audit, merkle
from fairness import checkpoint as tlog
from fairness.audit import log_checks
from fairness.ledger import (
    RECEIPT_TYPE,
    RECEIPT_V2_TYPE,
    REVEAL_TYPE,
    REVEAL_V2_TYPE,
    receipt_leaf_hash,
)
from fairness.note import parse_note, parse_vkey
from tests.app.logplay import (
    Witness,
    cosign_all,
    day_games,
    finish_games,
    run_pass,
)
from tests.app.playkit import PLAY_DATE, call, play_to_end, start

AFTER_REVEAL = "2026-03-11T13:02:00Z"


def checkpoint_of(note: str) -> tlog.Checkpoint:
    """A note's checkpoint."""
    return tlog.parse_checkpoint(parse_note(note)[0])


def test_a_whole_date_through_its_log(logged_app, clock, witness):
    """Three games a minute apart: three checkpoints, each proof verifying before the reveal,
    every pair consistent, cosigned; the close is the reveal's root and every check holds."""
    games = finish_games(logged_app, clock, 3, "yacht", seed=1)
    player, state = games[0]
    assert [g["receipt"]["type"] for _, g in games] == [RECEIPT_V2_TYPE] * 3
    assert [g["receipt"]["index"] for _, g in games] == [0, 1, 2]
    status, published = call(player, "GET", f"/logs/{PLAY_DATE}/yacht")
    checkpoints = [checkpoint_of(c["note"]) for c in published["checkpoints"]]
    assert [(c.size, c.time[11:]) for c in checkpoints] == [
        (1, "12:01:00Z"), (2, "12:02:00Z"), (3, "12:03:00Z")]
    for owner, game in games:
        status, proof = call(owner, "GET", f"/games/{game['id']}/proof")
        assert status == 200, proof
        cp = checkpoint_of(proof["checkpoint"])
        assert (cp.size, proof["entry"]) == (3, None)
        assert merkle.verify_inclusion(
            receipt_leaf_hash(game["receipt"]), proof["proof"]["index"], cp.size,
            [bytes.fromhex(h) for h in proof["proof"]["path"]], cp.root)
    status, early = call(player, "GET", f"/games/{state['id']}/proof?size=1")
    assert status == 200 and early["proof"] == {"index": 0, "size": 1, "path": []}
    for first in checkpoints:
        for second in checkpoints:
            status, answer = call(player, "GET", f"/logs/{PLAY_DATE}/yacht/consistency"
                                  f"?from={first.size}&to={second.size}")
            if first.size > second.size:
                assert (status, answer["error"]["code"]) == (400, "invalid-size")
                continue
            assert merkle.verify_consistency(first.size, second.size, first.root, second.root,
                                             [bytes.fromhex(h) for h in answer["proof"]])
    cosign_all(player, witness, "yacht")
    status, answer = call(player, "GET", f"/games/{state['id']}")
    assert answer["game"]["checkpoint"]["size"] == 3
    assert witness.name in answer["game"]["checkpoint"]["note"]

    clock.set(AFTER_REVEAL)
    assert run_pass(logged_app).revealed[-1] == PLAY_DATE
    status, ledger = call(player, "GET", "/ledger")
    entries = ledger["entries"]
    reveal = entries[-1]
    assert reveal["type"] == REVEAL_V2_TYPE
    cosign_all(player, witness, "yacht")  # the close too
    status, published = call(player, "GET", f"/logs/{PLAY_DATE}/yacht")
    close = checkpoint_of(published["checkpoints"][-1]["note"])
    assert (close.size, close.time, close.close.games) == (3, "2026-03-11T13:00:00Z", 3)
    assert reveal["roots"]["yacht"] == close.root.hex()
    checks = [*log_checks.check_log(entries, PLAY_DATE, "yacht", published, verify_signature,
                                    [parse_vkey(witness.vkey)], 1),
              *log_checks.check_final_transcripts(published, day_games(player, "yacht"))]
    assert [c for c in checks if c.ok is not True] == []
    for _, game in games:
        status, proof = call(player, "GET", f"/games/{game['id']}/proof")
        assert checkpoint_of(proof["checkpoint"]).close is not None
        checks = audit.check_game(entries, game["receipt"], game["transcript"],
                                  proof["proof"], verify_signature)
        assert [c for c in checks if c.ok is False] == []
        assert [c for c in log_checks.check_receipt_in_log(game["receipt"], published,
                                                            proof["proof"])
                if c.ok is not True] == []
        status, verdict = call(player, "POST", "/verify", {"receipt": game["receipt"],
                                                            "transcript": game["transcript"]})
        assert verdict["ok"] is True, verdict  # the server found the proof in the log
    page = player.get("/ledger?lang=en").get_data(as_text=True)
    assert f"seed {reveal['seed']}" in page  # the ledger page shows a v2 day's reveal too


def test_the_logs_answer_for_what_they_are(logged_app, clock, witness):
    """The listing, 404s for dates and sheets without a log or checkpoint, and every refused
    cosignature; a cosignature is idempotent and nothing refused is stored."""
    player = logged_app.test_client()
    assert call(player, "GET", "/logs") == (200, {"logs": []})  # open, nothing finished yet
    assert call(player, "GET", f"/logs/{PLAY_DATE}/yacht") == (200, {"checkpoints": []})
    assert call(player, "GET", f"/logs/{PLAY_DATE}/yacht/checkpoint")[1]["error"]["code"] == \
        "no-checkpoint"
    for path in ("/logs/2026-04-30/yacht", f"/logs/{PLAY_DATE}/yahtzee-no-bonus",
                 "/logs/2024-01-01/yacht"):
        assert call(player, "GET", path)[1]["error"]["code"] == "unknown-log", path
    finish_games(logged_app, clock, 1, "yahtzee", seed=2)
    status, listing = call(player, "GET", "/logs")
    assert status == 200 and [(log["sheet"], log["size"], log["closed"]) for log in listing["logs"]
                              if log["date"] == PLAY_DATE] == [("yahtzee", 1, False)]
    status, latest = call(player, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")
    body = parse_note(latest["note"])[0]
    path = f"/logs/{PLAY_DATE}/yahtzee/cosignatures"
    stranger = Witness("witness.example/stranger")
    refused = [
        ({"body": body, "signature": stranger.line(body)}, 403, "unknown-witness"),
        ({"body": body.replace("\n1\n", "\n2\n"), "signature": witness.line(body)}, 404,
         "unknown-checkpoint"),
        ({"body": body, "signature": witness.line(body + "x")}, 400, "bad-cosignature"),
        ({"body": body, "signature": "— nonsense"}, 400, "bad-cosignature"),
        ({"body": body}, 400, "bad-cosignature"),
        ({"body": 3, "signature": witness.line(body)}, 400, "bad-cosignature"),
    ]
    for request, code, error in refused:
        status, answer = call(player, "POST", path, request)
        assert (status, answer["error"]["code"]) == (code, error), request
    assert call(player, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")[1] == latest
    line = witness.line(body, timestamp=int(clock().timestamp()))
    for _ in range(2):
        assert call(player, "POST", path, {"body": body, "signature": line}) == \
            (201, {"ok": True})
    assert call(player, "GET", f"/logs/{PLAY_DATE}/yahtzee/checkpoint")[1]["note"] == \
        latest["note"] + line
    status, answer = call(player, "GET", f"/logs/{PLAY_DATE}/yahtzee/consistency?from=0&to=x")
    assert (status, answer["error"]["code"]) == (400, "invalid-size")
    status, answer = call(player, "GET", f"/logs/{PLAY_DATE}/yahtzee/consistency?from=0&to=1")
    assert (status, answer["error"]["code"]) == (400, "invalid-size")  # no checkpoint of 0


def test_finished_games_a_crash_left_out_of_the_log(logged_app, clock):
    """Games whose last action was stored but whose leaf was not (a worker died between the
    two round trips) get their leaf on their next read, or from the close: none is lost."""
    rng = random.Random(3)
    players = [logged_app.test_client() for _ in range(2)]
    finals = [play_to_end(p, start(p, "yacht-bonus", PLAY_DATE), rng) for p in players]
    client = logged_app.extensions[EXTENSION].game_store.client
    for final in finals:  # as if neither leaf had been written
        client.hdel(log_key(PLAY_DATE, "yacht-bonus", "index"), final["id"])
        client.rpop(log_key(PLAY_DATE, "yacht-bonus", "leaves"))
        client.hdel(f"{{g:{final['id']}}}", "receipt")
    fresh = create_app({**logged_app.config, "CLOCK": clock})  # another worker: no cache
    status, answer = call(fresh.test_client(), "GET", f"/games/{finals[0]['id']}")
    assert status == 403  # the game is repaired all the same, but not shown to a stranger
    status, answer = call(players[0], "GET", f"/games/{finals[0]['id']}")
    assert answer["game"]["receipt"]["index"] == 0
    clock.set(AFTER_REVEAL)
    run_pass(logged_app)
    status, ledger = call(players[0], "GET", "/ledger")
    status, published = call(players[0], "GET", f"/logs/{PLAY_DATE}/yacht-bonus")
    games = day_games(players[0], "yacht-bonus")
    assert sorted((g["status"], g["receipt"]["index"]) for g in games) == [
        ("finished", 0), ("finished", 1)]
    checks = [*log_checks.check_log(ledger["entries"], PLAY_DATE, "yacht-bonus", published,
                                    verify_signature),
              *log_checks.check_final_transcripts(published, games)]
    assert [c for c in checks if c.ok is not True] == []


def test_dates_begun_in_v1_stay_v1(logged_app, clock, redis_url, data_dir):
    """A date a v1 process started, and a date whose games predate the format marker (its
    marker removed here), stay v1 for a v2 process: v1 receipts, a v1 reveal, no log."""
    v1_app = create_app({**logged_app.config, "CLOCK": clock, "DAY_FORMAT": "1"})
    start(v1_app.test_client(), "yacht", PLAY_DATE)
    newer = logged_app.test_client()
    state = play_to_end(newer, start(newer, "yacht", PLAY_DATE), random.Random(6))
    assert state["receipt"]["type"] == RECEIPT_TYPE
    assert call(newer, "GET", f"/logs/{PLAY_DATE}/yacht")[1]["error"]["code"] == "unknown-log"
    tomorrow = "2026-03-11"
    start(logged_app.test_client(), "yahtzee", tomorrow)
    logged_app.extensions[EXTENSION].game_store.client.delete(f"{{d:{tomorrow}}}:format")
    later = logged_app.test_client()
    state = play_to_end(later, start(later, "yacht", tomorrow), random.Random(7))
    assert state["receipt"]["type"] == RECEIPT_TYPE
    clock.set("2026-03-12T13:02:00Z")
    run_pass(logged_app)
    entries = call(newer, "GET", "/ledger")[1]["entries"]
    assert [e["type"] for e in entries if e.get("date") in (PLAY_DATE, tomorrow)] == \
        [REVEAL_TYPE, REVEAL_TYPE]


def test_the_checkpoint_command_cuts_for_a_timer(logged_app, clock, redis_url, data_dir,
                                                 monkeypatch, tmp_path):
    """``yacht-daily checkpoint`` cuts what is due once, then has nothing to do."""
    finish_games(logged_app, clock, 1, "yacht", seed=8, pause=0)  # finished at 12:00:00
    clock_file = tmp_path / "clock"
    clock_file.write_text("2026-03-10T12:01:05Z")
    monkeypatch.setenv("YACHT_DAILY_CLOCK_FILE", str(clock_file))
    monkeypatch.setenv("YACHT_DAILY_DAY_FORMAT", "2")
    monkeypatch.setenv("REDIS_URL", redis_url)
    runner = logged_app.test_cli_runner()
    done = runner.invoke(main, ["checkpoint", "--data-dir", str(data_dir)])
    assert (done.exit_code, done.output) == (0, f"Checkpoint {PLAY_DATE} yacht: 1 games\n")
    again = runner.invoke(main, ["checkpoint", "--data-dir", str(data_dir)])
    assert (again.exit_code, again.output) == (0, "No checkpoint due.\n")
