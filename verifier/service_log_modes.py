"""The service log's modes: ``fork FILE --log-key VKEY`` (does a browser's evidence prove that
the log forked?) and ``proof FILE`` (a game's proof to keep, ``proof_mode.py``).

``fork`` prints one line, ``PROVEN: …`` or ``NOT PROVEN: …`` (the verdict of
``fairness.service_log.misbehaviour``), and exits 0 only when the file proves that the log
signed two histories: an auditor checking a browser's alarm reads exit 0 as "this file proves
misbehaviour". 1 when it does not, 2 when the file or the key cannot be read, 3 without an
Ed25519 library (nothing checked).
"""

from fairness.audit import check_recorded_keys
from fairness.errors import FairnessError
from fairness.note import ED25519, parse_vkey
from fairness.service_log import misbehaviour, parse_fork

from .printing import print_checks
from .proof_mode import check_game_proof, read_game_proof
from .published import read_keys, read_text

PROVEN, NOT_PROVEN, NOT_CHECKABLE = 0, 1, 3


class CannotReadFile(Exception):
    """A file or key given on the command line cannot be read."""


def verify_fork(args, verify) -> int:
    """The ``fork`` mode."""
    try:
        log_key = parse_vkey(args.log_key)
        old, new, proof = parse_fork(read_text(args.file))
    except (OSError, ValueError, FairnessError) as error:
        raise CannotReadFile(str(error)) from None
    if log_key.kind != ED25519:
        raise CannotReadFile(f"--log-key {log_key.name} is not an Ed25519 (0x01) note key")
    if verify is None:
        print("NOT CHECKED: no Ed25519 verifier available (install the cryptography package)")
        return NOT_CHECKABLE
    verdict = misbehaviour(old, new, proof, log_key, verify)
    print(verdict)
    return PROVEN if verdict.proven else NOT_PROVEN


def verify_proof(args, verify) -> int:
    """The ``proof`` mode."""
    try:
        text = read_text(args.file)
        log_key = parse_vkey(args.log_key) if args.log_key else None
        witnesses = [parse_vkey(vkey) for vkey in args.witness]
        expected = read_keys(args.expect_key)
    except (OSError, ValueError, FairnessError) as error:
        raise CannotReadFile(str(error)) from None
    quorum = len({w.name for w in witnesses}) if args.quorum is None else args.quorum
    if not 0 <= quorum <= len({w.name for w in witnesses}):
        raise CannotReadFile(f"--quorum {quorum} is not 0..the number of --witness names")
    checks = check_game_proof(text, log_key, witnesses, quorum, args.seed, verify)
    if expected:
        checks += expected_key_checks(text, expected)
    return print_checks(checks)


def expected_key_checks(text: str, expected) -> list:
    """With --expect-key: the proof's epoch key is one of the recorded keys."""
    try:
        _, extra = read_game_proof(text)
    except ValueError:
        return []
    return check_recorded_keys([extra["epoch"]], expected)


def add_service_log_modes(modes) -> list:
    """The ``fork`` and ``proof`` subcommands and their arguments; the parsers that take
    --expect-key."""
    fork = modes.add_parser("fork", help="does a fork file (a browser's evidence) prove that "
                                         "the service log signed two histories? exit 0 only "
                                         "when PROVEN")
    fork.add_argument("file", help="the fork file {type, old, new, proof}")
    fork.add_argument("--log-key", required=True, metavar="VKEY",
                      help="the service log's key origin+keyid+base64 (GET /api/v1/log)")
    proof = modes.add_parser("proof", help="check a game's proof to keep (.tlog-proof)")
    proof.add_argument("file", help="the .tlog-proof file")
    proof.add_argument("--log-key", metavar="VKEY",
                       help="the service log's key origin+keyid+base64 (GET /api/v1/log)")
    proof.add_argument("--witness", action="append", default=[], metavar="VKEY",
                       help="a witness key whose cosignature counts; repeatable")
    proof.add_argument("--quorum", type=int,
                       help="cosignatures required (default: every --witness)")
    proof.add_argument("--seed", metavar="HEX",
                       help="the date's seed (its reveal entry): replay every roll and box")
    return [proof]
