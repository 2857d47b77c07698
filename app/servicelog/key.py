"""The service log's own long-lived Ed25519 key (``<data dir>/log-key.pem``, PKCS#8 PEM, mode
0600), apart from the epochs' keys: created on first need and never overwritten, it signs every
service log checkpoint for as long as the log lives; losing it ends the log's identity, so the
operator backs it up with the data directory. Its public half is named as the log's origin and
written as a C2SP vkey (``fairness.service_log.log_vkey``)."""

import os
from dataclasses import dataclass
from pathlib import Path

from app.ledger.signing import Signer, new_private_key_pem
from fairness.note import NoteSignature, format_note
from fairness.service_log import LogCheckpoint, log_key_id, log_vkey

LOG_KEY_FILE = "log-key.pem"


def load_or_create_signer(data_dir: Path) -> Signer:
    """The signer of ``<data dir>/log-key.pem``, the file created (mode 0600) if missing; a
    racing process that created it first wins and both load its key."""
    path = Path(data_dir) / LOG_KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(descriptor, "wb") as file:
                file.write(new_private_key_pem())
    return Signer.from_pem(path.read_bytes())


@dataclass(frozen=True)
class LogKey:
    """The log key under the log's origin."""

    origin: str
    signer: Signer

    @property
    def public_key(self) -> bytes:
        """The raw 32-byte Ed25519 public key."""
        return bytes.fromhex(self.signer.public_key_hex)

    @property
    def vkey(self) -> str:
        """``<origin>+<key ID>+<base64(0x01 || key)>``."""
        return log_vkey(self.origin, self.public_key)

    def sign(self, checkpoint: LogCheckpoint) -> str:
        """The checkpoint as a signed note: its body, a blank line, the log's signature line."""
        if checkpoint.origin != self.origin:
            raise ValueError(f"a checkpoint of {checkpoint.origin!r} is not this log's")
        body = checkpoint.body()
        signature = NoteSignature(self.origin, log_key_id(self.origin, self.public_key),
                                  self.signer.sign_bytes(body.encode("utf-8")))
        return format_note(body, [signature])

