"""The built verify.py's service log modes, run as a player runs them, on files made with the
core: ``fork`` says PROVEN (exit 0) for two signed histories (one size, two roots; a signed
prefix the larger tree does not begin with), NOT PROVEN (exit 1) for an honest pair or a note
whose signature was tampered with; ``proof`` holds (exit 0) on a game's proof to keep, built
from the vectors' v2 day entered in a service log, fails (exit 1) on a tampered receipt or a
wrong seed, and says what it could not check without the keys and the seed (exit 3)."""

import base64
import copy
import json

import pytest

from fairness import merkle
from fairness.service_log import LogCheckpoint, fork_proof_ranges, format_fork, log_vkey
from fairness.tlog_proof import TlogProof, format_tlog_proof
from tests.fairness.service_log_kit import (
    LOG_KEY,
    ORIGIN,
    WITNESS_KEYS,
    cosigned,
    private_key,
    signed,
)
from tests.verify.conftest import run_verify_py
from verifier.proof_mode import entry_of, game_proof_extra

W1 = WITNESS_KEYS[0]


def tree_root(leaves: list[bytes], start: int, end: int) -> bytes:
    """MTH of leaf hashes ``start`` to ``end`` (excluded)."""
    return merkle.root(leaves[start:end])


def subproof(leaves: list[bytes], old: int) -> list[bytes]:
    """SUBPROOF(old, D[n], false) of the tree over ``leaves``."""
    return [tree_root(leaves, start, end) for start, end in fork_proof_ranges(old, len(leaves))]


def leaves_of(count: int, tag: str) -> list[bytes]:
    """``count`` leaf hashes of made-up entries."""
    return [merkle.leaf_hash(f"{tag} entry {i}\n".encode()) for i in range(count)]


def note_of(leaves: list[bytes], key=None) -> str:
    """The signed service log checkpoint of these leaves."""
    checkpoint = LogCheckpoint(ORIGIN, len(leaves), merkle.root(leaves))
    return signed(checkpoint) if key is None else signed(checkpoint, key)


LOG_VKEY = LOG_KEY.text()


def run_fork(tmp_path, text: str, log_key=LOG_VKEY):
    """verify.py fork on a file holding ``text``."""
    path = tmp_path / "evidence.json"
    path.write_text(text, encoding="utf-8")
    return run_verify_py("fork", path, "--log-key", log_key)


@pytest.mark.parametrize("old_size", [3, 4])
def test_a_signed_prefix_the_larger_tree_does_not_begin_with_is_proven(tmp_path, old_size):
    """Size m signed over one history, size 7 over another: PROVEN, exit 0 (m = 4 a power of
    two: the subproof carries the first m leaves' root in front)."""
    honest, other = leaves_of(7, "a"), leaves_of(7, "b")
    old = note_of(honest[:old_size])
    new = note_of(other)
    done = run_fork(tmp_path, format_fork(old, new, subproof(other, old_size)))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("PROVEN: the signed tree of 7 leaves begins with a tree")


def test_the_vectors_fork_file_is_proven_and_its_honest_half_is_not(tmp_path, vectors):
    log = vectors["service_log"]
    proven = run_fork(tmp_path, log["fork"], log["vkey"])
    assert proven.returncode == 0 and proven.stdout.startswith("PROVEN"), proven.stdout
    first, last = log["checkpoints"]
    honest = format_fork(first["note"], last["note"], [
        base64.b64decode(h) for h in log["consistency"]["proof"]])
    refused = run_fork(tmp_path, honest, log["vkey"])
    assert refused.returncode == 1 and refused.stdout.startswith("NOT PROVEN"), refused.stdout


def test_one_size_two_roots_is_proven(tmp_path):
    """Two signed checkpoints of size 5 with different roots: PROVEN."""
    done = run_fork(tmp_path, format_fork(note_of(leaves_of(5, "a")),
                                          cosigned(note_of(leaves_of(5, "b")), W1.name), []))
    assert done.returncode == 0, done.stdout
    assert done.stdout == "PROVEN: two signed checkpoints of size 5 have different roots\n"


def test_an_honest_pair_is_not_proven(tmp_path):
    """A prefix and its extension with the honest subproof: NOT PROVEN, exit 1."""
    leaves = leaves_of(9, "a")
    done = run_fork(tmp_path, format_fork(note_of(leaves[:6]), note_of(leaves),
                                          subproof(leaves, 6)))
    assert done.returncode == 1, done.stdout
    assert done.stdout.startswith("NOT PROVEN: the tree of 6 leaves is a prefix of the tree")


def test_a_tampered_note_or_another_key_proves_nothing(tmp_path):
    """A note whose root was changed after signing, or both notes signed by another key: NOT
    PROVEN; a file that is not a fork file or a bad key: exit 2."""
    a, b = leaves_of(5, "a"), leaves_of(5, "b")
    good = note_of(a)
    root_line = base64.b64encode(merkle.root(a)).decode()
    tampered = good.replace(root_line, base64.b64encode(merkle.root(b)).decode())
    done = run_fork(tmp_path, format_fork(good, tampered, []))
    assert done.returncode == 1
    assert "NOT PROVEN: a note is not a checkpoint validly signed by the log" in done.stdout
    stranger = private_key(99)
    done = run_fork(tmp_path, format_fork(note_of(a, stranger), note_of(b, stranger), []))
    assert done.returncode == 1 and done.stdout.startswith("NOT PROVEN")
    assert run_fork(tmp_path, "{}\n").returncode == 2
    assert run_fork(tmp_path, format_fork(good, good, []), "not-a-vkey").returncode == 2


# ------------------------------------------------------------------ a game's proof to keep


