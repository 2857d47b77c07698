"""A big day written straight into the service's Redis, in the store's own format, as if its
players had played it through the API: for the reveal's scale test and bench_reveal.py.

Every game of a (date, sheet) draws the same dice (the day's stream), so a few distinct legal
games played on the service's own seed (bench/dayfixture.py's random player) are dealt out to
many players: each game has its own id, player, name and receipt signed with the service's
key, and an abandoned game is a cut-off transcript without one. Nothing is ranked: the reveal
puts the finished games on the leaderboard from the games themselves.
"""

import random
from dataclasses import dataclass

from app.platform.keys import day_games_key, game_key, transcript_key
from app.platform.redis import LazyClusterClient
from bench.dayfixture import play_game
from fairness import canonical_json
from fairness import ledger as formats
from fairness.audit import CachedRules, SharedStream

DISTINCT_GAMES = 64
WRITE_BATCH = 500


@dataclass(frozen=True)
class StoredGame:
    """One game written to Redis: its id, transcript and receipt (None when abandoned)."""

    id: str
    transcript: list
    receipt: dict | None


def store_day(services, date: str, ruleset: str, finished: int, abandoned: int,
              rng_seed: int = 7) -> list[StoredGame]:
    """Write ``finished`` finished and ``abandoned`` unfinished games of (date, ruleset) into
    the services' Redis; returns them, finished ones first (games share their transcript
    objects: memory grows with the receipts only)."""
    rng = random.Random(rng_seed)
    stream = SharedStream(services.secrets.stream(date, ruleset))
    scorer = CachedRules(ruleset)
    keys = services.secrets.for_date(date)
    played = []
    for _ in range(DISTINCT_GAMES):
        transcript, totals = play_game(rng, stream, scorer)
        unsigned = formats.receipt(game="", epoch=keys.epoch_number, date=date,
                                   ruleset=ruleset, player="", transcript=transcript,
                                   total=totals.total)
        played.append((transcript, [_text(entry) for entry in transcript], unsigned))
    written, batch = [], []
    for number in range(finished + abandoned):
        game_id = f"{rng.getrandbits(128):032x}"
        transcript, texts, unsigned = played[number % len(played)]
        if number < finished:
            player = f"p-{rng.getrandbits(48):012x}"
            game = StoredGame(game_id, transcript, keys.signer.sign(
                {**unsigned, "game": game_id, "player": player}))
        else:
            cut = rng.randrange(len(transcript))
            game, texts = StoredGame(game_id, transcript[:cut], None), texts[:cut]
        written.append(game)
        batch.append((game, texts))
        if len(batch) == WRITE_BATCH:
            _write(services.game_store.client, date, ruleset, batch)
            batch = []
    if batch:
        _write(services.game_store.client, date, ruleset, batch)
    return written


def _text(value) -> str:
    """Canonical JSON text, as the store keeps values."""
    return canonical_json(value).decode()


def _write(client, date: str, ruleset: str, batch: list[tuple[StoredGame, list[str]]]) -> None:
    """Store a batch of games as the store's scripts do: the record hash, the transcript list
    (one canonical JSON action per item), and the id in the day's set.

    On one Redis the batch is one MULTI/EXEC: with ``appendfsync always`` Redis then syncs its
    AOF once per batch, not once per 16 KB it reads (one key per game rules that out on a
    cluster, whose test nodes do not sync)."""
    pipe = client.pipeline(transaction=not isinstance(client, LazyClusterClient))
    for game, texts in batch:
        fields = {"ruleset": ruleset, "date": date, "player": f"p-{game.id[:12]}",
                  "name": f"Player {game.id[:6]}", "created_at": f"{date}T12:00:00Z"}
        if game.receipt is not None:
            fields["player"] = game.receipt["player"]
            fields["receipt"] = _text(game.receipt)
        pipe.hset(game_key(game.id), mapping=fields)
        if texts:
            pipe.rpush(transcript_key(game.id), *texts)
        pipe.sadd(day_games_key(date, ruleset), game.id)
    pipe.execute()
