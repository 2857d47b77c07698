"""The v2 day of the vectors and what the tests do with it: run the verifiers on a log,
change every line of every checkpoint note, and forge what a dishonest operator would (it holds
the signing key: the vectors' key is the public RFC 8032 test key)."""

import copy
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.ledger.signing import verify_signature
from fairness import checkpoint as tlog
from fairness import ledger, merkle
from fairness import note as notes
from fairness.audit import log_checks

TEST_KEY = Ed25519PrivateKey.from_private_bytes(
    bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))


@dataclass
class LogCase:
    """Everything the three verifiers are given for one (date, sheet) of a v2 day."""

    entries: list
    date: str
    ruleset: str
    log: dict
    witnesses: list
    quorum: int
    games: list
    saved: list
    receipt: tuple | None = None  # (a v2 receipt, its inclusion proof) to find in the log

    def checks_core(self) -> list:
        """The core's checks as (name, ok, detail)."""
        view = [*log_checks.check_log(self.entries, self.date, self.ruleset, self.log,
                                      verify_signature,
                                      [notes.parse_vkey(w) for w in self.witnesses],
                                      self.quorum),
                *log_checks.check_final_transcripts(self.log, self.games),
                *(log_checks.check_receipt_in_log(self.receipt[0], self.log, self.receipt[1])
                  if self.receipt else []),
                *log_checks.check_saved_checkpoints(self.saved, self.log, verify_signature,
                                                    self.entries[0]["public_key"])]
        return [(c.name, c.ok, c.detail) for c in view]

    def checks_of_verify_py(self) -> list:
        """The core's checks verify.py's log mode makes: those of ``checks_core`` but the
        saved checkpoints' when none is given."""
        checks = self.checks_core()
        return checks if self.saved else [c for c in checks if c[0] != "saved checkpoints"]

    def verify_py_arguments(self, verify_py) -> list:
        """verify.py's log mode on the case's files, making the same checks in the same
        order."""
        documents = {"ledger": self.entries, "log": self.log, "games": self.games}
        if self.receipt:
            documents.update(receipt=self.receipt[0], proof=self.receipt[1])
        paths = verify_py.written(**documents)
        arguments = ["log", "--date", self.date, "--sheet", self.ruleset,
                     "--quorum", self.quorum]
        arguments += [part for name, path in paths.items() for part in (f"--{name}", path)]
        for number, note in enumerate(self.saved):
            saved = paths["log"].with_name(f"saved-{number}.txt")
            saved.write_text(note)
            arguments += ["--saved", saved]
        for witness in self.witnesses:
            arguments += ["--witness", witness]
        return arguments

    def js_jobs(self) -> list:
        """fairness.js calls giving the same checks, in the same order."""
        return [{"fn": "verifyLog", "args": [{"ledger": self.entries, "date": self.date,
                                              "ruleset": self.ruleset, "log": self.log,
                                              "witnesses": self.witnesses,
                                              "quorum": self.quorum}]},
                {"fn": "verifyFinalTranscripts", "args": [{"log": self.log,
                                                           "games": self.games}]},
                {"fn": "verifySavedCheckpoints", "args": [{
                    "saved": self.saved, "log": self.log,
                    "publicKey": self.entries[0]["public_key"]}]}]


def log_case(vectors: dict, ruleset: str = "yahtzee") -> LogCase:
    """The vectors' v2 day of ``ruleset``, its witness required, every checkpoint saved."""
    day = vectors["tlog"]["day"]
    log = copy.deepcopy(day["logs"][ruleset])
    return LogCase(copy.deepcopy(day["entries"]), day["date"], ruleset, log,
                   [vectors["tlog"]["witness"]["vkey"]], 1, copy.deepcopy(day["games"][ruleset]),
                   [c["note"] for c in log["checkpoints"]])


def note_line_changes(note: str):
    """(what, changed note) for each line of a note: a character changed, the line dropped."""
    lines = note.split("\n")[:-1]
    for number, line in enumerate(lines):
        if not line:
            continue
        position = len(line) // 2
        if line.startswith(notes.DASH) or line.startswith("time ") or " " not in line:
            position = len(line) - 3  # inside the base64 or the time, before any padding
        if len(line) < 4:
            position = 0  # the tree size
        old = line[position]
        new = "A" if old != "A" else "B"
        if old.isdigit():
            new = str((int(old) + 1) % 10)
        changed = lines[:number] + [line[:position] + new + line[position + 1:]] + lines[
            number + 1:]
        yield f"line {number} char {position}", "\n".join(changed) + "\n"
        yield f"line {number} dropped", "\n".join(lines[:number] + lines[number + 1:]) + "\n"


def sign_body(body: str, witness: Ed25519PrivateKey | None = None, timestamp: int = 0) -> str:
    """A checkpoint body signed by the test key as its log (and cosigned by ``witness``)."""
    name = tlog.parse_checkpoint(body).origin
    public = TEST_KEY.public_key().public_bytes_raw()
    lines = [notes.NoteSignature(name, notes.key_id(name, notes.ED25519, public),
                                 TEST_KEY.sign(body.encode()))]
    if witness is not None:
        wname = "witness.example/w1"
        ident = notes.key_id(wname, notes.COSIGNATURE_V1, witness.public_key().public_bytes_raw())
        signature = witness.sign(tlog.cosigned_message(body, timestamp))
        lines.append(notes.NoteSignature(wname, ident,
                                         tlog.cosignature_payload(timestamp, signature)))
    return notes.format_note(body, lines)


def resign_entry(entry: dict) -> dict:
    """A ledger entry signed again by the test key after a change."""
    unsigned = ledger.unsigned(entry)
    return {**unsigned, "sig": TEST_KEY.sign(ledger.signed_bytes(unsigned)).hex()}


def body_of(note: str) -> str:
    """A note's text."""
    return notes.parse_note(note)[0]


def leaf_hashes(games: list) -> list[bytes]:
    """The leaf hashes of the finished games' v2 receipts, by index."""
    receipts = ledger.log_order([g["receipt"] for g in games if g["receipt"]])
    return [ledger.receipt_leaf_hash(r) for r in receipts]


def checkpoint_of(case: LogCase, hashes: list[bytes], time: str, previous_body: str | None,
                  close: tlog.Close | None = None) -> str:
    """A checkpoint body of the case's log over ``hashes``."""
    return tlog.Checkpoint(origin=tlog.parse_checkpoint(body_of(
        case.log["checkpoints"][0]["note"])).origin, size=len(hashes), root=merkle.root(hashes),
        time=time, prev=tlog.NO_PREVIOUS if previous_body is None else tlog.body_hash(
            previous_body), close=close).body()
