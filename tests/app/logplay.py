"""A v2 (logged) app and what the day's log tests do with it: finish games a minute apart,
run the reveal runner's passes, cosign checkpoints as a witness."""

import datetime as dt
import random
import re
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.ledger.reveal_runner import RevealRunner
from app.services import EXTENSION
from fairness import checkpoint as tlog
from fairness import note as notes
from tests.app.playkit import PLAY_DATE, call, play_to_end, start

WITNESS_NAME = "witness.example/w1"


class Witness:
    """A witness's Ed25519 key and name: its vkey, its cosignature lines."""

    def __init__(self, name: str = WITNESS_NAME):
        """A fresh key."""
        self.name = name
        self.key = Ed25519PrivateKey.generate()
        self.public = self.key.public_key().public_bytes_raw()

    @property
    def vkey(self) -> str:
        """Its C2SP verifier key."""
        return notes.VerifierKey(self.name, notes.COSIGNATURE_V1, self.public).text()

    def line(self, body: str, timestamp: int | None = None) -> str:
        """Its cosignature line of a checkpoint body, at ``timestamp`` or else at the
        checkpoint's own time (a time the log takes whatever the test clock says: never before
        the checkpoint, never after the clock that cut it)."""
        timestamp = checkpoint_time(body) if timestamp is None else timestamp
        signature = self.key.sign(tlog.cosigned_message(body, timestamp))
        return notes.NoteSignature(self.name, notes.key_id(self.name, notes.COSIGNATURE_V1,
                                                           self.public),
                                   tlog.cosignature_payload(timestamp, signature)).line()


def checkpoint_time(body: str) -> int:
    """The POSIX time of a checkpoint body's ``time`` line (the real time if it has none)."""
    found = re.search(r"^time ([0-9T:Z-]+)$", body, re.MULTILINE)
    if found is None:
        return int(time.time())
    return int(dt.datetime.fromisoformat(found[1].replace("Z", "+00:00")).timestamp())


def run_pass(app):
    """One pass of the reveal runner: the checkpoints due, then the reveals due."""
    return RevealRunner(app.extensions[EXTENSION]).run_once()


def finish_games(app, clock, count: int, ruleset: str, seed: int, pause: int = 70) -> list:
    """``count`` new players each finish a game of ``ruleset``, ``pause`` seconds apart, a
    runner pass after each; (player, final state) of each."""
    rng = random.Random(seed)
    finished = []
    for _ in range(count):
        player = app.test_client()
        finished.append((player, play_to_end(player, start(player, ruleset, PLAY_DATE), rng)))
        clock.advance(seconds=pause)
        run_pass(app)
    return finished


def cosign_all(client, witness: Witness, ruleset: str) -> None:
    """The witness cosigns every checkpoint the log serves."""
    status, published = call(client, "GET", f"/logs/{PLAY_DATE}/{ruleset}")
    assert status == 200, published
    for item in published["checkpoints"]:
        body = notes.parse_note(item["note"])[0]
        status, answer = call(client, "POST", f"/logs/{PLAY_DATE}/{ruleset}/cosignatures",
                              {"body": body, "signature": witness.line(body)})
        assert (status, answer) == (201, {"ok": True})


def day_games(client, ruleset: str) -> list:
    """Every published game of the revealed (PLAY_DATE, sheet)."""
    status, day = call(client, "GET", f"/days/{PLAY_DATE}/{ruleset}/games")
    assert status == 200 and day["next"] is None, day
    return day["games"]
