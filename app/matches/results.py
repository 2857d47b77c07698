"""How a match ends and how players find it: the fields that close it (its status, the result
signed with the epoch key of the day it ends, the server seed) and a human's entry in their
list of matches (FAIRNESS.md, "Matches")."""

from app.ledger.secrets import Secrets
from app.matches.model import (
    BOT,
    EXPIRED,
    FINISHED,
    HUMAN,
    PLAYING,
    Match,
    Seat,
    parse_time,
    stored_json,
)
from fairness import Game, match_result, seat_record


def end_fields(match: Match, games: list[Game], now: str, server_seed: bytes,
               secrets_: Secrets, finished: bool) -> dict:
    """The fields that end a match at ``now`` with these ``games``: status, the signed result,
    the server seed (no result when it expired before every human gave a client seed)."""
    keys = secrets_.for_date(parse_time(now).date())  # the epoch of the day it ends
    epoch = keys.epoch_number
    seeds = [seed for seed, seat in zip(match.client_seeds, match.seats, strict=True)
             if seat.kind == HUMAN]
    fields = {"status": FINISHED if finished else EXPIRED, "ended_at": now,
              "server_seed": server_seed.hex()}
    if None in seeds:  # expired before every human rolled: no dice dealt, the seed shown
        return fields
    result = match_result(
        match_id=match.id, kind=match.kind, ruleset=match.ruleset, epoch=epoch,
        created_at=match.record.fields["created_at"], ended_at=now,
        commitment=match.record.fields["commitment"], server_seed_hex=server_seed.hex(),
        client_seeds=seeds, finished=finished, dealing=match.dealing,
        seats=[seat_record(seat.index, game, kind=seat.kind, name=seat.name,
                           player=seat.player, bot=seat.bot)
               for seat, game in zip(match.seats, games, strict=True)],
    )
    return {**fields, "result": stored_json(keys.signer.sign(result))}


def player_entry(match: Match, seat: Seat) -> dict:
    """The match as the seat's player's list of matches shows it: its total and rank once it
    has ended."""
    game = match.games[seat.index]
    ended = match.status != PLAYING
    return {
        "kind": match.kind, "match": match.id, "ruleset": match.ruleset,
        "started_at": match.record.fields["created_at"], "status": match.status,
        "seats": len(match.seats), "bots": [s.bot for s in match.seats if s.kind == BOT],
        "total": game.totals().total if ended else None,
        "rank": match.ranks()[seat.index] if ended else None,
        "ended_at": match.record.fields.get("ended_at"),
    }
