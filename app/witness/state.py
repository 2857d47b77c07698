"""A witness's state file: its name, the epoch keys it pinned, per log origin the last
checkpoint it accepted, and the evidence of every checkpoint it refused.

One JSON document, replaced atomically (written to a temporary file in the same directory,
flushed to disk, then renamed over the old one), so a crash leaves the old state or the new
one, never half of either. An exclusive lock on ``<state>.lock`` keeps two witness processes
from sharing one state file. A witness serving add-checkpoint holds that lock for its life
and, per request, ``updating``'s lock across reading, checking and replacing the state, so that
no two requests (threads or worker processes) interleave.
"""

import contextlib
import fcntl
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FORMAT = "yacht-daily/witness-state/v1"
# Refusals that prove the log showed two histories (its own signatures on both): the witness
# stops cosigning that log. A malformed or badly signed checkpoint proves nothing about the
# log (anyone on the way could send it) and is refused again at each pass.
PROVEN = ("fork", "rollback", "inconsistent")


class StateError(Exception):
    """The state file cannot be used: unreadable, of another format, or locked by another
    witness process."""


@dataclass
class Accepted:
    """The last checkpoint of one log the witness verified and accepted."""

    size: int
    root: str  # hex
    body_sha256: str  # hex
    note: str  # the signed note as the log served it
    cosigned: bool  # whether the log took our cosignature of it

    def as_json(self) -> dict:
        """The JSON form kept in the state file."""
        return {"size": self.size, "root": self.root, "body_sha256": self.body_sha256,
                "note": self.note, "cosigned": self.cosigned}


@dataclass
class Refusal:
    """Evidence of a checkpoint the witness refused: what it had accepted and what it was
    shown (both signed notes, as served), and the proof it was given."""

    origin: str
    kind: str  # PROVEN, or malformed, bad-signature, wrong-origin, key-changed
    detail: str
    seen_at: str
    accepted_note: str | None
    offered_note: str | None
    proof: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        """The JSON form kept in the state file."""
        return {"origin": self.origin, "kind": self.kind, "detail": self.detail,
                "seen_at": self.seen_at, "accepted_note": self.accepted_note,
                "offered_note": self.offered_note, "proof": self.proof}


@dataclass
class WitnessState:
    """Everything a witness remembers between passes."""

    name: str | None = None
    epochs: dict[str, str] = field(default_factory=dict)  # epoch number → pinned key hex
    logs: dict[str, Accepted] = field(default_factory=dict)  # origin → last accepted
    refused: list[Refusal] = field(default_factory=list)

    def refused_origins(self) -> set[str]:
        """The logs this witness caught in a fork or an inconsistency: it cosigns them no more."""
        return {refusal.origin for refusal in self.refused if refusal.kind in PROVEN}

    def as_json(self) -> dict:
        """The whole state as JSON."""
        return {"format": FORMAT, "name": self.name, "epochs": self.epochs,
                "logs": {origin: accepted.as_json() for origin, accepted in self.logs.items()},
                "refused": [refusal.as_json() for refusal in self.refused]}


def read(path: Path) -> WitnessState:
    """The state in ``path``; a fresh one if there is no such file."""
    if not path.exists():
        return WitnessState()
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document.get("format") != FORMAT:
            raise StateError(f"{path} is not a witness state file ({FORMAT})")
        return WitnessState(
            name=document["name"],
            epochs=dict(document["epochs"]),
            logs={origin: Accepted(**accepted) for origin, accepted in document["logs"].items()},
            refused=[Refusal(**refusal) for refusal in document["refused"]],
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise StateError(f"cannot read the witness state {path}: {error}") from None


def write(path: Path, state: WitnessState) -> None:
    """Replace the state file atomically with ``state``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(state.as_json(), handle, indent=1, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


@contextlib.contextmanager
def locked(path: Path):
    """Hold the state file's lock for the duration, or raise StateError if another witness
    process holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StateError(f"another witness process uses {path}") from None
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


@contextlib.contextmanager
def updating(path: Path):
    """Hold ``<state>.update.lock`` for the duration, waiting for it: one read-check-write of
    the state at a time, across the threads and processes of one witness (each ``open`` is its
    own lock holder, so threads of one process exclude each other too)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".update.lock"), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
