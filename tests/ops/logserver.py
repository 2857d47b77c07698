"""A small HTTP server speaking the day's log endpoints of docs/api.md (the witness's side of
them) over logs a test builds leaf by leaf, signed with a real Ed25519 epoch key; or forwarding
every request to a live server, except the checkpoints a test chose to replace. It plays a
dishonest operator or a machine in the middle: a fork, a rollback, a bad proof."""

import base64
import hashlib
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from app.ledger.signing import Signer, verify_signature
from fairness import merkle
from fairness.chain import new_epoch
from fairness.checkpoint import body_hash, cosigned_message, parse_checkpoint, read_cosignature
from fairness.daylog import next_checkpoint
from fairness.ledger import GENESIS_PREV, epoch_entry
from fairness.note import ED25519, NoteSignature, format_note, key_id, parse_note, parse_vkey

DATE, SHEET = "2026-03-10", "yahtzee"


def sign_note(private_key: Ed25519PrivateKey, body: str) -> str:
    """A checkpoint body signed as the log signs it (key name = its origin)."""
    name = parse_checkpoint(body).origin
    public = Signer(private_key).public_key_hex
    line = NoteSignature(name, key_id(name, ED25519, bytes.fromhex(public)),
                         private_key.sign(body.encode("utf-8")))
    return format_note(body, [line])


class LogServer:
    """One (date, sheet) log on a loopback port; ``cut()`` adds a checkpoint, ``override``
    replaces what its ``/checkpoint`` answers, ``proof_override`` what ``/consistency`` answers;
    with an upstream, ``overrides`` maps a checkpoint path to the note served in its place."""

    def __init__(self, witnesses: list[str], upstream: str | None = None):
        """Serve with these witness vkeys allowed; with ``upstream``, forward to it instead."""
        self.key = Ed25519PrivateKey.generate()
        self.public_key = Signer(self.key).public_key_hex
        epoch = new_epoch(hashlib.sha256(b"logserver").digest(), "2026-03-01", 400)
        self.ledger = [Signer(self.key).sign(epoch_entry(
            seq=0, prev=GENESIS_PREV, number=1, epoch=epoch, public_key=self.public_key,
            rulesets=["yacht", "yacht-bonus", "yahtzee"], published_at="2026-02-28T12:00:00Z"))]
        self.witnesses = [parse_vkey(text) for text in witnesses]
        self.upstream = upstream
        self.leaves: list[bytes] = []
        self.checkpoints: list[tuple[str, list[str]]] = []  # (body, cosignature lines)
        self.override: str | None = None
        self.overrides: dict[str, str] = {}
        self.proof_override: list[str] | None = None
        self.cosignatures: list[str] = []
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def stop(self) -> None:
        """Stop serving."""
        self._http.shutdown()
        self._http.server_close()

    def cut(self, new_leaves: int, time: str) -> str:
        """Add ``new_leaves`` leaves and cut a checkpoint at ``time``; its signed note."""
        self.leaves += [merkle.leaf_hash(f"game {len(self.leaves) + i}".encode())
                        for i in range(new_leaves)]
        previous = self.checkpoints[-1][0] if self.checkpoints else None
        body = next_checkpoint(public_key_hex=self.public_key, date=DATE, ruleset=SHEET,
                               leaf_hashes=self.leaves, time=time, previous_body=previous).body()
        self.checkpoints.append((body, []))
        return sign_note(self.key, body)

    def latest_note(self) -> str:
        """The latest checkpoint's note with its cosignatures."""
        body, lines = self.checkpoints[-1]
        return sign_note(self.key, body) + "".join(lines)

    def _answer(self, method: str, path: str, query: dict, body: bytes) -> tuple[int, dict]:
        """(status, JSON) of one request to the endpoints of docs/api.md."""
        base = f"/api/v1/logs/{DATE}/{SHEET}"
        if method == "GET" and path == "/api/v1/ledger":
            return 200, {"entries": self.ledger}
        if method == "GET" and path == "/api/v1/logs":
            size = parse_checkpoint(self.checkpoints[-1][0]).size if self.checkpoints else 0
            origin = f"yacht-daily/log/{self.public_key[:16]}/{DATE}/{SHEET}"
            return 200, {"logs": [{"date": DATE, "sheet": SHEET, "origin": origin,
                                   "size": size, "closed": False}]}
        if method == "GET" and path == base + "/checkpoint":
            if self.override is not None:
                return 200, {"note": self.override}
            if not self.checkpoints:
                return 404, {"error": {"code": "no-checkpoint", "message": "none yet"}}
            return 200, {"note": self.latest_note()}
        if method == "GET" and path == base + "/consistency":
            first, second = int(query["from"][0]), int(query["to"][0])
            if self.proof_override is not None:
                return 200, {"from": first, "to": second, "proof": self.proof_override}
            proof = merkle.consistency_path(first, self.leaves[:second])
            return 200, {"from": first, "to": second, "proof": [h.hex() for h in proof]}
        if method == "POST" and path == base + "/cosignatures":
            return self._cosignature(json.loads(body))
        return 404, {"error": {"code": "not-found", "message": path}}

    def _cosignature(self, posted: dict) -> tuple[int, dict]:
        """Take a witness's cosignature of a checkpoint this log cut."""
        matching = [entry for entry in self.checkpoints if entry[0] == posted["body"]]
        if not matching:
            return 404, {"error": {"code": "unknown-checkpoint", "message": "not cut here"}}
        _, [line] = parse_note("x\n\n" + posted["signature"])
        witness = next((w for w in self.witnesses
                        if w.name == line.name and w.key_id == line.key_id), None)
        if witness is None:
            return 403, {"error": {"code": "unknown-witness", "message": line.name}}
        timestamp, signature = read_cosignature(line.payload)
        if not verify_signature(witness.public_key.hex(),
                                cosigned_message(posted["body"], timestamp), signature.hex()):
            return 400, {"error": {"code": "bad-cosignature", "message": "does not verify"}}
        if posted["signature"] not in matching[0][1]:
            matching[0][1].append(posted["signature"])
        self.cosignatures.append(posted["signature"])
        return 201, {"ok": True}

    def _forward(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        """The upstream server's answer to the same request."""
        request = urllib.request.Request(self.upstream + path, data=body or None, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def _handler(self):
        """The request handler class bound to this server."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            """Answer JSON; log nothing."""

            def do_GET(self):  # noqa: N802 (http.server's name)
                """A GET."""
                self._respond("GET")

            def do_POST(self):  # noqa: N802
                """A POST."""
                self._respond("POST")

            def _respond(self, method: str) -> None:
                """Answer from the log, the override or upstream."""
                parsed = urllib.parse.urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if parsed.path in server.overrides:
                    status, raw = 200, json.dumps({"note": server.overrides[parsed.path]}).encode()
                elif server.upstream:
                    status, raw = server._forward(method, self.path, body)
                else:
                    status, answer = server._answer(method, parsed.path,
                                                    urllib.parse.parse_qs(parsed.query), body)
                    raw = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *_):
                """Quiet."""

        return Handler


def forged_same_size(note: str, private_key: Ed25519PrivateKey) -> str:
    """A second checkpoint of the note's size with another root, signed with the same key:
    the fork a dishonest operator would show someone else."""
    body, _ = parse_note(note)
    lines = body.split("\n")
    other_root = hashlib.sha256(b"a game added for someone else's eyes").digest()
    lines[2] = base64.b64encode(other_root).decode()
    forged = "\n".join(lines)
    assert body_hash(forged) != body_hash(body)
    return sign_note(private_key, forged)
