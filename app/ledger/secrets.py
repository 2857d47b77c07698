"""The data directory's secrets: the epoch secret, the signing key and the service key.

Each lives in its own file with mode 0600, written once by ``init`` and never overwritten.
``epoch.json`` holds the epoch's public parameters (number, first date, length, anchor, daily
sheets, dealing; an epoch.json without ``dealing`` was written before per-turn dealing and
deals sequentially).
Nothing here is ever sent to Redis, a response or a log line; a day's seed leaves this module
only for the dice stream and, once due, for its reveal entry.

A later epoch (``new-epoch``: a fresh chain and a new signing key from a future date on) lives
in ``epochs/<number>/`` with the same three files; the first epoch stays at the top. Each date
belongs to the latest epoch started by then, and is dealt and signed with that epoch's secrets,
so older days keep verifying with the key their epoch entry published.
"""

import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from app.ledger.signing import Signer, new_private_key_pem
from fairness import ChainError, DiceStream, Epoch, format_date, new_epoch, seed_for_day
from fairness.dice import PER_TURN, SEQUENTIAL, validate_dealing, validate_seed
from fairness.sheets import ANY_DAILY_RULESETS, DAILY_RULESETS, NEW_EPOCH_RULESETS

EPOCH_FILE = "epoch.json"
EPOCH_SECRET_FILE = "epoch-secret"
SIGNING_KEY_FILE = "signing-key.pem"
SERVICE_KEY_FILE = "service-key"
SECRET_FILES = (EPOCH_SECRET_FILE, SIGNING_KEY_FILE, SERVICE_KEY_FILE)
EPOCH_SECRET_FILES = (EPOCH_SECRET_FILE, SIGNING_KEY_FILE)
EPOCHS_DIR = "epochs"
DEFAULT_EPOCH_DAYS = 3650
FIRST_EPOCH = 1


class AlreadyInitialised(Exception):
    """Raised when ``init`` would overwrite an existing secret."""


class NotInitialised(Exception):
    """Raised when the data directory holds no (or only part of the) secrets."""


class EpochKeys:
    """One epoch: its number and public parameters, its secret and its signing key."""

    def __init__(self, epoch_number: int, epoch: Epoch, epoch_secret: bytes, signer: Signer,
                 rulesets: tuple[str, ...] = DAILY_RULESETS):
        """Keep the secrets; day seeds are derived on demand and cached. ``rulesets`` are the
        epoch's daily sheets, as its ledger entry publishes them."""
        self.epoch_number = epoch_number
        self.epoch = epoch
        self.rulesets = tuple(rulesets)
        self._epoch_secret = epoch_secret
        self.signer = signer
        self._seeds: dict[int, bytes] = {}

    def __repr__(self) -> str:
        """Name the epoch, never a secret."""
        return f"EpochKeys(epoch={self.epoch_number}, start={self.epoch.start!r})"

    def seed(self, date) -> bytes:
        """The seed of ``date`` (raises ChainError outside the epoch), cached per process."""
        index = self.epoch.day_index(date)
        if index not in self._seeds:
            self._seeds[index] = seed_for_day(self._epoch_secret, self.epoch, index)
        return self._seeds[index]


