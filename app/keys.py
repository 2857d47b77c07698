"""The data directory's secrets: the epoch secret, the signing key and the service key.

Each lives in its own file with mode 0600, written once by ``init`` and never overwritten.
``epoch.json`` holds the epoch's public parameters (number, first date, length, anchor).
Nothing here is ever sent to Redis, a response or a log line; a day's seed leaves this module
only for the dice stream and, once due, for its reveal entry.
"""

import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from fairness import Epoch, new_epoch, seed_for_day
from fairness.dice import validate_seed

from .signing import Signer, new_private_key_pem

EPOCH_FILE = "epoch.json"
EPOCH_SECRET_FILE = "epoch-secret"
SIGNING_KEY_FILE = "signing-key.pem"
SERVICE_KEY_FILE = "service-key"
SECRET_FILES = (EPOCH_SECRET_FILE, SIGNING_KEY_FILE, SERVICE_KEY_FILE)
DEFAULT_EPOCH_DAYS = 3650
FIRST_EPOCH = 1


class AlreadyInitialised(Exception):
    """Raised when ``init`` would overwrite an existing secret."""


class NotInitialised(Exception):
    """Raised when the data directory holds no (or only part of the) secrets."""


class Secrets:
    """The loaded secrets of one data directory, with the derivations the service needs."""

    def __init__(self, epoch_number: int, epoch: Epoch, epoch_secret: bytes, signer: Signer,
                 service_key: bytes):
        """Keep the secrets; day seeds are derived on demand and cached."""
        self.epoch_number = epoch_number
        self.epoch = epoch
        self._epoch_secret = epoch_secret
        self.signer = signer
        self._service_key = service_key
        self._seeds: dict[int, bytes] = {}

    def __repr__(self) -> str:
        """Name the epoch, never a secret."""
        return f"Secrets(epoch={self.epoch_number}, start={self.epoch.start!r})"

    def seed(self, date) -> bytes:
        """The seed of ``date`` (raises ChainError outside the epoch), cached per process."""
        index = self.epoch.day_index(date)
        if index not in self._seeds:
            self._seeds[index] = seed_for_day(self._epoch_secret, self.epoch, index)
        return self._seeds[index]

    def derived_key(self, purpose: str) -> bytes:
        """A 32-byte key for one purpose, derived from the service key."""
        label = f"yacht-daily/{purpose}".encode()
        return hmac.new(self._service_key, label, hashlib.sha256).digest()

    def game_id(self, player: str, date: str, ruleset: str) -> str:
        """The one game id of a player on a (date, ruleset): so create-or-resume is one write."""
        message = f"{player}|{date}|{ruleset}".encode()
        return hmac.new(self.derived_key("game-id"), message, hashlib.sha256).hexdigest()[:32]

    def pseudonym(self, player: str) -> str:
        """The public name of a player id: stable, unlinkable to the cookie without the key."""
        digest = hmac.new(self.derived_key("pseudonym"), player.encode(), hashlib.sha256)
        return "p-" + digest.hexdigest()[:12]


def is_initialised(data_dir: Path) -> bool:
    """True when ``data_dir`` holds an epoch and its secrets."""
    return (Path(data_dir) / EPOCH_FILE).exists()


def initialise(data_dir: Path, start: dt.date, length: int = DEFAULT_EPOCH_DAYS) -> Epoch:
    """Create the data directory, the epoch secret, the signing key and the service key, once.

    Raises AlreadyInitialised (and changes nothing) when any of them exists already.
    """
    data_dir = Path(data_dir)
    existing = [name for name in (*SECRET_FILES, EPOCH_FILE) if (data_dir / name).exists()]
    if existing:
        raise AlreadyInitialised(f"{data_dir} already holds {', '.join(existing)}")
    epoch_secret = secrets.token_bytes(32)
    epoch = new_epoch(epoch_secret, start, length)
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    _write_private(data_dir / EPOCH_SECRET_FILE, epoch_secret.hex().encode() + b"\n")
    _write_private(data_dir / SIGNING_KEY_FILE, new_private_key_pem())
    _write_private(data_dir / SERVICE_KEY_FILE, secrets.token_hex(32).encode() + b"\n")
    public = {"epoch": FIRST_EPOCH, "start": epoch.start, "length": epoch.length,
              "anchor": epoch.anchor.hex()}
    _write_private(data_dir / EPOCH_FILE, (json.dumps(public, indent=2) + "\n").encode())
    return epoch


def load(data_dir: Path) -> Secrets:
    """Load the secrets of ``data_dir``, checking the epoch secret against the recorded anchor."""
    data_dir = Path(data_dir)
    missing = [name for name in (*SECRET_FILES, EPOCH_FILE) if not (data_dir / name).exists()]
    if missing:
        raise NotInitialised(f"{data_dir} lacks {', '.join(missing)}: run `yacht-daily init`")
    public = json.loads((data_dir / EPOCH_FILE).read_text())
    epoch_secret = validate_seed((data_dir / EPOCH_SECRET_FILE).read_text().strip())
    epoch = new_epoch(epoch_secret, public["start"], public["length"])
    if epoch.anchor.hex() != public["anchor"]:
        raise NotInitialised(f"{data_dir}: the epoch secret does not match the recorded anchor")
    return Secrets(
        epoch_number=public["epoch"],
        epoch=epoch,
        epoch_secret=epoch_secret,
        signer=Signer.from_pem((data_dir / SIGNING_KEY_FILE).read_bytes()),
        service_key=bytes.fromhex((data_dir / SERVICE_KEY_FILE).read_text().strip()),
    )


def _write_private(path: Path, content: bytes) -> None:
    """Create ``path`` with mode 0600, failing if it exists."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(content)
