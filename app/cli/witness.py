"""``yacht-daily witness``: a third party's witness (docs/operations.md, "Running a witness"), in
one of two modes sharing the key, the name and the state file:

- ``yacht-daily witness URL``: pulls a Yacht Daily server's day logs from its JSON API and posts
  cosignatures back (``app.witness.service``);
- ``yacht-daily witness --serve HOST:PORT --log VKEY …``: a standard C2SP tlog-witness, serving
  ``POST /add-checkpoint`` to the logs named (``app.witness.server``) under gunicorn (one worker
  process, a few threads; the state file's lock is held by the master for the server's life,
  and each request's read-check-write takes the state's update lock).

This is the command around them: the key and state files, the passes, what is printed and the
exit status.

Exit status with ``--once``: 0 every log is cosigned or up to date, 1 a checkpoint was refused
(a fork, a rollback or an inconsistent extension: the evidence is in the state file), 2 the
server could not be asked or did not take a cosignature.

A cosignature's time is the system's clock, or the test clock file's
(``YACHT_DAILY_CLOCK_FILE``, ``app/platform/clock.py``) like every yacht-daily command: a server on
a test clock takes only cosignatures timed near its own clock.
"""

import datetime as dt
import functools
import signal
import socket
import threading
from pathlib import Path

import click

from app.cli.server import GunicornServer
from app.platform.clock import system_now
from app.witness import key as witness_key
from app.witness import state as witness_state
from app.witness.server import create_witness_app
from app.witness.service import ERROR, REFUSED, Outcome, Server, ServerError, Witness
from fairness.errors import LedgerError
from fairness.note import ED25519, VerifierKey, parse_vkey

SERVING_THREADS = 4

MARKS = {"cosigned": "✓", "up to date": "=", "no checkpoint": "-", REFUSED: "✗", ERROR: "!"}


@click.command()
@click.argument("url", required=False)
@click.option("--key", "key_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The witness's Ed25519 private key (PEM); created on first run.")
@click.option("--state", "state_path", required=True,
              type=click.Path(dir_okay=False, path_type=Path),
              help="The witness's state file (JSON); created on first run.")
@click.option("--name", default=None,
              help="The witness's key name, e.g. witness.example.org/w1 (fixed on first run).")
@click.option("--once", is_flag=True, help="One pass, then exit with its status.")
@click.option("--interval", type=click.FloatRange(min=1), default=60.0, show_default=True,
              help="Seconds between passes.")
@click.option("--serve", "bind", default=None, metavar="HOST:PORT",
              help="Serve the C2SP tlog-witness protocol (POST /add-checkpoint) here instead "
                   "of pulling from a URL.")
@click.option("--log", "log_vkeys", multiple=True, metavar="VKEY",
              help="With --serve: a log to witness, as its C2SP verifier key "
                   "<origin>+<key ID>+<base64(0x01 || Ed25519 key)>; repeatable.")
@click.pass_context
def witness(context: click.Context, url: str | None, key_path: Path, state_path: Path,
            name: str | None, once: bool, interval: float, bind: str | None,
            log_vkeys: tuple[str, ...]) -> None:
    """Witness the logs of the Yacht Daily server at URL: check each new checkpoint against
    the last one accepted, cosign it, refuse and report a fork.

    With --serve HOST:PORT and one --log VKEY per log (no URL), be a standard C2SP
    tlog-witness instead: logs submit their checkpoints with a consistency proof to
    POST /add-checkpoint and get this witness's cosignature back."""
    check_mode(context, url, bind, log_vkeys)
    if bind is not None:
        serve(bind, [log_key(text) for text in log_vkeys], key_path, state_path, name)
        return
    try:
        with witness_state.locked(state_path):
            state, key = identity(state_path, key_path, name)
            process = Witness(Server(url), key, state,
                              lambda s: witness_state.write(state_path, s),
                              clock=lambda: system_now().timestamp())
            status = run(process, state_path, once, interval)
    except (witness_state.StateError, LedgerError, ValueError, OSError) as error:
        click.echo(f"yacht-daily witness: {error}", err=True)
        raise click.exceptions.Exit(2) from None
    raise click.exceptions.Exit(status)


def identity(state_path: Path, key_path: Path,
             name: str | None) -> tuple[witness_state.WitnessState, witness_key.WitnessKey]:
    """The witness's state and key (both created on the first run, the name fixed then), its
    verifier key announced; the caller holds the state file's lock."""
    state = witness_state.read(state_path)
    private_key, created = witness_key.load_or_create(key_path)
    key = witness_key.witness_key(private_key, chosen_name(state, name, private_key))
    if state.name is None:
        state.name = key.name
        witness_state.write(state_path, state)
    announce(key, key_path, created)
    return state, key


