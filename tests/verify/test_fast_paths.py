"""The whole-day audit's fast paths never judge otherwise than the reference.

The replays' steps are learnt from one game and reused in the next: a day's legal games (dealt
sequentially or per turn) warm them, then every forgery of every game must still be judged as
``fairness.game.replay`` judges it, by the core's ``FastReplay`` and by verify.py's
``fast_replay`` alike. A receipt's signed bytes written around the day's shared fields must be
its canonical JSON, and anything not plainly a well-formed receipt must be left to the field
checks.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import RULESETS, DiceStream, audit
from fairness.audit.fast_receipt import ReceiptBytes
from fairness.canonical import canonical_json
from fairness.dice import DEALINGS
from fairness.ledger import RECEIPT_TYPE, unsigned
from tests.verify.test_replay_equivalence import DATE, core_replay, forge, legal_game

GAMES_PER_DAY = 12


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(sorted(RULESETS)),
       dealing=st.sampled_from(DEALINGS))
def test_learnt_steps_judge_forgeries_like_the_core(standalone, seed, ruleset, dealing):
    """One day's fast replays, warmed by its legal games, accept a forgery exactly when the
    core's replay does, with the same sheet and the transcript's canonical bytes, by either
    dealing."""
    rng = random.Random(seed)
    seed_bytes = rng.randbytes(32)
    stream = audit.SharedStream(DiceStream(seed_bytes, DATE, ruleset, dealing))
    stream.seed_hex = seed_bytes.hex()
    fast = audit.FastReplay(stream, audit.CachedRules(ruleset))
    rolls = [list(stream.roll(n)) for n in range(3 * len(RULESETS[ruleset].categories))]
    steps: dict = {}
    games = [legal_game(rng, stream) for _ in range(GAMES_PER_DAY)]
    candidates = games + [forge(rng, game, ruleset, stream)[1] for game in games
                          for _ in range(3)]
    for transcript in candidates:
        reference = core_replay(transcript, stream)
        replayed = fast.run(transcript)
        standalone_replayed = standalone.fast_replay(transcript, ruleset, rolls, steps,
                                                     dealing)
        if reference is None:
            assert replayed is None and standalone_replayed is None, transcript
            continue
        assert replayed is not None and standalone_replayed is not None, transcript
        assert replayed.boxes == dict(reference.boxes) == standalone_replayed[0].boxes
        assert replayed.totals == reference.totals()
        assert replayed.encoded == canonical_json(transcript) == standalone_replayed[1]


RECEIPT = {"type": RECEIPT_TYPE, "game": "g", "epoch": 2, "date": "2026-11-29",
           "ruleset": "yahtzee", "player": "p", "transcript_sha256": "0" * 64, "total": 7,
           "sig": "a" * 128}
FORGERIES = [("total", True), ("total", 7.0), ("epoch", 3), ("epoch", True),
             ("date", "2026-11-30"), ("ruleset", "yacht"), ("type", "x"),
             ("transcript_sha256", "A" * 64), ("transcript_sha256", "0" * 63),
             ("sig", "a" * 127 + "g"), ("forged", 1)]


@settings(max_examples=60, deadline=None)
@given(game=st.text(), player=st.text(), total=st.integers(-10**6, 10**6),
       digest=st.text("0123456789abcdef", min_size=64, max_size=64))
def test_receipt_bytes_are_its_canonical_json(standalone, game, player, total, digest):
    """Any game id and player name (quotes, escapes, non-ASCII) give the canonical bytes, in
    the core and in verify.py; a field of the wrong value or type, or one too many, gives
    None (the field checks then run)."""
    receipt = {**RECEIPT, "game": game, "player": player, "total": total,
               "transcript_sha256": digest}
    core = ReceiptBytes(RECEIPT_TYPE, "2026-11-29", 2, "yahtzee")
    script = standalone.day_receipt_bytes("2026-11-29", 2, "yahtzee")
    try:
        expected = canonical_json(unsigned(receipt))
    except UnicodeEncodeError:  # a lone surrogate has no UTF-8: no canonical bytes either
        return
    assert core.of(receipt, game, player) == expected == script(receipt, game, player)
    assert core.of(receipt, game + "x", player) is None is script(receipt, game + "x", player)
    for key, value in FORGERIES:
        forged = {**receipt, key: value}
        assert core.of(forged, game, player) is None is script(forged, game, player), key
    missing = {k: v for k, v in receipt.items() if k != "sig"}
    assert core.of(missing, game, player) is None is script(missing, game, player)


def test_an_empty_transcript_first_of_its_day(standalone):
    """A game with no action yet, the first of its day (nothing learnt), replays to an empty
    sheet and the bytes ``[]`` on both fast paths."""
    stream = audit.SharedStream(DiceStream(bytes(32), DATE, "yahtzee"))
    rolls = [list(stream.roll(n)) for n in range(3 * len(RULESETS["yahtzee"].categories))]
    replayed = audit.FastReplay(stream, audit.CachedRules("yahtzee")).run([])
    assert replayed.boxes == {} and replayed.encoded == b"[]"
    sheet, encoded = standalone.fast_replay([], "yahtzee", rolls, {})
    assert sheet.boxes == {} and encoded == b"[]"
