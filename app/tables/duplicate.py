"""Duplicate tables: the option on a new table, and what each viewer may see of the round
being played.

In a match dealt ``duplicate`` every seat gets the same dice each turn (FAIRNESS.md, "Tables").
Seats play a round in seat order, so a seat that watched an earlier seat's turn would know its
own coming dice. So a seat's actions of round ``t`` (its turn ``t``: the rolls, holds and box
after its ``t``-th box) are withheld from every other viewer, seats and spectators alike,
until every seat has filled its box of round ``t``; then the whole round is shown. Only a
table's match being played withholds anything: a finished or expired match reveals every
transcript with its result, and a game against the computer seats its one human first.

Everything here is pure: it reads a ``Match`` (``app.matches.model``) and the lists it is
given, and never Redis. ``viewer`` is the seat the caller holds, the seats they hold (a
pass-and-play device holds several), or None for a spectator.
"""

from collections.abc import Iterable, Mapping, Sequence

from app.matches.model import PLAYING, TABLE, Match
from app.tables.errors import InvalidTable
from fairness import Game
from fairness.match import DUPLICATE

DUPLICATE_FIELD = "duplicate"  # the table's field: DUPLICATE_ON when its match deals duplicate
DUPLICATE_ON = "1"
SCORE = "score"

Viewer = int | Iterable[int] | None


def parse_duplicate(body: Mapping) -> bool:
    """Whether a new table deals ``duplicate``: the body's ``duplicate``, true or false (False
    when absent), else InvalidTable ``invalid-duplicate``."""
    value = body.get("duplicate", False)
    if type(value) is not bool:
        raise InvalidTable("invalid-duplicate", "duplicate must be true or false.")
    return value


def duplicate_fields(duplicate: bool) -> dict[str, str]:
    """The stored table fields that say its match deals duplicate (none when it does not)."""
    return {DUPLICATE_FIELD: DUPLICATE_ON} if duplicate else {}


def is_duplicate_table(fields: Mapping[str, str]) -> bool:
    """Whether a stored table's match is to be dealt (or was dealt) duplicate."""
    return fields.get(DUPLICATE_FIELD) == DUPLICATE_ON


def open_round(match: Match) -> int | None:
    """The round (0-based) whose actions may be withheld: the fewest boxes any seat has
    filled, while a duplicate table's match is being played; None otherwise (nothing is)."""
    if match.kind != TABLE or match.dealing != DUPLICATE or match.status != PLAYING \
            or match.finished:
        return None
    return min(len(game.boxes) for game in match.games)


def viewer_seats(viewer: Viewer) -> frozenset[int]:
    """The seats a viewer holds, as a set (empty for a spectator)."""
    if viewer is None:
        return frozenset()
    if isinstance(viewer, int):
        return frozenset((viewer,))
    return frozenset(viewer)


def withheld_seats(match: Match, viewer: Viewer) -> frozenset[int]:
    """The seats whose actions of the open round the viewer may not see yet: every other seat
    that has acted in it (filled its box of the round, or is playing it)."""
    round_ = open_round(match)
    if round_ is None:
        return frozenset()
    own = viewer_seats(viewer)
    return frozenset(seat for seat, game in enumerate(match.games)
                     if seat not in own and visible_length(game.transcript, round_)
                     < len(game.transcript))


def visible_length(transcript: Sequence[Mapping], round_: int) -> int:
    """How many entries of a seat's transcript come before its actions of round ``round_``:
    those up to and including its ``round_``-th box."""
    if round_ == 0:
        return 0
    scores = 0
    for index, entry in enumerate(transcript):
        if entry["action"] == SCORE:
            scores += 1
            if scores == round_:
                return index + 1
    return len(transcript)


def redact_transcripts(match: Match, transcripts: Sequence[Sequence[Mapping]],
                       viewer: Viewer) -> list[list]:
    """The seats' transcripts (in seat order) as the viewer may see them: each withheld seat's
    cut before its actions of the open round, the others whole."""
    hidden, round_ = withheld_seats(match, viewer), open_round(match)
    return [list(transcript[:visible_length(transcript, round_)]) if seat in hidden
            else list(transcript) for seat, transcript in enumerate(transcripts)]


def action_seat(action) -> int:
    """The seat of an action: an ``Action`` of the match's log or its ``{"seat", "entry"}``."""
    return action["seat"] if isinstance(action, Mapping) else action.seat


def redact_actions(match: Match, actions: Sequence, viewer: Viewer, start: int = 0) -> list:
    """The actions the viewer may see among ``actions``, the match's log from action number
    ``start`` on (``Action``s or ``{"seat", "entry"}`` items, in play order): every action of a
    withheld seat in the open round is left out, the others kept in order."""
    hidden, round_ = withheld_seats(match, viewer), open_round(match)
    if not hidden:
        return list(actions)
    boxes = [0] * len(match.seats)  # each seat's boxes filled before the action looked at
    for action in match.record.log[:start]:
        boxes[action.seat] += action.entry["action"] == SCORE
    shown = []
    for action in actions:
        seat = action_seat(action)
        if seat not in hidden or boxes[seat] < round_:
            shown.append(action)
        entry = action["entry"] if isinstance(action, Mapping) else action.entry
        boxes[seat] += entry["action"] == SCORE
    return shown


def visible_games(match: Match, viewer: Viewer) -> list[Game]:
    """Each seat's game as the viewer may see it: a withheld seat's as it stood before its
    actions of the open round (its dice, boxes and totals then), the others as they are."""
    hidden, round_ = withheld_seats(match, viewer), open_round(match)
    return [Game.from_match_transcript(match.ruleset,
                                       game.transcript[:visible_length(game.transcript, round_)])
            if seat in hidden else game for seat, game in enumerate(match.games)]


def shared_length(match: Match, version: int | None = None) -> int:
    """How many of the match's first ``version`` actions (all of them when None) every
    viewer, spectators too, may see. Seats play each round in seat order, so the log is
    round-major and those are a prefix: the actions up to the one that closed the latest
    complete round while the match is withheld from, the whole log otherwise."""
    version = match.record.version if version is None else version
    if open_round(match) is None and version == match.record.version:
        return version
    boxes, rounds, closed = [0] * len(match.seats), 0, 0
    for number, action in enumerate(match.record.log[:version]):
        if action.entry["action"] == SCORE:
            boxes[action.seat] += 1
            if min(boxes) > rounds:
                rounds, closed = min(boxes), number + 1
    return closed


def own_actions(match: Match, viewer: Viewer) -> list[dict]:
    """The actions after the shared prefix (``shared_length``) the viewer may see, each
    ``{"number", "seat", "entry"}``: those of the seats they hold in the round being played
    (none for a spectator, none once nothing is withheld)."""
    start = shared_length(match)
    numbered = [{"number": number, "seat": action.seat, "entry": dict(action.entry)}
                for number, action in enumerate(match.record.log[start:], start=start)]
    own = viewer_seats(viewer)
    return [action for action in redact_actions(match, numbered, viewer, start)
            if action["seat"] in own]
