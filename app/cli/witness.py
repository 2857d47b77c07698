"""``yacht-daily witness URL``: a third party's witness of a server's logs (docs/operations.md,
"Running a witness"). The work is ``app.witness.service``; this is the command around it: the key
and state files, the passes, what is printed and the exit status.

Exit status with ``--once``: 0 every log is cosigned or up to date, 1 a checkpoint was refused
(a fork, a rollback or an inconsistent extension: the evidence is in the state file), 2 the
server could not be asked or did not take a cosignature.

A cosignature's time is the system's clock, or the test clock file's
(``YACHT_DAILY_CLOCK_FILE``, ``app/platform/clock.py``) like every yacht-daily command: a server on
a test clock takes only cosignatures timed near its own clock.
"""

import datetime as dt
import signal
import threading
from pathlib import Path

import click

from app.platform.clock import system_now
from app.witness import key as witness_key
from app.witness import state as witness_state
from app.witness.service import ERROR, REFUSED, Outcome, Server, ServerError, Witness
from fairness.errors import LedgerError

MARKS = {"cosigned": "✓", "up to date": "=", "no checkpoint": "-", REFUSED: "✗", ERROR: "!"}


@click.command()
@click.argument("url")
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
def witness(url: str, key_path: Path, state_path: Path, name: str | None, once: bool,
            interval: float) -> None:
    """Witness the logs of the Yacht Daily server at URL: check each new checkpoint against
    the last one accepted, cosign it, refuse and report a fork."""
    try:
        with witness_state.locked(state_path):
            state = witness_state.read(state_path)
            private_key, created = witness_key.load_or_create(key_path)
            key = witness_key.witness_key(private_key, chosen_name(state, name, private_key))
            if state.name is None:
                state.name = key.name
                witness_state.write(state_path, state)
            announce(key, key_path, created)
            process = Witness(Server(url), key, state,
                              lambda s: witness_state.write(state_path, s),
                              clock=lambda: system_now().timestamp())
            status = run(process, state_path, once, interval)
    except (witness_state.StateError, LedgerError, ValueError, OSError) as error:
        click.echo(f"yacht-daily witness: {error}", err=True)
        raise click.exceptions.Exit(2) from None
    raise click.exceptions.Exit(status)


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
