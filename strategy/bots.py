"""Bots with levels: the perfect policy, and weaker players who err as people do.

A bot sees what a player sees (the sheet and the dice) and decides each keep and each box from
*perceived* expected final scores, then picks one choice with a softmax of those values. Every
level is four numbers (docs/strategy.md, "Bots"):

- ``temperature`` (points): a choice is taken with probability proportional to
  ``exp((value - best) / temperature)``, so a mistake gets rarer the more it costs in
  expectation; 0 always takes the best perceived choice, with the engine's tie-break;
- ``future_weight``: the weight of the points still to come against the points a box gives
  now (1 plans ahead perfectly, 0 is greedy by immediate points);
- ``bonus_weight``: how much of the upper bonus the bot believes in, now and to come (its
  values blend the true table with the table of the same sheet without an upper bonus);
- ``stop_bias`` (points): added to every box while rolls are left, so the bot stops rolling
  when a box looks almost as good as rolling on.

The two numbers in points are points of a one-column sheet's box: on a sheet whose boxes score
times a multiplier (triple Yahtzee's ×1, ×2, ×3) a bot plays them times the sheet's mean
multiplier (``on_sheet``), so that a level errs as often there as on one column.

Within a turn the bot plans consistently with what it perceives: a keep is worth the mean of
the perceived values of the hands it can lead to. Each decision (every action with dice
showing) draws exactly one uniform number from the bot's generator, whatever the level, so a
game is a deterministic function of its dice stream and its generator's seed.

Any table works: a solved ``Table`` or triple Yahtzee's ``ColumnsTable`` (the same methods), so
the bots play every sheet.
"""

import dataclasses
import functools
import hashlib
from dataclasses import dataclass

import numpy as np

from fairness import DiceStream, Game, get_ruleset
from fairness.actions import Action, Roll, Score
from fairness.dice import ROLLS_PER_TURN, SEQUENTIAL
from fairness.game import NO_HOLD

from .dice import HAND_INDEX, KEEP_INDEX, KEEPS, best_sub_keep, keep_values_from, sub_keeps
from .policy import TIE, hold_for
from .position import Position
from .sheetrules import SheetRules
from .tables import Table

GAME_DATE = "2026-01-01"  # the date every seeded bot game's dice stream is bound to
SEED_DOMAIN = "yacht-daily/bot-game/v1"
MAX_KEEPS = 31  # the distinct keeps of five different dice, keeping all five aside
FIRST_ROLL_LEFT = ROLLS_PER_TURN - 1  # rolls left once the turn's first roll is showing
# Turn plans a process keeps (about 55 KB each on a one-column sheet): at 200 tables of two
# bots three quarters of the bots' turns start from a state another bot planned already.
PLAN_CACHE_SIZE = 1024


@dataclass(frozen=True)
class Level:
    """How a bot perceives and chooses (the module docstring defines each number)."""

    name: str
    temperature: float
    future_weight: float = 1.0
    bonus_weight: float = 1.0
    stop_bias: float = 0.0

    @property
    def distorted(self) -> bool:
        """True when the bot's values differ from the optimal expected final scores."""
        return (self.future_weight, self.bonus_weight, self.stop_bias) != (1.0, 1.0, 0.0)


LEVELS: dict[str, Level] = {
    "easy": Level("easy", temperature=2.1, future_weight=0.3, bonus_weight=0.0, stop_bias=3.0),
    "medium": Level("medium", temperature=0.6, future_weight=0.9, bonus_weight=0.3,
                    stop_bias=0.5),
    "hard": Level("hard", temperature=0.5, future_weight=1.0, bonus_weight=0.38),
    "perfect": Level("perfect", temperature=0.0),
}


# Not a level players meet: the simple greedy player that the triple sheet's approximation is
# measured against (docs/strategy.md). It maximises the points of the box it fills this turn
# (the +extra bonus included, the upper bonus ignored), keeps included, and nothing after.
GREEDY = Level("greedy", temperature=0.0, future_weight=0.0, bonus_weight=0.0)


def get_level(name: str) -> Level:
    """The level called ``name``; raise ValueError for an unknown one."""
    try:
        return LEVELS[name]
    except KeyError:
        raise ValueError(f"unknown bot level {name!r}; expected one of "
                         f"{', '.join(LEVELS)}") from None


def point_scale(ruleset_id: str) -> float:
    """How many points a box of ``ruleset_id`` is worth against a one-column sheet's: the mean
    multiplier of its boxes (1 on every one-column sheet, 2 on triple Yahtzee)."""
    categories = get_ruleset(ruleset_id).categories
    return sum(category.multiplier for category in categories) / len(categories)


def on_sheet(level: Level, ruleset_id: str) -> Level:
    """``level`` as it plays ``ruleset_id``: its temperature and stop bias times the sheet's
    ``point_scale`` (the level itself on a one-column sheet)."""
    scale = point_scale(ruleset_id)
    if scale == 1:
        return level
    return dataclasses.replace(level, temperature=level.temperature * scale,
                               stop_bias=level.stop_bias * scale)


