"""The whole-day audit's fast paths never judge otherwise than the plain checks.

The fast paths live apart from the checks that read like FAIRNESS.md: fast_replay.py (a
transcript replayed on steps learnt from the day's games), fast_receipt.py (a receipt's signed
bytes written around the day's shared fields) and published.py (a page's transcripts kept as
their text); replay.py, the field checks and canonical JSON are the plain ones. Here: a day's
legal games (dealt sequentially or per turn) warm the learnt steps, then every forgery of every
game must still be judged as ``fairness.game.replay`` judges it; a receipt's written bytes must
be its canonical JSON, and anything not plainly a well-formed receipt must be left to the field
checks; and a whole day, honest or forged, audits to the same lines with its fast paths as by
its plain checks alone (``audit_day(..., fast_paths=False)``), from its games or its pages.
"""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fairness import RULESETS, DiceStream, audit
from fairness.audit.fast_receipt import ReceiptBytes
from fairness.canonical import canonical_json
from fairness.dice import DEALINGS, SEQUENTIAL
from fairness.ledger import RECEIPT_TYPE, unsigned
from tests.verify.test_published_pages import page_text
from tests.verify.test_replay_equivalence import DATE, core_replay, forge, legal_game

GAMES_PER_DAY = 12


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(sorted(RULESETS)),
       dealing=st.sampled_from(DEALINGS))
def test_learnt_steps_judge_forgeries_like_the_core(seed, ruleset, dealing):
    """One day's fast replays, warmed by its legal games, accept a forgery exactly when the
    core's replay does, with the same sheet and the transcript's canonical bytes, by either
    dealing."""
    rng = random.Random(seed)
    seed_bytes = rng.randbytes(32)
    stream = audit.SharedStream(DiceStream(seed_bytes, DATE, ruleset, dealing))
    stream.seed_hex = seed_bytes.hex()
    fast = audit.FastReplay(stream, audit.CachedRules(ruleset))
    games = [legal_game(rng, stream) for _ in range(GAMES_PER_DAY)]
    candidates = games + [forge(rng, game, ruleset, stream)[1] for game in games
                          for _ in range(3)]
    for transcript in candidates:
        reference = core_replay(transcript, stream)
        replayed = fast.run(transcript)
        if reference is None:
            assert replayed is None, transcript
            continue
        assert replayed is not None, transcript
        assert replayed.boxes == dict(reference.boxes)
        assert replayed.totals == reference.totals()
        assert replayed.encoded == canonical_json(transcript)


@settings(max_examples=120, deadline=None)
@given(ruleset=st.sampled_from(sorted(RULESETS)), face=st.integers(1, 6),
       first_roll=st.booleans(), data=st.data())
def test_a_further_five_scores_as_the_cached_rules_check_it(ruleset, face, first_roll, data):
    """On any sheet, ``five_boxes_filled`` is ``sheet_matters`` for five of a kind, and then
    ``further_five`` of every free box is None exactly when ``allowed`` forbids it, else
    (``points``, ``bonus``)."""
    scorer = audit.CachedRules(ruleset)
    ids = [box.id for box in scorer.ruleset.categories]
    filled = data.draw(st.lists(st.sampled_from(ids), unique=True))
    five_boxes = [box for box in scorer.ruleset.boxes_of_kind(scorer.ruleset.five_of_a_kind_box)
                  if box not in filled]
    if five_boxes and data.draw(st.booleans()):  # the sheet matters half the time
        filled += five_boxes
    boxes = {box: data.draw(st.integers(0, 80)) for box in filled}
    dice = (face,) * 5
    assert scorer.five_boxes_filled(boxes) is scorer.sheet_matters(dice, boxes)
    if not scorer.five_boxes_filled(boxes):
        return
    for category in (box for box in ids if box not in boxes):
        expected = None if scorer.allowed(category, dice, boxes) is not None else (
            scorer.points(category, dice, boxes, first_roll),
            scorer.bonus(dice, boxes, category))
        assert scorer.further_five(category, dice, boxes, first_roll) == expected, category


RECEIPT = {"type": RECEIPT_TYPE, "game": "g", "epoch": 2, "date": "2026-11-29",
           "ruleset": "yahtzee", "player": "p", "transcript_sha256": "0" * 64, "total": 7,
           "sig": "a" * 128}
