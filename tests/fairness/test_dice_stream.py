"""The day's dice stream: its exact bytes, the rejection rule, the roll rule and its fairness.

Block k = HMAC-SHA256(key=seed, msg="yacht-daily/dice/v1|<date>|<ruleset>|<k>"); bytes >= 252
are dropped, the rest map to b % 6 + 1; roll n takes dice 5n .. 5n+4.
"""

import hashlib
import hmac
import math
from collections import Counter

import pytest
from fairness_testkit import DATE, SEED, dates, reference_dice, ruleset_ids, seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import DiceStream, InvalidDate, InvalidSeed, UnknownRuleset
from fairness.dice import block_message, dice_from_block


class TestBlocks:
    """Each block is one HMAC-SHA256 over an ASCII message naming the date, sheet and index."""

    def test_message_bytes(self):
        assert (
            block_message("2026-12-01", "yacht-bonus", 0)
            == b"yacht-daily/dice/v1|2026-12-01|yacht-bonus|0"
        )
        assert (
            block_message("2026-12-01", "yahtzee", 12)
            == b"yacht-daily/dice/v1|2026-12-01|yahtzee|12"
        )

    def test_block_is_the_hmac_of_its_message(self):
        stream = DiceStream(SEED, DATE, "yahtzee")
        expected = hmac.new(
            SEED, b"yacht-daily/dice/v1|2026-12-01|yahtzee|3", hashlib.sha256
        ).digest()
        assert stream.block(3) == expected

    def test_hex_and_bytes_seeds_give_the_same_stream(self):
        assert DiceStream(SEED.hex(), DATE, "yacht").dice(40) == DiceStream(
            SEED, DATE, "yacht"
        ).dice(40)

    def test_rejection_drops_252_to_255_and_maps_the_rest(self):
        block = bytes([0, 1, 5, 6, 250, 251, 252, 253, 254, 255, 11, 12])
        assert dice_from_block(block) == [1, 2, 6, 1, 5, 6, 6, 1]

    def test_every_byte_below_252_appears_42_times_per_face(self):
        """Why the rejection is unbiased: 252 = 6 x 42, so each face has exactly 42 bytes."""
        faces = Counter(dice_from_block(bytes(range(256))))
        assert faces == {face: 42 for face in range(1, 7)}

    @given(seed=seeds, date=dates, ruleset_id=ruleset_ids)
    @settings(max_examples=50)
    def test_matches_the_protocol_written_out(self, seed, date, ruleset_id):
        assert DiceStream(seed, date, ruleset_id).dice(60) == reference_dice(
            seed, date, ruleset_id, 60
        )

    def test_streams_differ_per_date_sheet_and_seed(self):
        base = DiceStream(SEED, DATE, "yahtzee").dice(30)
        assert DiceStream(SEED, "2026-12-02", "yahtzee").dice(30) != base
        assert DiceStream(SEED, DATE, "yahtzee-no-joker").dice(30) != base
        assert DiceStream(bytes(32), DATE, "yahtzee").dice(30) != base

    def test_repr_never_shows_the_seed(self):
        assert SEED.hex() not in repr(DiceStream(SEED, DATE, "yacht"))
        assert (
            repr(DiceStream(SEED, DATE, "yacht"))
            == "DiceStream(date='2026-12-01', ruleset='yacht', dealing='sequential')"
        )


class TestRolls:
    """Roll n of a game is dice 5n..5n+4 of the stream, whatever came before."""

    @given(seed=seeds, number=st.integers(0, 60))
    @settings(max_examples=50)
    def test_roll_n_is_dice_5n_to_5n_plus_4(self, seed, number):
        dice = reference_dice(seed, DATE, "yacht", 5 * number + 5)
        assert list(DiceStream(seed, DATE, "yacht").roll(number)) == dice[5 * number :]

    def test_rolls_do_not_depend_on_the_order_they_are_asked_in(self):
        forwards = DiceStream(SEED, DATE, "yacht")
        backwards = DiceStream(SEED, DATE, "yacht")
        first = [forwards.roll(n) for n in range(40)]
        assert [backwards.roll(n) for n in reversed(range(40))] == first[::-1]

    @pytest.mark.parametrize("number", [-1, 1.0, "1", None])
    def test_bad_roll_number(self, number):
        with pytest.raises(ValueError):
            DiceStream(SEED, DATE, "yacht").roll(number)


class TestBadStreamInput:
    """A stream needs a 32-byte seed, an ISO date and a known sheet."""

    @pytest.mark.parametrize(
        "seed",
        [
            bytes(31),
            bytes(33),
            "00" * 31,
            "00" * 33,
            "0" * 63,
            "zz" * 32,
            " ".join(["00"] * 32),
            "0x" + "00" * 31,
            bytearray(32),
            None,
            0,
            list(range(32)),
        ],
    )
    def test_invalid_seed(self, seed):
        with pytest.raises(InvalidSeed):
            DiceStream(seed, DATE, "yacht")

    @pytest.mark.parametrize(
        "date",
        [
            "2026-02-30",
            "2026-13-01",
            "2026-1-01",
            "20261201",
            "2026-12-01T00:00",
            " 2026-12-01",
            "2026/12/01",
            "",
            None,
            20261201,
        ],
    )
    def test_invalid_date(self, date):
        with pytest.raises(InvalidDate):
            DiceStream(SEED, date, "yacht")

    @pytest.mark.parametrize("ruleset_id", ["Yahtzee", "kniffel", "", None, 3])
    def test_invalid_ruleset(self, ruleset_id):
        with pytest.raises(UnknownRuleset):
            DiceStream(SEED, DATE, ruleset_id)