def _keep_choices() -> np.ndarray:
    """(252, 31): for each hand, the keep index of its keeps but the whole hand, -1 padded.

    Keeps are in the tie-break order: more dice held first, then the smaller tuple of values.
    """
    table = np.full((len(HAND_INDEX), MAX_KEEPS), -1, dtype=np.int64)
    for hand, h in HAND_INDEX.items():
        keeps = sorted((k for k in sub_keeps(hand) if k != hand), key=lambda k: (-len(k), k))
        table[h, : len(keeps)] = [KEEP_INDEX[k] for k in keeps]
    return table


KEEP_CHOICES = _keep_choices()


@dataclass(frozen=True)
class TurnPlan:
    """A bot's perceived values for ``u`` turn-start states.

    ``boxes`` (boxes, u, 252): each box for each final hand (``-inf`` when not allowed), the
    points scored so far excluded; ``keeps[r]`` (462, u) each keep with ``r`` rolls left
    (index 0 is None); ``immediate`` (boxes, u, 252): the points (with +extra bonus, without
    the upper bonus) each box scores now. ``first_boxes`` and ``first_immediate``: the same
    for dice of the turn's first roll, on sheets where they score otherwise (else None).
    """

    boxes: np.ndarray
    keeps: tuple[np.ndarray | None, ...]
    immediate: np.ndarray
    first_boxes: np.ndarray | None = None
    first_immediate: np.ndarray | None = None

    def boxes_at(self, rolls_left: int) -> np.ndarray:
        """The perceived box values for dice showing with ``rolls_left`` rolls left."""
        if rolls_left == FIRST_ROLL_LEFT and self.first_boxes is not None:
            return self.first_boxes
        return self.boxes

    def immediate_at(self, rolls_left: int) -> np.ndarray:
        """The points each box scores now with ``rolls_left`` rolls left."""
        if rolls_left == FIRST_ROLL_LEFT and self.first_immediate is not None:
            return self.first_immediate
        return self.immediate


def _perceived(table: Table, level: Level, state: tuple[np.ndarray, ...],
               first_roll: bool) -> tuple[np.ndarray, np.ndarray]:
    """(perceived box values, immediate points), each (boxes, u, 252), of ``level``.

    The values without an upper bonus come from ``table.bonus_blind()``, the same sheet
    without it (solved once per process: under a second).
    """
    masks, uppers, flags = state
    true = table.box_values(masks, uppers, flags, first_roll)
    immediate = table.immediate_values(masks, flags, first_roll)
    if not level.distorted:
        return true, immediate
    allowed = np.isfinite(true)
    now = np.where(allowed, immediate, 0.0)
    later = level.bonus_weight * (np.where(allowed, true, 0.0) - now)
    if level.bonus_weight != 1.0 and table.rules.upper_bonus:
        unbonused = table.bonus_blind().box_values(masks, np.zeros_like(uppers), flags,
                                                   first_roll)
        later += (1 - level.bonus_weight) * (np.where(allowed, unbonused, 0.0) - now)
    return np.where(allowed, now + level.future_weight * later, -np.inf), immediate


def plan_turns(table: Table, level: Level, masks: np.ndarray, uppers: np.ndarray,
               flags: np.ndarray) -> TurnPlan:
    """The perceived values of ``level`` in the states (masks, capped uppers, flags)."""
    boxes, immediate = _perceived(table, level, (masks, uppers, flags), first_roll=False)
    first_boxes = first_immediate = None
    if table.rules.first_roll_bonus:
        first_boxes, first_immediate = _perceived(table, level, (masks, uppers, flags),
                                                  first_roll=True)
    final = boxes.max(axis=0).T  # (252, u): each hand's best box
    keeps: list[np.ndarray | None] = [None]
    hands = np.ascontiguousarray(final)
    for rolls_left in range(1, ROLLS_PER_TURN):
        keep = keep_values_from(hands)
        keeps.append(keep)
        hands = best_sub_keep(keep)
        stop = final if rolls_left < FIRST_ROLL_LEFT or first_boxes is None \
            else first_boxes.max(axis=0).T
        if level.stop_bias:
            hands = np.maximum(hands, stop + level.stop_bias)
        elif stop is not final:
            hands = np.maximum(hands, stop)
    return TurnPlan(boxes, tuple(keeps), immediate, first_boxes, first_immediate)


@functools.lru_cache(maxsize=PLAN_CACHE_SIZE)
def planned_turn(table: Table, level: Level, state: tuple[int, int, int]) -> TurnPlan:
    """``plan_turns`` of one turn-start ``state`` (mask, capped upper, flags), kept: a plan is
    a pure function of the table, the level and the state, so every bot of the process shares
    it (its arrays are made read-only). The bot's draws are its own: the plan holds values
    only, so a game is the same with or without the cache."""
    plan = plan_turns(table, level, *(np.array([part]) for part in state))
    for array in (plan.boxes, *plan.keeps, plan.immediate, plan.first_boxes,
                  plan.first_immediate):
        if array is not None:
            array.flags.writeable = False
    return plan