class Secrets:
    """The loaded secrets of one data directory, with the derivations the service needs.

    ``epoch``, ``epoch_number`` and ``signer`` are the latest epoch's; ``for_date`` gives the
    epoch a date belongs to.
    """

    def __init__(self, epochs: list[EpochKeys], service_key: bytes):
        """Keep the epochs (in order) and the service key."""
        self.epochs = epochs
        self._service_key = service_key

    def __repr__(self) -> str:
        """Name the epochs, never a secret."""
        return f"Secrets({', '.join(map(repr, self.epochs))})"

    @property
    def current(self) -> EpochKeys:
        """The latest epoch."""
        return self.epochs[-1]

    @property
    def epoch_number(self) -> int:
        """The latest epoch's number."""
        return self.current.epoch_number

    @property
    def epoch(self) -> Epoch:
        """The latest epoch's public parameters."""
        return self.current.epoch

    @property
    def signer(self) -> Signer:
        """The latest epoch's signing key."""
        return self.current.signer

    @property
    def first_date(self) -> str:
        """The first date of the first epoch."""
        return self.epochs[0].epoch.start

    def for_date(self, date) -> EpochKeys:
        """The epoch ``date`` belongs to: the latest one started by then (ChainError if none,
        or if that epoch has ended)."""
        date = format_date(date)
        started = [keys for keys in self.epochs if keys.epoch.start <= date]
        if not started:
            raise ChainError(f"{date} is before the first epoch ({self.first_date})")
        started[-1].epoch.day_index(date)
        return started[-1]

    def seed(self, date) -> bytes:
        """The seed of ``date`` in its epoch."""
        return self.for_date(date).seed(date)

    def dealing_for(self, date) -> str:
        """How the games of ``date`` take their rolls: its epoch's dealing."""
        return self.for_date(date).epoch.dealing

    def stream(self, date, ruleset: str) -> DiceStream:
        """The dice stream of (``date``, ``ruleset``), dealt as its epoch deals."""
        keys = self.for_date(date)
        return DiceStream(keys.seed(date), date, ruleset, keys.epoch.dealing)

    def rulesets_for(self, date) -> tuple[str, ...]:
        """The daily sheets of ``date``: those of the epoch it belongs to."""
        return self.for_date(date).rulesets

    def adopt(self, newer: "Secrets") -> None:
        """Take on the epochs a reload of the data directory found after the known ones."""
        known = [(keys.epoch_number, keys.epoch) for keys in self.epochs]
        if [(keys.epoch_number, keys.epoch) for keys in newer.epochs[:len(known)]] != known:
            raise NotInitialised("the data directory's earlier epochs changed under the service")
        self.epochs = self.epochs + newer.epochs[len(known):]

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


def initialise(data_dir: Path, start: dt.date, length: int = DEFAULT_EPOCH_DAYS,
               dealing: str = PER_TURN) -> Epoch:
    """Create the data directory, the epoch secret, the signing key and the service key, once.
    The epoch deals ``dealing`` (per turn; sequential only to reproduce a day of the old format).

    Raises AlreadyInitialised (and changes nothing) when any of them exists already.
    """
    data_dir = Path(data_dir)
    existing = [name for name in (*SECRET_FILES, EPOCH_FILE) if (data_dir / name).exists()]
    if existing:
        raise AlreadyInitialised(f"{data_dir} already holds {', '.join(existing)}")
    epoch_secret = secrets.token_bytes(32)
    epoch = new_epoch(epoch_secret, start, length, validate_dealing(dealing))
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    _write_private(data_dir / EPOCH_SECRET_FILE, epoch_secret.hex().encode() + b"\n")
    _write_private(data_dir / SIGNING_KEY_FILE, new_private_key_pem())
    _write_private(data_dir / SERVICE_KEY_FILE, secrets.token_hex(32).encode() + b"\n")
    public = {"epoch": FIRST_EPOCH, "start": epoch.start, "length": epoch.length,
              "anchor": epoch.anchor.hex(), "dealing": epoch.dealing}
    _write_private(data_dir / EPOCH_FILE, (json.dumps(public, indent=2) + "\n").encode())
    return epoch


def load(data_dir: Path) -> Secrets:
    """Load the secrets of ``data_dir`` (every epoch), checking each epoch secret against its
    recorded anchor."""
    data_dir = Path(data_dir)
    missing = [name for name in (*SECRET_FILES, EPOCH_FILE) if not (data_dir / name).exists()]
    if missing:
        raise NotInitialised(f"{data_dir} lacks {', '.join(missing)}: run `yacht-daily init`")
    epochs = [_load_epoch(data_dir)]
    for directory in later_epoch_dirs(data_dir):
        keys = _load_epoch(directory)
        previous = epochs[-1]
        if (keys.epoch_number != previous.epoch_number + 1
                or keys.epoch.start <= previous.epoch.start):
            raise NotInitialised(f"{directory}: epochs must follow each other in number and date")
        epochs.append(keys)
    return Secrets(epochs, bytes.fromhex((data_dir / SERVICE_KEY_FILE).read_text().strip()))


