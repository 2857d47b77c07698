"""The service log's witnesses, client side of C2SP tlog-witness (c2sp.org/tlog-witness).

The operator names each witness by its cosignature/v1 vkey and its submission URL prefix, one
``<vkey> <URL prefix>`` per line of ``<data dir>/log-witnesses.txt`` (``#`` starts a comment) or
per comma-separated item of ``YACHT_DAILY_LOG_WITNESSES``.

After each checkpoint the service POSTs ``<prefix>/add-checkpoint`` to each witness, at once
and each with a short timeout: ``old <size the witness last cosigned>``, the consistency proof
from it, and the signed checkpoint. A 200 answers cosignature lines: the valid ones of that
witness are kept and served with the checkpoint. A 409 ``text/x.tlog.size`` says the size the
witness last cosigned: the service takes it and submits once more with the proof from it. Any
other answer (a 409 without it: a fork claimed; 422: a proof refused; 403, 404, 400, 5xx) or no
answer keeps nothing, is logged as a warning naming the witness and the status, and is handed to
``on_refusal`` (a metric); one witness's failure never stops another's.
"""

import concurrent.futures
import http.client
import logging
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.ledger.signing import verify_signature
from app.servicelog.store import ServiceLogStore
from fairness import witness_protocol as protocol
from fairness.checkpoint import cosignature_time
from fairness.errors import LedgerError
from fairness.note import COSIGNATURE_V1, VerifierKey, parse_vkey

LOG_WITNESSES_FILE = "log-witnesses.txt"
SUBMIT_TIMEOUT_SECONDS = 5.0
MAX_ANSWER_BYTES = 64 * 1024
MAX_PARALLEL = 8
NO_ANSWER = 0  # the status recorded when the witness could not be reached

log = logging.getLogger(__name__)

Proof = Callable[[int, int], list[bytes]]  # (old size, size) → consistency proof


@dataclass(frozen=True)
class LogWitness:
    """A witness of the service log: its cosignature key and its submission URL prefix."""

    key: VerifierKey
    url: str

    @property
    def name(self) -> str:
        """The witness's key name."""
        return self.key.name


@dataclass(frozen=True)
class Submitted:
    """What one witness answered a checkpoint: the last HTTP status (0: no answer) and the
    valid cosignature lines kept ("" for none)."""

    witness: str
    status: int
    lines: str


def load_log_witnesses(setting: str | None, data_dir: Path) -> list[LogWitness]:
    """The configured witnesses: the setting's comma-separated ``<vkey> <URL prefix>`` items
    and ``<data dir>/log-witnesses.txt``'s lines; a malformed one is logged and skipped, and a
    witness named twice is taken once (its first line)."""
    items = (setting or "").replace("\n", ",").split(",")
    path = Path(data_dir) / LOG_WITNESSES_FILE
    if path.exists():
        items += path.read_text().splitlines()
    witnesses, names = [], set()
    for item in items:
        text = item.split("#", 1)[0].strip()
        if not text:
            continue
        witness = _witness(text)
        if witness is not None and witness.name not in names:
            names.add(witness.name)
            witnesses.append(witness)
    return witnesses


def _witness(text: str) -> LogWitness | None:
    """One ``<vkey> <URL prefix>`` item, or None (logged) when malformed."""
    parts = text.split()
    if len(parts) != 2 or not parts[1].startswith(("http://", "https://")):
        log.warning("ignoring log witness %r: not '<vkey> <http(s) URL prefix>'", text)
        return None
    try:
        key = parse_vkey(parts[0])
    except LedgerError as error:
        log.warning("ignoring log witness %r: %s", text, error)
        return None
    if key.kind != COSIGNATURE_V1 or len(key.public_key) != 32:
        log.warning("ignoring log witness %r: not a cosignature/v1 Ed25519 key", text)
        return None
    return LogWitness(key, parts[1].rstrip("/"))