@pytest.fixture(scope="module")
def game_proof(vectors):
    """A game's proof file made with the core: the vectors' v2 day's checkpoints entered in a
    service log, the first yahtzee game's day checkpoint (size 3) proven in its checkpoint
    cosigned by a witness; and what went into it."""
    day = vectors["tlog"]["day"]
    entries = [entry_of(item["note"]) for sheet in ("yacht", "yahtzee")
               for item in day["logs"][sheet]["checkpoints"]]
    game = day["games"]["yahtzee"][0]
    position = 1  # the yahtzee log's checkpoint of size 3, the proof's size
    entry = entry_of(day["logs"]["yahtzee"]["checkpoints"][position]["note"])
    index = entries.index(entry)
    proof = next({k: p[k] for k in ("index", "size", "path")} for p in day["proofs"]
                 if p["game"] == game["id"])
    assert proof["size"] == 3
    leaves = [merkle.leaf_hash(text.encode()) for text in entries]
    note = cosigned(note_of(leaves), W1.name, timestamp=1796119265)
    epoch = day["entries"][0]
    seed = next(e["seed"] for e in day["entries"] if e.get("date") == day["date"])
    extra = game_proof_extra(entry, epoch, game["receipt"], proof, game["transcript"])

    def made(receipt=game["receipt"], transcript=game["transcript"]) -> str:
        """The file's text with this receipt and transcript."""
        data = game_proof_extra(entry, epoch, receipt, proof, transcript)
        return format_tlog_proof(TlogProof(index, tuple(merkle.inclusion_path(index, leaves)),
                                           note, data))

    assert json.loads(extra)["type"] == "yacht-daily/game-proof/v1"
    return {"made": made, "seed": seed, "receipt": game["receipt"], "epoch": epoch}


def run_proof(tmp_path, text: str, *options):
    """verify.py proof on a file holding ``text``."""
    path = tmp_path / "game.tlog-proof"
    path.write_text(text, encoding="utf-8")
    return run_verify_py("proof", path, *options)


def all_options(game_proof, seed=None):
    """The log key, the witness and the seed."""
    return ["--log-key", LOG_KEY.text(), "--witness", W1.text(),
            "--seed", seed or game_proof["seed"]]


def test_a_good_proof_holds(tmp_path, game_proof):
    """Every check holds: the log's signature, the witness, the entry, the epoch's key (printed),
    the day checkpoint, the receipt, its inclusion, every roll and the total."""
    done = run_proof(tmp_path, game_proof["made"](), *all_options(game_proof),
                     "--expect-key", game_proof["epoch"]["public_key"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    names = [line.split(":")[0][2:] for line in lines[:-1]]
    for name in ("service log signature", "cosignatures", "entry in the service log",
                 "epoch entry", "epoch signature", "day checkpoint", "day checkpoint signature",
                 "receipt signature", "receipt in the day checkpoint", "transcript hash", "seed",
                 "total", "epoch 1 key"):
        assert name in names, (name, done.stdout)
    assert game_proof["epoch"]["public_key"] in done.stdout
    assert lines[-1].startswith("All ") and lines[-1].endswith(" checks hold.")


def test_without_keys_and_seed_nothing_fails_but_it_is_not_verified(tmp_path, game_proof):
    """No --log-key, --witness or --seed: exit 3, naming what was not checked."""
    done = run_proof(tmp_path, game_proof["made"]())
    assert done.returncode == 3, done.stdout
    assert "- service log signature: NOT checked: give the log's key" in done.stdout
    assert "- dice: NOT checked: give the date's seed" in done.stdout


def test_a_tampered_receipt_fails(tmp_path, game_proof):
    """A receipt whose total was raised: its signature and its inclusion fail."""
    receipt = copy.deepcopy(game_proof["receipt"])
    receipt["total"] += 50
    done = run_proof(tmp_path, game_proof["made"](receipt=receipt), *all_options(game_proof))
    assert done.returncode == 1, done.stdout
    assert "✗ receipt signature:" in done.stdout
    assert "✗ receipt in the day checkpoint:" in done.stdout
    assert "✗ total: recomputed 201 ≠ receipt total 251" in done.stdout


def test_a_wrong_seed_fails(tmp_path, game_proof):
    """A seed that does not hash down to the epoch's anchor fails."""
    done = run_proof(tmp_path, game_proof["made"](), *all_options(game_proof, "ab" * 32))
    assert done.returncode == 1, done.stdout
    assert "✗ seed: seed abababababab… hashed down 2 times does not give" in done.stdout


def test_a_wrong_log_key_or_a_missing_witness_fails(tmp_path, game_proof):
    """Another log key fails the log's signature; a witness that did not cosign misses the
    quorum."""
    other = log_vkey(ORIGIN, bytes(32))
    done = run_proof(tmp_path, game_proof["made"](), "--log-key", other,
                     "--witness", WITNESS_KEYS[1].text())
    assert done.returncode == 1
    assert "✗ service log signature:" in done.stdout
    assert "✗ cosignatures: valid cosignatures by 0 named witnesses (none) < quorum 1" \
        in done.stdout


def test_a_file_that_is_no_proof_fails(tmp_path, game_proof):
    """Not a tlog-proof, or one without the game: one failing format line."""
    done = run_proof(tmp_path, "hello\n")
    assert done.returncode == 1 and "✗ proof format:" in done.stdout
    text = game_proof["made"]()
    without_extra = "\n".join(line for line in text.split("\n")
                              if not line.startswith("extra "))
    done = run_proof(tmp_path, without_extra)
    assert done.returncode == 1 and "no extra line" in done.stdout
