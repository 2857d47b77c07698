"""What the turn clock plays for a seat whose time ran out (document 001's rule).

"If it expires, the game rolls the dice once (if you had not rolled yet) and writes the dice in
the free box that scores most." The box is the one of the boxes the dice may go in now (the
Joker rules included) with the most points; between equal ones, the first in sheet order
(so dice that score nothing anywhere fill the sheet's first free box, a 0 in the upper section
before the lower one). No hold is kept: the clock's roll is a turn's first roll.
"""

from fairness import Game, get_ruleset

NO_HOLD = [False] * 5


def best_box(game: Game) -> str:
    """The box the clock fills with the game's current dice: the most points, ties to the box
    first in sheet order."""
    previews = game.previews()
    if not previews:
        raise ValueError("the clock scores only after a roll, in an unfinished game")
    order = get_ruleset(game.ruleset).category_ids
    return max(previews, key=lambda box: (previews[box], -order.index(box)))


def expire_turn(game: Game, stream) -> Game:
    """The game after the clock's move: a roll if the turn had none, then the best box."""
    if game.dice is None:
        game = game.roll(NO_HOLD, stream)
    return game.score(best_box(game))
