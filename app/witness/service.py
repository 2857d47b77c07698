"""One pass of a witness over a Yacht Daily server's logs (FAIRNESS.md, "Witnesses and
cosignatures"; the endpoints in docs/api.md, "The day's log").

For each log the server lists: fetch its latest checkpoint, check the log's signature by the
key of the epoch that owns the date (trusted on first use, then pinned), check that it extends
the checkpoint this witness accepted last (same size: same root; larger: a valid RFC 9162
consistency proof), then cosign it and post the cosignature. A fork, a rollback or a failed
proof is refused, never cosigned, and kept as evidence (both signed notes) in the state file;
the witness cosigns that log no more.
"""

import datetime as dt
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from app.ledger.signing import verify_object, verify_signature
from app.witness.key import WitnessKey
from app.witness.state import Accepted, Refusal, WitnessState
from fairness import merkle
from fairness.audit.ledger_view import LedgerView
from fairness.audit.log_checks import epoch_key_for
from fairness.checkpoint import Checkpoint, body_hash, origin, parse_checkpoint
from fairness.errors import LedgerError
from fairness.note import ED25519, key_id, parse_note

FETCH_TIMEOUT = 30
USER_AGENT = "yacht-daily-witness"

COSIGNED, UP_TO_DATE, NO_CHECKPOINT, REFUSED, ERROR = (
    "cosigned", "up to date", "no checkpoint", "refused", "error")


class ServerError(Exception):
    """The server could not be asked: unreachable, an HTTP error, or not JSON."""

    def __init__(self, message: str, status: int | None = None, code: str | None = None):
        """Keep the HTTP status and the API's error code when there was an answer."""
        super().__init__(message)
        self.status, self.code = status, code


@dataclass(frozen=True)
class Outcome:
    """What one pass did with one log."""

    origin: str
    status: str
    detail: str


class Server:
    """The JSON API of one Yacht Daily server, as a witness uses it."""

    def __init__(self, base_url: str):
        """Bind to ``base_url`` (the site's address, without ``/api/v1``)."""
        self.api = base_url.rstrip("/") + "/api/v1"

    def get(self, path: str):
        """GET a JSON document."""
        return self._send(urllib.request.Request(self.api + path, headers=self._headers()))

    def get_field(self, path: str, key: str, kind: type):
        """The ``key`` of a JSON object GET ``path`` answers, of type ``kind``; ServerError when
        the answer is not shaped so."""
        answer = self.get(path)
        value = answer.get(key) if isinstance(answer, dict) else None
        if not isinstance(value, kind):
            raise ServerError(f"{self.api + path}: the answer has no {kind.__name__} {key!r}")
        return value

    def post(self, path: str, body: dict):
        """POST a JSON body; the JSON answer."""
        request = urllib.request.Request(
            self.api + path, data=json.dumps(body).encode("utf-8"), method="POST",
            headers={**self._headers(), "Content-Type": "application/json"})
        return self._send(request)

    @staticmethod
    def _headers() -> dict:
        """The headers of every request."""
        return {"Accept": "application/json", "User-Agent": USER_AGENT}

    @staticmethod
    def _send(request: urllib.request.Request):
        """Send a request; its decoded JSON, or ServerError."""
        try:
            with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            code, message = _api_error(error)
            raise ServerError(f"{request.full_url}: HTTP {error.code} {code or ''}: {message}",
                              error.code, code) from None
        except (OSError, ValueError) as error:
            raise ServerError(f"{request.full_url}: {error}") from None


def _api_error(error: urllib.error.HTTPError) -> tuple[str | None, str]:
    """The API's error code and message of an HTTP error, or (None, the reason)."""
    try:
        answer = json.loads(error.read().decode("utf-8"))["error"]
        return answer.get("code"), answer.get("message", "")
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        return None, str(error.reason)


class Refused(Exception):
    """A checkpoint the witness must not cosign, with the evidence."""

    def __init__(self, kind: str, detail: str, offered_note: str, proof: list[str] = ()):
        """What is wrong (kind, detail) and what was offered."""
        super().__init__(detail)
        self.kind, self.detail, self.offered_note, self.proof = kind, detail, offered_note, \
            list(proof)


