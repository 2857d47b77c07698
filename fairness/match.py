"""Games on their own (practice, against the computer, tables): each provably fair by itself.

Before the first roll the server shows ``commitment(server_seed, dealing)``; every human seat
gives a client seed; seat ``i``'s dice come from its own stream, block ``k`` of which is

    HMAC-SHA256(key = server_seed,
                msg = "yacht-daily/match-dice/v1|<match>|<ruleset>|<i>|<c_0>,<c_1>,…|<k>")

read exactly as the daily stream is (bytes >= 252 dropped, ``b % 6 + 1``), its rolls taken by
the match's dealing: a v2 match deals ``per-turn`` or ``duplicate`` (per turn too, but every
seat reads seat 0's stream: everyone gets the same dice each turn) and its commitment binds
that dealing, a v1 match deals sequentially. When the match ends (or expires) the server seed
is revealed in the signed result object ``match_result`` builds. FAIRNESS.md, "Games on their
own", specifies every byte.
"""

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence

from .canonical import digest
from .dice import PER_TURN, SEQUENTIAL, DiceStream, validate_seed
from .errors import InvalidClientSeed, InvalidMatch
from .sheets import get_ruleset

MATCH_TYPE = "yacht-daily/match/v1"
MATCH_V2_TYPE = "yacht-daily/match/v2"
MATCH_TYPES = (MATCH_TYPE, MATCH_V2_TYPE)
MATCH_DICE_DOMAIN = "yacht-daily/match-dice/v1"
COMMIT_DOMAIN = "yacht-daily/match-commit/v1"
COMMIT_V2_DOMAIN = "yacht-daily/match-commit/v2"
KINDS = ("practice", "computer", "table")
MAX_SEATS = 6
TOKEN_CHARACTERS = "A-Z a-z 0-9 - . _ ~"
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{1,64}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_HEX64 = re.compile(r"[0-9a-f]{64}")
# Per turn, every seat reading seat 0's stream: each turn, every seat is dealt the same dice.
DUPLICATE = "duplicate"
# The dealings of a match: a v2 match's (per-turn, duplicate), then a v1 match's.
MATCH_DEALINGS = (PER_TURN, DUPLICATE, SEQUENTIAL)
V2_DEALINGS = (PER_TURN, DUPLICATE)
SHARED_STREAM_SEAT = 0


def validate_match_dealing(dealing) -> str:
    """Return ``dealing`` if it names a match's dealing (per-turn, duplicate, sequential), else
    raise ValueError."""
    if dealing not in MATCH_DEALINGS:
        raise ValueError(f"a match's dealing is one of {', '.join(MATCH_DEALINGS)}, "
                         f"got {dealing!r}")
    return dealing


def slot_rule(dealing: str) -> str:
    """The rule a match's dealing takes its rolls' slots by (``fairness.dice``): per turn for
    ``duplicate``, the dealing itself otherwise."""
    return PER_TURN if dealing == DUPLICATE else dealing


def stream_seat(dealing: str, seat: int) -> int:
    """The seat whose stream seat ``seat`` reads: seat 0's for every seat of a ``duplicate``
    match, its own otherwise."""
    return SHARED_STREAM_SEAT if dealing == DUPLICATE else seat


def commitment(server_seed, dealing: str = SEQUENTIAL) -> str:
    """The hex SHA-256 of ``yacht-daily/match-commit/v2|<dealing>|`` (``per-turn`` or
    ``duplicate``; v1, dealing sequentially: ``yacht-daily/match-commit/v1|``) followed by the
    32 seed bytes."""
    return _commitment_hex(validate_seed(server_seed), validate_match_dealing(dealing))


def _commitment_hex(seed: bytes, dealing: str) -> str:
    """``commitment`` of a seed and a dealing already validated."""
    prefix = COMMIT_DOMAIN if dealing == SEQUENTIAL else f"{COMMIT_V2_DOMAIN}|{dealing}"
    return hashlib.sha256(prefix.encode("ascii") + b"|" + seed).hexdigest()


def result_dealing(result: Mapping) -> str:
    """The dealing of a well-formed result's match: its ``dealing`` (v2), else sequential."""
    return result["dealing"] if result.get("type") == MATCH_V2_TYPE else SEQUENTIAL


def validate_client_seed(client_seed) -> str:
    """Return ``client_seed`` if it is 1 to 64 characters of A-Z a-z 0-9 - . _ ~, else raise."""
    if not isinstance(client_seed, str) or not _TOKEN.fullmatch(client_seed):
        raise InvalidClientSeed(f"a client seed is 1 to 64 characters of {TOKEN_CHARACTERS}, "
                                f"got {client_seed!r}")
    return client_seed


