"""Whole-day audit benchmark: the core and verify.py beside the hashing floor, in one run.

    .venv/bin/python bench/bench_audit.py                      # 100,000 games of yahtzee
    .venv/bin/python bench/bench_audit.py --games 10000 --sheet yacht

It makes a revealed day on the core (bench/dayfixture.py: random legal games, signed receipts,
a ledger with the epoch entry and the reveals; no HTTP), then times:

- ``fairness.audit.audit_day``: the core's whole-day audit, Ed25519 by ``cryptography``;
- ``check_day`` of app/static/verify.py, the standalone verifier, Ed25519 by ``cryptography``;
- the floor: the hashing no audit can avoid — the day's stream blocks and seed-chain steps
  (HMAC-SHA256), one SHA-256 per transcript, the Merkle tree of the receipts — over bytes
  encoded beforehand; then the same plus the Ed25519 verification of every receipt and ledger
  entry, which both audits also do.

Both audits must find every check holding, or the script exits 1. Wall times vary with the
machine's load; the ratios to the floor, measured in the same run, are the figures to compare.
"""

import argparse
import hashlib
import hmac
import importlib.util
import json
import resource
import sys
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.signing import verify_signature  # noqa: E402
from bench.dayfixture import make_day  # noqa: E402
from fairness import audit, ledger  # noqa: E402
from fairness.chain import CHAIN_MESSAGE  # noqa: E402
from fairness.dice import block_message  # noqa: E402
from fairness.sheets import DAILY_RULESETS, get_ruleset  # noqa: E402

DICE_PER_BLOCK_FLOOR = 252  # bytes below 252 are kept


def load_standalone():
    """app/static/verify.py, imported from its file."""
    spec = importlib.util.spec_from_file_location("standalone_verify",
                                                  ROOT / "app" / "static" / "verify.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(work) -> tuple[float, object]:
    """(seconds, result) of ``work()``."""
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def audit_with_core(day, sheet: str):
    """The core's whole-day audit; returns its DayAudit."""
    return audit.audit_day(day.ledger, day.date, sheet, day.games[sheet], verify_signature)


def audit_with_standalone(standalone, day, sheet: str):
    """verify.py's whole-day audit; returns its Report."""
    report = standalone.Report()
    standalone.check_day(report, day.ledger, day.date, sheet, day.games[sheet],
                         standalone.ed25519_verifier())
    return report


class Floor:
    """The hashing (and signature) work a whole-day audit cannot avoid, on pre-encoded bytes."""

    def __init__(self, day, sheet: str):
        """Encode everything the floor hashes, outside the timed part."""
        reveal = next(e for e in day.ledger if e.get("date") == day.date)
        self.seed = bytes.fromhex(reveal["seed"])
        self.day = reveal["day"]
        self.reveals = sum(1 for e in day.ledger if e["type"] == ledger.REVEAL_TYPE)
        self.messages = [block_message(day.date, sheet, k)
                         for k in range(self._blocks(day.date, sheet))]
        games = day.games[sheet]
        self.transcripts = [audit.safe_canonical(g["transcript"]) for g in games]
        receipts = sorted((g["receipt"] for g in games if g["receipt"]),
                          key=lambda r: r["game"])
        self.receipts = [(ledger.signed_bytes(r), bytes.fromhex(r["sig"])) for r in receipts]
        self.entries = [(ledger.signed_bytes(e), bytes.fromhex(e["sig"])) for e in day.ledger]
        self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(day.ledger[0]["public_key"]))

    def _blocks(self, date: str, sheet: str) -> int:
        """How many stream blocks a full game of the sheet can draw from (3 rolls per box)."""
        wanted, dice, blocks = 15 * len(get_ruleset(sheet).categories), 0, 0
        while dice < wanted:
            block = hmac.new(self.seed, block_message(date, sheet, blocks), hashlib.sha256)
            dice += sum(1 for byte in block.digest() if byte < DICE_PER_BLOCK_FLOOR)
            blocks += 1
        return blocks

    def hashing(self) -> None:
        """Stream blocks, chain steps, transcript hashes and the Merkle tree."""
        for message in self.messages:
            hmac.new(self.seed, message, hashlib.sha256).digest()
        seed = self.seed
        for _ in range(self.day + self.reveals):
            seed = hmac.new(seed, CHAIN_MESSAGE, hashlib.sha256).digest()
        for encoded in self.transcripts:
            hashlib.sha256(encoded).digest()
        level = [hashlib.sha256(b"\x00" + message).digest() for message, _ in self.receipts]
        while len(level) > 1:
            paired = [hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest()
                      for i in range(0, len(level) - 1, 2)]
            level = paired + level[-1:] if len(level) % 2 else paired

    def signatures(self) -> None:
        """One Ed25519 verification per receipt and per ledger entry."""
        for message, signature in self.receipts + self.entries:
            self.key.verify(signature, message)

    def everything(self) -> None:
        """Hashing and signatures."""
        self.hashing()
        self.signatures()


def main() -> int:
    """Generate the day, time the audits and the floor, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="finished games (100000)")
    parser.add_argument("--sheet", choices=DAILY_RULESETS, default="yahtzee")
    parser.add_argument("--seed", type=int, default=1, help="the generator's random seed")
    args = parser.parse_args()

    generation, day = timed(lambda: make_day({args.sheet: args.games}, rng_seed=args.seed))
    size = sum(len(json.dumps(g)) for g in day.games[args.sheet])
    print(f"Generated {args.games} finished {args.sheet} games of {day.date} on the core in "
          f"{generation:.1f} s ({size / 1e6:.0f} MB of game JSON, "
          f"{len(day.ledger)} ledger entries).")

    standalone = load_standalone()
    floor = Floor(day, args.sheet)
    rows = []
    core_time, core = timed(lambda: audit_with_core(day, args.sheet))
    rows.append(("core: fairness.audit.audit_day", core_time))
    standalone_time, report = timed(lambda: audit_with_standalone(standalone, day, args.sheet))
    rows.append(("standalone: verify.py check_day", standalone_time))
    hashing_time, _ = timed(floor.hashing)
    rows.append(("floor: HMAC-SHA256 + SHA-256 only", hashing_time))
    floor_time, _ = timed(floor.everything)
    rows.append(("floor: + Ed25519 (receipts, entries)", floor_time))

    print(f"\n{'':38} {'seconds':>9} {'games/s':>10} {'× floor':>8} {'× hashing':>10}")
    for label, seconds in rows:
        print(f"{label:38} {seconds:9.2f} {args.games / seconds:10.0f} "
              f"{seconds / floor_time:8.1f} {seconds / hashing_time:10.1f}")

    failed = [c for c in core.checks if c.ok is not True] + \
        [c for c in report.checks if c[1] is not True]
    if failed:
        print("\nThe audits did not all hold:", *failed, sep="\n  ")
        return 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nBoth audits: all {len(core.checks)} checks hold. Peak memory {peak:.0f} MB.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
