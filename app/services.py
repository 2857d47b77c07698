"""The service objects one app uses, built once per app from its configuration."""

import contextlib
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask, current_app

import strategy
from app.boards.store import BoardStore, SkillStore
from app.coach.service import Coach
from app.coach.tables import TableSource, table_source
from app.config import DEFAULT_EPOCH_CHECK_SECONDS, strategy_dir
from app.daily.service import GameService
from app.daily.store import GameStore
from app.daylog.service import V2, LogService, load_witnesses
from app.daylog.store import LogStore
from app.groups.service import GroupService
from app.groups.store import GroupStore
from app.ledger import secrets as keys
from app.ledger.service import LedgerService
from app.ledger.store import LedgerStore
from app.matches.service import MatchService
from app.matches.store import MatchStore
from app.platform.clock import system_clock
from app.platform.embedded import SOCKET_NAME
from app.platform.leased_loop import STORAGE_ERRORS
from app.platform.redis import connect
from app.players.store import PlayerStore
from app.servicelog.service import ServiceLog, day_logs_since, service_log_origin
from app.servicelog.store import ServiceLogStore
from app.servicelog.witnesses import load_log_witnesses
from app.tables.events import TableChannel
from app.tables.service import TableService
from app.tables.store import TableStore
from app.tables.turn_clock import TurnClock
from fairness import RULESETS

EXTENSION = "yacht_daily"


@dataclass
class Services:
    """The stores, the secrets, the ledger, the day's logs and the games of one app."""

    game_store: GameStore
    board_store: BoardStore
    skill_store: SkillStore
    player_store: PlayerStore
    ledger_store: LedgerStore
    secrets: keys.Secrets
    ledger: LedgerService
    logs: LogService
    games: GameService
    coach: Coach
    data_dir: Path
    epochs_seen: tuple[str, ...] = field(default=())
    matches: MatchService | None = None
    tables: TableService | None = None
    groups: GroupService | None = None
    service_log: ServiceLog | None = None
    prepare_every: float = DEFAULT_EPOCH_CHECK_SECONDS
    prepared_at: float = -math.inf

    def now(self):
        """The current time on the app's clock."""
        return self.games.clock()

    def prepare(self) -> None:
        """Take on an epoch added to the data directory (``new-epoch``), looking at most once
        every ``prepare_every`` seconds (the look lists the directory), and publish the epoch
        entries the ledger lacks (cheap when nothing changed; after a reveal thread found the
        ledger at odds with the secrets, a refusal on every request). Never reveals: that is
        ``reveal_runner``'s job, so that no request waits for a reveal."""
        now = time.monotonic()
        if now - self.prepared_at >= self.prepare_every:
            seen = keys.epochs_signature(self.data_dir)
            if seen != self.epochs_seen:
                self.secrets.adopt(keys.load(self.data_dir))
                self.epochs_seen = seen
            self.prepared_at = now
        self.ledger.ensure_epoch()


def redis_url(config) -> str:
    """The configured Redis, else the embedded server's socket in the data directory."""
    return config["REDIS_URL"] or f"unix://{Path(config['DATA_DIR']).resolve() / SOCKET_NAME}"


def init_app(app: Flask) -> None:
    """Load the data directory's secrets, connect the store (lazily) and build the services."""
    data_dir = Path(app.config["DATA_DIR"])
    secrets = keys.load(data_dir)
    app.secret_key = secrets.derived_key("session-cookie")
    clock = app.config.get("CLOCK") or system_clock()
    grace = int(app.config["REVEAL_GRACE"])
    client = connect(redis_url(app.config))
    board_store, skill_store = BoardStore(client), SkillStore(client)
    player_store, ledger_store = PlayerStore(client), LedgerStore(client)
    game_store = GameStore(client, board_store, player_store)
    logs = LogService(game_store, ledger_store, LogStore(client), secrets, clock, grace,
                      str(app.config.get("DAY_FORMAT") or V2),
                      lambda: load_witnesses(app.config.get("WITNESSES"), data_dir))
    ledger = LedgerService(ledger_store, game_store, board_store, secrets, clock, grace, logs)
    games = GameService(game_store, secrets, ledger, logs, clock, grace)
    coach = Coach(game_store, skill_store, secrets, ledger, table_source(strategy_dir(app.config)))
    matches = MatchService(MatchStore(client), secrets,
                           match_tables(coach.tables, strategy_dir(app.config)), clock)
    ledger.reveal_listeners.append(coach.date_revealed)
    games.finish_listeners.append(coach.game_finished)
    games.finish_refused.append(coach.finish_refused)
    if app.config.get("STRATEGY_BACKGROUND", not app.testing):
        coach.start()
    service_log = ServiceLog(
        ServiceLogStore(client), logs.logs,
        lambda: [(date, sheet) for date in logs.log_dates(clock())
                 for sheet in logs.sheets_of(date)],
        service_log_origin(app.config.get("PUBLIC_URL"), app.config.get("LOG_ORIGIN")),
        data_dir, lambda: load_log_witnesses(app.config.get("LOG_WITNESSES"), data_dir),
        every_log=lambda: day_logs_since(secrets.first_date, clock(), logs.sheets_of))
    with contextlib.suppress(*STORAGE_ERRORS):  # Redis not up yet: every pass checks again
        service_log.check_identity()  # not the recorded origin and key: refuse to start
    # a server's process runs the passes; a command's (no background work) does not
    if app.config.get("SERVICE_LOG_BACKGROUND",
                      app.config.get("STRATEGY_BACKGROUND", not app.testing)):
        service_log.start()
    app.extensions[EXTENSION] = Services(
        game_store=game_store,
        board_store=board_store,
        skill_store=skill_store,
        player_store=player_store,
        ledger_store=ledger_store,
        secrets=secrets,
        ledger=ledger,
        logs=logs,
        games=games,
        coach=coach,
        data_dir=data_dir,
        epochs_seen=keys.epochs_signature(data_dir),
        prepare_every=float(app.config["EPOCH_CHECK_SECONDS"]),
        matches=matches,
        tables=TableService(TableStore(client), matches, TableChannel(client),
                            TurnClock(client, app.config.get("TURN_CLOCK") or time.time),
                            secrets.pseudonym, clock),
        groups=GroupService(GroupStore(client), games, game_store, skill_store, secrets, clock),
        service_log=service_log,
    )


def match_tables(daily: TableSource, directory: Path):
    """``tables(ruleset)``: the strategy table of any sheet, the daily ones from the coach's
    source, the others from a source of their own warmed on first use (ValueTablesNotReady until
    loaded)."""
    others = tuple(ruleset for ruleset in RULESETS if ruleset not in daily.rulesets)

    def tables(ruleset: str) -> strategy.Table:
        """The loaded table of ``ruleset``."""
        if ruleset in daily.rulesets:
            return daily.get(ruleset)
        return table_source(directory, others).get(ruleset)

    return tables


def services() -> Services:
    """The current app's services."""
    return current_app.extensions[EXTENSION]

