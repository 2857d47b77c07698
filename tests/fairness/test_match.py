"""Games on their own: the commitment, one stream per seat, match games, the result and ranks.

The reference stream and commitment here are written from FAIRNESS.md ("Games on their own"),
not from ``fairness.match``, so that the two check each other.
"""

import hashlib
import hmac
import random
from pathlib import Path

import pytest
from fairness_testkit import DATE, SEED, ruleset_ids, seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import (
    MATCH_TYPE,
    DiceStream,
    Game,
    InvalidClientSeed,
    InvalidMatch,
    InvalidSeed,
    ReplayMismatch,
    commitment,
    digest,
    match_result,
    ranks,
    replay,
    seat_record,
    seat_stream,
    validate_client_seed,
)
from fairness.match import seat_block_message

TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
tokens = st.text(alphabet=TOKEN_ALPHABET, min_size=1, max_size=64)
client_seed_lists = st.lists(tokens, min_size=1, max_size=6)
MATCH = "0f3c2a9d4e5b6a7c8d9e0f1a2b3c4d5e"


def reference_seat_dice(seed: bytes, client_seeds, match_id, seat, ruleset_id, count):
    """The first ``count`` dice of a seat's stream, straight from FAIRNESS.md."""
    dice, block = [], 0
    while len(dice) < count:
        message = (f"yacht-daily/match-dice/v1|{match_id}|{ruleset_id}|{seat}|"
                   f"{','.join(client_seeds)}|{block}").encode("ascii")
        digest_bytes = hmac.new(seed, message, hashlib.sha256).digest()
        dice.extend(byte % 6 + 1 for byte in digest_bytes if byte < 252)
        block += 1
    return dice[:count]


def play_turn(game: Game, stream, rng: random.Random) -> Game:
    """Play one turn on ``stream`` with random holds, stops and an allowed box."""
    game = game.roll(None, stream)
    while game.rolls_left and rng.random() < 0.6:
        game = game.roll([rng.random() < 0.5 for _ in range(5)], stream)
    return game.score(rng.choice(game.placement().allowed))


def play(game: Game, stream, rng: random.Random) -> Game:
    """Play ``game`` to the end on ``stream``, turn by turn at random."""
    while not game.finished:
        game = play_turn(game, stream, rng)
    return game


def play_match(seed: bytes, ruleset_id: str, rngs) -> list[Game]:
    """Two seats taking their turns in order, each seat's choices from its own generator."""
    streams = [seat_stream(seed, ["c1", "c2"], MATCH, seat, ruleset_id) for seat in (0, 1)]
    games = [Game.new_match(ruleset_id) for _ in streams]
    while not games[-1].finished:
        games = [play_turn(game, stream, rng) for game, stream, rng in
                 zip(games, streams, rngs, strict=True)]
    return games


class TestCommitment:
    """The commitment binds the server seed, domain-separated, before any roll."""

    @given(seeds)
    def test_is_the_domain_separated_sha256_of_the_seed(self, seed):
        expected = hashlib.sha256(b"yacht-daily/match-commit/v1|" + seed).hexdigest()
        assert commitment(seed) == commitment(seed.hex()) == expected
        assert commitment(seed) != hashlib.sha256(seed).hexdigest()

    def test_a_bad_seed_is_refused(self):
        for bad in (b"short", "ab" * 31, "zz" * 32, 7):
            with pytest.raises(InvalidSeed):
                commitment(bad)


