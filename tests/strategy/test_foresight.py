"""The perfect-foresight maximum: equal to brute force, replayable, never beaten by a real game,
under either dealing (``fairness.dice``: per turn, sequential).

The brute force here shares nothing with ``strategy.foresight`` but ``fairness``: it plays
every one of a turn's 1 + 32 + 32² hold sequences through ``fairness.Game`` and scores every
box the rules allow, remembering only what the rest of a game depends on.
"""

import random
from collections import Counter

import pytest

from fairness import DiceStream, Game, get_ruleset, replay
from fairness.dice import DEALINGS, PER_TURN, SEQUENTIAL, roll_slot
from fairness.sheets import UPPER, UPPER_BONUS_THRESHOLD
from strategy.foresight import foresight_for_day, foresight_maximum

DATE = "2026-12-01"
SEED = bytes(range(32))
NO_HOLD = [False] * 5
HOLDS = [[bool(mask >> i & 1) for i in range(5)] for mask in range(32)]


class ListStream:
    """A DiceStream-like source that reads a fixed list of dice (slot n is dice 5n..5n+4),
    dealt ``dealing``."""

    def __init__(self, ruleset_id: str, dice: list[int], dealing: str = SEQUENTIAL):
        """Serve ``dice`` to games of ``ruleset_id`` on DATE."""
        self.date = DATE
        self.ruleset = ruleset_id
        self.dice = list(dice)
        self.dealing = dealing

    def roll(self, number: int) -> tuple[int, ...]:
        """The five dice of slot ``number``."""
        return tuple(self.dice[5 * number : 5 * number + 5])

    def deal(self, turn: int, roll_in_turn: int, rolls_taken: int) -> tuple[int, ...]:
        """The five dice of a game's roll, by the stream's dealing (``DiceStream.deal``)."""
        return self.roll(roll_slot(self.dealing, turn, roll_in_turn, rolls_taken))


def random_dice(rng: random.Random, count: int, faces=(1, 2, 3, 4, 5, 6)) -> list[int]:
    """``count`` dice drawn from ``faces``."""
    return [rng.choice(faces) for _ in range(count)]


def start_game(ruleset_id: str, boxes: dict[str, int], rolls_taken: int) -> Game:
    """A game at a turn start with ``boxes`` filled and ``rolls_taken`` rolls used."""
    return Game(get_ruleset(ruleset_id).id, DATE, boxes=dict(boxes), rolls_taken=rolls_taken)


def turn_ends(game: Game, stream: ListStream) -> dict:
    """Every state one turn can reach after its last roll, by every hold sequence.

    Keyed by rolls taken and dice: states that agree on them differ only in their transcript.
    """
    first = game.roll(NO_HOLD, stream)
    ends = {(first.rolls_taken, first.dice): first}
    for hold in HOLDS:
        second = first.roll(hold, stream)
        ends.setdefault((second.rolls_taken, second.dice), second)
        for again in HOLDS:
            third = second.roll(again, stream)
            ends.setdefault((third.rolls_taken, third.dice), third)
    return ends


def brute_force(game: Game, stream: ListStream) -> int:
    """The best final total from ``game`` (a turn start), trying every line of play.

    The points still to come from a turn start depend only on the rolls taken, which boxes
    are filled, the upper total up to 63 and whether the five-of-a-kind box holds 50: the
    search remembers them by that (under either dealing: per turn the rolls taken change
    nothing, and remembering them only repeats work).
    """
    ruleset = get_ruleset(game.ruleset)
    upper_boxes = {c.id for c in ruleset.categories if c.section == UPPER}
    memo: dict = {}

    def still_to_come(state: Game) -> int:
        """The most points the rest of the game can add to ``state``'s total."""
        if state.finished:
            return 0
        upper = sum(points for box, points in state.boxes.items() if box in upper_boxes)
        key = (
            state.rolls_taken,
            frozenset(state.boxes),
            min(upper, UPPER_BONUS_THRESHOLD),
            state.boxes.get(ruleset.five_of_a_kind_box) == 50,
        )
        if key not in memo:
            now = state.totals().total
            memo[key] = max(
                scored.totals().total - now + still_to_come(scored)
                for end in turn_ends(state, stream).values()
                for scored in (end.score(box) for box in end.placement().allowed)
            )
        return memo[key]

    return game.totals().total + still_to_come(game)