def chi_square(counts, expected_share) -> float:
    """Pearson's statistic of observed ``counts`` against the expected shares of their total."""
    total = sum(counts)
    return sum(
        (seen - total * share) ** 2 / (total * share)
        for seen, share in zip(counts, expected_share, strict=True)
    )


def chi_square_p_value(statistic: float, freedom: int) -> float:
    """P(X >= statistic), X chi-square with ``freedom`` degrees (Abramowitz-Stegun 26.4.4/5)."""
    half = statistic / 2
    if freedom % 2 == 0:
        term, tail = 1.0, 1.0
        for i in range(1, freedom // 2):
            term *= half / i
            tail += term
        return math.exp(-half) * tail
    root = math.sqrt(statistic)
    tail = math.erfc(root / math.sqrt(2))
    term = root * math.sqrt(2 / math.pi) * math.exp(-half)
    for i in range(1, (freedom + 1) // 2):
        tail += term
        term *= statistic / (2 * i + 1)
    return tail


# Fixed seeds make every statistical test deterministic; a tiny threshold keeps it meaningful.
CHI_SEEDS = [hashlib.sha256(f"chi-square seed {i}".encode()).digest() for i in range(6)]
REJECT_BELOW = 1e-6
UNIFORM = [1 / 6] * 6


def _fair_dice() -> list[int]:
    """600,000 dice from six fixed seeds, across the three daily sheets and two dates."""
    dice = []
    for i, seed in enumerate(CHI_SEEDS):
        sheet = ("yacht", "yacht-bonus", "yahtzee")[i % 3]
        dice += DiceStream(seed, ("2026-12-01", "2027-06-30")[i % 2], sheet).dice(100_000)
    return dice


def _raw_stream_bytes(blocks: int) -> bytes:
    """The raw bytes of ``blocks`` consecutive stream blocks of one fixed seed."""
    stream = DiceStream(CHI_SEEDS[0], DATE, "yahtzee")
    return b"".join(stream.block(k) for k in range(blocks))


@pytest.fixture(scope="module")
def fair_dice() -> list[int]:
    """The module's 600,000 dice."""
    return _fair_dice()


class TestNoBias:
    """A chi-square test finds no face bias, and the same test does catch a biased mapping."""

    @pytest.mark.parametrize(
        ("statistic", "freedom", "p_value"),
        [
            (3.841459, 1, 0.05),
            (5.991465, 2, 0.05),
            (11.070498, 5, 0.05),
            (20.515006, 5, 0.001),
            (49.801850, 35, 0.05),
            (15.086272, 5, 0.01),
        ],
    )
    def test_p_value_matches_published_tables(self, statistic, freedom, p_value):
        assert chi_square_p_value(statistic, freedom) == pytest.approx(p_value, rel=1e-5)

    def test_faces_are_uniform_over_600000_dice(self, fair_dice):
        assert len(fair_dice) >= 600_000
        faces = Counter(fair_dice)
        statistic = chi_square([faces[f] for f in range(1, 7)], UNIFORM)
        assert chi_square_p_value(statistic, 5) > REJECT_BELOW, (statistic, faces)

    def test_consecutive_dice_are_independent(self, fair_dice):
        pairs = Counter(zip(fair_dice[::2], fair_dice[1::2], strict=True))
        cells = [pairs[(a, b)] for a in range(1, 7) for b in range(1, 7)]
        statistic = chi_square(cells, [1 / 36] * 36)
        assert chi_square_p_value(statistic, 35) > REJECT_BELOW, statistic

    def test_each_position_of_a_roll_is_uniform(self, fair_dice):
        for position in range(5):
            faces = Counter(fair_dice[position::5])
            statistic = chi_square([faces[f] for f in range(1, 7)], UNIFORM)
            assert chi_square_p_value(statistic, 5) > REJECT_BELOW, (position, statistic)

    def test_the_test_rejects_b_mod_6_without_rejection_sampling(self):
        """b % 6 over all 256 byte values favours faces 1-4 (43 bytes each against 42)."""
        data = _raw_stream_bytes(100_000)
        byte_counts = [data.count(value) for value in range(256)]
        biased = [sum(byte_counts[b] for b in range(256) if b % 6 == face) for face in range(6)]
        fair = [sum(byte_counts[b] for b in range(252) if b % 6 == face) for face in range(6)]
        assert chi_square_p_value(chi_square(biased, UNIFORM), 5) < REJECT_BELOW
        assert chi_square_p_value(chi_square(fair, UNIFORM), 5) > REJECT_BELOW
