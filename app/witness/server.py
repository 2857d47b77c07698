"""A witness speaking C2SP tlog-witness (c2sp.org/tlog-witness): ``POST /add-checkpoint`` for the
logs it is configured with (their vkeys: the key name is the log's origin), and ``GET /`` saying
who it is. The decision is ``fairness.witness_protocol.decide``; this is its shell: the state
file, the lock, the key and the clock.

Invariants: per origin the state file holds the last checkpoint this witness cosigned (size,
root, the signed note as submitted); one request at a time reads it, decides and replaces it
(``state.updating``), so two requests never roll the size back; the new state is on disk
(flushed, renamed, the directory flushed) before a cosignature is answered. A refused request
by a trusted origin whose note carries the log's valid signature (same size, another root; a
proof that does not verify) is kept in the state's refusals as evidence, once per offered note.
"""

import base64
import datetime as dt
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, request

from app.ledger.signing import verify_signature
from app.platform.clock import system_clock
from app.witness import state as witness_state
from app.witness.key import WitnessKey
from app.witness.state import Accepted, Refusal, WitnessState
from fairness.checkpoint import body_hash
from fairness.note import VerifierKey
from fairness.witness_protocol import (
    COSIGN,
    MAX_REQUEST_BYTES,
    SIZE_CONTENT_TYPE,
    STALE_OLD_SIZE,
    AddCheckpoint,
    Decision,
    WitnessProtocolError,
    decide,
    format_cosignature_lines,
    format_size,
    parse_add_checkpoint,
    read_signed_checkpoint,
)

TEXT = "text/plain; charset=utf-8"
LOGGER = logging.getLogger("yacht_daily.witness")


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, content type, body."""

    status: int
    content_type: str
    body: bytes


def trusted_logs(vkeys: Sequence[VerifierKey]) -> dict[str, list[VerifierKey]]:
    """The log keys by origin (a vkey's name is its log's origin; one origin may have several
    keys, e.g. across a rotation)."""
    logs: dict[str, list[VerifierKey]] = {}
    for vkey in vkeys:
        logs.setdefault(vkey.name, []).append(vkey)
    return logs


class CheckpointWitness:
    """The add-checkpoint endpoint of one witness: its key, state file, trusted logs, clock."""

    def __init__(self, key: WitnessKey, state_path: Path,
                 logs: Mapping[str, Sequence[VerifierKey]],
                 clock: Callable[[], dt.datetime]):
        """Cosign as ``key`` the logs ``logs`` names, remembering in ``state_path``."""
        self.key, self.state_path, self.logs, self.clock = key, state_path, logs, clock

    def add_checkpoint(self, body: bytes) -> Answer:
        """Answer one request body as the spec says; persist before a 200."""
        try:
            submitted = parse_add_checkpoint(body)
        except WitnessProtocolError as error:
            return _text(400, str(error))
        origin = read_signed_checkpoint(submitted.checkpoint).checkpoint.origin
        with witness_state.updating(self.state_path):
            state = witness_state.read(self.state_path)
            accepted = state.logs.get(origin) if origin in self.logs else None
            last = (accepted.size, bytes.fromhex(accepted.root)) if accepted else None
            decision = decide(submitted, self.logs, last, verify_signature)
            if decision.outcome == COSIGN:
                return self._cosign(state, submitted, decision)
            if decision.is_evidence:
                self._keep_evidence(state, submitted, decision, accepted)
        LOGGER.info("add-checkpoint %s: %s %s", origin, decision.status, decision.reason)
        if decision.outcome == STALE_OLD_SIZE:
            return Answer(409, SIZE_CONTENT_TYPE, format_size(decision.known_size))
        return _text(decision.status, decision.reason)

    def _cosign(self, state: WitnessState, submitted: AddCheckpoint,
                decision: Decision) -> Answer:
        """Record the checkpoint as the last cosigned (on disk), then answer its cosignature."""
        signed = decision.checkpoint
        checkpoint = signed.checkpoint
        cosignature = self.key.cosignature(signed.text, int(self.clock().timestamp()))
        state.logs[checkpoint.origin] = Accepted(
            size=checkpoint.size, root=checkpoint.root.hex(),
            body_sha256=body_hash(signed.text).hex(), note=submitted.checkpoint, cosigned=True)
        witness_state.write(self.state_path, state)
        LOGGER.info("add-checkpoint %s: cosigned size %d", checkpoint.origin, checkpoint.size)
        return Answer(200, TEXT, format_cosignature_lines([cosignature]).encode("utf-8"))

    def _keep_evidence(self, state: WitnessState, submitted: AddCheckpoint, decision: Decision,
                       accepted: Accepted | None) -> None:
        """Keep a refused, log-signed checkpoint in the state's refusals (once per note)."""
        origin = decision.checkpoint.checkpoint.origin
        if any(r.origin == origin and r.kind == decision.outcome
               and r.offered_note == submitted.checkpoint for r in state.refused):
            return
        state.refused.append(Refusal(
            origin=origin, kind=decision.outcome,
            detail=f"old {submitted.old_size}: {decision.reason}",
            seen_at=self.clock().astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            accepted_note=accepted.note if accepted else None,
            offered_note=submitted.checkpoint,
            proof=[base64.b64encode(hash_).decode("ascii") for hash_ in submitted.proof]))
        witness_state.write(self.state_path, state)
        LOGGER.warning("add-checkpoint %s: REFUSED %s (%s); the evidence is kept in %s",
                       origin, decision.outcome, decision.reason, self.state_path)

    def describe(self) -> str:
        """Who this witness is and which logs it witnesses, one vkey a line."""
        lines = [f"witness {self.key.vkey}"]
        lines += [f"log {key.text()}" for keys in self.logs.values() for key in keys]
        return "".join(line + "\n" for line in lines)


def create_witness_app(key: WitnessKey, state_path: Path, log_keys: Sequence[VerifierKey],
                       clock: Callable[[], dt.datetime] | None = None) -> Flask:
    """The witness's WSGI app: ``POST /add-checkpoint`` and ``GET /``."""
    witness = CheckpointWitness(key, state_path, trusted_logs(log_keys),
                                clock or system_clock())
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES  # larger: 413 before any reading

    @app.post("/add-checkpoint")
    def add_checkpoint() -> Response:
        answer = witness.add_checkpoint(request.get_data(cache=False))
        return Response(answer.body, status=answer.status, content_type=answer.content_type)

    @app.get("/")
    def index() -> Response:
        return Response(witness.describe(), content_type=TEXT)

    return app


def _text(status: int, message: str) -> Answer:
    """A plain-text answer of one line."""
    return Answer(status, TEXT, (message + "\n").encode("utf-8"))
