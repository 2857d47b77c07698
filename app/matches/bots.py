"""The bots' turns of a match, played on the server as soon as they are due.

Each bot turn is decided by one ``strategy.bots.Bot`` (its plan kept through the turn) whose
generator is seeded from the server seed, the seat and the number of the turn's first action:
two workers racing on the same turn compute the same actions.
"""

import hashlib
import hmac
import random
from collections.abc import Callable

import strategy
from app.matches.model import BOT, Match, seat_dice
from app.matches.store import Action
from fairness import Game
from strategy.bots import Bot
from strategy.bots import Roll as BotRoll

BOT_RNG_DOMAIN = "yacht-daily/match-bot/v1"


def bot_actions(match: Match, games: list[Game], number: int,
                tables: Callable[[str], strategy.Table], server_seed: bytes) -> list[Action]:
    """Every bot action due from action ``number`` on, until a human's turn or the end;
    ``games`` is updated in place. Stops early (the bots stay due) while the sheet's strategy
    table is loading (``tables(ruleset)`` raising ValueTablesNotReady)."""
    actions: list[Action] = []
    try:
        table, bot, bot_seat = None, None, None
        while True:
            playing = [s for s in range(len(games)) if not games[s].finished]
            if not playing:
                return actions
            seat = min(playing, key=lambda s: len(games[s].boxes))
            if match.seats[seat].kind != BOT:
                return actions
            table = table or tables(match.ruleset)
            if seat != bot_seat or games[seat].dice is None:
                rng = random.Random(bot_seed(server_seed, seat, number + len(actions)))
                bot, bot_seat = Bot(table, match.seats[seat].bot, rng), seat
            choice = bot.choose(games[seat])
            if isinstance(choice, BotRoll):
                games[seat] = games[seat].roll(list(choice.hold),
                                               seat_dice(match, server_seed, seat))
            else:
                games[seat] = games[seat].score(choice.box)
            actions.append(Action(seat, games[seat].transcript[-1]))
    except strategy.ValueTablesNotReady:
        return actions


def bot_seed(server_seed: bytes, seat: int, number: int) -> int:
    """The seed of the bot generator deciding action ``number`` of ``seat``."""
    message = f"{BOT_RNG_DOMAIN}|{seat}|{number}".encode()
    return int.from_bytes(hmac.new(server_seed, message, hashlib.sha256).digest())
