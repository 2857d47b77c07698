"""The day's dice stream: an endless, unbiased sequence of dice per (seed, date, ruleset).

Block ``k`` is HMAC-SHA256(key=seed, msg="yacht-daily/dice/v1|<date>|<ruleset>|<k>");
its bytes are read in order, every byte >= 252 is dropped and the rest map to ``b % 6 + 1``.
The stream is cut into slots of five dice (slot ``n`` is dice ``5n .. 5n+4``), and the
dealing says which slot a roll takes: ``per-turn``, roll ``r`` (0-2) of turn ``t`` (0-based)
takes slot ``3t + r`` whatever was held or stopped before; ``sequential`` (the first formats),
roll ``n`` of the whole game takes slot ``n``.
"""

import hashlib
import hmac

from .dates import format_date
from .errors import InvalidSeed
from .sheets import get_ruleset

DICE_DOMAIN = "yacht-daily/dice/v1"
SEED_BYTES = 32
_REJECT_FROM = 252  # the largest multiple of 6 that fits a byte: 252 = 6 * 42
ROLLS_PER_TURN = 3
DICE_PER_ROLL = 5
PER_TURN = "per-turn"
SEQUENTIAL = "sequential"
DEALINGS = (PER_TURN, SEQUENTIAL)


def validate_dealing(dealing) -> str:
    """Return ``dealing`` if it names a dealing (per-turn, sequential), else raise ValueError."""
    if dealing not in DEALINGS:
        raise ValueError(f"dealing must be one of {', '.join(DEALINGS)}, got {dealing!r}")
    return dealing


def roll_slot(dealing: str, turn: int, roll_in_turn: int, rolls_taken: int) -> int:
    """The slot a roll takes: ``ROLLS_PER_TURN * turn + roll_in_turn`` per turn (turn and roll
    0-based), ``rolls_taken`` (the rolls the game took before it) sequentially."""
    return ROLLS_PER_TURN * turn + roll_in_turn if dealing == PER_TURN else rolls_taken


def slots_of_game(box_count: int) -> int:
    """How many slots a game of ``box_count`` boxes can take under either dealing."""
    return ROLLS_PER_TURN * box_count


def validate_seed(seed) -> bytes:
    """Return ``seed`` as 32 bytes (given as bytes or 64 hex digits), or raise InvalidSeed."""
    if isinstance(seed, str):
        hex_error = InvalidSeed(f"seed must be {2 * SEED_BYTES} hex digits")
        if len(seed) != 2 * SEED_BYTES:  # bytes.fromhex would skip spaces: count digits first
            raise hex_error
        try:
            seed = bytes.fromhex(seed)
        except ValueError:
            raise hex_error from None
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        raise InvalidSeed(f"seed must be exactly {SEED_BYTES} bytes")
    return seed


def block_message(date: str, ruleset_id: str, index: int) -> bytes:
    """The HMAC message of stream block ``index``, byte for byte (ASCII)."""
    return f"{DICE_DOMAIN}|{date}|{ruleset_id}|{index}".encode("ascii")


def dice_from_block(block: bytes) -> list[int]:
    """The dice one block yields: bytes below 252 in order, each mapped to ``b % 6 + 1``."""
    return [byte % 6 + 1 for byte in block if byte < _REJECT_FROM]


class DiceStream:
    """The dice of one (seed, date, ruleset), computed lazily and kept once computed, and the
    dealing its games take their rolls by (the date's epoch's)."""

    def __init__(self, seed, date, ruleset_id: str, dealing: str = SEQUENTIAL):
        """Bind the stream to its seed, date, ruleset and dealing (each validated)."""
        self._seed = validate_seed(seed)
        self.date = format_date(date)
        self.ruleset = get_ruleset(ruleset_id).id
        self.dealing = validate_dealing(dealing)
        self._dice: list[int] = []
        self._blocks = 0

    def __repr__(self) -> str:
        """Show what the stream is for, never its seed."""
        return (f"DiceStream(date={self.date!r}, ruleset={self.ruleset!r}, "
                f"dealing={self.dealing!r})")

    def block(self, index: int) -> bytes:
        """The raw 32 bytes of block ``index``."""
        message = block_message(self.date, self.ruleset, index)
        return hmac.new(self._seed, message, hashlib.sha256).digest()

    def dice(self, count: int) -> list[int]:
        """The first ``count`` dice of the stream."""
        while len(self._dice) < count:
            self._dice.extend(dice_from_block(self.block(self._blocks)))
            self._blocks += 1
        return self._dice[:count]

    def roll(self, number: int) -> tuple[int, int, int, int, int]:
        """The five dice of slot ``number``: dice ``5n .. 5n+4``."""
        if type(number) is not int or number < 0:
            raise ValueError(f"slot number must be a non-negative integer, got {number!r}")
        first = DICE_PER_ROLL * number
        return tuple(self.dice(first + DICE_PER_ROLL)[first:])

    def deal(self, turn: int, roll_in_turn: int, rolls_taken: int) -> tuple[int, ...]:
        """The five fresh dice of a game's roll: roll ``roll_in_turn`` of turn ``turn`` (both
        0-based), after ``rolls_taken`` rolls of the game, by the stream's dealing."""
        return self.roll(roll_slot(self.dealing, turn, roll_in_turn, rolls_taken))