class WitnessClient:
    """Submits the service log's checkpoints to its witnesses and keeps their cosignatures."""

    def __init__(self, store: ServiceLogStore, proof: Proof,
                 timeout: float = SUBMIT_TIMEOUT_SECONDS,
                 on_refusal: Callable[[str, int], None] = lambda witness, status: None):
        """Bind to the log's store, its consistency proofs, the timeout of one request and the
        hook that hears each refusal's witness and status."""
        self.store = store
        self.proof = proof
        self.timeout = timeout
        self.on_refusal = on_refusal

    def submit_all(self, witnesses: Sequence[LogWitness], size: int, body: str,
                   note: str) -> list[Submitted]:
        """Submit the checkpoint of ``size`` (its body and signed note) to every witness at
        once; what each answered, in the witnesses' order."""
        if not witnesses:
            return []
        workers = min(MAX_PARALLEL, len(witnesses))
        with concurrent.futures.ThreadPoolExecutor(workers, "log-witness") as pool:
            return list(pool.map(lambda witness: self.submit(witness, size, body, note),
                                 witnesses))

    def submit(self, witness: LogWitness, size: int, body: str, note: str) -> Submitted:
        """Submit to one witness, resyncing once on a 409 that says its size; never raises."""
        try:
            old = self.store.witnessed(witness.name)
            for attempt in range(2):
                if old > size:
                    return self._refused(witness, 409, size,
                                         f"it cosigned size {old}, beyond this checkpoint")
                status, content_type, answer = self._post(witness, old, size, note)
                if status == 200:
                    return self._cosigned(witness, size, body, answer)
                if (status == 409 and content_type == protocol.SIZE_CONTENT_TYPE
                        and attempt == 0):
                    old = protocol.parse_size(answer)
                    self.store.set_witnessed(witness.name, old)
                    continue
                return self._refused(witness, status, size, _excerpt(answer))
            return self._refused(witness, 409, size, "it asked to resync twice")
        except (OSError, http.client.HTTPException, LedgerError, ValueError) as error:
            return self._refused(witness, NO_ANSWER, size, f"{type(error).__name__}: {error}")

    def _post(self, witness: LogWitness, old: int, size: int,
              note: str) -> tuple[int, str, bytes]:
        """POST add-checkpoint; (status, content type without parameters, body)."""
        body = protocol.format_add_checkpoint(
            protocol.AddCheckpoint(old, self.proof(old, size), note))
        request = urllib.request.Request(f"{witness.url}/add-checkpoint", data=body,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310
                return answer.status, _media_type(answer.headers.get("Content-Type")), \
                    answer.read(MAX_ANSWER_BYTES)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, _media_type(error.headers.get("Content-Type")), \
                    error.read(MAX_ANSWER_BYTES)

    def _cosigned(self, witness: LogWitness, size: int, body: str, answer: bytes) -> Submitted:
        """Keep the witness's valid cosignature lines of a 200 answer."""
        signatures = protocol.parse_cosignature_lines(answer.decode("utf-8"))
        valid = [signature for signature in signatures
                 if cosignature_time(witness.key, body, signature, verify_signature) is not None]
        if not valid:
            return self._refused(witness, 200, size, "no valid cosignature by its key")
        lines = "".join(signature.line() for signature in valid)
        self.store.keep_cosignatures(size, witness.name, lines)
        self.store.set_witnessed(witness.name, size)
        return Submitted(witness.name, 200, lines)

    def _refused(self, witness: LogWitness, status: int, size: int, detail: str) -> Submitted:
        """Log and count a submission that kept nothing."""
        log.warning("log witness %s did not cosign the service log checkpoint of size %d: "
                    "status %s, %s", witness.name, size, status or "no answer", detail,
                    extra={"event": "log-witness-refused", "witness": witness.name,
                           "status": status, "size": size})
        self.on_refusal(witness.name, status)
        return Submitted(witness.name, status, "")


def _media_type(header: str | None) -> str:
    """A Content-Type without its parameters, lower case."""
    return (header or "").split(";", 1)[0].strip().lower()


def _excerpt(answer: bytes) -> str:
    """The start of an answer's body, for a log line."""
    return repr(answer[:200].decode("utf-8", "replace"))
