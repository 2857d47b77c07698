"""One match (practice, against the computer, a table) from its signed result and transcripts.

``check_match`` names every check: ``match format``, ``match signature``, ``commitment``,
``transcripts``, then per seat ``i`` the daily replay's checks prefixed ``seat i `` (``seat 1
roll 4``, ``seat 1 box chance``…; each seat replayed on its own stream, every seat on seat 0's
in a ``duplicate`` match), ``seat i transcript hash`` and ``seat i total``, and at the
end ``finished`` and ``ranks``. ``check_match_in_ledger`` adds the ledger's checks and
``match epoch``: the result is signed by the key of the epoch that owns the date it ended.
"""

import re
from collections.abc import Mapping, Sequence

from ..canonical import sha256_hex
from ..errors import FairnessError
from ..match import (
    KINDS,
    MATCH_TYPE,
    MATCH_TYPES,
    MATCH_V2_TYPE,
    MAX_SEATS,
    TOKEN_CHARACTERS,
    V2_DEALINGS,
    check_composition,
    commitment,
    ranks,
    result_dealing,
    seat_stream,
)
from ..sheets import RULESETS
from .checks import (
    HEX64,
    NOT_CHECKED,
    Check,
    SignatureCheck,
    aggregate,
    compared,
    field_problems,
    is_hex,
    safe_canonical,
    short,
    signature_valid,
)
from .ledger_checks import ledger_checks
from .ledger_view import LedgerView
from .log_checks import epoch_key_for
from .replay import replay_checks

MATCH_FIELDS = {
    "type": str, "match": str, "kind": str, "ruleset": str, "epoch": int, "created_at": "time",
    "ended_at": "time", "commitment": HEX64, "server_seed": HEX64, "client_seeds": list,
    "seats": list, "winners": list, "finished": bool, "sig": "sig",
}
# A v2 result: a v1 result plus the dealing of its seats' rolls (per-turn or duplicate).
MATCH_V2_FIELDS = {**MATCH_FIELDS, "dealing": str}
SEAT_KEYS = ("seat", "kind", "player", "bot", "name", "transcript_sha256", "total", "rank")
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{1,64}")


def check_match(result, transcripts, *, public_key_hex: str | None,
                verify_signature: SignatureCheck | None, shown_commitment: str | None = None,
                client_seed: str | None = None) -> list[Check]:
    """Every check of a match: its result's format and signature, the commitment, each seat's
    replay on its own stream, transcript hashes, totals, whether it finished, ranks and ties.

    ``transcripts`` are the seats' transcripts in seat order; ``public_key_hex`` the key of
    the epoch that owns the date the match ended (``check_match_in_ledger`` finds it). A player
    who noted the commitment shown before their first roll, or their client seed, adds the
    checks ``commitment shown`` and ``your client seed``.
    """
    if result is None:
        return [Check("match format", False, "no result: the match has not ended")]
    problems = result_problems(result)
    checks = [aggregate("match format", problems,
                        f"a {result['type'] if not problems else MATCH_TYPE} result with "
                        "exactly its fields, well typed")]
    if problems:
        return checks
    checks.append(_signature_check(result, public_key_hex, verify_signature))
    checks.append(_commitment_check(result))
    checks += _player_checks(result, shown_commitment, client_seed)
    seats = result["seats"]
    count_ok = isinstance(transcripts, list | tuple) and len(transcripts) == len(seats)
    shown = len(transcripts) if isinstance(transcripts, list | tuple) else "no list of"
    checks.append(Check("transcripts", count_ok,
                        f"a transcript for each of the {len(seats)} seats" if count_ok
                        else f"{shown} transcripts for {len(seats)} seats"))
    if not count_ok:
        return checks
    complete = 0
    for seat, transcript in zip(seats, transcripts, strict=True):
        seat_checks, filled = _seat_checks(result, seat, transcript)
        checks.extend(seat_checks)
        complete += filled
    checks.append(_finished_check(result, complete))
    checks.append(_ranks_check(result))
    return checks