def later_epoch_dirs(data_dir: Path) -> list[Path]:
    """The directories of the epochs after the first, in order of number."""
    root = Path(data_dir) / EPOCHS_DIR
    if not root.is_dir():
        return []
    return sorted((path for path in root.iterdir() if path.name.isdigit()),
                  key=lambda path: int(path.name))


def epochs_signature(data_dir: Path) -> tuple[str, ...]:
    """What tells a process that an epoch was added: the later epochs' directory names."""
    return tuple(path.name for path in later_epoch_dirs(data_dir))


def add_epoch(data_dir: Path, start: dt.date, length: int = DEFAULT_EPOCH_DAYS,
              rulesets: tuple[str, ...] = NEW_EPOCH_RULESETS, dealing: str = PER_TURN
              ) -> EpochKeys:
    """Create the next epoch (a new secret and a new signing key) from ``start`` on, whose
    daily sheets are ``rulesets`` (by default the first epoch's and Yatzy), dealt ``dealing``.

    Raises ChainError unless ``start`` is after the latest epoch's first date and leaves no
    date without an epoch, and NotInitialised for a sheet that cannot be a daily one.
    """
    rulesets = _daily_rulesets(rulesets, "the new epoch")
    current = load(data_dir).current
    day_after_end = dt.date.fromisoformat(current.epoch.end) + dt.timedelta(days=1)
    if not current.epoch.start < format_date(start) <= day_after_end.isoformat():
        raise ChainError(f"a new epoch must start after {current.epoch.start} and no later than "
                         f"{day_after_end.isoformat()}, so that every date has one")
    number = current.epoch_number + 1
    directory = Path(data_dir) / EPOCHS_DIR / str(number)
    directory.mkdir(mode=0o700, parents=True)
    epoch_secret = secrets.token_bytes(32)
    epoch = new_epoch(epoch_secret, start, length, validate_dealing(dealing))
    _write_private(directory / EPOCH_SECRET_FILE, epoch_secret.hex().encode() + b"\n")
    _write_private(directory / SIGNING_KEY_FILE, new_private_key_pem())
    public = {"epoch": number, "start": epoch.start, "length": epoch.length,
              "anchor": epoch.anchor.hex(), "rulesets": list(rulesets),
              "dealing": epoch.dealing}
    _write_private(directory / EPOCH_FILE, (json.dumps(public, indent=2) + "\n").encode())
    return _load_epoch(directory)


def _daily_rulesets(rulesets, where) -> tuple[str, ...]:
    """``rulesets`` as a tuple of known daily-capable sheets without repeats, else
    NotInitialised naming ``where``."""
    rulesets = tuple(rulesets)
    if not rulesets or len(set(rulesets)) != len(rulesets) or not set(rulesets) <= set(
            ANY_DAILY_RULESETS):
        raise NotInitialised(f"{where}: the daily sheets {list(rulesets)} must be distinct "
                             f"sheets among {', '.join(ANY_DAILY_RULESETS)}")
    return rulesets


def _load_epoch(directory: Path) -> EpochKeys:
    """One epoch's files, the secret checked against the recorded anchor."""
    missing = [name for name in (*EPOCH_SECRET_FILES, EPOCH_FILE)
               if not (directory / name).exists()]
    if missing:
        raise NotInitialised(f"{directory} lacks {', '.join(missing)}")
    public = json.loads((directory / EPOCH_FILE).read_text())
    epoch_secret = validate_seed((directory / EPOCH_SECRET_FILE).read_text().strip())
    epoch = new_epoch(epoch_secret, public["start"], public["length"],
                      public.get("dealing", SEQUENTIAL))
    if epoch.anchor.hex() != public["anchor"]:
        raise NotInitialised(f"{directory}: the epoch secret does not match the recorded anchor")
    return EpochKeys(
        epoch_number=public["epoch"],
        epoch=epoch,
        epoch_secret=epoch_secret,
        signer=Signer.from_pem((directory / SIGNING_KEY_FILE).read_bytes()),
        # an epoch.json written before epochs named their sheets: the first epoch's three
        rulesets=_daily_rulesets(public.get("rulesets", DAILY_RULESETS), directory),
    )


def _write_private(path: Path, content: bytes) -> None:
    """Create ``path`` with mode 0600, failing if it exists."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(content)
