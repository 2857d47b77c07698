"""The seed chain: one secret per epoch, revealed backwards one day at a time.

``s_(i-1) = HMAC-SHA256(key=s_i, msg="yacht-daily/chain/v1")``. The secret is ``s_N``; the
anchor ``s_0`` is published before day 1; day ``i`` (1..N) plays on ``s_i``. A revealed ``s_i``
hashes down to the anchor in ``i`` steps and to the previous day's reveal in one, and says
nothing about any later day.
"""

import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass

from .dates import format_date, parse_date
from .dice import SEQUENTIAL, validate_dealing, validate_seed
from .errors import ChainError

CHAIN_MESSAGE = b"yacht-daily/chain/v1"
MAX_EPOCH_DAYS = 100_000


def previous_seed(seed: bytes) -> bytes:
    """One step down the chain: ``s_(i-1)`` from ``s_i``."""
    return hmac.new(validate_seed(seed), CHAIN_MESSAGE, hashlib.sha256).digest()


def hash_down(seed: bytes, steps: int) -> bytes:
    """Apply ``previous_seed`` ``steps`` (0..MAX_EPOCH_DAYS) times: bad input cannot hang it."""
    seed = validate_seed(seed)
    if type(steps) is not int or not 0 <= steps <= MAX_EPOCH_DAYS:
        raise ChainError(f"a chain position must be an integer from 0 to {MAX_EPOCH_DAYS}")
    for _ in range(steps):
        seed = previous_seed(seed)
    return seed


@dataclass(frozen=True)
class Epoch:
    """The public part of an epoch: day 1's date, its length in days, the anchor ``s_0`` and
    the dealing its days' games take their rolls by (``fairness.dice``)."""

    start: str
    length: int
    anchor: bytes
    dealing: str = SEQUENTIAL

    def __post_init__(self):
        """Validate the epoch's fields, normalising a date object or a hex anchor."""
        object.__setattr__(self, "start", format_date(self.start))
        validate_length(self.length)
        object.__setattr__(self, "anchor", validate_seed(self.anchor))
        validate_dealing(self.dealing)

    @property
    def end(self) -> str:
        """The date of the epoch's last day."""
        return (parse_date(self.start) + dt.timedelta(days=self.length - 1)).isoformat()

    def day_index(self, date) -> int:
        """The chain position ``i`` of ``date`` (day 1 is ``start``), or raise ChainError."""
        index = (parse_date(date) - parse_date(self.start)).days + 1
        if not 1 <= index <= self.length:
            raise ChainError(f"{format_date(date)} is outside the epoch {self.start}..{self.end}")
        return index

    def date_of(self, index: int) -> str:
        """The date that plays on chain position ``index``."""
        if type(index) is not int or not 1 <= index <= self.length:
            raise ChainError(f"day {index} is outside the epoch's 1..{self.length}")
        return (parse_date(self.start) + dt.timedelta(days=index - 1)).isoformat()


def new_epoch(secret: bytes, start, length: int, dealing: str = SEQUENTIAL) -> Epoch:
    """The public epoch for ``secret`` (= ``s_N``, 32 random bytes the caller keeps secret)."""
    return Epoch(format_date(start), validate_length(length), hash_down(secret, length),
                 validate_dealing(dealing))


def validate_length(length: int) -> int:
    """Return ``length`` if it is a valid epoch length in days, or raise ChainError."""
    if type(length) is not int or not 1 <= length <= MAX_EPOCH_DAYS:
        raise ChainError(f"epoch length must be 1..{MAX_EPOCH_DAYS} days")
    return length


def seed_for_day(secret: bytes, epoch: Epoch, index: int) -> bytes:
    """The seed ``s_index`` of day ``index`` from the epoch's secret ``s_N``."""
    epoch.date_of(index)
    return hash_down(secret, epoch.length - index)


def verify_seed(seed: bytes, index: int, anchor: bytes) -> bool:
    """True when ``seed`` hashes down to ``anchor`` in exactly ``index`` steps."""
    return hmac.compare_digest(hash_down(seed, index), validate_seed(anchor))


def verify_successor(seed: bytes, previous: bytes) -> bool:
    """True when ``seed`` is the day after ``previous`` (one step down gives ``previous``)."""
    return hmac.compare_digest(previous_seed(seed), validate_seed(previous))
