"""A day's pages read with their transcripts' text kept are read exactly as ``json.loads`` reads
them, and audited exactly as their parsed games are.

The service writes a page compactly, keys sorted: there the core's ``PageReader`` (what
verify.py reads pages with) cuts every transcript out as text. Any other text (whitespace, keys
in another order, escapes, a key twice, other number forms, the marker written where it is no
game's transcript, a ``}]`` inside a string, the escape ``\\u0000``) must read the same as
``json.loads`` and audit the same as the parsed games.
"""

import copy
import json
import marshal
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.dayfixture import make_day
from fairness import DiceStream, audit
from fairness.audit.published import PageReader, PublishedTranscript, _holds_nul_escape
from tests.verify.test_replay_equivalence import forge

SHEET = "yahtzee"


@pytest.fixture(scope="module")
def day():
    """A revealed day of five finished games and one abandoned."""
    return make_day({SHEET: 5}, unfinished=1, rng_seed=3)


def page_text(day, games: list) -> str:
    """A page of ``games`` as the service writes it (Flask: keys sorted, compact, ASCII)."""
    return json.dumps({"date": day.date, "ruleset": SHEET, "total": len(games), "games": games,
                       "next": None}, sort_keys=True, separators=(",", ":")) + "\n"


def rewritten(rng: random.Random, text: str) -> tuple[str, str]:
    """One random rewrite of a page's text: (what, the new text), valid JSON or not."""
    entries = [(m, m + text[m:].index("}") + 1) for m in range(len(text))
               if text.startswith('{"action"', m)]
    start, end = rng.choice(entries)
    entry = json.loads(text[start:end])
    at = rng.randrange(len(text))
    kinds = {
        "space after a separator": lambda: text.replace(",", ", ", 1 + at % 40),
        "space inside an entry": lambda: text[:start] + text[start:end].replace(":", " : ")
        + text[end:],
        "keys unsorted": lambda: text[:start] + json.dumps(dict(reversed(entry.items())),
                                                           separators=(",", ":")) + text[end:],
        "an escape": lambda: text[:start] + text[start:end].replace("a", "\\u0061", 1)
        + text[end:],
        "a key twice": lambda: text[:start] + '{"action":"x",' + text[start + 1:],
        "a number's other form": lambda: text[:start] + text[start:end].replace(
            ",", ".0,", 1).replace("].0", "]") + text[end:],
        "an exponent": lambda: text.replace(':0,', ':0e0,', 1 + at % 3),
        "the escape \\u0000": lambda: text.replace('"name":"', '"name":"\\u0000', 1),
        "the marker in a name": lambda: text.replace('"name":"', '"name":"a\\",\\"transcript'
                                                     '\\":[{', 1),
        "the marker as a receipt's key": lambda: text.replace(
            '"receipt":{', '"receipt":{"transcript":[{"a":1}],', 1),
        "the marker ending another key": lambda: text.replace(
            '"receipt":{', '"receipt":{"x\\"transcript":[{"a":1}],', 1),
        "the marker after a space": lambda: text.replace(',"transcript":[', ', "transcript":[',
                                                         1 + at % 3),
        "}] in a string": lambda: text[:start] + text[start:end].replace('"roll"', '"r}]"', 1)
        + text[end:],
        "},{ in a string": lambda: text[:start] + text[start:end].replace(
            '"score"', '"s},{x"', 1) + text[end:],
        "a transcript twice": lambda: text.replace('"transcript":[', '"transcript":[],'
                                                   '"transcript":[', 1),
        "a transcript not an array": lambda: text.replace('"transcript":[', '"transcript":'
                                                          '{"a":[', 1),
        "cut short": lambda: text[:at],
        "unchanged": lambda: text,
    }
    what = rng.choice(sorted(kinds))
    return what, kinds[what]()


def exact(value) -> bytes:
    """A value's exact encoding (types, key order), for comparing parses."""
    return marshal.dumps(value, 2)


def parsed(page):
    """A page read with transcripts kept, its transcripts parsed back."""
    for game in page.get("games") or []:
        if type(game) is dict and type(game.get("transcript")) is PublishedTranscript:
            game["transcript"] = game["transcript"].parsed()
    return page


def read_or_error(read, text):
    """``read(text)``, or the kind of error it raises."""
    try:
        return read(text)
    except ValueError as error:
        return type(error)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_pages_read_and_audit_as_parsed(day, seed):
    """A rewritten page (its games forged or not) reads as json.loads reads it, and audits as
    its parsed games do."""
    rng = random.Random(seed)
    games = copy.deepcopy(day.games[SHEET])
    stream = audit.SharedStream(_stream(day))
    for game in rng.sample(games[:5], rng.randrange(3)):  # finished games: forge needs a box
        game["transcript"] = forge(rng, game["transcript"], SHEET, stream)[1]
    first, second = page_text(day, games[:3]), page_text(day, games[3:])
    what, first = rewritten(rng, first)
    reference = read_or_error(json.loads, first)
    core = read_or_error(PageReader().read, first)
    if isinstance(reference, type):
        assert core is reference, what
        return
    assert exact(parsed(core)) == exact(reference), what
    if not (type(reference) is dict and type(reference.get("games")) is list):
        return
    objects = reference["games"] + json.loads(second)["games"]
    core_day = audit.audit_day(day.ledger, day.date, SHEET, objects)
    core_pages = audit.audit_day(day.ledger, day.date, SHEET, audit.read_pages([first, second]))
    assert core_pages.checks == core_day.checks, what
    assert core_pages.leaderboard == core_day.leaderboard, what


def _stream(day):
    """The day's shared stream (its seed from the reveal)."""
    reveal = next(entry for entry in day.ledger if entry.get("date") == day.date)
    return DiceStream(reveal["seed"], day.date, SHEET)


def test_the_service_format_is_cut_whole(day):
    """On the page the service writes, every transcript is kept as its text, which is its
    canonical JSON."""
    page = PageReader().read(page_text(day, day.games[SHEET]))
    for game, published in zip(page["games"], day.games[SHEET], strict=True):
        assert type(game["transcript"]) is PublishedTranscript
        assert game["transcript"].text.encode() == audit.safe_canonical(published["transcript"])


def test_equal_pieces_are_one_object(day):
    """A reader keeps one copy of each entry's text: the same entry in two transcripts, on two
    pages, is the same object (what the replay looks up)."""
    reader = PageReader()
    first = reader.read(page_text(day, day.games[SHEET][:3]))
    second = reader.read(page_text(day, day.games[SHEET][3:]))
    pieces = [piece for page in (first, second) for game in page["games"]
              for piece in game["transcript"].pieces]
    kept = {}
    for piece in pieces:
        assert kept.setdefault(piece, piece) is piece


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from("\\u0a\"{}"), max_size=16))
def test_the_nul_escape_is_found_wherever_it_is(text):
    """The escape \\u0000 is found at a page's backslashes exactly when it is in the page."""
    assert _holds_nul_escape(text) == ("\\u0000" in text)


def test_a_per_turn_days_pages_audit_as_its_games(per_turn_day):
    """A day of a v2 epoch (dealt per turn), read from its pages with the transcripts' text
    kept, audits as its parsed games do, every check holding."""
    games = per_turn_day.games[SHEET]
    pages = [page_text(per_turn_day, games[:20]), page_text(per_turn_day, games[20:])]
    ledger, date = per_turn_day.ledger, per_turn_day.date
    core = audit.audit_day(ledger, date, SHEET, audit.read_pages(pages))
    assert core.checks == audit.audit_day(ledger, date, SHEET, games).checks
    assert all(check.ok is not False for check in core.checks)