FORGERIES = [("total", True), ("total", 7.0), ("epoch", 3), ("epoch", True),
             ("date", "2026-11-30"), ("ruleset", "yacht"), ("type", "x"),
             ("transcript_sha256", "A" * 64), ("transcript_sha256", "0" * 63),
             ("transcript_sha256", "0" * 62 + " 0"), ("transcript_sha256", "0" * 63 + "\u0660"),
             ("transcript_sha256", b"0" * 64), ("sig", "a" * 127 + "g"), ("sig", "a" * 127 + "A"),
             ("sig", "a" * 126 + "\ta"), ("sig", 7), ("forged", 1)]


@settings(max_examples=60, deadline=None)
@given(game=st.text(), player=st.text(), total=st.integers(-10**6, 10**6),
       digest=st.text("0123456789abcdef", min_size=64, max_size=64))
def test_receipt_bytes_are_its_canonical_json(game, player, total, digest):
    """Any game id and player name (quotes, escapes, non-ASCII) give the canonical bytes; a
    field of the wrong value or type, or one too many, gives None (the field checks then
    run)."""
    receipt = {**RECEIPT, "game": game, "player": player, "total": total,
               "transcript_sha256": digest}
    core = ReceiptBytes(RECEIPT_TYPE, "2026-11-29", 2, "yahtzee")
    try:
        expected = canonical_json(unsigned(receipt))
    except UnicodeEncodeError:  # a lone surrogate has no UTF-8: no canonical bytes either
        return
    assert core.of(receipt, game, player) == expected
    assert core.of(receipt, game + "x", player) is None
    for key, value in FORGERIES:
        assert core.of({**receipt, key: value}, game, player) is None, key
    missing = {k: v for k, v in receipt.items() if k != "sig"}
    assert core.of(missing, game, player) is None


def test_an_empty_transcript_first_of_its_day():
    """A game with no action yet, the first of its day (nothing learnt), replays to an empty
    sheet and the bytes ``[]`` on the fast path."""
    stream = audit.SharedStream(DiceStream(bytes(32), DATE, "yahtzee"))
    replayed = audit.FastReplay(stream, audit.CachedRules("yahtzee")).run([])
    assert replayed.boxes == {} and replayed.encoded == b"[]"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_day_audits_alike_by_its_fast_paths_and_its_plain_checks(day, per_turn_day, core,
                                                                    seed):
    """A day dealt sequentially or per turn, some games forged (a transcript, a receipt's
    total, type or player, a game listed twice), audits to the very same lines with its fast
    paths as by its plain checks, whether its games come parsed or as published pages."""
    rng = random.Random(seed)
    revealed = rng.choice((day, per_turn_day))
    ruleset = rng.choice(sorted(revealed.games))
    games = copy.deepcopy(revealed.games[ruleset])
    reveal = next(entry for entry in revealed.ledger if entry.get("date") == revealed.date)
    epoch = next(entry for entry in revealed.ledger if entry.get("epoch") == reveal["epoch"]
                 and "public_key" in entry)
    stream = audit.SharedStream(DiceStream(reveal["seed"], revealed.date, ruleset,
                                           epoch.get("dealing", SEQUENTIAL)))
    finished = [game for game in games if game["receipt"]]
    for game in rng.sample(finished, min(len(finished), rng.randrange(4))):
        forgery = rng.choice(("transcript", "total", "type", "player", "twice"))
        if forgery == "transcript":
            game["transcript"] = forge(rng, game["transcript"], ruleset, stream)[1]
        elif forgery == "total":
            game["receipt"]["total"] += 1
        elif forgery == "type":
            game["receipt"]["type"] = "yacht-daily/receipt/v2"
        elif forgery == "player":
            game["player"] = "p-someone-else"
        else:
            games.append(copy.deepcopy(game))
    arguments = (revealed.ledger, revealed.date, ruleset)
    plain, plain_board = core.plain_day(*arguments, games)
    assert core.core_day(*arguments, games) == (plain, plain_board)
    pages = [page_text(revealed, games[:len(games) // 2]),
             page_text(revealed, games[len(games) // 2:])]
    assert core.core_day(*arguments, audit.read_pages(pages)) == (plain, plain_board)
