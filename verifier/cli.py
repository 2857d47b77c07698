"""The command line: ``verify.py game|day|files|log|match|fork|proof …``. Each mode reads what it
needs (published.py), runs ``fairness.audit``'s checks on it and prints them (printing.py); the
service log's modes are in service_log_modes.py."""

import argparse
import sys

from fairness import audit
from fairness.audit import log_checks
from fairness.audit.gossip_checks import check_gossip
from fairness.gossip import find_gossip_line
from fairness.note import parse_vkey
from fairness.sheets import RULESETS

from .printing import leaderboard_lines, print_checks, progress_bar
from .published import (
    API_PREFIX,
    HEX_KEY,
    day_games,
    day_page_path,
    fetch,
    load,
    read_keys,
    read_source,
    read_text,
)
from .service_log_modes import CannotReadFile, add_service_log_modes, verify_fork, verify_proof
from .signatures import ed25519_verifier

DAY_PAGE, MAX_DAY_PAGE = 1000, 1000
LEADERBOARD_LIMIT = 100
# What reading the published data may raise; fairness's LedgerError (a bad witness key, a share
# text without a gossip line) is a ValueError.
READ_ERRORS = (OSError, ValueError, KeyError, TypeError)
SHEETS = sorted(RULESETS)


def main(argv=None) -> int:
    """Parse the command line, run the checks, print them; return the exit status."""
    args = parser().parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    verify = ed25519_verifier()
    modes = {"game": verify_game, "files": verify_files, "day": verify_day, "log": verify_log,
             "match": verify_match, "fork": verify_fork, "proof": verify_proof}
    try:
        return modes[args.mode](args, verify)
    except (CannotRead, CannotReadFile) as error:
        print(f"verify.py: {error}", file=sys.stderr)
        return 2


class CannotRead(Exception):
    """The published data cannot be read, or the command line does not say where it is."""


def cannot_read(error) -> CannotRead:
    """The error to raise when the published data cannot be read."""
    return CannotRead(f"cannot read the published data: {error}")


def verify_game(args, verify) -> int:
    """The ``game`` mode: one game, its receipt and proof from the server."""
    try:
        expected = read_keys(args.expect_key)
        entries = fetch(args.url, "/ledger")["entries"]
        state = fetch(args.url, f"/games/{args.game_id}")["game"]
        proof = fetch(args.url, f"/games/{args.game_id}/proof")["proof"]
        receipt, transcript = state["receipt"], state["transcript"]
    except READ_ERRORS as error:
        raise cannot_read(error) from None
    return print_checks(audit.check_game(entries, receipt, transcript, proof, verify)
                        + recorded_key_checks(entries, expected))


def verify_files(args, verify) -> int:
    """The ``files`` mode: one game from downloaded JSON files."""
    try:
        expected = read_keys(args.expect_key)
        entries = load(args.ledger, "entries")
        receipt = load(args.receipt, "game", "receipt")
        transcript = load(args.transcript, "game", "transcript")
        proof = load(args.proof, "proof") if args.proof else None
    except READ_ERRORS as error:
        raise cannot_read(error) from None
    return print_checks(audit.check_game(entries, receipt, transcript, proof, verify)
                        + recorded_key_checks(entries, expected))


def verify_day(args, verify) -> int:
    """The ``day`` mode: every game of a revealed (date, sheet), page by page, its Merkle root,
    its count and the published leaderboard."""
    try:
        expected = read_keys(args.expect_key)
        entries = fetch(args.url, "/ledger")["entries"]
        published = fetch(args.url,
                          f"/leaderboard/{args.date}/{args.sheet}?limit={LEADERBOARD_LIMIT}")
        reader = audit.PageReader()  # the transcripts' text kept: the audit's fast path
        first = fetch(args.url, day_page_path(args.date, args.sheet, args.page_size),
                      reader.read)
        games = day_games(args.url, args.date, args.sheet, args.page_size, first, reader.read,
                          progress_bar if sys.stderr.isatty() else None)
        result = audit.audit_day(entries, args.date, args.sheet, games, verify, None, published,
                                 reader=reader)
    except READ_ERRORS as error:
        raise cannot_read(error) from None
    for line in leaderboard_lines(result.leaderboard, args.top):
        print(line)
    return print_checks(result.checks + recorded_key_checks(entries, expected))