def play_line(game: Game, line, stream) -> Game:
    """Apply a foresight line's actions to ``game``, checking each against what the game gives."""
    for entry in line:
        if entry["action"] == "roll":
            game = game.roll(entry["hold"], stream)
        else:
            game = game.score(entry["category"])
        assert game.transcript[-1] == entry
    return game


def greedy_game(ruleset_id: str, stream) -> Game:
    """A plain legal game: keep the most common face, three rolls, then the best-scoring box."""
    game = Game.new(ruleset_id, DATE)
    while not game.finished:
        game = game.roll(NO_HOLD, stream)
        for _ in range(2):
            face = Counter(game.dice).most_common(1)[0][0]
            game = game.roll([die == face for die in game.dice], stream)
        previews = game.previews()
        game = game.score(max(previews, key=previews.get))
    return game


# Small sheets: (ruleset, filled boxes, rolls taken, faces the stream draws from, seed).
SMALL_CASES = [
    pytest.param(
        "yahtzee",
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three-of-a-kind": 20, "four-of-a-kind": 0, "small-straight": 30, "yahtzee": 50,
         "chance": 22},
        0, (1, 2, 3, 4, 5, 6), 1, id="yahtzee-joker-lower-boxes",
    ),
    pytest.param(
        "yahtzee",
        {"ones": 3, "twos": 6, "fours": 12, "fives": 15, "sixes": 18, "three-of-a-kind": 20,
         "four-of-a-kind": 0, "small-straight": 30, "large-straight": 40, "yahtzee": 50,
         "chance": 22},
        5, (3, 4), 2, id="yahtzee-joker-upper-forced",
    ),
    pytest.param(
        "yahtzee",
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three-of-a-kind": 20, "four-of-a-kind": 0, "large-straight": 40, "yahtzee": 0,
         "chance": 22},
        0, (5, 6), 3, id="yahtzee-joker-lower-zero-box",
    ),
    pytest.param(
        "yahtzee",
        {"twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "three-of-a-kind": 20,
         "four-of-a-kind": 0, "full-house": 25, "small-straight": 30, "large-straight": 40,
         "yahtzee": 50},
        2, (1, 6), 4, id="yahtzee-joker-chance-and-ones",
    ),
    pytest.param(
        "yahtzee",
        {"ones": 3, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "three-of-a-kind": 20,
         "four-of-a-kind": 0, "full-house": 25, "small-straight": 30, "large-straight": 40,
         "chance": 22},
        0, (2, 4), 5, id="yahtzee-first-five-of-a-kind",
    ),
    pytest.param(
        "yahtzee",
        {"twos": 6, "threes": 9, "fours": 12, "fives": 15, "three-of-a-kind": 20,
         "four-of-a-kind": 0, "full-house": 25, "small-straight": 30, "large-straight": 40,
         "yahtzee": 50, "chance": 22},
        30, (1, 2), 6, id="yahtzee-joker-upper-zero-late-start",
    ),
    pytest.param(
        "yahtzee-no-joker",
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three-of-a-kind": 20, "four-of-a-kind": 0, "large-straight": 40, "yahtzee": 50,
         "chance": 22},
        0, (3, 4), 7, id="yahtzee-no-joker",
    ),
    pytest.param(
        "yacht-bonus",
        {"ones": 3, "twos": 6, "threes": 9, "fours": 16, "choice": 20, "four-of-a-kind": 0,
         "full-house": 0, "small-straight": 15, "large-straight": 30, "yacht": 50},
        0, (1, 3, 5, 6), 8, id="yacht-bonus-upper-bonus-crossing",
    ),
    pytest.param(
        "yacht",
        {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "full-house": 0, "little-straight": 30, "big-straight": 30, "choice": 20},
        0, (4, 5, 6), 9, id="yacht-four-of-a-kind-and-yacht",
    ),
    pytest.param(
        "yahtzee",
        {"ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18, "three-of-a-kind": 20,
         "four-of-a-kind": 0, "small-straight": 30, "large-straight": 40, "chance": 22},
        0, (4, 5, 6), 10, id="yahtzee-three-boxes-bonus-crossing",
    ),
]


