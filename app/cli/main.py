"""The ``yacht-daily`` command: init, serve, reveal, checkpoint, ledger, new-epoch (and verify,
strategy, witness).

Commands that need Redis use ``REDIS_URL`` when set, else the embedded server of the data
directory: the running one if ``serve`` is up, otherwise one started just for the command.
"""

import contextlib
import datetime as dt
import errno
import functools
import json
import os
import socket
import sys
from pathlib import Path

import click
import redis
from gunicorn.util import parse_address
from redis.exceptions import RedisClusterException

from app.cli.server import LOG_FORMATS, WORKER_CLASSES, GunicornServer, server_options
from app.cli.strategy import strategy
from app.cli.verify import verify
from app.cli.witness import witness
from app.config import data_dir_from_env
from app.ledger import secrets as keys
from app.ledger.days import day_window, earliest_today
from app.ledger.service import RevealFailed
from app.platform.clock import system_now
from app.platform.embedded import EmbeddedRedis, RedisSupervisor
from app.servicelog.key import LOG_KEY_FILE, load_or_create_signer
from app.services import services
from fairness import ChainError
from fairness.chain import MAX_EPOCH_DAYS
from fairness.sheets import ANY_DAILY_RULESETS, NEW_EPOCH_RULESETS

NEW_EPOCH_NOTICE = dt.timedelta(days=1)
DEFAULT_BIND = "127.0.0.1:8000"
OTHER_PORT = 8080

DATA_DIR_OPTION = click.option(
    "--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Data directory (default: $YACHT_DAILY_DATA_DIR or ./var).",
)


@click.group()
def main() -> None:
    """Yacht Daily: a provably fair daily dice challenge."""


def _data_dir(data_dir: Path | None) -> Path:
    """The chosen data directory, exported so that workers and the app factory use it too."""
    chosen = data_dir or data_dir_from_env()
    os.environ["YACHT_DAILY_DATA_DIR"] = str(chosen)
    return chosen


@main.command()
@DATA_DIR_OPTION
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="The epoch's first date (default: the earliest date still today somewhere).")
@click.option("--days", type=click.IntRange(1, MAX_EPOCH_DAYS), default=None,
              help=f"The epoch's length in days (default {keys.DEFAULT_EPOCH_DAYS}).")
def init(data_dir: Path | None, start: dt.datetime | None, days: int | None) -> None:
    """Create the data directory, the epoch secret and the signing key, once."""
    data_dir = _data_dir(data_dir)
    if keys.is_initialised(data_dir):
        if start is not None or days is not None:
            raise click.ClickException(f"{data_dir} is already initialised: refusing to overwrite")
        click.echo(f"{data_dir} is already initialised; nothing changed.")
        return
    try:
        _initialise(data_dir, start.date() if start else None, days)
    except keys.AlreadyInitialised as error:
        raise click.ClickException(f"{error}: refusing to overwrite") from None


def _initialise(data_dir: Path, start: dt.date | None, days: int | None):
    """Create the secrets with the defaults for what is not given, and say in plain words what
    was made and where it is."""
    first_date = start or earliest_today(system_now())
    epoch = keys.initialise(data_dir, first_date, days or keys.DEFAULT_EPOCH_DAYS)
    load_or_create_signer(data_dir)  # the service log's key: every machine copies this one
    why_first = "" if start else (f" ({epoch.start} because that date is still today "
                                  "somewhere on Earth)")
    click.echo(
        f"Initialised {data_dir}: this server's secrets are in {data_dir / keys.EPOCH_SECRET_FILE}"
        f" (every day's dice are drawn from it) and {data_dir / keys.SIGNING_KEY_FILE} (it signs"
        f" the public ledger), beside {data_dir / LOG_KEY_FILE} (it signs the public log). Keep"
        f" them private and back them up (docs/operations.md).\n"
        f"They deal one epoch, a run of {epoch.length} daily challenges from {epoch.start} to "
        f"{epoch.end}{why_first}; its anchor {epoch.anchor.hex()} is published in the ledger "
        f"first, so anyone can check each day's revealed seed against it later.")
    return epoch


