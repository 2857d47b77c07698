"""The sheets' names, box names and one-line rules in Hungarian, in the words of the Hungarian
rules document the game comes from (Egyesek … Hatosok, Négy egyforma, Kis sor, Választás).

``fairness.sheets`` names every sheet and box in English and French only (the API serves those
names as they are); the pages read the Hungarian ones here, keyed by the English text. A box of
a sheet of several columns is named and explained as its one-column kind, with its column.
"""

import re

SHEET_NAMES = {
    "Yacht (traditional)": "Yacht (hagyományos)",
    "Yacht with upper bonus": "Yacht felső bónusszal",
    "Yahtzee": "Yahtzee",
    "Yahtzee, no Joker": "Yahtzee, Joker nélkül",
    "Yahtzee, no +100": "Yahtzee, +100 nélkül",
    "Yahtzee, no Joker, no +100": "Yahtzee, Joker és +100 nélkül",
    "Yatzy (Scandinavian)": "Yatzy (skandináv)",
    "Generala": "Generala",
    "Triple Yahtzee": "Tripla Yahtzee",
}

BOX_NAMES = {
    "Ones": "Egyesek",
    "Twos": "Kettesek",
    "Threes": "Hármasok",
    "Fours": "Négyesek",
    "Fives": "Ötösök",
    "Sixes": "Hatosok",
    "Full House": "Full House",
    "Three of a Kind": "Három egyforma",
    "Four of a Kind": "Négy egyforma",
    "Little Straight": "Kis sor",
    "Big Straight": "Nagy sor",
    "Small Straight": "Kis sor",
    "Large Straight": "Nagy sor",
    "Choice": "Választás",
    "Chance": "Esély",
    "Yacht": "Yacht",
    "Yahtzee": "Yahtzee",
    "Yatzy": "Yatzy",
    "One Pair": "Egy pár",
    "Two Pairs": "Két pár",
    "Straight (Escalera)": "Sor (Escalera)",
    "Full House (Full)": "Full House (Full)",
    "Four of a Kind (Poker)": "Négy egyforma (Póker)",
    "Generala": "Generala",
    "Double Generala": "Dupla Generala",
}

_FACES = {1: "az egyesek", 2: "a kettesek", 3: "a hármasok", 4: "a négyesek", 5: "az ötösök",
          6: "a hatosok"}

BOX_RULES = {
    **{f"Only the dice showing {face}: {face} × their number":
       f"Csak {dice} számítanak: {face} × a darabszámuk" for face, dice in _FACES.items()},
    "Three of one face and two of another: sum of the dice":
        "Három egyforma és két másik egyforma: a kockák összege",
    "Three of one face and two of another: 25": "Három egyforma és két másik egyforma: 25",
    "At least four equal: 4 × that face": "Legalább négy egyforma: az érték négyszerese",
    "Exactly 1-2-3-4-5: 30": "Pontosan 1-2-3-4-5: 30",
    "Exactly 2-3-4-5-6: 30": "Pontosan 2-3-4-5-6: 30",
    "Any dice: sum of the dice": "Bármilyen dobás: a kockák összege",
    "Five equal: 50": "Öt egyforma: 50",
    "At least four equal: sum of the dice": "Legalább négy egyforma: a kockák összege",
    "Four in a row: 15": "Négy egymást követő: 15",
    "Five in a row: 30": "Öt egymást követő: 30",
    "At least three equal: sum of the dice": "Legalább három egyforma: a kockák összege",
    "Four in a row: 30": "Négy egymást követő: 30",
    "Five in a row: 40": "Öt egymást követő: 40",
    "Two equal: the sum of the highest pair": "Két egyforma: a legmagasabb pár összege",
    "Two pairs of different faces: the sum of those four dice":
        "Két különböző pár: a négy kocka összege",
    "Three equal: the sum of those three dice": "Három egyforma: a három kocka összege",
    "Four equal: the sum of those four dice": "Négy egyforma: a négy kocka összege",
    "Exactly 1-2-3-4-5: 15": "Pontosan 1-2-3-4-5: 15",
    "Exactly 2-3-4-5-6: 20": "Pontosan 2-3-4-5-6: 20",
    "1-2-3-4-5 or 2-3-4-5-6: 20; 25 on the turn's first roll":
        "1-2-3-4-5 vagy 2-3-4-5-6: 20; a kör első dobásából 25",
    "Three of one face and two of another: 30; 35 on the first roll":
        "Három egyforma és két másik egyforma: 30; első dobásból 35",
    "At least four equal: 40; 45 on the first roll": "Legalább négy egyforma: 40; első dobásból 45",
    "Five equal: 50; 100 on the first roll (servida)":
        "Öt egyforma: 50; első dobásból 100 (servida)",
    "Five equal again, the Generala box holding its points: 100":
        "Ismét öt egyforma, amíg a Generala mező megtartja a pontjait: 100",
}

COLUMN_NAME = re.compile(r"^(?P<base>.*) ×(?P<column>\d+)$")
COLUMN_RULE = re.compile(r"^(?P<base>.*) \(× (?P<column>\d+)\)$")


def sheet_name(english: str) -> str:
    """A sheet's Hungarian name, from its English one."""
    return SHEET_NAMES[english]


def box_name(english: str) -> str:
    """A box's Hungarian name, from its English one (``Ones ×2``: ``Egyesek ×2``)."""
    column = COLUMN_NAME.match(english)
    if column and column["base"] in BOX_NAMES:
        return f"{BOX_NAMES[column['base']]} ×{column['column']}"
    return BOX_NAMES[english]


def box_rule(english: str) -> str:
    """A box's one-line rule in Hungarian, from its English one (with its column's ``(× 2)``)."""
    column = COLUMN_RULE.match(english)
    if column and column["base"] in BOX_RULES:
        return f"{BOX_RULES[column['base']]} (× {column['column']})"
    return BOX_RULES[english]
