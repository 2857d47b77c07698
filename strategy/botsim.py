"""Many bot games at once: the decisions of ``strategy.bots`` for whole batches of games.

Every game plays the same turn at the same time; in each turn the games are grouped by
turn-start state, each group's perceived values are computed once (``plan_turns``) and its games
roll, keep and score together with numpy. The dice are the games' own dice streams, each roll
taking the slot the stream's dealing gives it (``fairness.dice.roll_slot``), and each decision
takes the next of the game's uniform numbers, exactly as ``Bot.choose`` does, so a simulated game
is the game ``play_bot_game`` plays on the same stream and generator: the holds and boxes are
recorded for ``replay`` to play them again through fairness.Game.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from fairness import DiceStream, Game
from fairness.dice import (
    DICE_PER_ROLL,
    ROLLS_PER_TURN,
    SEQUENTIAL,
    roll_slot,
    slots_of_game,
    validate_dealing,
)
from fairness.game import NO_HOLD

from .bots import (
    KEEP_CHOICES,
    Level,
    Roll,
    Score,
    TurnPlan,
    apply,
    choice_values,
    on_sheet,
    pick,
    plan_turns,
    seeded_game,
)
from .dice import FACES, HAND_INDEX, KEEPS
from .sheetrules import five_box_ids
from .tables import Table

STATES_PER_PLAN = 512  # turn-start states planned at once: keeps the plan arrays small
GAMES_PER_BATCH = 20_000  # games simulated at once by play_seeded


def _hand_lookup() -> np.ndarray:
    """(7776,): the hand index of every sorted roll, read as base-6 digits (face - 1)."""
    lookup = np.full(6 ** 5, -1, dtype=np.int64)
    for hand, index in HAND_INDEX.items():
        lookup[sum((face - 1) * 6 ** place for place, face in enumerate(hand))] = index
    return lookup


HAND_LOOKUP = _hand_lookup()
PLACES = 6 ** np.arange(5)
KEEP_COUNTS = np.array([[keep.count(face) for face in FACES] for keep in KEEPS])


def hand_indices(dice: np.ndarray) -> np.ndarray:
    """The hand index of each row of five dice."""
    return HAND_LOOKUP[(np.sort(dice, axis=1).astype(np.int64) - 1) @ PLACES]


def leftmost_holds(dice: np.ndarray, keeps: np.ndarray) -> np.ndarray:
    """(n, 5) holds keeping the values of keep ``keeps[i]`` from the leftmost dice of row i."""
    left = KEEP_COUNTS[keeps].copy()
    rows = np.arange(len(dice))
    holds = np.zeros(dice.shape, dtype=bool)
    for place in range(5):
        face = dice[:, place].astype(np.int64) - 1
        holds[:, place] = left[rows, face] > 0
        left[rows, face] -= holds[:, place]
    return holds


@dataclass(frozen=True)
class SeededGames:
    """The inputs of games ``start .. start + count - 1`` of run ``seed``.

    ``dice`` (count, slots, 5): each game's slots in stream order (every slot a game can take,
    3 per box); ``uniforms`` (count, slots): each game's draws, one per decision (a game makes
    at most one per roll); ``dealing``: which slot each roll takes.
    """

    dice: np.ndarray
    uniforms: np.ndarray
    dealing: str = SEQUENTIAL


def seeded_games(seed: int, count: int, ruleset_id: str, boxes: int, start: int = 0,
                 dealing: str = SEQUENTIAL) -> SeededGames:
    """The dice and uniforms of ``count`` seeded games dealt ``dealing``
    (``bots.seeded_game``)."""
    slots = slots_of_game(boxes)
    dice = np.empty((count, slots, DICE_PER_ROLL), dtype=np.int8)
    uniforms = np.empty((count, slots))
    for offset in range(count):
        stream, rng = seeded_game(seed, start + offset, ruleset_id, dealing)
        dice[offset] = np.array(stream.dice(DICE_PER_ROLL * slots),
                                dtype=np.int8).reshape(slots, DICE_PER_ROLL)
        uniforms[offset] = rng.random(slots)
    return SeededGames(dice, uniforms, validate_dealing(dealing))


@dataclass(frozen=True)
class SimulatedGames:
    """Finished games: final ``scores``, whether each earned an ``upper_bonus`` and holds its
    points in every five-of-a-kind box (``fifty``: 50 in the Yacht or Yahtzee box, all three
    on the triple sheet), and for ``replay`` the ``boxes`` (games, turns) chosen
    in turn order, the ``rolls`` taken in each turn and the ``holds`` (games, turns, 2, 5) of a
    turn's second and third rolls."""

    scores: np.ndarray
    upper_bonus: np.ndarray
    fifty: np.ndarray
    boxes: np.ndarray
    rolls: np.ndarray
    holds: np.ndarray