class Witness:
    """A witness of one server, with its key and state (the caller reads and saves the
    state file; ``save`` is called after every log whose state changed)."""

    def __init__(self, server: Server, key: WitnessKey, state: WitnessState,
                 save: Callable[[WitnessState], None], clock: Callable[[], float] = time.time):
        """Witness ``server`` as ``key``, remembering in ``state``."""
        self.server, self.key, self.state, self.save, self.clock = server, key, state, save, \
            clock

    def run_once(self) -> list[Outcome]:
        """One pass over every log the server lists; one outcome per log."""
        listed = self.server.get_field("/logs", "logs", list)
        entries = LedgerView.read(self.server.get_field("/ledger", "entries", list))
        outcomes = []
        for log in listed:
            date, sheet = (log.get("date"), log.get("sheet")) if isinstance(log, dict) else (
                None, None)
            if not (isinstance(date, str) and isinstance(sheet, str)):
                outcomes.append(Outcome("/logs", ERROR, f"a listed log without date and sheet: "
                                                        f"{log!r}"))
                continue
            try:
                outcomes.append(self._witness_log(entries, date, sheet))
            except ServerError as error:
                outcomes.append(Outcome(f"{date}/{sheet}", ERROR, str(error)))
        return outcomes

    def _witness_log(self, ledger: LedgerView, date: str, sheet: str) -> Outcome:
        """Verify, cosign and record the latest checkpoint of one (date, sheet)'s log."""
        path = f"/logs/{urllib.parse.quote(date)}/{urllib.parse.quote(sheet)}"
        try:
            note = self.server.get_field(path + "/checkpoint", "note", str)
        except ServerError as error:
            if error.code == "no-checkpoint":
                return Outcome(f"{date}/{sheet}", NO_CHECKPOINT, "no checkpoint yet")
            raise
        epoch = epoch_key_for(ledger, date)
        if epoch is None:
            return Outcome(f"{date}/{sheet}", ERROR, f"no epoch of the ledger covers {date}")
        name = origin(epoch["public_key"], date, sheet)
        if name in self.state.refused_origins():
            return Outcome(name, REFUSED, "this log was refused before (see the evidence in the "
                                          "state file); it is not cosigned any more")
        try:
            public_key = self._pinned_key(epoch)
            body, checkpoint = self._verified(note, name, public_key)
            self._check_extends(name, path, note, body, checkpoint)
        except Refused as refusal:
            return self._refuse(name, refusal)
        return self._cosign(name, path, note, body, checkpoint)

    def _pinned_key(self, epoch: dict) -> str:
        """The epoch's public key: pinned the first time it is seen (and its entry carries its
        own valid signature), then required to stay the same."""
        number, public_key = str(epoch["epoch"]), epoch["public_key"]
        pinned = self.state.epochs.get(number)
        if pinned is None:
            if not verify_object(public_key, epoch):
                raise Refused("bad-signature", f"the ledger's entry of epoch {number} is not "
                                               "signed by the key it publishes", "")
            self.state.epochs[number] = public_key
            self.save(self.state)
        elif pinned != public_key:
            raise Refused("key-changed", f"the ledger now gives epoch {number} the key "
                                         f"{public_key}, not the key {pinned} pinned earlier", "")
        return public_key

    @staticmethod
    def _verified(note: str, name: str, public_key: str) -> tuple[str, Checkpoint]:
        """The note's body and checkpoint, if it is a checkpoint of log ``name`` validly signed
        by ``public_key``."""
        try:
            body, signatures = parse_note(note)
            checkpoint = parse_checkpoint(body)
        except LedgerError as error:
            raise Refused("malformed", f"the checkpoint cannot be read: {error}", note) from None
        if checkpoint.origin != name:
            raise Refused("wrong-origin", f"the checkpoint's origin {checkpoint.origin} is not "
                                          f"{name}", note)
        wanted = key_id(name, ED25519, bytes.fromhex(public_key))
        if not any(s.name == name and s.key_id == wanted and len(s.payload) == 64
                   and verify_signature(public_key, body.encode("utf-8"), s.payload.hex())
                   for s in signatures):
            raise Refused("bad-signature", f"the checkpoint carries no valid signature by the "
                                           f"epoch key {public_key[:16]}…", note)
        return body, checkpoint

    def _check_extends(self, name: str, path: str, note: str, body: str,
                       checkpoint: Checkpoint) -> None:
        """The checkpoint is the accepted one's tree or an append-only extension of it."""
        accepted = self.state.logs.get(name)
        if accepted is None or accepted.size == 0:
            return
        old_root = bytes.fromhex(accepted.root)
        if checkpoint.size < accepted.size:
            raise Refused("rollback", f"size {checkpoint.size} is smaller than the size "
                                      f"{accepted.size} accepted before", note)
        if checkpoint.size == accepted.size:
            if checkpoint.root != old_root:
                raise Refused("fork", f"size {checkpoint.size} with root "
                                      f"{checkpoint.root.hex()}, but the checkpoint of that "
                                      f"size accepted before has root {accepted.root}", note)
            return
        query = f"?from={accepted.size}&to={checkpoint.size}"
        proof = self.server.get_field(path + "/consistency" + query, "proof", list)
        try:
            hashes = [bytes.fromhex(h) for h in proof]
        except (TypeError, ValueError):
            raise Refused("inconsistent", "the consistency proof is not a list of hex hashes",
                          note) from None
        if not merkle.verify_consistency(accepted.size, checkpoint.size, old_root,
                                         checkpoint.root, hashes):
            raise Refused("inconsistent", f"size {checkpoint.size} root "
                                          f"{checkpoint.root.hex()} is not an append-only "
                                          f"extension of size {accepted.size} root "
                                          f"{accepted.root} (RFC 9162 consistency proof fails)",
                          note, proof)

    def _cosign(self, name: str, path: str, note: str, body: str,
                checkpoint: Checkpoint) -> Outcome:
        """Record the checkpoint as accepted, then post its cosignature (unless done)."""
        digest = body_hash(body).hex()
        accepted = self.state.logs.get(name)
        if accepted is not None and accepted.body_sha256 == digest and accepted.cosigned:
            return Outcome(name, UP_TO_DATE, f"size {checkpoint.size}, cosigned before")
        accepted = Accepted(checkpoint.size, checkpoint.root.hex(), digest, note, False)
        self.state.logs[name] = accepted
        self.save(self.state)
        line = self.key.cosign(body, int(self.clock()))
        try:
            self.server.post(path + "/cosignatures", {"body": body, "signature": line})
        except ServerError as error:
            return Outcome(name, ERROR, f"size {checkpoint.size} verified, but the log did not "
                                        f"take the cosignature: {error}")
        accepted.cosigned = True
        self.save(self.state)
        return Outcome(name, COSIGNED, f"size {checkpoint.size}, root "
                                       f"{checkpoint.root.hex()[:16]}…, time {checkpoint.time}")

    def _refuse(self, name: str, refusal: Refused) -> Outcome:
        """Keep the evidence of a refused checkpoint, and say what it is."""
        accepted = self.state.logs.get(name)
        offered = refusal.offered_note or None
        known = any(r.origin == name and r.kind == refusal.kind and r.offered_note == offered
                    for r in self.state.refused)
        if not known:
            self.state.refused.append(Refusal(
                origin=name, kind=refusal.kind, detail=refusal.detail,
                seen_at=dt.datetime.fromtimestamp(int(self.clock()), dt.UTC).strftime(
                    "%Y-%m-%dT%H:%M:%SZ"),
                accepted_note=accepted.note if accepted else None,
                offered_note=offered, proof=refusal.proof))
            self.save(self.state)
        return Outcome(name, REFUSED, f"{refusal.kind}: {refusal.detail}")