class TestSeatStreams:
    """Each seat's dice: its own stream, from the server seed and every client seed."""

    @settings(max_examples=60)
    @given(seeds, client_seed_lists, tokens, st.integers(0, 5), ruleset_ids)
    def test_matches_the_specification(self, seed, clients, match_id, seat, ruleset_id):
        stream = seat_stream(seed, clients, match_id, seat, ruleset_id)
        assert stream.dice(80) == reference_seat_dice(seed, clients, match_id, seat,
                                                      ruleset_id, 80)
        assert stream.roll(3) == tuple(stream.dice(20)[15:20])
        assert stream.date is None and stream.ruleset == ruleset_id

    def test_every_input_changes_the_dice(self):
        base = dict(server_seed=SEED, client_seeds=["alice"], match_id=MATCH, seat=0,
                    ruleset_id="yahtzee")
        first = seat_stream(**base).dice(40)
        for change in ({"server_seed": bytes(32)}, {"client_seeds": ["alicf"]},
                       {"match_id": MATCH[:-1] + "0"}, {"seat": 1}, {"ruleset_id": "yacht"},
                       {"client_seeds": ["alice", "bob"]}):
            assert seat_stream(**{**base, **change}).dice(40) != first, change

    def test_client_seed_order_matters(self):
        ab = seat_stream(SEED, ["a", "b"], MATCH, 0, "yacht").dice(40)
        assert seat_stream(SEED, ["b", "a"], MATCH, 0, "yacht").dice(40) != ab

    def test_is_domain_separated_from_the_daily_stream(self):
        daily = DiceStream(SEED, DATE, "yacht").block(0)
        match = seat_stream(SEED, [DATE], "yacht", 0, "yacht").block(0)
        assert daily != match

    @pytest.mark.parametrize("bad", ["", "x" * 65, "a|b", "a,b", "é", "a b", None, 12])
    def test_a_bad_client_seed_is_refused(self, bad):
        with pytest.raises(InvalidClientSeed):
            validate_client_seed(bad)
        with pytest.raises(InvalidClientSeed):
            seat_stream(SEED, [bad], MATCH, 0, "yacht")

    def test_client_seed_counts_and_seats_are_bounded(self):
        for clients in ([], ["a"] * 7, "abc"):
            with pytest.raises(InvalidClientSeed):
                seat_stream(SEED, clients, MATCH, 0, "yacht")
        for seat in (-1, 6, True, "0"):
            with pytest.raises(InvalidMatch):
                seat_stream(SEED, ["a"], MATCH, seat, "yacht")
        for match_id in ("", "m" * 65, "a/b"):
            with pytest.raises(InvalidMatch):
                seat_stream(SEED, ["a"], match_id, 0, "yacht")

    def test_the_seed_is_never_shown(self):
        assert SEED.hex() not in repr(seat_stream(SEED, ["a"], MATCH, 2, "yacht"))


class TestMatchGames:
    """A seat's game: the daily game's rules and transcript format, without a date."""

    @settings(max_examples=15, deadline=None)
    @given(seeds, st.integers(0, 2**32), ruleset_ids)
    def test_one_seats_holds_never_change_another_seats_dice(self, seed, choice, ruleset_id):
        first = play_match(seed, ruleset_id, [random.Random(choice), random.Random(-1)])
        second = play_match(seed, ruleset_id, [random.Random(choice + 1), random.Random(-1)])
        assert first[0].transcript != second[0].transcript
        assert first[1].transcript == second[1].transcript

    def test_replay_and_rebuild(self):
        stream = seat_stream(SEED, ["abc"], MATCH, 0, "yahtzee")
        game = play(Game.new_match("yahtzee"), stream, random.Random(4))
        transcript = list(game.transcript)
        assert game.finished and game.date is None
        assert replay(transcript, stream) == game
        assert Game.from_match_transcript("yahtzee", transcript) == game

    def test_a_changed_die_is_caught_at_its_roll(self):
        stream = seat_stream(SEED, ["abc"], MATCH, 0, "yacht")
        transcript = [dict(entry) for entry in play(Game.new_match("yacht"), stream,
                                                    random.Random(1)).transcript]
        transcript[0] = {**transcript[0], "dice": [(transcript[0]["dice"][0] % 6) + 1,
                                                   *transcript[0]["dice"][1:]]}
        with pytest.raises(ReplayMismatch) as caught:
            replay(transcript, stream)
        assert caught.value.index == 0
        other_seat = seat_stream(SEED, ["abc"], MATCH, 1, "yacht")
        with pytest.raises(ReplayMismatch):
            replay(list(play(Game.new_match("yacht"), stream, random.Random(1)).transcript),
                   other_seat)

    def test_daily_and_match_streams_do_not_mix(self):
        with pytest.raises(ValueError, match="of a match"):
            Game.new_match("yacht").roll(None, DiceStream(SEED, DATE, "yacht"))
        with pytest.raises(ValueError, match=DATE):
            Game.new("yacht", DATE).roll(None, seat_stream(SEED, ["a"], MATCH, 0, "yacht"))
        with pytest.raises(ValueError):
            Game.new_match("yacht").roll(None, seat_stream(SEED, ["a"], MATCH, 0, "yahtzee"))