@pytest.mark.parametrize("dealing", DEALINGS)
@pytest.mark.parametrize(("ruleset_id", "boxes", "rolls_taken", "faces", "seed"), SMALL_CASES)
def test_equals_brute_force_on_small_sheets(ruleset_id, boxes, rolls_taken, faces, seed,
                                            dealing):
    """On sheets with two or three free boxes the search finds exactly the brute-force best."""
    dice = random_dice(random.Random(seed), 5 * 3 * len(get_ruleset(ruleset_id).categories)
                       + 5 * rolls_taken, faces)
    stream = ListStream(ruleset_id, dice, dealing)
    start = start_game(ruleset_id, boxes, rolls_taken)
    result = foresight_maximum(ruleset_id, dice, boxes=boxes, rolls_taken=rolls_taken,
                               dealing=dealing)
    assert result.dealing == dealing
    assert result.total == brute_force(start, stream)
    end = play_line(start, result.line, stream)
    assert end.finished and end.totals().total == result.total


@pytest.fixture(scope="module", params=[(sheet, dealing) for dealing in DEALINGS
                                        for sheet in ("yacht", "yacht-bonus", "yahtzee")],
                ids="-".join)
def day(request):
    """A daily sheet's stream, dealt either way, and its foresight result."""
    ruleset_id, dealing = request.param
    return (DiceStream(SEED, DATE, ruleset_id, dealing),
            foresight_for_day(SEED, DATE, ruleset_id, dealing))


def test_line_replays_to_its_total(day):
    """The optimal line is a legal game on the day's stream that ends with the reported total."""
    stream, result = day
    game = replay(list(result.line), stream)
    assert game.finished
    assert game.totals().total == result.total
    assert result.rolls == game.rolls_taken
    assert result.dealing == stream.dealing


@pytest.mark.parametrize("sheet", ["yacht", "yacht-bonus", "yahtzee", "yahtzee-no-joker",
                                   "yahtzee-no-bonus", "yatzy"])
def test_per_turn_lines_replay_action_by_action_on_several_days(sheet):
    """Dealt per turn, every line is the game fairness.Game plays on the stream, action for
    action, and each turn's first roll shows its own slot ``3t`` (stopping never shifts it)."""
    for index in range(3):
        seed = bytes([index + 1]) * 32
        stream = DiceStream(seed, DATE, sheet, PER_TURN)
        result = foresight_for_day(seed, DATE, sheet, PER_TURN)
        end = play_line(Game.new(sheet, DATE), result.line, stream)
        assert end.finished and end.totals().total == result.total
        previous = (None, *result.line[:-1])
        turn_starts = [entry["dice"] for before, entry in zip(previous, result.line, strict=True)
                       if entry["action"] == "roll"
                       and (before is None or before["action"] == "score")]
        assert turn_starts == [list(stream.roll(3 * turn))
                               for turn in range(len(get_ruleset(sheet).categories))]


def test_no_legal_game_beats_it(day):
    """A greedy game and random legal games on the same stream never score more."""
    stream, result = day
    rng = random.Random(11)
    totals = [greedy_game(stream.ruleset, stream).totals().total]
    for _ in range(20):
        game = Game.new(stream.ruleset, DATE)
        while not game.finished:
            game = game.roll(NO_HOLD, stream)
            for _ in range(rng.randrange(3)):
                game = game.roll(rng.choice(HOLDS), stream)
            game = game.score(rng.choice(game.placement().allowed))
        totals.append(game.totals().total)
    assert max(totals) <= result.total


@pytest.mark.parametrize("dealing", DEALINGS)
def test_all_sixes_known_maxima(dealing):
    """A stream of nothing but sixes: the maxima worked out by hand, Joker and +100 included
    (every slot is the same, so the dealing changes nothing)."""
    sixes = [6] * 195
    # Yacht: Sixes 30, Four of a Kind 24, Choice 30, Yacht 50; nothing else scores.
    assert foresight_maximum("yacht", sixes, dealing=dealing).total == 134
    # Yacht with bonus: Sixes 30, Choice 30, Four of a Kind 30, Yacht 50; upper 30, no bonus.
    assert foresight_maximum("yacht-bonus", sixes, dealing=dealing).total == 140
    # Yahtzee: 50 first, then twelve Jokers at +100 each: Sixes 30, 3K/4K/Chance 30,
    # Full House 25, straights 30 and 40, five zeros in the other upper boxes.
    best = foresight_maximum("yahtzee", sixes, dealing=dealing)
    assert best.total == 50 + 30 + 3 * 30 + 25 + 30 + 40 + 12 * 100
    assert best.line[1] == {"action": "score", "category": "yahtzee", "points": 50, "bonus": 0}
    assert best.rolls == 13