def answer_parts(answer) -> tuple:
    """The result and the seats' transcripts (in seat order) of a ``GET /api/v1/matches/<id>``
    answer: ``{"match": {…, "result", "seats": [{…, "transcript"}]}}`` or the match itself."""
    state = answer.get("match", answer) if isinstance(answer, Mapping) else None
    if not isinstance(state, Mapping):
        return None, None
    seats = state.get("seats")
    transcripts = [seat.get("transcript") if isinstance(seat, Mapping) else None
                   for seat in seats] if isinstance(seats, list) else None
    return state.get("result"), transcripts


def check_match_in_ledger(entries: list[dict], result, transcripts,
                          verify_signature: SignatureCheck | None, **noted) -> list[Check]:
    """``check_match`` with the key taken from the ledger: the ledger's checks, then
    ``match epoch`` (the epoch owning the date the match ended is the result's), then the match
    (``noted``: ``shown_commitment`` and ``client_seed`` as for ``check_match``)."""
    view = LedgerView.read(entries)
    checks = ledger_checks(view, verify_signature)
    epoch_check, key = match_epoch_check(view, result)
    checks.append(epoch_check)
    return checks + check_match(result, transcripts, public_key_hex=key,
                                verify_signature=verify_signature, **noted)


def match_epoch_check(view: LedgerView, result) -> tuple[Check, str | None]:
    """The epoch that owns the UTC date of ``ended_at`` (FAIRNESS.md), and its key if it is
    the result's ``epoch``."""
    ended = result.get("ended_at") if isinstance(result, Mapping) else None
    date = ended[:10] if isinstance(ended, str) else None
    epoch = epoch_key_for(view, date) if date else None
    if epoch is None:
        return Check("match epoch", False, f"no published epoch covers {date}"), None
    number = result.get("epoch")
    if epoch["epoch"] != number:
        return Check("match epoch", False, f"the match ended on {date}, a day of epoch "
                                           f"{epoch['epoch']}, not of epoch {number!r}"), None
    key = epoch["public_key"]
    return Check("match epoch", True, f"the match ended on {date}, a day of epoch {number}, "
                                      f"whose key {short(key)} signs its result"), key


def result_problems(result) -> list[str]:
    """What is wrong with a result object's fields and values (empty: nothing)."""
    v2 = isinstance(result, Mapping) and result.get("type") == MATCH_V2_TYPE
    problems = field_problems(result, MATCH_V2_FIELDS if v2 else MATCH_FIELDS, "the result")
    if problems:
        return problems
    if result["type"] not in MATCH_TYPES:
        problems.append(f"type {result['type']!r} ≠ {MATCH_TYPE} or {MATCH_V2_TYPE}")
    if v2 and result["dealing"] not in V2_DEALINGS:
        problems.append(f"dealing {result['dealing']!r} is not "
                        f"{' or '.join(repr(name) for name in V2_DEALINGS)}")
    if not _TOKEN.fullmatch(result["match"]):
        problems.append(f"match {result['match']!r} is not 1 to 64 characters of "
                        f"{TOKEN_CHARACTERS}")
    if result["kind"] not in KINDS:
        problems.append(f"kind {result['kind']!r} is not practice, computer or table")
    if result["ruleset"] not in RULESETS:
        problems.append(f"ruleset {result['ruleset']!r} is no known sheet")
    if result["epoch"] < 1:
        problems.append(f"epoch {result['epoch']} is not a positive number")
    if result["ended_at"] < result["created_at"]:
        problems.append(f"ended_at {result['ended_at']} is before created_at "
                        f"{result['created_at']}")
    seeds = result["client_seeds"]
    if not 1 <= len(seeds) <= MAX_SEATS or not all(
            isinstance(seed, str) and _TOKEN.fullmatch(seed) for seed in seeds):
        problems.append(f"client_seeds {seeds!r} is not 1 to {MAX_SEATS} client seeds of 1 to "
                        f"64 characters of {TOKEN_CHARACTERS}")
    seats = result["seats"]
    if not 1 <= len(seats) <= MAX_SEATS:
        problems.append(f"{len(seats)} seats (a match has 1 to {MAX_SEATS})")
    else:
        for position, seat in enumerate(seats):
            problems += [f"seat {position}: {problem}"
                         for problem in _seat_problems(position, seat, len(seats))]
    if not all(type(seat) is int for seat in result["winners"]):
        problems.append(f"winners {result['winners']!r} is not a list of seat numbers")
    if not problems:
        problems += _composition_problems(result)
    return problems