def choice_values(plan: TurnPlan, level: Level, states: np.ndarray, hands: np.ndarray,
                  rolls_left: int, totals: np.ndarray) -> np.ndarray:
    """(n, boxes + 31): the perceived expected final score of every choice of ``n`` positions.

    Position ``i`` is in plan state ``states[i]`` with hand index ``hands[i]`` and
    ``totals[i]`` points scored. Columns: the boxes in sheet order, then the hand's keeps in
    the tie-break order; ``-inf`` where a choice does not exist.
    """
    boxes = plan.boxes_at(rolls_left)[:, states, hands].T + totals[:, None]
    if rolls_left and level.stop_bias:
        boxes = boxes + level.stop_bias
    keeps = np.full((len(states), MAX_KEEPS), -np.inf)
    if rolls_left:
        index = KEEP_CHOICES[hands]
        present = index >= 0
        values = plan.keeps[rolls_left][np.where(present, index, 0), states[:, None]]
        keeps = np.where(present, values + totals[:, None], -np.inf)
    return np.concatenate([boxes, keeps], axis=1)


def pick(values: np.ndarray, temperature: float, uniforms: np.ndarray) -> np.ndarray:
    """The column chosen in each row of ``values`` from one uniform number in [0, 1) per row.

    Temperature 0: the first column within TIE of the row's best (the tie-break order).
    Otherwise the first column where the running sum of the softmax weights exceeds
    ``uniform * their total``.
    """
    best = values.max(axis=1, keepdims=True)
    if temperature == 0:
        return np.argmax(values >= best - TIE, axis=1)
    weights = np.exp((values - best) / temperature)
    running = np.cumsum(weights, axis=1)
    chosen = (running <= uniforms[:, None] * running[:, -1:]).sum(axis=1)
    last = weights.shape[1] - 1 - np.argmax(weights[:, ::-1] > 0, axis=1)
    return np.minimum(chosen, last)




def apply(game: Game, action: Action, stream: DiceStream) -> Game:
    """Play ``action`` on ``game`` through fairness.Game's own rules."""
    return action.apply(game, stream)


class Bot:
    """A bot of one level on one sheet, deciding turn by turn; it owns its generator."""

    def __init__(self, table: Table, level: Level | str, rng: np.random.Generator):
        """A bot playing ``table``'s sheet at ``level``, drawing its choices from ``rng``."""
        self.table = table
        self.level = on_sheet(get_level(level) if isinstance(level, str) else level,
                              table.ruleset_id)
        self.rng = rng
        self._state: tuple[int, int, int] | None = None
        self._plan: TurnPlan | None = None

    def choose(self, game: Game) -> Action:
        """The bot's next action in ``game``: the turn's first roll, a keep, or a box."""
        if game.dice is None:
            return Roll(NO_HOLD)
        position = Position.from_game(game)
        state = position.state(self.table.rules)
        if state != self._state:
            self._plan = planned_turn(self.table, self.level, state)
            self._state = state
        hand = HAND_INDEX[position.hand()]
        values = choice_values(self._plan, self.level, np.array([0]), np.array([hand]),
                               game.rolls_left, np.array([position.total()]))
        column = int(pick(values, self.level.temperature, np.array([self.rng.random()]))[0])
        return action_for(self.table.rules, game.dice, hand, column)


def action_for(rules: SheetRules, dice: tuple[int, ...], hand: int, column: int) -> Action:
    """The action a ``choice_values`` column stands for, with these dice showing."""
    if column < rules.boxes:
        return Score(rules.box_ids[column])
    return Roll(tuple(hold_for(tuple(dice), KEEPS[KEEP_CHOICES[hand, column - rules.boxes]])))


def seeded_game(seed: int, index: int, ruleset_id: str,
                dealing: str = SEQUENTIAL) -> tuple[DiceStream, np.random.Generator]:
    """Game ``index`` of run ``seed``: its dice stream, dealt ``dealing``, and the bot's
    generator.

    The stream's seed is sha256 of ``yacht-daily/bot-game/v1|<seed>|<index>`` (date
    2026-01-01), whatever the dealing (which only says which slot each roll takes); the
    generator is numpy's PCG64 seeded with ``SeedSequence([seed, index])``.
    """
    digest = hashlib.sha256(f"{SEED_DOMAIN}|{seed}|{index}".encode()).digest()
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))
    return DiceStream(digest, GAME_DATE, ruleset_id, dealing), rng


def play_bot_game(table: Table, level: Level | str, stream: DiceStream,
                  rng: np.random.Generator) -> Game:
    """A whole game of ``level`` on ``stream``, turn by turn through fairness.Game."""
    bot = Bot(table, level, rng)
    game = Game.new(stream.ruleset, stream.date)
    while not game.finished:
        game = apply(game, bot.choose(game), stream)
    return game
