"""Tampering is caught, precisely, by the core, by fairness.js and by verify.py alike.

For every field of every published object of one game (ledger entries, receipt, transcript
entries, proof), ``tampering.changes`` makes one change; the checks that must then fail, and
the entry their detail must name, are derived from what the changed field means. fairness.js
must fail exactly the checks the core fails (run on every seventh change); verify.py, built
from the core, must print the core's lines (run by its command line on a few changes of each
object). A day's audit by its fast paths names what its plain checks name.
"""

import copy

import pytest

from fairness import DiceStream, audit
from fairness.dice import roll_slot
from fairness.ledger import epoch_dealing, is_epoch_entry
from tests.verify.conftest import exit_status, printed
from tests.verify.tampering import FORGED_KEY, REMOVED, changes

JS_SAMPLE_EVERY = 7
VERIFY_PY_SAMPLE_SIZE = 4  # changes of each object (a run is a Python process)


@pytest.fixture(scope="module", params=["day", "two_epoch_day", "per_turn_day"])
def game(request):
    """A finished Yahtzee game (one with an extra bonus when there is one) of a day in a first
    epoch, in a second epoch with its own key, or in a v2 epoch (dealt per turn)."""
    day = request.getfixturevalue(request.param)
    finished = [g for g in day.games["yahtzee"] if g["receipt"]]
    with_bonus = [g for g in finished if any(e.get("bonus") for e in g["transcript"])]
    chosen = (with_bonus or finished)[0]
    return {"ledger": day.ledger, "receipt": chosen["receipt"],
            "transcript": chosen["transcript"], "proof": day.proof("yahtzee", chosen["id"])}


def failing(checks) -> dict:
    """name → details of the checks that fail."""
    found: dict = {}
    for name, ok, detail in checks:
        if ok is False:
            found.setdefault(name, []).append(detail)
    return found


def missing(must_fail, failed: dict) -> list:
    """The expectations no failing check meets: each is a (name, fragment) the detail of a
    failing check of that name contains, or a list of such alternatives."""
    def met(name, fragment):
        """A failing check of this name has ``fragment`` in its detail."""
        return any(fragment in detail for detail in failed.get(name, []))
    return [expected for expected in must_fail
            if not (any(met(*option) for option in expected) if isinstance(expected, list)
                    else met(*expected))]


def ledger_expectations(change, ledger, game):
    """What must fail when a ledger entry is changed."""
    if not change.path[1:]:
        return [("reveal", "")]  # the last entry, the game's reveal, dropped
    position, field = change.path[0], change.path[1]
    entry = f"entry {position}:"
    must = [("ledger signatures", entry)]
    if position < len(ledger) - 1:
        must.append(("ledger links", f"entry {position + 1}:"))
    reveal_position = next(i for i, e in enumerate(ledger) if e.get("date") ==
                           game["receipt"]["date"])
    specific = {"seq": ("ledger sequence", entry), "prev": ("ledger links", entry),
                "type": ("ledger format", entry), "seed": ("seed chains", entry),
                "anchor": ("seed chains", ""),
                # a changed digit may make an impossible date (11-31): then the format says so
                "start": [("reveal dates", ""), ("ledger format", entry)],
                "date": [("reveal dates", entry), ("ledger format", entry)],
                "day": ("reveal dates", entry),
                "epoch": ("reveal dates", ""),
                "dealing": ("ledger format", entry)}
    nested = change.path[2:]
    if (change.value is REMOVED or change.field == FORGED_KEY) and nested:
        # a sheet's count or root gone or added: the sheets no longer match (or a bad value)
        must.append([("reveal dates", entry), ("ledger format", entry)])
    elif change.value is REMOVED or field == FORGED_KEY:
        must.append(("ledger format", entry))
    elif field == "rulesets":
        must.append(("ledger format", entry) if nested else ("reveal dates", ""))
    elif field in ("games", "roots") and position == reveal_position \
            and nested == (game["receipt"]["ruleset"],):
        must.append(("proof size", "") if field == "games" else ("inclusion proof", ""))
    elif field in specific:
        must.append(specific[field])
    return must