def result_of(totals, *, kind="computer", finished=True, clients=("me",)):
    """A valid result for seats with these totals (seat 0 human, the others bots)."""
    game = Game.new_match("yacht")
    seats = []
    for seat, total in enumerate(totals):
        human = seat < len(clients)
        row = seat_record(seat, game, kind="human" if human else "bot", name=f"S{seat}",
                          player=f"p-{seat:012x}" if human else None,
                          bot=None if human else "easy")
        seats.append({**row, "total": total})
    return match_result(match_id=MATCH, kind=kind, ruleset="yacht", epoch=1,
                        created_at="2026-12-01T10:00:00Z", ended_at="2026-12-01T10:20:00Z",
                        commitment=commitment(SEED), server_seed_hex=SEED.hex(),
                        client_seeds=list(clients), seats=seats, finished=finished)


class TestResult:
    """The result object: its exact fields, ranks with ties, winners, and what it refuses."""

    def test_fields(self):
        result = result_of([120, 150])
        assert list(result) == ["type", "match", "kind", "ruleset", "epoch", "created_at",
                                "ended_at", "commitment", "server_seed", "client_seeds",
                                "seats", "winners", "finished"]
        assert result["type"] == MATCH_TYPE == "yacht-daily/match/v1"
        assert result["seats"][0] == {
            "seat": 0, "kind": "human", "player": "p-000000000000", "bot": None, "name": "S0",
            "transcript_sha256": digest([]), "total": 120, "rank": 2}
        assert (result["seats"][1]["rank"], result["winners"]) == (1, [1])

    @given(st.lists(st.integers(0, 400), min_size=2, max_size=6))
    def test_ranks_share_ties_and_everyone_tied_at_the_top_wins(self, totals):
        result = result_of(totals)
        best = max(totals)
        assert result["winners"] == [seat for seat, total in enumerate(totals) if total == best]
        for seat, total in enumerate(totals):
            assert result["seats"][seat]["rank"] == 1 + sum(t > total for t in totals)

    def test_ranks(self):
        assert ranks([10, 30, 30, 5]) == [3, 1, 1, 4]
        assert ranks([7]) == [1]

    def test_an_unfinished_match_has_no_ranks_and_no_winner(self):
        result = result_of([10, 20], finished=False)
        assert [seat["rank"] for seat in result["seats"]] == [None, None]
        assert result["winners"] == [] and result["finished"] is False

    @pytest.mark.parametrize("kind,totals,clients", [
        ("practice", [1, 2], ("a",)), ("computer", [1], ("a",)),
        ("computer", [1, 2, 3], ("a", "b")), ("table", [1], ("a",)),
        ("table", [1] * 7, ("a",)), ("bogus", [1, 2], ("a",)),
    ])
    def test_seats_must_fit_the_kind(self, kind, totals, clients):
        with pytest.raises(InvalidMatch):
            result_of(totals, kind=kind, clients=clients)

    def test_a_practice_game_and_a_table(self):
        assert result_of([99], kind="practice")["winners"] == [0]
        assert result_of([5, 5, 1], kind="table", clients=("a", "b"))["winners"] == [0, 1]

    def test_bad_fields_are_refused(self):
        good = result_of([1, 2])
        base = dict(match_id=MATCH, kind="computer", ruleset="yacht", epoch=1,
                    created_at=good["created_at"], ended_at=good["ended_at"],
                    commitment=good["commitment"], server_seed_hex=SEED.hex(),
                    client_seeds=["me"], seats=[{k: v for k, v in s.items() if k != "rank"}
                                               for s in good["seats"]], finished=True)
        assert match_result(**base) == good
        seat1 = base["seats"][1]
        for change in ({"commitment": commitment(bytes(32))}, {"server_seed_hex": "AB" * 32},
                       {"epoch": 0}, {"ended_at": "2026-12-01T09:00:00Z"},
                       {"created_at": "2026-12-01 10:00"}, {"finished": 1},
                       {"match_id": "a b"}, {"seats": [base["seats"][0], {**seat1, "seat": 2}]},
                       {"seats": [base["seats"][0], {**seat1, "player": "p-x"}]},
                       {"seats": [base["seats"][0], {**seat1, "total": -1}]},
                       {"seats": [base["seats"][0], {**seat1, "name": ""}]},
                       {"seats": [base["seats"][0], {**seat1, "transcript_sha256": "00"}]},
                       {"seats": [base["seats"][0], {**seat1, "extra": 1}]}):
            with pytest.raises((InvalidMatch, InvalidSeed)):
                match_result(**{**base, **change})


