"""``yacht-daily verify``: the core's audit of a game, a whole revealed day, a log or a match.

It runs ``fairness.audit`` (Ed25519 by ``cryptography``) on what a server publishes, or on
downloaded files, and prints one line per check like ``/verify.py``, the standalone verifier.
Exit status: 0 every check holds, 1 one fails, 2 the data cannot be read, 3 nothing failed but
a check could not be made.
"""

import contextlib
import json
import re
import sys

import click

from app.ledger.signing import verify_signature
from fairness import audit
from fairness.audit import log_checks
from fairness.audit.gossip_checks import check_gossip
from fairness.errors import LedgerError
from fairness.gossip import find_gossip_line
from fairness.note import parse_vkey
from fairness.sheets import ANY_DAILY_RULESETS
from verifier.published import fetch, load

LEADERBOARD_LIMIT = 100
DAY_PAGE = 1000
READ_ERRORS = (OSError, ValueError, KeyError, TypeError, LedgerError)
HEX_KEY = re.compile(r"[0-9a-f]{64}")
API_PREFIX = "/api/v1"


@click.group()
def verify() -> None:
    """Verify published games with the core's audit (the standalone one is /verify.py)."""


def expect_key_option(command):
    """``--expect-key HEX|FILE``: the epoch public keys the auditor recorded (repeatable)."""
    return click.option("--expect-key", "expect_keys", multiple=True, metavar="HEX|FILE",
                        help="An epoch public key you recorded earlier, or a file of them.")(
        command)


@verify.command()
@click.argument("url")
@click.argument("game_id")
@expect_key_option
def game(url: str, game_id: str, expect_keys: tuple[str, ...]) -> None:
    """Verify one game of the server at URL: rolls, boxes, total, receipt, proof, ledger."""
    try:
        expected = read_keys(expect_keys)
        entries = fetch(url, "/ledger")["entries"]
        state = fetch(url, f"/games/{game_id}")["game"]
        proof = fetch(url, f"/games/{game_id}/proof")["proof"]
        receipt, transcript = state["receipt"], state["transcript"]
    except READ_ERRORS as error:
        cannot_read(error)
    finish(audit.check_game(entries, receipt, transcript, proof, verify_signature)
           + key_checks(entries, expected))


@verify.command()
@click.argument("url")
@click.argument("date")
@click.argument("sheet", type=click.Choice(ANY_DAILY_RULESETS))
@click.option("--top", type=click.IntRange(0, LEADERBOARD_LIMIT), default=10, show_default=True,
              help="Lines of the recomputed leaderboard to print.")
@click.option("--page-size", type=click.IntRange(1, DAY_PAGE), default=DAY_PAGE, show_default=True,
              help="Games fetched per request.")
@expect_key_option
def day(url: str, date: str, sheet: str, top: int, page_size: int,
        expect_keys: tuple[str, ...]) -> None:
    """Audit every game of a revealed DATE and SHEET, its Merkle root and its leaderboard."""
    path = f"/days/{date}/{sheet}/games?limit={page_size}"
    try:
        expected = read_keys(expect_keys)
        entries = fetch(url, "/ledger")["entries"]
        published = fetch(url, f"/leaderboard/{date}/{sheet}?limit={LEADERBOARD_LIMIT}")
        reader = audit.PageReader()  # the transcripts' text kept: the audit's fast path
        first = fetch(url, path, reader.read)
        with progress_bar(first["total"]) as progress:
            result = audit.audit_day(entries, date, sheet,
                                     day_games(url, path, first, progress, reader.read),
                                     verify_signature, None, published, reader=reader)
    except READ_ERRORS as error:
        cannot_read(error)
    click.echo("Leaderboard recomputed from the replayed games:")
    for row in result.leaderboard[:top]:
        click.echo(f"  #{row['rank']:<5} {row['total']:>4}  {row['player']}  game {row['game']}")
    finish(result.checks + key_checks(entries, expected))


def day_games(url: str, path: str, page: dict, progress, read):
    """Every game of the day, fetched page by page from ``page`` on and each read by ``read``:
    one page held at a time."""
    done = 0
    while True:
        for game in page["games"]:
            done += 1
            yield game
        if progress is not None:
            progress(done, None)
        if page["next"] is None:
            return
        page = fetch(url, f"{path}&after={page['next']}", read)


@verify.command()
@click.option("--ledger", "ledger_path", required=True, type=click.Path(dir_okay=False),
              help="The ledger (GET /api/v1/ledger).")
@click.option("--receipt", "receipt_path", required=True, type=click.Path(dir_okay=False),
              help="The receipt, or the game (GET /api/v1/games/<id>).")