class _Batch:
    """The running state of a batch of games."""

    def __init__(self, table: Table, level: Level, games: SeededGames):
        """Empty sheets for every game of ``games``."""
        self.table, self.level, self.games = table, on_sheet(level, table.ruleset_id), games
        count, turns = len(games.dice), table.rules.boxes
        self.mask = np.zeros(count, dtype=np.int64)
        self.upper = np.zeros(count, dtype=np.int64)  # the upper part of the table's state
        self.flag = np.zeros(count, dtype=np.int64)
        self.total = np.zeros(count, dtype=np.int64)
        self.upper_bonus = np.zeros(count, dtype=bool)
        self.fifties = np.zeros(count, dtype=np.int64)  # five-of-a-kind boxes holding points
        self.rolls_taken = np.zeros(count, dtype=np.int64)
        self.decisions = np.zeros(count, dtype=np.int64)
        self.boxes = np.zeros((count, turns), dtype=np.int64)
        self.rolls = np.zeros((count, turns), dtype=np.int64)
        self.holds = np.zeros((count, turns, ROLLS_PER_TURN - 1, 5), dtype=bool)

    def play_turn(self, turn: int) -> None:
        """Play turn ``turn`` of every game, planning each group of states once."""
        rules = self.table.rules
        uppers = self.upper
        keys = (self.mask * rules.upper_states + uppers) * rules.flag_states + self.flag
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(0, len(unique) + STATES_PER_PLAN,
                                                           STATES_PER_PLAN))
        for part, start in enumerate(range(0, len(unique), STATES_PER_PLAN)):
            states = first[start : start + STATES_PER_PLAN]
            plan = plan_turns(self.table, self.level, self.mask[states], uppers[states],
                              self.flag[states])
            games = order[bounds[part] : bounds[part + 1]]
            self._play_group(turn, plan, games, inverse[games] - start)

    def _drawn(self, games: np.ndarray, turn: int, roll_in_turn: int) -> np.ndarray:
        """The fresh dice of roll ``roll_in_turn`` of turn ``turn`` in each of ``games``, from
        the slot the dealing gives it; counts the roll as taken."""
        slots = roll_slot(self.games.dealing, turn, roll_in_turn, self.rolls_taken[games])
        self.rolls_taken[games] += 1
        return self.games.dice[games, slots]

    def _play_group(self, turn: int, plan: TurnPlan, games: np.ndarray, states: np.ndarray) -> None:
        """Play one turn of ``games``, whose states are rows ``states`` of ``plan``."""
        dice = self._drawn(games, turn, 0)
        for rolls_left in range(ROLLS_PER_TURN - 1, -1, -1):
            hands = hand_indices(dice)
            values = choice_values(plan, self.level, states, hands, rolls_left,
                                    self.total[games])
            uniforms = self.games.uniforms[games, self.decisions[games]]
            self.decisions[games] += 1
            columns = pick(values, self.level.temperature, uniforms)
            stop = columns < self.table.rules.boxes
            self.rolls[games[stop], turn] = ROLLS_PER_TURN - rolls_left
            self._score(turn, plan, rolls_left, games[stop], states[stop], hands[stop],
                        columns[stop])
            keep = ~stop
            games, states, dice = games[keep], states[keep], dice[keep]
            if not games.size:
                return
            kept = KEEP_CHOICES[hands[keep], columns[keep] - self.table.rules.boxes]
            holds = leftmost_holds(dice, kept)
            roll_in_turn = ROLLS_PER_TURN - rolls_left
            self.holds[games, turn, roll_in_turn - 1] = holds
            dice = np.where(holds, dice, self._drawn(games, turn, roll_in_turn))

    def _score(self, turn: int, plan: TurnPlan, rolls_left: int, games: np.ndarray,
               states: np.ndarray, hands: np.ndarray, boxes: np.ndarray) -> None:
        """Fill box ``boxes[i]`` of game ``games[i]`` with hand ``hands[i]`` (dice showing
        with ``rolls_left`` rolls left)."""
        rules = self.table.rules
        self.boxes[games, turn] = boxes
        self.total[games] += plan.immediate_at(rolls_left)[boxes, states, hands].astype(np.int64)
        first = np.full(len(games), rolls_left == ROLLS_PER_TURN - 1)
        self.mask[games], self.upper[games], self.flag[games], bonus = rules.after_scoring(
            self.mask[games], self.upper[games], self.flag[games], boxes, hands, first)
        self.total[games] += bonus
        self.upper_bonus[games] |= bonus > 0
        five_boxes = [rules.box_ids.index(box) for box in rules.five_box_ids]
        self.fifties[games] += np.isin(boxes, five_boxes) & (rules.points[boxes, hands] > 0)

    def result(self) -> SimulatedGames:
        """The finished games."""
        fifty = self.fifties == len(self.table.rules.five_box_ids)
        return SimulatedGames(self.total, self.upper_bonus, fifty, self.boxes, self.rolls,
                              self.holds)