def verify_log(args, verify) -> int:
    """The ``log`` mode: a (date, sheet)'s log and what comes with it, from files or live from
    the server (``--url``: what is not given as a file is fetched)."""
    if args.url is None and (args.ledger is None or args.log is None or args.game):
        raise CannotRead("give --url, or both --ledger and --log (--game needs --url)")
    try:
        expected = read_keys(args.expect_key)
        witnesses = [parse_vkey(text) for text in args.witness]
        entries = (load(args.ledger, "entries") if args.ledger
                   else fetch(args.url, "/ledger")["entries"])
        log = (load(args.log, "log") if args.log
               else fetch(args.url, f"/logs/{args.date}/{args.sheet}"))
        friend = find_gossip_line(read_text(args.friend)) if args.friend else None
        games = load(args.games, "games") if args.games else None
        if games is None and args.url and any(entry.get("date") == args.date
                                              for entry in entries):
            path = day_page_path(args.date, args.sheet, MAX_DAY_PAGE)
            games = list(day_games(args.url, args.date, args.sheet, MAX_DAY_PAGE,
                                   fetch(args.url, path)))
        receipts = []
        if args.receipt:
            receipts.append((load(args.receipt, "game", "receipt"),
                             load(args.proof, "proof") if args.proof else None))
        for game_id in args.game:
            receipts.append((fetch(args.url, f"/games/{game_id}")["game"]["receipt"],
                             fetch(args.url, f"/games/{game_id}/proof")["proof"]))
        saved = [read_text(path) for path in args.saved]
    except READ_ERRORS as error:
        raise cannot_read(error) from None
    quorum = len(witnesses) if args.quorum is None else args.quorum
    checks = log_checks.check_log(entries, args.date, args.sheet, log, verify, witnesses,
                                  quorum)
    if games is not None:
        checks += log_checks.check_final_transcripts(log, games)
    for receipt, proof in receipts:
        checks += log_checks.check_receipt_in_log(receipt, log, proof)
    if saved:
        epoch = log_checks.epoch_key_for(audit.LedgerView.read(entries), args.date)
        checks += log_checks.check_saved_checkpoints(saved, log, verify,
                                                     epoch["public_key"] if epoch else None)
    if friend is not None:
        checks += check_gossip(log, args.date, args.sheet, friend)
    return print_checks(checks + recorded_key_checks(entries, expected))


def verify_match(args, verify) -> int:
    """The ``match`` mode: a match's answer from its URL or a file, checked against the ledger
    (--ledger, or the server's own when a URL is given) or a key given with --key."""
    try:
        expected = read_keys(args.expect_key)
        answer = read_source(args.source)
        ledger_source = args.ledger
        if ledger_source is None and args.key is None and API_PREFIX in args.source:
            ledger_source = args.source.partition(API_PREFIX)[0] + API_PREFIX + "/ledger"
        entries = read_source(ledger_source, "entries") if ledger_source else None
        if args.key is not None and not HEX_KEY.fullmatch(args.key):
            raise ValueError(f"--key: {args.key!r} is no 64-digit lowercase hex Ed25519 key")
    except READ_ERRORS as error:
        raise cannot_read(error) from None
    result, transcripts = audit.answer_parts(answer)
    noted = {"shown_commitment": args.commitment, "client_seed": args.client_seed}
    if entries is None:
        return print_checks(audit.check_match(result, transcripts, public_key_hex=args.key,
                                              verify_signature=verify, **noted))
    return print_checks(audit.check_match_in_ledger(entries, result, transcripts, verify,
                                                    **noted)
                        + recorded_key_checks(entries, expected))


def recorded_key_checks(entries, expected) -> list:
    """With keys given to --expect-key: is each epoch entry's key one of them."""
    return audit.check_recorded_keys(entries, expected) if expected else []


