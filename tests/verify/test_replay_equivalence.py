"""The verifiers' replays accept exactly the transcripts ``fairness.game.replay`` accepts.

Random legal games on every sheet, dealt sequentially or per turn, then one random forgery (a
die, a hold, a box, points, a bonus, a type, an entry dropped, doubled, swapped or added): the
core's replay decides, and the audit's detailed and fast replays and fairness.js must all
agree with it, and name the same failing checks (verify.py runs the audit's).
"""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.dayfixture import play_game
from fairness import RULESETS, DiceStream, audit
from fairness.dice import DEALINGS, PER_TURN, SEQUENTIAL
from fairness.game import replay

DATE = "2026-12-01"


def forge(rng: random.Random, transcript: list, ruleset: str, stream) -> tuple[str, list]:
    """One random forgery of a transcript: (what, forged copy)."""
    forged = copy.deepcopy(transcript)
    index = rng.randrange(len(forged))
    entry = forged[index]
    rolls = [e for e in forged if e["action"] == "roll"]
    scores = [e for e in forged if e["action"] == "score"]
    roll, scored = rng.choice(rolls), rng.choice(scores)
    position = rng.randrange(5)
    kinds = {
        "die": lambda: roll["dice"].__setitem__(position, roll["dice"][position] % 6 + 1),
        "hold": lambda: roll["hold"].__setitem__(position, not roll["hold"][position]),
        "hold as 0/1": lambda: roll.__setitem__("hold", [int(h) for h in roll["hold"]]),
        "die as float": lambda: roll["dice"].__setitem__(position, float(roll["dice"][position])),
        "box": lambda: scored.__setitem__("category",
                                          rng.choice(RULESETS[ruleset].category_ids)),
        "points": lambda: scored.__setitem__("points", scored["points"] + rng.choice((-1, 1))),
        "points as bool": lambda: scored.__setitem__("points", bool(scored["points"])),
        "bonus": lambda: scored.__setitem__("bonus", 100 - scored["bonus"]),
        "dropped": lambda: forged.pop(index),
        "doubled": lambda: forged.insert(index, copy.deepcopy(entry)),
        "swapped": lambda: forged.insert(index + 1, forged.pop(index)),
        "extra roll": lambda: forged.insert(index, {"action": "roll", "hold": [False] * 5,
                                                    "dice": list(stream.roll(0))}),
        "truncated": lambda: forged.__delitem__(slice(index, None)),
        "unknown action": lambda: entry.__setitem__("action", "reroll"),
    }
    what = rng.choice(sorted(kinds))
    kinds[what]()
    return what, forged


def legal_game(rng: random.Random, stream) -> list:
    """A random legal game's transcript on ``stream``, by the stream's dealing."""
    return play_game(rng, stream, audit.CachedRules(stream.ruleset))[0]


def make_case(seed: int, ruleset: str, dealing: str = SEQUENTIAL):
    """A random legal game of ``ruleset`` dealt by ``dealing`` and a forgery of it, on one
    stream (which keeps its seed, for the reference replay)."""
    rng = random.Random(seed)
    seed_bytes = rng.randbytes(32)
    stream = audit.SharedStream(DiceStream(seed_bytes, DATE, ruleset, dealing))
    stream.seed_hex = seed_bytes.hex()
    transcript = legal_game(rng, stream)
    return stream, transcript, forge(rng, transcript, ruleset, stream)


def core_replay(transcript, stream):
    """The reference: the Game ``fairness.game.replay`` rebuilds (a partial game is fine), or
    None when it rejects the transcript."""
    try:
        return replay(transcript, DiceStream(stream.seed_hex, stream.date, stream.ruleset,
                                             stream.dealing))
    except Exception:  # ReplayMismatch, or TypeError for a float: rejected either way
        return None


def failing_names(checks) -> list:
    """The names of the failing replay checks, completeness aside."""
    return [check[0] for check in checks if check[1] is False and check[0] != "game complete"]


def all_replays(transcript, stream) -> dict:
    """Each replay's verdict (failing check names; None = fast path declined)."""
    detailed = audit.replay_checks(transcript, stream, explain=True)
    fast = audit.FastReplay(stream, audit.CachedRules(stream.ruleset)).run(transcript)
    return {
        "audit": failing_names([(c.name, c.ok) for c in detailed.checks]),
        "audit fast accepts": fast is not None,
        "boxes": (dict(detailed.boxes), fast.boxes if fast else None),
        "totals": (detailed.totals, fast.totals if fast else None),
    }


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=st.sampled_from(sorted(RULESETS)),
       dealing=st.sampled_from(DEALINGS))
def test_every_replay_agrees_with_the_core(seed, ruleset, dealing):
    """Forged or not, the audit's replays say what fairness.game.replay says, by either
    dealing."""
    stream, transcript, (what, forged) = make_case(seed, ruleset, dealing)
    for candidate, legal in ((transcript, True), (forged, None)):
        reference = core_replay(candidate, stream)
        accepted = reference is not None
        if legal:
            assert accepted
        verdicts = all_replays(candidate, stream)
        assert (verdicts["audit"] == []) is accepted, what
        assert verdicts["audit fast accepts"] is (accepted and verdicts["audit"] == []), what
        if accepted:
            detailed, fast = verdicts["boxes"]
            assert dict(reference.boxes) == detailed == fast
            assert reference.totals() == verdicts["totals"][0] == verdicts["totals"][1]


def test_fairness_js_replays_agree(node):
    """fairness.js names the same failing checks on 150 forged games of every sheet, half of
    them dealt per turn."""
    rulesets = sorted(RULESETS)
    cases, jobs = [], []
    for seed in range(150):
        ruleset = rulesets[seed % len(rulesets)]
        dealing = PER_TURN if seed % 2 else SEQUENTIAL
        stream, _, (what, forged) = make_case(seed, ruleset, dealing)
        rolls = [list(stream.roll(n)) for n in range(3 * len(RULESETS[ruleset].categories))]
        cases.append((what, forged, stream))
        jobs.append({"fn": "replay", "args": [forged, ruleset, rolls, dealing]})
    mismatches = []
    for (what, forged, stream), value in zip(cases, node.values(jobs), strict=True):
        core = failing_names([(c.name, c.ok) for c in
                              audit.replay_checks(forged, stream, explain=True).checks])
        js = failing_names([(c["name"], c["ok"]) for c in value["checks"]])
        if what != "die as float" and js != core:  # JSON.parse cannot tell 4.0 from 4
            mismatches.append((what, core, js))
    assert mismatches == []
