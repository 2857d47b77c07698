"""An entry's canonical text is read without parsing it (fairness/audit/entry_text.py) exactly as
parsing and checking it reads it, and any other text is left to the general reading.

What ``canonical_entry`` accepts must parse (``json.loads`` of its ``entry_text``) to a
well-formed roll or score that canonical JSON writes back as the very same text, and say what
that entry says; every well-formed entry's canonical text with a box id, and integers short
enough, is accepted.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from fairness.audit.checks import unchecked_canonical
from fairness.audit.entry_text import ENTRY_OPENING, canonical_entry, entry_text, is_canonical_entry

INTEGERS = st.integers(-10**12, 10**12)
ROLLS = st.fixed_dictionaries({
    "action": st.just("roll"),
    "dice": st.lists(st.one_of(st.integers(0, 7), INTEGERS), min_size=5, max_size=5),
    "hold": st.lists(st.booleans(), min_size=5, max_size=5)})
BOXES = st.one_of(st.sampled_from(["chance", "yahtzee", "small-straight", "fives@2"]),
                  st.text(min_size=1, max_size=6))
SCORES = st.fixed_dictionaries({"action": st.just("score"), "category": BOXES,
                                "points": st.one_of(st.integers(0, 50), INTEGERS),
                                "bonus": st.one_of(st.just(0), INTEGERS)})


def piece(entry: dict) -> str:
    """An entry's canonical JSON after its opening (``{"action":"``), without its closing brace:
    its piece."""
    text = unchecked_canonical(entry)
    assert text.startswith(ENTRY_OPENING) and entry_text(text[len(ENTRY_OPENING):-1]) == text
    return text[len(ENTRY_OPENING):-1]


def said(entry: dict) -> tuple:
    """What a well-formed entry says, as the general reading gives it."""
    if entry["action"] == "roll":
        return ("roll", tuple(entry["hold"]), tuple(entry["dice"]))
    return ("score", entry["category"], entry["points"], entry["bonus"])


def short_integers(entry: dict) -> bool:
    """True when every integer of the entry has at most 9 digits."""
    numbers = entry["dice"] if entry["action"] == "roll" else [entry["points"], entry["bonus"]]
    return all(abs(number) < 10**9 for number in numbers)


def plain_box(entry: dict) -> bool:
    """True unless the entry is a score whose box id has characters no box id has."""
    return entry["action"] == "roll" or (
        entry["category"].isascii() and all(c.islower() or c.isdigit() or c in "@-"
                                            for c in entry["category"]))


@settings(max_examples=300, deadline=None)
@given(entry=st.one_of(ROLLS, SCORES))
def test_a_canonical_entry_is_read_as_parsed(entry):
    """Every well-formed entry's canonical text is read to what it says (unless an integer is
    longer than 9 digits or its box id has other characters: then it is left to parsing)."""
    text = piece(entry)
    read = canonical_entry(text)
    assert is_canonical_entry(text) == (read is not None)
    if short_integers(entry) and plain_box(entry):
        assert read == said(entry)
    else:
        assert read is None


@settings(max_examples=500, deadline=None)
@given(entry=st.one_of(ROLLS, SCORES), data=st.data())
def test_what_is_read_parses_to_the_same_canonical_entry(entry, data):
    """Any text near an entry's canonical text (a character dropped, doubled or replaced):
    when it is read, it parses to an entry whose canonical text it is, saying what was read."""
    text = piece(entry)
    at = data.draw(st.integers(0, len(text)))
    change = data.draw(st.sampled_from(("drop", "double", "replace")))
    other = data.draw(st.sampled_from(' ,:"\\[]{}0123456789-.eEtruefalsTF'))
    text = {"drop": text[:at] + text[at + 1:], "double": text[:at] + text[at:at + 1] + text[at:],
            "replace": text[:at] + other + text[at + 1:]}[change]
    read = canonical_entry(text)
    if read is None:
        return
    parsed = json.loads(entry_text(text))
    assert piece(parsed) == text
    assert read == said(parsed)
    assert all(type(die) is int for die in parsed.get("dice", ()))
    assert all(type(flag) is bool for flag in parsed.get("hold", ()))


def test_other_writings_are_left_to_parsing():
    """Spaces, keys in another order, an escape, a float, -0, leading zeros, a key twice or a
    sixth die: not read."""
    for text in ['roll","dice": [1,2,3,4,5],"hold":[true,true,true,true,true]',
                 'roll","hold":[true,true,true,true,true],"dice":[1,2,3,4,5]',
                 'r\\u006fll","dice":[1,2,3,4,5],"hold":[true,true,true,true,true]',
                 'roll","dice":[1,2,3,4,5.0],"hold":[true,true,true,true,true]',
                 'roll","dice":[1,2,3,4,-0],"hold":[true,true,true,true,true]',
                 'roll","dice":[1,2,3,4,05],"hold":[true,true,true,true,true]',
                 'roll","dice":[1,2,3,4,5,6],"hold":[true,true,true,true,true]',
                 'score","bonus":0,"category":"chance","points":1,"points":2',
                 'score","bonus":0,"category":"Chance","points":1',
                 'score","bonus":0,"category":"chance","points":1},{"action":"roll']:
        assert canonical_entry(text) is None, text
    assert canonical_entry('score","bonus":-100,"category":"yahtzee","points":50') \
        == ("score", "yahtzee", 50, -100)