@click.option("--transcript", "transcript_path", required=True, type=click.Path(dir_okay=False),
              help="The transcript, or the game.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False),
              help="The inclusion proof (GET /api/v1/games/<id>/proof).")
@expect_key_option
def files(ledger_path: str, receipt_path: str, transcript_path: str,
          proof_path: str | None, expect_keys: tuple[str, ...]) -> None:
    """Verify one game from downloaded JSON files."""
    try:
        expected = read_keys(expect_keys)
        entries = load(ledger_path, "entries")
        receipt = load(receipt_path, "game", "receipt")
        transcript = load(transcript_path, "game", "transcript")
        proof = load(proof_path, "proof") if proof_path else None
    except READ_ERRORS as error:
        cannot_read(error)
    finish(audit.check_game(entries, receipt, transcript, proof, verify_signature)
           + key_checks(entries, expected))


@verify.command()
@click.option("--url", help="The server: the ledger, the log and (once revealed) the day's "
                            "games are fetched from it unless given as files.")
@click.option("--ledger", "ledger_path", type=click.Path(dir_okay=False),
              help="The ledger (GET /api/v1/ledger).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help='The (date, sheet)\'s log: {"checkpoints": [{"note", "consistency"}]}.')
@click.option("--date", required=True)
@click.option("--sheet", required=True, type=click.Choice(ANY_DAILY_RULESETS))
@click.option("--games", "games_path", type=click.Path(dir_okay=False),
              help="The day's games (a JSON list): the close must commit to their transcripts.")
@click.option("--receipt", "receipt_path", type=click.Path(dir_okay=False),
              help="A v2 receipt (or its game) to find in the log, with --proof.")
@click.option("--proof", "proof_path", type=click.Path(dir_okay=False),
              help="Its inclusion proof {index, size, path}.")
@click.option("--game", "game_ids", multiple=True, metavar="ID",
              help="With --url, after the reveal: a game whose receipt and proof the server "
                   "gives, to find in the log; repeatable.")
@click.option("--saved", "saved_paths", multiple=True, type=click.Path(dir_okay=False),
              help="A checkpoint (signed note) you kept earlier; repeatable.")
@click.option("--witness", "witnesses", multiple=True, metavar="VKEY",
              help="A witness key name+keyid+base64 whose cosignatures count; repeatable.")
@click.option("--quorum", type=click.IntRange(0), default=None,
              help="Cosignatures the last checkpoint needs (default: every --witness).")
@click.option("--friend", "friend_path", type=click.Path(dir_okay=False),
              help="A friend's share text: its checkpoint fingerprint must be one of this log's.")
@expect_key_option
def log(url: str | None, ledger_path: str | None, log_path: str | None, date: str, sheet: str,
        games_path: str | None, receipt_path: str | None, proof_path: str | None,
        game_ids: tuple[str, ...], saved_paths: tuple[str, ...], witnesses: tuple[str, ...],
        quorum: int | None, friend_path: str | None, expect_keys: tuple[str, ...]) -> None:
    """Verify a v2 (date, sheet)'s log of finished games, live from a server (--url) or from
    downloaded files: checkpoints, consistency, the close against the reveal, cosignatures,
    receipts, saved checkpoints and a friend's share text (--friend)."""
    if url is None and (ledger_path is None or log_path is None or game_ids):
        raise click.UsageError("give --url, or both --ledger and --log (--game needs --url)")
    try:
        expected = read_keys(expect_keys)
        keys = [parse_vkey(text) for text in witnesses]
        entries = load(ledger_path, "entries") if ledger_path else fetch(url, "/ledger")["entries"]
        published = load(log_path, "log") if log_path else fetch(url, f"/logs/{date}/{sheet}")
        games = load(games_path, "games") if games_path else None
        if games is None and url is not None and any(
                entry.get("date") == date for entry in entries):
            path = f"/days/{date}/{sheet}/games?limit={DAY_PAGE}"
            games = list(day_games(url, path, fetch(url, path), None, json.loads))
        receipts = []
        if receipt_path:
            receipts.append((load(receipt_path, "game", "receipt"),
                             load(proof_path, "proof") if proof_path else None))
        for game_id in game_ids:
            receipts.append((fetch(url, f"/games/{game_id}")["game"]["receipt"],
                             fetch(url, f"/games/{game_id}/proof")["proof"]))
        saved = [open_text(path) for path in saved_paths]
        friend = find_gossip_line(open_text(friend_path)) if friend_path else None
    except READ_ERRORS as error:
        cannot_read(error)
    checks = log_checks.check_log(entries, date, sheet, published, verify_signature, keys,
                                  len(keys) if quorum is None else quorum)
    if games is not None:
        checks += log_checks.check_final_transcripts(published, games)
    for receipt, proof in receipts:
        checks += log_checks.check_receipt_in_log(receipt, published, proof)
    if saved:
        epoch = log_checks.epoch_key_for(audit.LedgerView.read(entries), date)
        checks += log_checks.check_saved_checkpoints(
            saved, published, verify_signature, epoch["public_key"] if epoch else None)
    if friend is not None:
        checks += check_gossip(published, date, sheet, friend)
    finish(checks + key_checks(entries, expected))


@verify.command()
@click.argument("source")
@click.option("--ledger", "ledger_source", metavar="FILE|URL",
              help="The ledger; by default the server's own when SOURCE is a URL.")
@click.option("--key", metavar="HEX", help="Check the signature with this epoch key instead "
                                           "of the ledger's.")
@click.option("--commitment", "shown_commitment", metavar="HEX",
              help="The commitment the page showed before your first roll.")
@click.option("--client-seed", metavar="SEED", help="Your client seed.")
@expect_key_option
def match(source: str, ledger_source: str | None, key: str | None,
          shown_commitment: str | None, client_seed: str | None,
          expect_keys: tuple[str, ...]) -> None:
    """Verify a game on its own (practice, against the computer, a table) from SOURCE: its URL
    <base>/api/v1/matches/<id> or a saved answer of it — the signed result, the commitment,
    every seat's rolls on its own stream, totals and ranks."""
    try:
        expected = read_keys(expect_keys)
        answer = read_source(source)
        if ledger_source is None and key is None and API_PREFIX in source:
            ledger_source = source.partition(API_PREFIX)[0] + API_PREFIX + "/ledger"
        entries = read_source(ledger_source, "entries") if ledger_source else None
        if key is not None and not HEX_KEY.fullmatch(key):
            raise ValueError(f"--key: {key!r} is no 64-digit lowercase hex Ed25519 key")
    except READ_ERRORS as error:
        cannot_read(error)
    result, transcripts = audit.answer_parts(answer)
    noted = {"shown_commitment": shown_commitment, "client_seed": client_seed}
    if entries is None:
        finish(audit.check_match(result, transcripts, public_key_hex=key,
                                 verify_signature=verify_signature, **noted))
        return
    finish(audit.check_match_in_ledger(entries, result, transcripts, verify_signature, **noted)
           + key_checks(entries, expected))


def read_source(source: str, *wrappers: str):
    """A JSON document from a URL (http or https, under /api/v1) or a local file."""
    if not source.startswith(("http://", "https://")):
        return load(source, *wrappers)
    base, _, path = source.partition(API_PREFIX)
    value = fetch(base, path)
    for key in wrappers:
        if isinstance(value, dict) and key in value and "type" not in value:
            value = value[key]
    return value


def open_text(path: str) -> str:
    """A text file's content."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def read_keys(values: tuple[str, ...]) -> set[str]:
    """The keys given to --expect-key: each a 64-digit hex key, or a file of such keys."""
    keys = set()
    for value in values:
        if HEX_KEY.fullmatch(value.lower()):
            words = [value]
        else:
            with open(value, encoding="utf-8") as handle:
                words = handle.read().split()
        for word in words:
            if not HEX_KEY.fullmatch(word.lower()):
                raise ValueError(f"--expect-key: {word!r} is no 64-digit hex Ed25519 public key")
            keys.add(word.lower())
    return keys


def key_checks(entries: list, expected: set[str]) -> list:
    """With recorded keys: one check per epoch entry, is its public_key one of them."""
    return audit.check_recorded_keys(entries, expected) if expected else []


def cannot_read(error: Exception):
    """Say the data could not be read, and exit with status 2."""
    click.echo(f"yacht-daily verify: cannot read the published data: {error}", err=True)
    raise click.exceptions.Exit(2)


@contextlib.contextmanager
def progress_bar(total: int):
    """A progress callback for the day audit: a bar on a terminal's stderr, else nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=total, label="Replaying games", file=sys.stderr) as bar:
        yield lambda done, _total: bar.update(done - bar.pos)


def finish(checks: list) -> None:
    """Print one line per check and a summary; exit with the status it calls for."""
    for check in checks:
        mark = "✓" if check.ok else "✗" if check.ok is False else "-"
        click.echo(f"{mark} {check.name}: {check.detail}")
    failed = sum(1 for check in checks if check.ok is False)
    unchecked = [check.name for check in checks if check.ok is None]
    if failed:
        click.echo(f"FAILED: {failed} of {len(checks)} checks do not hold.")
        raise click.exceptions.Exit(1)
    if unchecked:
        click.echo(f"Nothing failed, but NOT fully verified: {', '.join(unchecked)} not checked.")
        raise click.exceptions.Exit(3)
    click.echo(f"All {len(checks)} checks hold.")