@main.command()
@DATA_DIR_OPTION
@click.option("--bind", default=DEFAULT_BIND, show_default=True, help="HOST:PORT to listen on.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Gunicorn worker processes.")
@click.option("--worker-class", type=click.Choice(WORKER_CLASSES), default="gevent",
              show_default=True,
              help="gevent: slow clients wait without holding a worker (docs/performance.md).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Threads per worker, with --worker-class gthread.")
@click.option("--log-format", type=click.Choice(("auto", *LOG_FORMATS)), default="auto",
              show_default=True,
              help="auto: plain text lines on a terminal, else one JSON object per line.")
def serve(data_dir: Path | None, bind: str, workers: int, worker_class: str, threads: int,
          log_format: str) -> None:
    """Serve the game with gunicorn, on an embedded Redis unless REDIS_URL is set; the embedded
    Redis is restarted when it dies, and serve exits with status 69 if it keeps dying."""
    if threads > 1 and worker_class != "gthread":
        raise click.UsageError("--threads needs --worker-class gthread")
    data_dir = _data_dir(data_dir)
    _check_can_listen(bind)
    if not keys.is_initialised(data_dir):
        _initialise(data_dir, None, None)
    if log_format == "auto":
        log_format = "text" if sys.stderr.isatty() else "json"
    os.environ["YACHT_DAILY_LOG_FORMAT"] = log_format
    options = server_options(bind, workers, threads, worker_class, log_format)
    with _redis_for(data_dir, share_running=False) as embedded:
        from app import create_app

        supervise = functools.partial(RedisSupervisor, embedded) if embedded else None
        GunicornServer(create_app, options, supervise).run()


def _check_can_listen(bind: str) -> None:
    """Fail with one clear message, before anything starts, when ``bind`` cannot be listened on
    (gunicorn would retry five times and then give up)."""
    address = parse_address(bind)
    if isinstance(address, str):  # a unix socket
        return
    host, port = address
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            other = OTHER_PORT if port != OTHER_PORT else OTHER_PORT + 1
            if error.errno == errno.EADDRINUSE:
                raise click.ClickException(
                    f"port {port} on {host} is already in use (is Yacht Daily already running?)."
                    f" Pick another port: make serve PORT={other}, or yacht-daily serve --bind "
                    f"{host}:{other}") from None
            raise click.ClickException(f"cannot listen on {bind}: {error.strerror}") from None


@contextlib.contextmanager
def _redis_for(data_dir: Path, share_running: bool = True):
    """Make REDIS_URL name a running Redis for the duration: the configured one, the embedded
    server already running on the data directory (unless ``share_running`` is false: ``serve``
    owns its server), or a new embedded server stopped on exit. Yields the embedded server
    started here, else None."""
    if os.environ.get("REDIS_URL"):
        yield None
        return
    embedded = EmbeddedRedis(data_dir)
    running = _answers(embedded.url)
    if running and not share_running:
        raise click.ClickException(f"a Redis already runs on {embedded.socket_path}: "
                                   "is another `yacht-daily serve` using this data directory?")
    os.environ["REDIS_URL"] = embedded.url
    try:
        with contextlib.nullcontext() if running else embedded:
            yield None if running else embedded
    finally:
        del os.environ["REDIS_URL"]


def _answers(url: str) -> bool:
    """True when a Redis answers at ``url``."""
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.ConnectionError, redis.TimeoutError, FileNotFoundError):
        return False


@contextlib.contextmanager
def _command_app(data_dir: Path | None):
    """An app context on the data directory's secrets and Redis, for one command."""
    data_dir = _data_dir(data_dir)
    try:
        keys.load(data_dir)
    except keys.NotInitialised as error:
        raise click.ClickException(str(error)) from None
    with _redis_for(data_dir):
        from app import create_app

        app = create_app({"STRATEGY_BACKGROUND": False})  # a command, not a server
        with app.app_context():
            yield app


