"""Abandoned games that look like scouting: played only to see the day's dice.

Every player of a (date, sheet) gets the same dice, and each roll shows the five dice of its slot
of the stream whatever is held (per turn: roll ``r`` of turn ``t`` shows slot ``3t + r``); a die
held hides the fresh die drawn for its place. So the most a throwaway game can show is three
rolls a turn with nothing held. A game **looks
like scouting** when it was never finished (abandoned at the close), it rolled at least three
times, it never held a die, and every turn it ended by filling a box had all three rolls (its
last, unfinished turn may have fewer). It is a mark on the published list, not a verdict: a
player may just have left.
"""

from collections.abc import Iterator, Mapping, Sequence

from app.daily.store import GameStore
from fairness.dice import ROLLS_PER_TURN

MIN_ROLLS = 3
PAGE = 1000


def looks_like_scouting(transcript: Sequence[Mapping], finished: bool) -> bool:
    """True for an unfinished game of unheld rolls, three in every turn it completed."""
    if finished:
        return False
    rolls_in_turn = rolls = 0
    for action in transcript:
        if action.get("action") == "roll":
            if any(action.get("hold", ())):
                return False
            rolls_in_turn += 1
            rolls += 1
        else:
            if rolls_in_turn != ROLLS_PER_TURN:
                return False
            rolls_in_turn = 0
    return rolls >= MIN_ROLLS


def count_scouting(store: GameStore, date: str, ruleset: str) -> int:
    """How many of a closed (date, sheet)'s games look like scouting (read page by page)."""
    return sum(1 for transcript, finished in _games(store, date, ruleset)
               if looks_like_scouting(transcript, finished))


def _games(store: GameStore, date: str, ruleset: str) -> Iterator[tuple[Sequence[Mapping], bool]]:
    """(transcript, finished) of every game of (date, sheet), one page in memory at a time."""
    after = None
    while True:
        _, ids = store.day_game_page(date, ruleset, after, PAGE)
        for record in store.load_games(ids):
            yield record.transcript, record.receipt is not None
        if len(ids) < PAGE:
            return
        after = ids[-1]