def page_size(text) -> int:
    """The --page-size argument: a whole number of games the server serves in one page."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_DAY_PAGE:
        raise argparse.ArgumentTypeError(f"not a whole number from 1 to {MAX_DAY_PAGE}")
    return int(text)


def parser() -> argparse.ArgumentParser:
    """The command line's modes and their arguments."""
    parser = argparse.ArgumentParser(description="Verify Yacht Daily games independently.")
    modes = parser.add_subparsers(dest="mode", required=True)
    game = modes.add_parser("game", help="verify one game from the server")
    game.add_argument("url")
    game.add_argument("game_id")
    day = modes.add_parser("day", help="audit every game of a revealed date and sheet")
    day.add_argument("url")
    day.add_argument("date")
    day.add_argument("sheet", choices=SHEETS)
    day.add_argument("--top", type=int, default=10, help="leaderboard lines to print")
    day.add_argument("--page-size", type=page_size, default=DAY_PAGE,
                     help=f"games fetched per request, 1 to {MAX_DAY_PAGE}")
    files = modes.add_parser("files", help="verify one game from downloaded JSON files")
    files.add_argument("--ledger", required=True)
    files.add_argument("--receipt", required=True)
    files.add_argument("--transcript", required=True)
    files.add_argument("--proof")
    logs = add_log_mode(modes)
    match = add_match_mode(modes)
    for mode in (game, day, files, logs, match, *add_service_log_modes(modes)):
        mode.add_argument("--expect-key", action="append", default=[], metavar="HEX|FILE",
                          help="an epoch public key you recorded earlier (or a file of them); "
                               "repeatable")
    return parser


def add_log_mode(modes):
    """The ``log`` subcommand and its arguments."""
    logs = modes.add_parser("log", help="verify a (date, sheet)'s log of finished games (v2 "
                                        "days) live from the server or from JSON files")
    logs.add_argument("--url", help="the server: what is not given as a file is fetched")
    logs.add_argument("--ledger")
    logs.add_argument("--log", help="the log: {\"checkpoints\": [...]}")
    logs.add_argument("--date", required=True)
    logs.add_argument("--sheet", required=True, choices=SHEETS)
    logs.add_argument("--games", help="the day's published games (a JSON list): check that "
                                      "the close checkpoint commits to their final transcripts")
    logs.add_argument("--receipt", help="a v2 receipt to find in the log (with --proof)")
    logs.add_argument("--proof", help="its inclusion proof {index, size, path}")
    logs.add_argument("--game", action="append", default=[], metavar="ID",
                      help="with --url, after the reveal: a game whose receipt and proof the "
                           "server gives, to find in the log; repeatable")
    logs.add_argument("--saved", action="append", default=[], metavar="FILE",
                      help="a checkpoint (signed note) you kept earlier; repeatable")
    logs.add_argument("--witness", action="append", default=[], metavar="VKEY",
                      help="a witness key name+keyid+base64 whose cosignatures count; "
                           "repeatable")
    logs.add_argument("--quorum", type=int, help="cosignatures required on the last checkpoint "
                                                 "(default: every --witness)")
    logs.add_argument("--friend", metavar="FILE", help="a friend's share text: its checkpoint "
                                                        "fingerprint must be one of this log's")
    return logs


def add_match_mode(modes):
    """The ``match`` subcommand and its arguments."""
    match = modes.add_parser("match", help="verify a game on its own (practice, against the "
                                           "computer, a table) from its URL or a saved answer")
    match.add_argument("source", help="<base>/api/v1/matches/<id>, or a file of that answer")
    match.add_argument("--ledger", help="the ledger (file or URL); by default the server's "
                                        "own when SOURCE is a URL")
    match.add_argument("--key", help="check the signature with this epoch key (hex) instead "
                                     "of the ledger's")
    match.add_argument("--commitment", help="the commitment the page showed before your first "
                                            "roll: check it is the result's")
    match.add_argument("--client-seed", help="your client seed: check it is in the result")
    return match