@main.command()
@DATA_DIR_OPTION
def reveal(data_dir: Path | None) -> None:
    """Reveal every date that is due (for a cron job or a timer), under the same Redis lease
    as the web workers' reveal threads. Exits 1 when a reveal fails (logged and recorded for
    /readyz); the timer's next run tries again."""
    # Imported here: it brings in prometheus_client, which `serve` must not import before
    # gunicorn's master has chosen the workers' metrics directory (gunicorn_hooks).
    from app.ledger.reveal_runner import RevealRunner

    with _command_app(data_dir):
        try:
            done = RevealRunner(services()).run_once()
        except (RevealFailed, redis.RedisError, RedisClusterException) as error:
            raise click.ClickException(str(error)) from None
    echo_checkpoints(done.checkpoints)
    if done.revealed:
        click.echo("Revealed " + ", ".join(done.revealed))
    elif done.lease_held_elsewhere:
        click.echo("Another process holds the reveal lease and is revealing; nothing done.")
    else:
        click.echo("Nothing to reveal.")


@main.command()
@DATA_DIR_OPTION
def checkpoint(data_dir: Path | None) -> None:
    """Cut the day's log checkpoints that are due (the end of each minute in which games
    finished, and each date's close), under the same Redis lease as the web workers' threads:
    for a timer every minute when the workers do not run them. ``reveal`` does it too."""
    from app.ledger.reveal_runner import RevealRunner

    with _command_app(data_dir):
        try:
            cut = RevealRunner(services()).cut_checkpoints(strict=True)
        except Exception as error:  # logged with its cause by the runner
            raise click.ClickException(f"cutting checkpoints failed: {error}") from None
    echo_checkpoints(cut)
    if not cut:
        click.echo("No checkpoint due.")


def echo_checkpoints(cut: list[tuple[str, str, int]]) -> None:
    """One line per checkpoint cut."""
    for date, ruleset, size in cut:
        click.echo(f"Checkpoint {date} {ruleset}: {size} games")


@main.command()
@DATA_DIR_OPTION
def ledger(data_dir: Path | None) -> None:
    """Print the ledger, one JSON entry per line."""
    with _command_app(data_dir):
        entries = services().ledger.entries()
    for entry in entries:
        click.echo(json.dumps(entry, sort_keys=True))


@main.command("new-epoch")
@DATA_DIR_OPTION
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), required=True,
              help="The new epoch's first date; it must open (anywhere on Earth) at least a "
                   "day from now.")
@click.option("--days", type=click.IntRange(1, MAX_EPOCH_DAYS), default=None,
              help=f"The new epoch's length in days (default {keys.DEFAULT_EPOCH_DAYS}).")
@click.option("--sheet", "sheets", multiple=True, type=click.Choice(ANY_DAILY_RULESETS),
              help="A daily sheet of the new epoch (repeatable; default: "
                   f"{', '.join(NEW_EPOCH_RULESETS)}).")
def new_epoch(data_dir: Path | None, start: dt.datetime, days: int | None,
              sheets: tuple[str, ...]) -> None:
    """Start a new epoch from a future date: a new seed chain and a new signing key, published
    in the ledger now, with its daily sheets. Earlier dates keep their epoch, its seeds, its key
    and its sheets."""
    data_dir = _data_dir(data_dir)
    first_date = start.date()
    opens_at = day_window(first_date, 0).opens_at
    if opens_at < system_now() + NEW_EPOCH_NOTICE:
        raise click.ClickException(
            f"{first_date} opens at {opens_at:%Y-%m-%d %H:%MZ}: choose a date that opens at "
            f"least {NEW_EPOCH_NOTICE.days} day from now, so every server takes the epoch on "
            f"before anyone plays it")
    try:
        added = keys.add_epoch(data_dir, first_date, days or keys.DEFAULT_EPOCH_DAYS,
                               sheets or NEW_EPOCH_RULESETS)
    except (ChainError, keys.NotInitialised) as error:
        raise click.ClickException(str(error)) from None
    with _command_app(data_dir):
        services().ledger.ensure_epoch()
    click.echo(f"Epoch {added.epoch_number} from {added.epoch.start} to {added.epoch.end} "
               f"(daily sheets {', '.join(added.rulesets)}) published: anchor "
               f"{added.epoch.anchor.hex()}, signing key "
               f"{added.signer.public_key_hex}. Copy {data_dir / keys.EPOCHS_DIR} to every "
               f"other server's data directory now.")


main.add_command(verify)
main.add_command(strategy)
main.add_command(witness)
