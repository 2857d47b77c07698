"""The log mode of both command lines — ``verify.py log`` (run as a player runs it) and
``yacht-daily verify log`` — on the vectors' v2 day written to files: it holds with the
witness required; a missing witness, a quorum not met or a forked saved checkpoint is exit 1."""

import json

import pytest
from click.testing import CliRunner

from app.cli.main import main as cli
from tests.verify.conftest import run_verify_py
from tests.verify.logkit import checkpoint_of, leaf_hashes, log_case, sign_body

OTHER_WITNESS = "witness.example/w2+20fc3ed5+BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


@pytest.fixture(scope="module")
def files(vectors, tmp_path_factory):
    """The v2 day's yahtzee ledger, log, games, a receipt, its proof and a saved checkpoint."""
    folder = tmp_path_factory.mktemp("log-files")
    day = vectors["tlog"]["day"]
    game = next(g for g in day["games"]["yahtzee"] if g["receipt"])
    proof = next({k: p[k] for k in ("index", "size", "path")} for p in day["proofs"]
                 if p["game"] == game["id"])
    case = log_case(vectors)
    first = checkpoint_of(case, leaf_hashes(case.games)[:1], "2026-12-01T10:01:00Z", None)
    written = {"ledger": {"entries": day["entries"]}, "log": day["logs"]["yahtzee"],
               "games": day["games"]["yahtzee"], "receipt": game["receipt"], "proof": proof}
    paths = {}
    for name, value in written.items():
        paths[name] = folder / f"{name}.json"
        paths[name].write_text(json.dumps(value), encoding="utf-8")
    paths["saved"] = folder / "saved.txt"
    paths["saved"].write_text(day["logs"]["yahtzee"]["checkpoints"][0]["note"], "utf-8")
    paths["fork"] = folder / "fork.txt"
    paths["fork"].write_text(sign_body(first), "utf-8")  # size 1: the log serves no size 1
    return paths, vectors["tlog"]["witness"]["vkey"]


def arguments(files, *extra) -> list[str]:
    """The log mode's arguments for the files, then ``extra``."""
    paths, _ = files
    return ["log", "--ledger", str(paths["ledger"]), "--log", str(paths["log"]), "--date",
            "2026-12-02", "--sheet", "yahtzee", "--games", str(paths["games"]), "--receipt",
            str(paths["receipt"]), "--proof", str(paths["proof"]), *extra]


def both(files, *extra) -> list[tuple[int, str]]:
    """(exit status, output) of verify.py and of yacht-daily verify."""
    standalone = run_verify_py(*arguments(files, *extra))
    core = CliRunner().invoke(cli, ["verify", *arguments(files, *extra)])
    return [(standalone.returncode, standalone.stdout), (core.exit_code, core.output)]


def test_the_log_holds_with_its_witness(files):
    paths, witness = files
    for status, output in both(files, "--witness", witness, "--saved", str(paths["saved"])):
        assert status == 0, output
        for name in ("log consistency", "log close", "cosignatures", "final transcripts",
                     "receipt in log", "receipt time", "saved checkpoints"):
            assert f"✓ {name}:" in output


def test_a_witness_that_did_not_cosign_fails(files):
    _, witness = files
    for status, output in both(files, "--witness", witness, "--witness", OTHER_WITNESS):
        assert status == 1, output
        assert "✗ cosignatures:" in output and "fewer than the 2 required" in output


def test_a_saved_checkpoint_the_log_does_not_serve_fails(files):
    paths, _ = files
    for status, output in both(files, "--saved", str(paths["fork"])):
        assert status == 1, output
        assert "✗ saved checkpoints:" in output


def test_a_bad_witness_key_is_a_usage_error(files):
    for status, _ in both(files, "--witness", "not-a-key"):
        assert status == 2