def simulate(table: Table, level: Level, games: SeededGames) -> SimulatedGames:
    """Play every game of ``games`` to the end with ``level``'s decisions."""
    batch = _Batch(table, level, games)
    for turn in range(table.rules.boxes):
        batch.play_turn(turn)
    return batch.result()


def replay(table: Table, simulated: SimulatedGames, index: int, stream: DiceStream) -> Game:
    """Game ``index`` of ``simulated`` played again, action by action, through fairness.Game.

    Raises ValueError when fairness.Game ends on another score than the simulation's.
    """
    box_ids = table.rules.box_ids
    game = Game.new(stream.ruleset, stream.date)
    for turn in range(table.rules.boxes):
        game = apply(game, Roll(NO_HOLD), stream)
        for roll in range(1, simulated.rolls[index, turn]):
            game = apply(game, Roll(tuple(simulated.holds[index, turn, roll - 1].tolist())),
                         stream)
        game = apply(game, Score(box_ids[simulated.boxes[index, turn]]), stream)
    if game.totals().total != simulated.scores[index]:
        raise ValueError(f"game {index}: fairness.Game scores {game.totals().total}, "
                         f"the simulation {simulated.scores[index]}")
    return game


def play_seeded(table: Table, level: Level, seed: int, count: int,
                dealing: str = SEQUENTIAL) -> Iterator[Game]:
    """Games ``0 .. count - 1`` of run ``seed`` dealt ``dealing``: decided in batches, played
    through fairness.Game.

    Each game's every action is applied by fairness.Game on the game's own stream, so every
    move is checked by the rules and the scores are fairness's. Batches of GAMES_PER_BATCH
    games bound the memory.
    """
    for start in range(0, count, GAMES_PER_BATCH):
        size = min(GAMES_PER_BATCH, count - start)
        games = seeded_games(seed, size, table.ruleset_id, table.rules.boxes, start, dealing)
        simulated = simulate(table, level, games)
        for offset in range(size):
            stream = seeded_game(seed, start + offset, table.ruleset_id, dealing)[0]
            yield replay(table, simulated, offset, stream)


def summary(games: Iterable[Game]) -> dict:
    """Mean and standard deviation (n - 1) of the final scores, and the share of games with
    an upper bonus and with points in every five-of-a-kind box (``five_box_ids``)."""
    scores, bonuses, fifties, five = [], 0, 0, None
    for game in games:
        if five is None:
            five = five_box_ids(game.ruleset)
        totals = game.totals()
        scores.append(totals.total)
        bonuses += totals.upper_bonus > 0
        fifties += all(game.boxes[box] > 0 for box in five)
    if not scores:
        raise ValueError("no games to summarise")
    values = np.array(scores, dtype=np.float64)
    return {
        "games": len(scores),
        "mean": float(values.mean()),
        "stdev": float(values.std(ddof=1)) if len(scores) > 1 else 0.0,
        "upper_bonus_rate": bonuses / len(scores),
        "five_of_a_kind_50_rate": fifties / len(scores),
    }