class TestTheDocument:
    """FAIRNESS.md's "Games on their own" computes as written."""

    DOC = (Path(__file__).resolve().parents[2] / "FAIRNESS.md").read_text(encoding="utf-8")

    def test_the_commitment_example(self):
        per_turn, duplicate = ("yacht-daily/match-commit/v2|per-turn|",
                               "yacht-daily/match-commit/v2|duplicate|")
        v1 = "yacht-daily/match-commit/v1|"
        assert (f"the prefix `{per_turn}`\n({len(per_turn)} ASCII bytes), `{duplicate}` "
                f"({len(duplicate)}) or\n`{v1}` ({len(v1)})") in self.DOC
        assert (f"gives\n`{commitment(SEED, 'per-turn')}` (v2, per-turn),\n"
                f"`{commitment(SEED, 'duplicate')}` (v2, duplicate) and\n"
                f"`{commitment(SEED)}` (v1)") in self.DOC

    def test_the_stream_example(self):
        stream = seat_stream(SEED, ["4f1c9a2e7b3d5a60"], "m-1", 0, "yacht")
        message = seat_block_message("m-1", "yacht", 0, ["4f1c9a2e7b3d5a60"], 0)
        assert f"the {len(message)} bytes\n`{message.decode()}`" in self.DOC
        assert f"`{stream.block(0).hex()}`" in self.DOC
        assert f"# → {stream.block(0).hex()}" in self.DOC
        rolls = ", ".join(f"`[{','.join(map(str, stream.roll(n)))}]`" for n in range(2))
        assert f"rolls 0–1 are\n{rolls}" in self.DOC

    def test_duplicate_reads_seat_zeros_stream_for_every_seat(self):
        seeds = ["4f1c9a2e7b3d5a60", "b~2"]
        shared = seat_stream(SEED, seeds, "m-1", 0, "yacht", "per-turn")
        for seat in range(3):
            stream = seat_stream(SEED, seeds, "m-1", seat, "yacht", "duplicate")
            assert (stream.seat, stream.stream_seat, stream.dealing) == (seat, 0, "per-turn")
            assert stream.block(0) == shared.block(0)
            assert [stream.deal(2, roll, 0) for roll in range(3)] == [
                shared.roll(6 + roll) for roll in range(3)]
        assert seat_stream(SEED, seeds, "m-1", 1, "yacht", "per-turn").block(0) != \
            shared.block(0)
        assert "every seat of the match reads seat 0's stream" in self.DOC

    def test_the_tie_example(self):
        assert ranks([150, 150, 90]) == [1, 1, 3]
        assert "totals 150, 150, 90 rank 1, 1, 3" in self.DOC
