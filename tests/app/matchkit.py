"""Playing whole matches through the API (Flask test client or live JsonClient), and checking
a finished match from its published answer alone."""

import random

from playkit import call

from app.ledger.signing import verify_object, verify_signature
from fairness import audit, commitment, digest, replay, seat_stream

CLIENT_SEED = "test-client-seed"


def create(client, ruleset: str, bots=(), **extra) -> dict:
    """A new match of the client's; returns its state."""
    status, body = call(client, "POST", "/matches", {"ruleset": ruleset, "bots": list(bots),
                                                      **extra})
    assert status == 201, body
    return body["match"]


def next_move(state: dict, rng: random.Random, client_seed: str = CLIENT_SEED):
    """The next (path suffix, body) a simple random player sends on its turn."""
    own = state["seats"][state["you"]]
    if state["play"] is not None and (own["rolls_left"] == 0 or rng.random() < 0.4):
        allowed = state["play"]["allowed"]
        best = max(allowed, key=lambda box: (state["play"]["previews"][box], rng.random()))
        return "score", {"category": best, "roll": state["next_action"]}
    if own["dice"] is None:
        body = {"hold": None, "roll": state["next_action"]}
        if own["client_seed"] is None:
            body["client_seed"] = client_seed
        return "roll", body
    hold = [rng.random() < 0.5 for _ in range(5)]
    return "roll", {"hold": hold, "roll": state["next_action"]}


def play_to_end(client, state: dict, rng: random.Random, client_seed: str = CLIENT_SEED) -> dict:
    """Play the client's seat until the match ends; returns the final state."""
    while state["status"] == "playing":
        action, body = next_move(state, rng, client_seed)
        status, answer = call(client, "POST", f"/matches/{state['id']}/{action}", body)
        assert status == 200, answer
        state = answer["match"]
    return state


def check_published(state: dict, public_key_hex: str, ledger: list[dict] | None = None) -> None:
    """Assert what anyone can check of an ended match: the signature, the commitment, every
    seat's rolls replayed from its own stream, the transcripts' hashes and totals; and, given
    the ledger's entries, that the core's audit passes every check."""
    result = state["result"]
    if ledger is not None:
        result_, transcripts = audit.answer_parts({"match": state})
        checks = audit.check_match_in_ledger(ledger, result_, transcripts, verify_signature)
        assert all(check.ok is True for check in checks), [c for c in checks if c.ok is not True]
    assert verify_object(public_key_hex, result)
    seed = bytes.fromhex(state["server_seed"])
    assert state["dealing"] == "per-turn" and result["dealing"] == "per-turn"
    assert commitment(seed, "per-turn") == state["commitment"] == result["commitment"]
    for seat in state["seats"]:
        stream = seat_stream(seed, result["client_seeds"], state["id"], seat["seat"],
                             state["ruleset"], "per-turn")
        game = replay(seat["transcript"], stream)
        row = result["seats"][seat["seat"]]
        assert row["transcript_sha256"] == digest(seat["transcript"])
        assert row["total"] == game.totals().total


def rolls_by_turn(transcript: list[dict]) -> list[list[dict]]:
    """A seat's roll entries, turn by turn (the turn being played last, if it has rolled)."""
    turns, current = [], []
    for entry in transcript:
        if entry["action"] == "roll":
            current.append(entry)
        else:
            turns.append(current)
            current = []
    return turns + ([current] if current else [])
