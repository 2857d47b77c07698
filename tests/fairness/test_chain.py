"""The seed chain: one secret per epoch, hashed down to a public anchor, revealed a day at a time.

s_(i-1) = HMAC-SHA256(key=s_i, msg="yacht-daily/chain/v1"); the secret is s_N, the anchor s_0,
day i plays on s_i.
"""

import datetime as dt
import hashlib
import hmac

import pytest
from fairness_testkit import seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import (
    ChainError,
    DiceStream,
    Epoch,
    InvalidDate,
    InvalidSeed,
    new_epoch,
    previous_seed,
    seed_for_day,
    verify_seed,
    verify_successor,
)
from fairness.chain import MAX_EPOCH_DAYS

START = "2026-12-01"
SECRET = bytes(range(32))


def step_down(seed: bytes) -> bytes:
    """One step of the chain, written out from the protocol."""
    return hmac.new(seed, b"yacht-daily/chain/v1", hashlib.sha256).digest()


class TestRoundTrips:
    """Epoch, day seeds and both verifications agree with each other and with the definition."""

    @given(secret=seeds, length=st.integers(1, 30))
    @settings(max_examples=40)
    def test_anchor_and_day_seeds_follow_the_definition(self, secret, length):
        epoch = new_epoch(secret, START, length)
        chain = [secret]
        for _ in range(length):
            chain.append(step_down(chain[-1]))
        chain.reverse()  # chain[i] is s_i
        assert epoch.anchor == chain[0]
        assert [seed_for_day(secret, epoch, i) for i in range(1, length + 1)] == chain[1:]
        assert seed_for_day(secret, epoch, length) == secret

    @given(secret=seeds, length=st.integers(2, 30), data=st.data())
    @settings(max_examples=40)
    def test_every_revealed_seed_verifies(self, secret, length, data):
        epoch = new_epoch(secret, START, length)
        day = data.draw(st.integers(1, length))
        seed = seed_for_day(secret, epoch, day)
        assert verify_seed(seed, day, epoch.anchor)
        previous = epoch.anchor if day == 1 else seed_for_day(secret, epoch, day - 1)
        assert verify_successor(seed, previous)
        assert previous_seed(seed) == previous

    @given(secret=seeds, length=st.integers(3, 30), data=st.data())
    @settings(max_examples=40)
    def test_a_seed_from_another_day_fails(self, secret, length, data):
        epoch = new_epoch(secret, START, length)
        day, other = data.draw(
            st.lists(st.integers(1, length), min_size=2, max_size=2, unique=True)
        )
        seed = seed_for_day(secret, epoch, other)
        assert not verify_seed(seed, day, epoch.anchor)
        if other != day - 1:
            assert not verify_successor(seed_for_day(secret, epoch, day), seed)

    def test_a_seed_of_another_epoch_fails(self):
        epoch = new_epoch(SECRET, START, 10)
        stranger = seed_for_day(bytes(32), new_epoch(bytes(32), START, 10), 4)
        assert not verify_seed(stranger, 4, epoch.anchor)

    def test_hex_seeds_are_accepted(self):
        epoch = new_epoch(SECRET.hex(), START, 5)
        seed = seed_for_day(SECRET, epoch, 2)
        assert verify_seed(seed.hex(), 2, epoch.anchor.hex())
        assert verify_successor(seed_for_day(SECRET, epoch, 3).hex(), seed.hex())


class TestEpochDates:
    """Day 1 is the epoch's start; dates map to chain positions and back."""

    def test_dates_and_positions(self):
        epoch = new_epoch(SECRET, START, 31)
        assert epoch.end == "2026-12-31"
        assert epoch.day_index("2026-12-01") == 1
        assert epoch.day_index(dt.date(2026, 12, 31)) == 31
        assert [epoch.date_of(i) for i in (1, 2, 31)] == ["2026-12-01", "2026-12-02", "2026-12-31"]

    def test_epoch_normalises_a_date_object_and_a_hex_anchor(self):
        anchor = new_epoch(SECRET, START, 3).anchor
        epoch = Epoch(dt.date(2026, 12, 1), 3, anchor.hex())
        assert epoch == Epoch(START, 3, anchor)
        assert (epoch.start, epoch.anchor) == (START, anchor)

    @pytest.mark.parametrize("date", ["2026-11-30", "2027-01-01", "2025-12-15"])
    def test_a_date_outside_the_epoch_raises(self, date):
        with pytest.raises(ChainError) as raised:
            new_epoch(SECRET, START, 31).day_index(date)
        assert raised.value.code == "chain-error"

    @pytest.mark.parametrize("index", [0, 32, -1, "1", 1.0, None])
    def test_a_position_outside_the_epoch_raises(self, index):
        epoch = new_epoch(SECRET, START, 31)
        with pytest.raises(ChainError):
            epoch.date_of(index)
        with pytest.raises(ChainError):
            seed_for_day(SECRET, epoch, index)


class TestBadChainInput:
    """Bad epochs, seeds and positions raise typed errors, and can never hang a verifier."""

    @pytest.mark.parametrize("length", [0, -1, MAX_EPOCH_DAYS + 1, 10**12, "7", 7.0, None, True])
    def test_invalid_length(self, length):
        with pytest.raises(ChainError):
            new_epoch(SECRET, START, length)
        with pytest.raises(ChainError):
            Epoch(START, length, bytes(32))

    @pytest.mark.parametrize("steps", [-1, MAX_EPOCH_DAYS + 1, 10**12, "3", None])
    def test_invalid_position_to_verify(self, steps):
        with pytest.raises(ChainError):
            verify_seed(SECRET, steps, bytes(32))

    @pytest.mark.parametrize("secret", [bytes(31), "00" * 31, "xyz", None])
    def test_invalid_secret_or_seed(self, secret):
        with pytest.raises(InvalidSeed):
            new_epoch(secret, START, 3)
        with pytest.raises(InvalidSeed):
            verify_successor(secret, bytes(32))
        with pytest.raises(InvalidSeed):
            verify_seed(bytes(32), 1, secret)

    @pytest.mark.parametrize("start", ["2026-12-32", "2026-12", "", None])
    def test_invalid_start(self, start):
        with pytest.raises(InvalidDate):
            new_epoch(SECRET, start, 3)


class TestNothingPublicDealsTheDice:
    """The day's dice come from its own seed, never from anything published before its reveal."""

    def test_published_values_give_other_dice(self):
        epoch = new_epoch(SECRET, START, 5)
        day = 4
        date = epoch.date_of(day)
        dealt = DiceStream(seed_for_day(SECRET, epoch, day), date, "yahtzee").dice(50)
        published_before = [epoch.anchor] + [seed_for_day(SECRET, epoch, i) for i in range(1, day)]
        for value in published_before:
            assert DiceStream(value, date, "yahtzee").dice(50) != dealt