def validate_match_id(match_id) -> str:
    """Return ``match_id`` if it is 1 to 64 characters of A-Z a-z 0-9 - . _ ~, else raise."""
    if not isinstance(match_id, str) or not _TOKEN.fullmatch(match_id):
        raise InvalidMatch(f"a match id is 1 to 64 characters of {TOKEN_CHARACTERS}, "
                           f"got {match_id!r}")
    return match_id


def validate_client_seeds(client_seeds) -> tuple[str, ...]:
    """The humans' client seeds in seat order: 1 to 6 valid client seeds."""
    if isinstance(client_seeds, str) or not isinstance(client_seeds, Sequence):
        raise InvalidClientSeed("client seeds are a list of the humans' client seeds")
    if not 1 <= len(client_seeds) <= MAX_SEATS:
        raise InvalidClientSeed(f"a match has 1 to {MAX_SEATS} client seeds, "
                                f"got {len(client_seeds)}")
    return tuple(validate_client_seed(seed) for seed in client_seeds)


def seat_block_message(match_id: str, ruleset_id: str, seat: int,
                       client_seeds: Sequence[str], index: int) -> bytes:
    """The HMAC message of block ``index`` of a seat's stream, byte for byte (ASCII)."""
    joined = ",".join(client_seeds)
    return f"{MATCH_DICE_DOMAIN}|{match_id}|{ruleset_id}|{seat}|{joined}|{index}".encode("ascii")


class MatchStream(DiceStream):
    """One seat's dice in one match: a stream that ``Game`` accepts for a match game (no date).

    ``seat`` is the seat playing, ``stream_seat`` the seat whose stream it reads (seat 0 for
    every seat of a ``duplicate`` match), ``match_dealing`` the match's dealing and ``dealing``
    the rule its rolls' slots are taken by (``slot_rule``)."""

    def __init__(self, server_seed, client_seeds: Sequence[str], match_id: str, seat: int,
                 ruleset_id: str, dealing: str = SEQUENTIAL):
        """Bind the stream to its seed, client seeds, match, seat, ruleset and dealing (each
        validated)."""
        if type(seat) is not int or not 0 <= seat < MAX_SEATS:
            raise InvalidMatch(f"a seat is a number from 0 to {MAX_SEATS - 1}, got {seat!r}")
        self._seed = validate_seed(server_seed)
        self.client_seeds = validate_client_seeds(client_seeds)
        self.match_id = validate_match_id(match_id)
        self.seat = seat
        self.ruleset = get_ruleset(ruleset_id).id
        self.match_dealing = validate_match_dealing(dealing)
        self.dealing = slot_rule(dealing)
        self.stream_seat = stream_seat(dealing, seat)
        self.date = None
        self._dice: list[int] = []
        self._blocks = 0

    def __repr__(self) -> str:
        """Show what the stream is for, never its seed."""
        return (f"MatchStream(match={self.match_id!r}, seat={self.seat}, "
                f"ruleset={self.ruleset!r}, dealing={self.match_dealing!r})")

    def block(self, index: int) -> bytes:
        """The raw 32 bytes of block ``index`` of the stream this seat reads."""
        message = seat_block_message(self.match_id, self.ruleset, self.stream_seat,
                                     self.client_seeds, index)
        return hmac.new(self._seed, message, hashlib.sha256).digest()


def seat_stream(server_seed, client_seeds: Sequence[str], match_id: str, seat: int,
                ruleset_id: str, dealing: str = SEQUENTIAL) -> MatchStream:
    """The stream seat ``seat`` of a match takes its rolls from: its own, whose dice depend on
    no other seat's play, or seat 0's for every seat of a ``duplicate`` match."""
    return MatchStream(server_seed, client_seeds, match_id, seat, ruleset_id, dealing)