def receipt_expectations(change, ledger, game):
    """What must fail when the receipt is changed."""
    field = change.field
    if change.value is REMOVED or field in (FORGED_KEY, "type", "ruleset"):
        return [("receipt format", "")]
    if field in ("epoch", "date"):
        return [("reveal", "")]
    must = [("receipt signature", "")]
    if field != "sig":
        must.append(("inclusion proof", ""))
    specific = {"transcript_sha256": "transcript hash", "total": "total"}
    if field in specific:
        must.append((specific[field], ""))
    return must


def transcript_expectations(change, ledger, game):
    """What must fail when a transcript entry is changed."""
    transcript = game["transcript"]
    if not change.path:
        return [("transcript hash", ""), ("game complete", "")]
    index = change.path[0]
    entry, field = transcript[index], change.path[1]
    must = [("transcript hash", "")]
    if field == "action":
        return [*must, (f"action {index}", "")]
    if entry["action"] == "score":
        category = entry["category"]
        if field == "category":
            category = "null" if change.value is REMOVED else change.value
        return [*must, (f"box {category}", "")]
    number = sum(1 for e in transcript[:index] if e["action"] == "roll")
    if field == "hold" and len(change.path) == 3 and not hold_change_visible(game, index,
                                                                            change.path[2]):
        return must
    return [*must, (f"roll {number}", "")]


def hold_change_visible(game, index: int, position: int) -> bool:
    """Whether flipping one hold changes the dice (or makes the roll illegal)."""
    transcript = game["transcript"]
    previous = transcript[index - 1] if index else None
    if previous is None or previous["action"] != "roll":
        return True  # a hold on a turn's first roll is illegal
    reveal = next(e for e in game["ledger"] if e.get("date") == game["receipt"]["date"])
    epoch = next(e for e in game["ledger"] if is_epoch_entry(e) and e["epoch"] ==
                 reveal["epoch"])
    stream = DiceStream(reveal["seed"], reveal["date"], game["receipt"]["ruleset"])
    before = transcript[:index]
    turn = sum(1 for e in before if e["action"] == "score")
    last_score = max((i for i, e in enumerate(before) if e["action"] == "score"), default=-1)
    slot = roll_slot(epoch_dealing(epoch), turn, index - last_score - 1,
                     sum(1 for e in before if e["action"] == "roll"))
    return stream.roll(slot)[position] != previous["dice"][position]


def proof_expectations(change, ledger, game):
    """What must fail when the inclusion proof is changed."""
    if change.field == "size" and change.value is not REMOVED:
        return [("proof size", "")]
    return [("inclusion proof", "")]


EXPECTATIONS = {"ledger": ledger_expectations, "receipt": receipt_expectations,
                "transcript": transcript_expectations, "proof": proof_expectations}


def tampered_cases(game, target):
    """(change, tampered game) for every change of ``target``."""
    for change in changes(game[target]):
        yield change, {**game, target: change.apply(game[target])}


def test_the_untampered_game_verifies(game, core):
    """The baseline: every check holds."""
    checks = core.core_game(**game)
    assert [c for c in checks if c[1] is not True] == []


@pytest.mark.parametrize("target", ["ledger", "receipt", "transcript", "proof"])
def test_every_change_is_caught_precisely_by_the_core(game, core, target):
    """Each change fails the checks its field stands for, naming the entry."""
    problems, count = [], 0
    for change, tampered in tampered_cases(game, target):
        count += 1
        failed = failing(core.core_game(**tampered))
        must = EXPECTATIONS[target](change, game["ledger"], game)
        if missing(must, failed):
            problems.append((change.path, change.what, "core", missing(must, failed), failed))
    assert count > 5
    assert problems == [], f"{len(problems)} of {count} changes:\n" + "\n".join(
        str(problem)[:600] for problem in problems)


def test_fairness_js_catches_the_same(game, verifiers):
    """fairness.js fails exactly the checks the core fails, on a sample of every target."""
    cases, expected = [], []
    for target in EXPECTATIONS:
        for number, (_, tampered) in enumerate(tampered_cases(game, target)):
            if number % JS_SAMPLE_EVERY == 0:
                cases.append((tampered["ledger"], tampered["receipt"], tampered["transcript"],
                              tampered["proof"]))
                expected.append(set(failing(verifiers.core_game(**tampered))))
    results = verifiers.js_games(cases)
    mismatches = [(index, sorted(set(failing(checks))), sorted(core))
                  for index, (checks, core) in enumerate(zip(results, expected, strict=True))
                  if set(failing(checks)) != core]
    assert len(cases) > 50
    assert mismatches == []