def test_stopping_early_reaches_later_dice_only_when_dealt_sequentially():
    """Yacht's last two turns (10 and 11: Choice and Yacht free); slots 31 and 32 are five
    sixes, every other slot 1 2 3 4 6. Sequentially, after 30 rolls, turn 10 stops at slot 31
    and turn 11 starts at slot 32: Yacht 50 and Choice 30. Per turn, turn 10 owns slots 30-32
    and can keep only one of its sixes hands, turn 11 reads slots 33-35 whatever turn 10 did:
    50 and Choice 16, however many rolls were taken before."""
    boxes = {c: 0 for c in get_ruleset("yacht").category_ids if c not in ("yacht", "choice")}
    plain = [1, 2, 3, 4, 6]
    dice = plain * 31 + [6] * 10 + plain * 3
    sequential = foresight_maximum("yacht", dice, boxes=boxes, rolls_taken=30)
    assert sequential.total == 50 + 30
    assert [entry["action"] for entry in sequential.line] == ["roll", "roll", "score", "roll",
                                                              "score"]
    per_turn = foresight_maximum("yacht", dice, boxes=boxes, dealing=PER_TURN)
    assert per_turn.total == 50 + 16
    for rolls_taken in (10, 20, 30):
        assert foresight_maximum("yacht", dice, boxes=boxes, rolls_taken=rolls_taken,
                                 dealing=PER_TURN) == per_turn


@pytest.mark.parametrize(("dealing", "first_slot"), [(SEQUENTIAL, 4), (PER_TURN, 3 * 9)])
def test_dice_may_be_a_roll_function(dealing, first_slot):
    """A callable giving slot n's dice is read like the list of the stream's dice; the first
    roll takes the slot the dealing gives (rolls taken, or 3 × the boxes filled)."""
    stream = DiceStream(SEED, DATE, "yacht")
    boxes = {c: 0 for c in get_ruleset("yacht").category_ids[3:]}
    from_list = foresight_maximum("yacht", stream.dice(5 * 36), boxes=boxes, rolls_taken=4,
                                  dealing=dealing)
    from_rolls = foresight_maximum("yacht", stream.roll, boxes=boxes, rolls_taken=4,
                                   dealing=dealing)
    assert from_rolls == from_list
    assert [entry["dice"] for entry in from_list.line[:1]] == [list(stream.roll(first_slot))]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"dice": [1] * 179}, "needs the first 180 dice"),
        ({"dice": [0] * 180}, "each die must be an integer from 1 to 6"),
        ({"dice": [1] * 180, "rolls_taken": -1}, "rolls_taken must be a non-negative integer"),
        ({"dice": [1] * 180, "boxes": {"ones": "3"}}, "points of ones must be a non-negative"),
        ({"dice": [1] * 180, "boxes": {c: 0 for c in get_ruleset("yacht").category_ids}},
         "already full"),
        ({"dice": [1] * 180, "boxes": {"chance": 3}}, "not a box of yacht"),
        ({"dice": [1] * 180, "dealing": "shuffled"}, "dealing must be one of"),
    ],
)
def test_bad_input_is_refused_clearly(arguments, message):
    """Too few dice, bad dice, a bad start state, a full sheet, an unknown box or dealing: a
    clear error."""
    with pytest.raises(ValueError, match=message):
        foresight_maximum("yacht", **arguments)


def test_a_sheet_of_several_columns_is_refused_clearly():
    """Triple Yahtzee's 39 boxes are 2^39 filled-box sets: no exact search, a clear error."""
    with pytest.raises(ValueError, match="yahtzee-triple has 3 columns"):
        foresight_for_day(SEED, DATE, "yahtzee-triple", PER_TURN)