def ranks(totals: Sequence[int]) -> list[int]:
    """Each seat's rank: 1 + the number of seats with a strictly higher total (ties share it)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def seat_record(seat: int, game, *, kind: str, name: str, player: str | None = None,
                bot: str | None = None) -> dict:
    """A seat of ``match_result`` from its game: its transcript hash and total so far."""
    return {"seat": seat, "kind": kind, "player": player, "bot": bot, "name": name,
            "transcript_sha256": digest(list(game.transcript)), "total": game.totals().total}


def match_result(*, match_id: str, kind: str, ruleset: str, epoch: int, created_at: str,
                 ended_at: str, commitment: str, server_seed_hex: str,
                 client_seeds: Sequence[str], seats: Sequence[Mapping], finished: bool,
                 dealing: str = SEQUENTIAL) -> dict:
    """The unsigned result object of a match, validated: ``yacht-daily/match/v2`` with its
    ``dealing`` for a match dealt per turn (``per-turn`` or ``duplicate``),
    ``yacht-daily/match/v1`` for one dealt sequentially.

    ``seats`` are ``{"seat", "kind", "player", "bot", "name", "transcript_sha256", "total"}``
    in seat order (``seat_record`` builds one); the result adds each seat's ``rank`` and the
    ``winners`` (every seat tied at the top) when ``finished``, and ``null`` / ``[]`` for a
    match that expired unfinished. The service signs it (``sig``) with the epoch key.
    """
    if kind not in KINDS:
        raise InvalidMatch(f"kind {kind!r} is not one of {', '.join(KINDS)}")
    if type(epoch) is not int or epoch < 1:
        raise InvalidMatch(f"epoch must be a positive integer, got {epoch!r}")
    for label, value in (("created_at", created_at), ("ended_at", ended_at)):
        if not isinstance(value, str) or not _TIME.fullmatch(value):
            raise InvalidMatch(f"{label} must be a YYYY-MM-DDTHH:MM:SSZ time, got {value!r}")
    if ended_at < created_at:
        raise InvalidMatch(f"ended_at {ended_at} is before created_at {created_at}")
    if not isinstance(server_seed_hex, str) or not _HEX64.fullmatch(server_seed_hex):
        raise InvalidMatch("server_seed_hex must be 64 lowercase hex digits")
    if commitment != _commitment_hex(bytes.fromhex(server_seed_hex),
                                     validate_match_dealing(dealing)):
        raise InvalidMatch("the commitment is not the commitment of the server seed")
    if type(finished) is not bool:
        raise InvalidMatch(f"finished must be true or false, got {finished!r}")
    seeds = validate_client_seeds(client_seeds)
    rows = [validate_seat(position, seat) for position, seat in enumerate(seats)]
    check_composition(kind, [row["kind"] for row in rows], len(seeds))
    seat_ranks = ranks([row["total"] for row in rows]) if finished else [None] * len(rows)
    for row, rank in zip(rows, seat_ranks, strict=True):
        row["rank"] = rank
    result = {
        "type": MATCH_TYPE,
        "match": validate_match_id(match_id),
        "kind": kind,
        "ruleset": get_ruleset(ruleset).id,
        "epoch": epoch,
        "created_at": created_at,
        "ended_at": ended_at,
        "commitment": commitment,
        "server_seed": server_seed_hex,
        "client_seeds": list(seeds),
        "seats": rows,
        "winners": [row["seat"] for row in rows if row["rank"] == 1],
        "finished": finished,
    }
    if dealing != SEQUENTIAL:
        result.update(type=MATCH_V2_TYPE, dealing=dealing)
    return result


def check_composition(kind: str, seat_kinds: Sequence[str], client_seed_count: int) -> None:
    """Raise InvalidMatch unless the seats fit the kind and each human has one client seed.

    practice: one human seat; computer: one human and 1 to 5 bots; table: 2 to 6 seats with at
    least one human.
    """
    humans = sum(kind == "human" for kind in seat_kinds)
    count = len(seat_kinds)
    allowed = {
        "practice": count == 1 and humans == 1,
        "computer": 2 <= count <= MAX_SEATS and humans == 1,
        "table": 2 <= count <= MAX_SEATS and humans >= 1,
    }
    if not allowed[kind]:
        raise InvalidMatch(f"a {kind} match cannot have {count} seats of which {humans} human "
                           "(practice: 1 human, computer: 1 human and 1 to 5 bots, table: 2 to "
                           "6 seats with at least one human)")
    if humans != client_seed_count:
        raise InvalidMatch(f"{humans} human seats but {client_seed_count} client seeds")


def validate_seat(position: int, seat) -> dict:
    """One validated seat of the result (without its rank), as a new dict."""
    if not isinstance(seat, Mapping):
        raise InvalidMatch(f"seat {position} is not an object")
    keys = {"seat", "kind", "player", "bot", "name", "transcript_sha256", "total"}
    if set(seat) != keys:
        raise InvalidMatch(f"seat {position} has the keys {sorted(seat)}, not {sorted(keys)}")
    if seat["seat"] != position or type(seat["seat"]) is not int:
        raise InvalidMatch(f"seat {position} says it is seat {seat['seat']!r}")
    human = seat["kind"] == "human"
    if seat["kind"] not in ("human", "bot"):
        raise InvalidMatch(f"seat {position}'s kind {seat['kind']!r} is not human or bot")
    identity, other = ("player", "bot") if human else ("bot", "player")
    if not isinstance(seat[identity], str) or not seat[identity] or seat[other] is not None:
        raise InvalidMatch(f"a {seat['kind']} seat has a {identity} and a null {other}")
    if not isinstance(seat["name"], str) or not seat["name"]:
        raise InvalidMatch(f"seat {position}'s name must be a non-empty string")
    if not isinstance(seat["transcript_sha256"], str) or not _HEX64.fullmatch(
            seat["transcript_sha256"]):
        raise InvalidMatch(f"seat {position}'s transcript_sha256 is not 64 hex digits")
    if type(seat["total"]) is not int or seat["total"] < 0:
        raise InvalidMatch(f"seat {position}'s total must be a non-negative integer")
    return dict(seat)