def test_verify_py_prints_what_the_core_finds(game, core, verify_py):
    """verify.py, run by its command line on changes spread over each published object,
    prints the core's lines and exits as they say."""
    cases, expected = [], []
    for target in EXPECTATIONS:
        tampered_games = [tampered for _, tampered in tampered_cases(game, target)]
        step = max(len(tampered_games) // VERIFY_PY_SAMPLE_SIZE, 1)
        for tampered in tampered_games[::step][:VERIFY_PY_SAMPLE_SIZE]:
            cases.append((tampered["ledger"], tampered["receipt"], tampered["transcript"],
                          tampered["proof"]))
            checks = core.core_game(**tampered)
            expected.append((exit_status(checks), printed(checks)))
    assert len(cases) == VERIFY_PY_SAMPLE_SIZE * len(EXPECTATIONS)
    assert verify_py.games(cases) == expected


def test_a_changed_byte_in_a_day_is_caught_by_every_path(day, core):
    """Changes to one game of a whole day's list: the day audit names that game, by its fast
    paths as by its plain checks, line for line."""
    games = day.games["yahtzee"]
    victim = next(g for g in games if g["receipt"])
    victim_at = games.index(victim)
    roll_at = next(i for i, e in enumerate(victim["transcript"]) if e["action"] == "roll")
    edits = {
        "a die": ("games replayed", lambda g: g["transcript"][roll_at]["dice"].__setitem__(
            0, g["transcript"][roll_at]["dice"][0] % 6 + 1)),
        "the total": ("totals", lambda g: g["receipt"].__setitem__("total", 1 + g["receipt"][
            "total"])),
        "the signature": ("receipt signatures", lambda g: g["receipt"].__setitem__(
            "sig", "0" * 128)),
        "the status": ("games complete", lambda g: g.__setitem__("status", "abandoned")),
        "the receipt": ("receipts", lambda g: g.__setitem__("receipt", None)),
        "the player": ("receipts", lambda g: g.__setitem__("player", "p-000000000000")),
    }
    for what, (check, edit) in edits.items():
        tampered = copy.deepcopy(games)
        edit(tampered[victim_at])
        checks, _ = core.core_day(day.ledger, day.date, "yahtzee", tampered)
        assert any(victim["id"] in detail for detail in failing(checks).get(check, [])), what
        assert core.plain_day(day.ledger, day.date, "yahtzee", tampered)[0] == checks, what
    dropped = [g for g in games if g is not victim]
    for tampered, check in ((dropped, "game count"), (games + [games[0]], "games replayed")):
        checks, _ = core.core_day(day.ledger, day.date, "yahtzee", tampered)
        assert check in failing(checks)
        assert core.plain_day(day.ledger, day.date, "yahtzee", tampered)[0] == checks


def published_leaderboard(leaderboard, band_width: int = 25) -> dict:
    """A leaderboard as ``GET /leaderboard`` publishes it, made from the replays' ranking."""
    totals = [row["total"] for row in leaderboard]
    bands = range(0, max(totals) + 1, band_width)
    return {"players": len(totals),
            "top": [{"rank": row["rank"], "player": row["player"], "name": row["name"],
                     "total": row["total"]} for row in leaderboard[:10]],
            "distribution": [{"from": low, "to": low + band_width - 1,
                              "count": sum(low <= t < low + band_width for t in totals)}
                             for low in bands]}


def test_a_forged_leaderboard_is_caught(day, core):
    """Every count, rank, player and total of the published leaderboard is compared with the
    replays' ranking (names are not in receipts, and the order of ties is the server's)."""
    games = day.games["yahtzee"]
    _, leaderboard = core.core_day(day.ledger, day.date, "yahtzee", games)
    published = published_leaderboard(leaderboard)
    assert audit.check_leaderboard(published, leaderboard).ok
    caught = 0
    for change in changes(published):
        if change.value is REMOVED or change.field not in ("players", "rank", "player", "total",
                                                           "count"):
            continue
        forged = change.apply(published)
        assert audit.check_leaderboard(forged, leaderboard).ok is False, change
        caught += 1
    assert caught > 30