def _seat_problems(position: int, seat, count: int) -> list[str]:
    """What is wrong with one seat of the result."""
    if not isinstance(seat, Mapping):
        return ["not a JSON object"]
    missing = [key for key in SEAT_KEYS if key not in seat]
    extra = sorted(str(key) for key in seat if key not in SEAT_KEYS)
    if missing or extra:
        return ([f"missing {', '.join(missing)}"] if missing else []) + (
            [f"unexpected {', '.join(extra)}"] if extra else [])
    problems = []
    if type(seat["seat"]) is not int or seat["seat"] != position:
        problems.append(f"seat number {seat['seat']!r} ≠ its position {position}")
    if seat["kind"] == "human":
        if not (isinstance(seat["player"], str) and seat["player"] and seat["bot"] is None):
            problems.append("a human seat has a player and a null bot")
    elif seat["kind"] == "bot":
        if not (isinstance(seat["bot"], str) and seat["bot"] and seat["player"] is None):
            problems.append("a bot seat has a bot and a null player")
    else:
        problems.append(f"kind {seat['kind']!r} is not human or bot")
    if not isinstance(seat["name"], str) or not seat["name"]:
        problems.append(f"name {seat['name']!r} is not a non-empty string")
    if not is_hex(seat["transcript_sha256"], 64):
        problems.append(f"transcript_sha256 {seat['transcript_sha256']!r} is not 64 hex digits")
    if type(seat["total"]) is not int or seat["total"] < 0:
        problems.append(f"total {seat['total']!r} is not a count")
    rank = seat["rank"]
    if rank is not None and (type(rank) is not int or not 1 <= rank <= count):
        problems.append(f"rank {rank!r} is not null or 1..{count}")
    return problems


def _composition_problems(result: Mapping) -> list[str]:
    """The seats fit the kind, and there is one client seed per human seat."""
    seats, kind = result["seats"], result["kind"]
    humans = sum(seat["kind"] == "human" for seat in seats)
    try:
        check_composition(kind, [seat["kind"] for seat in seats], humans)
    except FairnessError:
        return [f"{len(seats)} seats with {humans} humans do not make a {kind} match "
                "(practice: 1 human, computer: 1 human and 1 to 5 bots, table: 2 to 6 seats "
                "with at least one human)"]
    clients = len(result["client_seeds"])
    if humans != clients:
        return [f"{humans} human seats but {clients} client seeds"]
    return []


def _signature_check(result: Mapping, key: str | None,
                     verify_signature: SignatureCheck | None) -> Check:
    """The result is signed by the epoch's key."""
    if verify_signature is None:
        return Check("match signature", None, NOT_CHECKED)
    if key is None:
        return Check("match signature", False, "no epoch key to check the signature with")
    valid = signature_valid(verify_signature, key, result)
    return Check("match signature", valid,
                 f"sig {short(result['sig'])} is {'' if valid else 'not '}a valid Ed25519 "
                 f"signature by key {short(key)} of the result's fields")


def _commitment_check(result: Mapping) -> Check:
    """The commitment shown before the first roll is the commitment of the revealed seed."""
    actual = commitment(result["server_seed"], result_dealing(result))
    return Check("commitment", actual == result["commitment"],
                 f"commitment of server seed {short(result['server_seed'])}: "
                 f"{compared(actual, result['commitment'])} the result's commitment")


