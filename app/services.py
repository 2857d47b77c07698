"""The service objects one app uses, built once per app from its configuration."""

from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app

from . import keys
from .clock import system_now
from .embedded import SOCKET_NAME
from .games import GameService
from .ledger_service import LedgerService
from .store import Store, connect

EXTENSION = "yacht_daily"


@dataclass
class Services:
    """The store, the secrets, the ledger and the games of one app."""

    store: Store
    secrets: keys.Secrets
    ledger: LedgerService
    games: GameService

    def now(self):
        """The current time on the app's clock."""
        return self.games.clock()

    def prepare(self) -> None:
        """Publish the epoch entry if needed and reveal every date now due (cheap when none is)."""
        self.ledger.reveal_due()


def redis_url(config) -> str:
    """The configured Redis, else the embedded server's socket in the data directory."""
    return config["REDIS_URL"] or f"unix://{Path(config['DATA_DIR']).resolve() / SOCKET_NAME}"


def init_app(app: Flask) -> None:
    """Load the data directory's secrets, connect the store (lazily) and build the services."""
    secrets = keys.load(Path(app.config["DATA_DIR"]))
    app.secret_key = secrets.derived_key("session-cookie")
    clock = app.config.get("CLOCK") or system_now
    grace = int(app.config["REVEAL_GRACE"])
    store = Store(connect(redis_url(app.config)))
    ledger = LedgerService(store, secrets, clock, grace)
    app.extensions[EXTENSION] = Services(
        store=store,
        secrets=secrets,
        ledger=ledger,
        games=GameService(store, secrets, ledger, clock, grace),
    )


def services() -> Services:
    """The current app's services."""
    return current_app.extensions[EXTENSION]
