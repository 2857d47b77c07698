"""Past days played again as practice: which dates the archive offers, a whole game replayed on
a revealed date's published stream, and where its total and its skill figure would have ranked
on that day's boards.

Nothing here writes: a past day's game lives in the player's browser, the server only replays
the transcript it is sent (``fairness.replay`` on the date's own stream and dealing), reviews it
and reads the day's boards. Such a game reaches no board, history or streak.
"""

import datetime as dt

import orjson

import strategy
from app.boards.store import SKILL_FINISH_SPAN, BoardStore, SkillStore
from app.coach.service import review_text
from app.daily.errors import NotADailySheet
from app.ledger.secrets import Secrets
from app.platform.errors import DomainError
from app.platform.keys import skill_board_key
from fairness import FairnessError, Game, get_ruleset, replay
from fairness.dice import ROLLS_PER_TURN

ARCHIVE_DAYS = 60


class PastDayError(DomainError):
    """A refusal of a past day's replay."""


class NotRevealedYet(PastDayError):
    """The date's seed is not public: its dice cannot be played again yet."""

    status = 409

    def __init__(self, date: str):
        """The refusal of ``date``."""
        super().__init__("not-revealed", f"{date} is not revealed yet: a day can be played "
                                         "again once its seed is published.")


class NotADailySheetThen(NotADailySheet):
    """The sheet was no daily challenge on the date (its epoch does not list it): the day's
    game to play again is not found."""

    status = 404


class InvalidTranscript(PastDayError):
    """The transcript is not a whole legal game on the date's dice."""

    def __init__(self, message: str):
        """The refusal, naming the first action that is wrong."""
        super().__init__("invalid-transcript", message)


def archive_dates(first_date: str, last_revealed: str | None, count: int = ARCHIVE_DAYS,
                  ) -> list[str]:
    """The latest ``count`` revealed dates, newest first: every date from the first epoch's
    first through the last revealed one is revealed (dates are revealed in order)."""
    if last_revealed is None:
        return []
    last, first = dt.date.fromisoformat(last_revealed), dt.date.fromisoformat(first_date)
    days = min(count, (last - first).days + 1)
    return [(last - dt.timedelta(days=offset)).isoformat() for offset in range(days)]


def check_day(secrets: Secrets, revealed: bool, date: str, ruleset: str) -> None:
    """Refuse a date not revealed yet, or a sheet that was no daily challenge on it."""
    if not revealed:
        raise NotRevealedYet(date)
    daily = secrets.rulesets_for(date)
    if ruleset not in daily:
        raise NotADailySheetThen(ruleset, date, daily)


def replayed_game(secrets: Secrets, date: str, ruleset: str, transcript) -> Game:
    """The whole game ``transcript`` makes on (date, sheet)'s published stream, dealt as the
    date's epoch deals; InvalidTranscript names the first action the rules or the dice refuse,
    or says the game is unfinished."""
    boxes = len(get_ruleset(ruleset).categories)
    if not isinstance(transcript, list):
        raise InvalidTranscript("The field 'transcript' must be a list of actions.")
    if len(transcript) > (ROLLS_PER_TURN + 1) * boxes:
        raise InvalidTranscript(f"A game of {ruleset} has at most "
                                f"{(ROLLS_PER_TURN + 1) * boxes} actions; this one has "
                                f"{len(transcript)}.")
    try:
        game = replay(transcript, secrets.stream(date, ruleset))
    except FairnessError as error:
        raise InvalidTranscript(str(error)) from None
    if not game.finished:
        raise InvalidTranscript(f"The game is unfinished: {len(game.boxes)} of {boxes} boxes "
                                "are filled.")
    return game


def points_rank(boards: BoardStore, date: str, ruleset: str, total: int) -> dict:
    """Where ``total`` would have ranked on the day's points board: one more than the games
    with a higher total (equal totals share a rank, as on the board), among its players and
    this game."""
    higher, players = boards.count_between(date, ruleset,
                                           [(total + 1, "+inf"), ("-inf", "+inf")])
    return {"rank": higher + 1, "players": players + 1}


def skill_rank(skill: SkillStore, date: str, ruleset: str, centipoints_lost: int) -> dict:
    """Where a game that gave away ``centipoints_lost`` would have ranked on the day's skill
    board: one more than the games that gave away fewer centipoints (equal losses share a
    rank, as on the board), among the games ranked there and this one."""
    players = skill.board(date, ruleset, 1, None).players
    band = centipoints_lost * SKILL_FINISH_SPAN
    fewer = skill.client.zcount(skill_board_key(date, ruleset), "-inf", f"({band}")
    return {"rank": fewer + 1, "players": players + 1}


def review_json(tables, game: Game) -> dict:
    """The coach's review of a replayed ``game`` as JSON-ready data, from the process's tables
    (``coach.tables``; ValueTablesNotReady while its sheet's table is being computed)."""
    review = strategy.review(tables.get(game.ruleset), game.transcript, checked=True)
    return orjson.loads(review_text(review))