def check_mode(context: click.Context, url: str | None, bind: str | None,
               log_vkeys: tuple[str, ...]) -> None:
    """Exactly one mode: a URL to pull from (with --once/--interval), or --serve with --log."""
    if (url is None) == (bind is None):
        raise click.UsageError("give either a server's URL to pull from, or --serve HOST:PORT")
    if bind is None and log_vkeys:
        raise click.UsageError("--log names a log to serve: it goes with --serve")
    if bind is not None:
        if not log_vkeys:
            raise click.UsageError("--serve needs at least one --log VKEY to witness")
        pulling = [option for option in ("once", "interval")
                   if context.get_parameter_source(option) != click.core.ParameterSource.DEFAULT]
        if pulling:
            raise click.UsageError(f"--{pulling[0]} is for pulling from a URL, not --serve")


def log_key(text: str) -> VerifierKey:
    """A --log vkey: an Ed25519 (type 0x01) note key named by its log's origin."""
    try:
        key = parse_vkey(text)
    except LedgerError as error:
        raise click.BadParameter(str(error), param_hint="--log") from None
    if key.kind != ED25519:
        raise click.BadParameter(f"{key.name}: a log's key is of type 0x01 (Ed25519), not "
                                 f"0x{key.kind:02x}", param_hint="--log")
    return key


def serve(bind: str, logs: list[VerifierKey], key_path: Path, state_path: Path,
          name: str | None) -> None:
    """Run the standard witness under gunicorn until SIGTERM/SIGINT, holding the state file's
    lock all along (no other witness process may use it meanwhile)."""
    try:
        check_can_listen(bind)
        with witness_state.locked(state_path):
            _, key = identity(state_path, key_path, name)
            for log in logs:
                click.echo(f"log {log.text()}")
            app_factory = functools.partial(create_witness_app, key, state_path, logs)
            GunicornServer(app_factory, serving_options(bind)).run()
    except (witness_state.StateError, LedgerError, ValueError, OSError) as error:
        click.echo(f"yacht-daily witness: {error}", err=True)
        raise click.exceptions.Exit(2) from None


def serving_options(bind: str) -> dict:
    """Gunicorn's settings for the witness: one worker process whose threads keep HTTP
    connections alive (the spec asks witnesses to support keep-alive), plain-text logs."""
    return {
        "bind": bind,
        "workers": 1,
        "worker_class": "gthread",
        "threads": SERVING_THREADS,
        "preload_app": False,
        "timeout": 30,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": "-",
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "yacht-daily-witness",
        "control_socket_disable": True,
        "when_ready": lambda server: click.echo(
            f"witness listening at {server.LISTENERS[0]} (POST /add-checkpoint)", err=True),
    }


def check_can_listen(bind: str) -> None:
    """A clear error before anything starts when ``bind`` is not HOST:PORT or is taken."""
    host, _, port = bind.rpartition(":")
    if not host or not port.isdigit():
        raise click.BadParameter(f"{bind!r} is not HOST:PORT", param_hint="--serve")
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), int(port)))
        except OSError as error:
            raise click.ClickException(f"cannot listen on {bind}: {error.strerror}") from None


def chosen_name(state: witness_state.WitnessState, name: str | None, private_key) -> str:
    """The witness's name: the one its state recorded; else ``--name``; else a default."""
    if state.name is not None:
        if name is not None and name != state.name:
            raise click.UsageError(f"this witness is named {state.name} (its state file); "
                                   f"--name {name} would be another witness, with another state")
        return state.name
    return name or witness_key.default_name(private_key)


def announce(key: witness_key.WitnessKey, key_path: Path, created: bool) -> None:
    """Say who the witness is: its verifier key, for the log's operator and the verifiers."""
    if created:
        click.echo(f"Created a new witness key in {key_path} (keep it private).")
        click.echo("Give the log's operator this verifier key, and publish it:")
    click.echo(f"witness {key.vkey}")


def run(process: Witness, state_path: Path, once: bool, interval: float) -> int:
    """Pass after pass until SIGTERM/SIGINT (or one pass with ``once``); the exit status."""
    stop = threading.Event()
    if not once:
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, lambda *_: stop.set())
    while True:
        try:
            outcomes = process.run_once()
        except ServerError as error:
            outcomes = [Outcome(process.server.api, ERROR, str(error))]
        for outcome in outcomes:
            report(outcome, state_path)
        status = exit_status(outcomes)
        if once or stop.wait(interval):
            return status


def report(outcome: Outcome, state_path: Path) -> None:
    """One line per log and pass; a refusal also on stderr, loudly, with where the evidence is."""
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    line = f"{now} {MARKS[outcome.status]} {outcome.status} {outcome.origin}: {outcome.detail}"
    click.echo(line)
    if outcome.status == REFUSED:
        click.echo(f"REFUSED {outcome.origin}: {outcome.detail}. Not cosigned; the evidence "
                   f"(both signed notes) is kept in {state_path}.", err=True)


def exit_status(outcomes: list[Outcome]) -> int:
    """1 if a checkpoint was refused, else 2 if something failed, else 0."""
    statuses = {outcome.status for outcome in outcomes}
    return 1 if REFUSED in statuses else 2 if ERROR in statuses else 0