def _player_checks(result: Mapping, shown: str | None, client_seed: str | None) -> list[Check]:
    """What the player noted while playing: the commitment shown, their own client seed."""
    checks = []
    if shown is not None:
        checks.append(Check("commitment shown", shown == result["commitment"],
                            f"the result's commitment {compared(result['commitment'], shown)} "
                            "the commitment shown before the first roll"))
    if client_seed is not None:
        seeds = result["client_seeds"]
        if client_seed in seeds:
            checks.append(Check("your client seed", True, f"client seed {client_seed} is "
                                                          f"client_seeds[{seeds.index(client_seed)}]"))
        else:
            checks.append(Check("your client seed", False,
                                f"client seed {client_seed} is not in client_seeds"))
    return checks


def _seat_checks(result: Mapping, seat: Mapping, transcript) -> tuple[list[Check], bool]:
    """One seat replayed on the stream it reads (its own; seat 0's in a ``duplicate`` match),
    its transcript hash and total; and if it is full."""
    number = seat["seat"]
    stream = seat_stream(result["server_seed"], result["client_seeds"], result["match"],
                         number, result["ruleset"], result_dealing(result))
    replayed = replay_checks(transcript, stream, explain=True)
    prefix = f"seat {number} "
    checks = [Check(prefix + check.name, check.ok, check.detail) for check in replayed.checks
              if check.name != "game complete"]
    # A transcript that is not a list fills no box (its replay stops before "game complete").
    filled = next((check.ok for check in replayed.checks if check.name == "game complete"),
                  False)
    encoded = safe_canonical(list(transcript)) if isinstance(transcript, list | tuple) else None
    if encoded is None:
        checks.append(Check(prefix + "transcript hash", False,
                            "the transcript has no canonical JSON (not a list, or holds a float)"))
    else:
        actual = sha256_hex(encoded)
        checks.append(Check(prefix + "transcript hash", actual == seat["transcript_sha256"],
                            f"SHA-256 of the transcript "
                            f"{compared(actual, seat['transcript_sha256'])} seat {number}'s "
                            "transcript_sha256"))
    totals = replayed.totals
    ok = totals.total == seat["total"]
    checks.append(Check(prefix + "total", ok,
                        f"recomputed {totals.total} (upper {totals.upper} + bonus "
                        f"{totals.upper_bonus} + lower {totals.lower} + extra "
                        f"{totals.extra_bonus}) {'=' if ok else '≠'} seat {number}'s total "
                        f"{seat['total']}"))
    return checks, bool(filled)


def _finished_check(result: Mapping, complete: int) -> Check:
    """``finished`` is true exactly when every seat's sheet is full."""
    seats = len(result["seats"])
    ok = result["finished"] == (complete == seats)
    flag = "true" if result["finished"] else "false"
    if ok:
        return Check("finished", True, f"{complete} of {seats} seats have every box filled, "
                                       f"as finished {flag} says")
    return Check("finished", False, f"{complete} of {seats} seats have every box filled, "
                                    f"but finished is {flag}")


def _ranks_check(result: Mapping) -> Check:
    """Ranks from the totals (ties share a rank; everyone tied at the top wins), none unfinished."""
    seats = result["seats"]
    totals = [seat["total"] for seat in seats]
    recorded = [seat["rank"] for seat in seats]
    if result["finished"]:
        expected = ranks(totals)
        winners = [seat["seat"] for seat, rank in zip(seats, expected, strict=True) if rank == 1]
    else:
        expected, winners = [None] * len(seats), []
    ok = recorded == expected and result["winners"] == winners
    shown = f"ranks {_listed(expected)} and winners {_listed(winners)} from totals " \
            f"{_listed(totals)}"
    if ok:
        return Check("ranks", True, f"recorded {shown}")
    return Check("ranks", False, f"recorded ranks {_listed(recorded)} and winners "
                                 f"{_listed(result['winners'])} ≠ {shown}")


def _listed(values: Sequence) -> str:
    """Values as ``[2,1,null]``."""
    return "[" + ",".join("null" if value is None else str(value) for value in values) + "]"
