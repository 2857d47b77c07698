"""Whole-day audit benchmark: the core and verify.py beside the hashing floor, in one run.

    .venv/bin/python bench/bench_audit.py                      # 100,000 games of yahtzee
    .venv/bin/python bench/bench_audit.py --games 10000 --sheet yacht
    .venv/bin/python bench/bench_audit.py --games 100000 --save-day var/day100k.pickle
    .venv/bin/python bench/bench_audit.py --load-day var/day100k.pickle
    .venv/bin/python bench/bench_audit.py --games 10000 --against main    # before and after
    valgrind --tool=cachegrind --cache-sim=no .venv/bin/python bench/bench_audit.py \
        --load-day var/day10k.pickle --once core            # instructions, whatever the load

Generating a day takes longer than auditing it (about 6 ms a game): ``--save-day`` keeps the
generated day (its ledger and its games as published) in a pickle and stops, ``--load-day``
audits a saved one, so that the timed part fits in a short quiet moment. ``--against COMMIT``
adds that commit's two audits (its fairness/ and app/static/verify.py, exported by
``git archive`` and imported under other names) to the same interleaved rounds: before and
after, on the same games, in one process.

It makes a revealed day on the core (bench/dayfixture.py: random legal games, signed receipts,
a ledger with the epoch entry and the reveals; no HTTP), its games parsed back from their JSON
as an auditor downloads them, then times:

- ``fairness.audit.audit_day``: the core's whole-day audit, Ed25519 by ``cryptography``;
- ``check_day`` of app/static/verify.py, the standalone verifier, Ed25519 by ``cryptography``;
- the floor: the hashing no audit can avoid — the day's stream blocks and seed-chain steps
  (HMAC-SHA256), one SHA-256 per transcript, the Merkle tree of the receipts — over bytes
  encoded beforehand; then the same plus the Ed25519 verification of every receipt and ledger
  entry, which both audits also do.

``--once core`` (or ``verify.py``, or ``nothing`` for the loading alone) runs one audit once
without signatures and stops (``--against`` picks that commit's): under valgrind's cachegrind
the difference of two such runs is the audit's instruction count, which a loaded machine does
not change.

``--without-signatures`` adds both audits without their signature checks to the rounds: the
audit's Ed25519 share, beside the floor's.

The day the bench keeps for every row (the games parsed, the floor's bytes, the pages' text)
is frozen out of the cycle collector's walks (``gc.freeze``) unless ``--scan-kept``: an auditor
holds one page at a time, and a collection walking 1.3 million kept containers (10,000 games)
charges whichever audit allocates most for data that is no audit's.

The four are run ``--rounds`` times, interleaved, and each keeps its best round, timed in CPU
seconds of this process (wall seconds are shown beside them): on a shared machine the CPU time
varies less, and the ratio of games/s to the Ed25519 floor's, measured in the same run, is the
figure to compare. The load average is printed before and after. Every audit must find every
check holding, or the script exits 1.
"""

import argparse
import gc
import hashlib
import hmac
import importlib
import importlib.util
import io
import json
import os
import pickle
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.ledger.signing import verify_signature  # noqa: E402
from bench.dayfixture import DayFixture, make_day  # noqa: E402
from fairness import audit, ledger  # noqa: E402
from fairness.chain import CHAIN_MESSAGE  # noqa: E402
from fairness.dice import block_message  # noqa: E402
from fairness.sheets import DAILY_RULESETS, get_ruleset  # noqa: E402

DICE_PER_BLOCK_FLOOR = 252  # bytes below 252 are kept
DAY_PAGE = 1000  # games a page, the API's most (app/ledger/routes.py)


class ZippedVerifier:
    """verify.py as it runs: the ``fairness`` and ``verifier`` packages of its zip archive,
    unpacked into ``directory`` and imported under names of their own (``<name>_fairness``,
    ``<name>_verifier``), so that its audit is its own code beside this tree's core."""

    def __init__(self, path: Path, name: str, directory: Path):
        """Unpack ``path``'s packages and import its audit and its signature check."""
        with zipfile.ZipFile(path) as archive:
            archive.extractall(directory)
        for package in ("fairness", "verifier"):
            (directory / package).rename(directory / f"{name}_{package}")
        sys.path.insert(0, str(directory))
        self.audit = importlib.import_module(f"{name}_fairness.audit")
        self.signatures = importlib.import_module(f"{name}_verifier.signatures")

    def run_day(self, day, sheet: str, signatures: bool = True):
        """The day mode's audit (verifier/cli.py): the pages read in the timed part."""
        verify = self.signatures.ed25519_verifier() if signatures else None
        return self.audit.audit_day(day.ledger, day.date, sheet, self.audit.read_pages(day.pages),
                                    verify)


def load_standalone(path: Path = ROOT / "app" / "static" / "verify.py",
                    name: str = "standalone_verify"):
    """app/static/verify.py (or another copy of it): a zip archive's packages (ZippedVerifier),
    or an older single-file verifier imported from its file."""
    if zipfile.is_zipfile(path):
        return ZippedVerifier(path, name, Path(tempfile.mkdtemp(prefix=f"{name}-")))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_baseline(commit: str, directory: Path) -> tuple:
    """(fairness.audit, verify.py) as they were at ``commit``: exported into ``directory`` by
    ``git archive`` and imported as ``fairness_baseline`` and ``standalone_baseline`` (the
    package's own imports are relative)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "fairness",
                              "app/static/verify.py"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    (directory / "fairness").rename(directory / "fairness_baseline")
    sys.path.insert(0, str(directory))
    core = importlib.import_module("fairness_baseline.audit")
    return core, load_standalone(directory / "app" / "static" / "verify.py",
                                 "standalone_baseline")


def load_day(path: Path) -> tuple:
    """(the day, its sheet, its games' JSON) saved by ``--save-day``: a pickle this script
    wrote (load only your own: a pickle runs code)."""
    ledger_entries, date, sheet, published = pickle.loads(path.read_bytes())
    return DayFixture(ledger_entries, date, {sheet: []}, None), sheet, published


def timed(work) -> tuple[float, object]:
    """(wall seconds, result) of ``work()``."""
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def best_of(rounds: int, work: dict) -> tuple[dict, dict]:
    """Run every ``work[label]()`` once per round, interleaved; returns each label's best
    (CPU seconds, wall seconds) and its last result."""
    best, results = {label: (float("inf"), float("inf")) for label in work}, {}
    for _ in range(rounds):
        for label, run in work.items():
            cpu = time.process_time()
            wall, results[label] = timed(run)
            cpu = time.process_time() - cpu
            best[label] = (min(best[label][0], cpu), min(best[label][1], wall))
    return best, results


def load_average() -> str:
    """The 1, 5 and 15-minute load averages."""
    return ", ".join(f"{load:.1f}" for load in os.getloadavg())


def service_pages(day, sheet: str) -> list[str]:
    """The day's games as the service publishes them: the texts of the pages of
    ``GET /days/<date>/<sheet>/games``, written as Flask writes them (keys sorted, compact,
    ASCII, a final newline)."""
    games = day.games[sheet]
    pages = []
    for first in range(0, len(games), DAY_PAGE):
        page = games[first:first + DAY_PAGE]
        more = first + DAY_PAGE < len(games)
        pages.append(json.dumps({"date": day.date, "ruleset": sheet, "total": len(games),
                                 "games": page, "next": page[-1]["id"] if more else None},
                                sort_keys=True, separators=(",", ":")) + "\n")
    return pages


def audit_with_core(day, sheet: str, core=audit, signatures: bool = True):
    """The core's whole-day audit (this tree's, or ``core`` of another commit); returns its
    DayAudit. An audit that reads the published pages (``read_pages``) is handed their text
    and reads them in the timed part; an older one, the games parsed beforehand."""
    games = core.read_pages(day.pages) if hasattr(core, "read_pages") else day.games[sheet]
    return core.audit_day(day.ledger, day.date, sheet, games,
                          verify_signature if signatures else None)


def audit_with_standalone(standalone, day, sheet: str, signatures: bool = True):
    """verify.py's whole-day audit; returns its Report. Like ``audit_with_core``, a verify.py
    that reads the pages' text (``read_pages``) is handed it."""
    if isinstance(standalone, ZippedVerifier):
        return standalone.run_day(day, sheet, signatures)
    report = standalone.Report()
    games = standalone.read_pages(day.pages) if hasattr(standalone, "read_pages") \
        else day.games[sheet]
    standalone.check_day(report, day.ledger, day.date, sheet, games,
                         standalone.ed25519_verifier() if signatures else None)
    return report


def parse_pages(day) -> None:
    """What an older audit's caller does before it: ``json.loads`` of every page."""
    for page in day.pages:
        json.loads(page)


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


def run_once(which: str, day, sheet: str, core, standalone) -> None:
    """One audit of the day without signatures (``nothing``: none), for an instruction count."""
    if which == "core":
        audit_with_core(day, sheet, core, signatures=False)
    elif which == "verify.py":
        audit_with_standalone(standalone, day, sheet, signatures=False)


def main() -> int:
    """Generate the day, time the audits and the floor, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="finished games (100000)")
    parser.add_argument("--sheet", choices=DAILY_RULESETS, default="yahtzee")
    parser.add_argument("--seed", type=int, default=1, help="the generator's random seed")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (2)")
    parser.add_argument("--save-day", type=Path, help="generate the day, save it here, stop")
    parser.add_argument("--load-day", type=Path, help="audit a day saved by --save-day")
    parser.add_argument("--against", metavar="COMMIT",
                        help="also time that commit's two audits, interleaved (before/after)")
    parser.add_argument("--without-signatures", action="store_true",
                        help="also time both audits without their signature checks")
    parser.add_argument("--scan-kept", action="store_true",
                        help="let the cycle collector walk the day the bench keeps (no freeze)")
    parser.add_argument("--once", choices=["core", "verify.py", "nothing"],
                        help="run that audit once without signatures and stop (for valgrind)")
    args = parser.parse_args()

    if args.load_day:
        loading, (day, args.sheet, published) = timed(lambda: load_day(args.load_day))
        print(f"Loaded the {args.sheet} games of {day.date} from {args.load_day} in "
              f"{loading:.1f} s.", end=" ")
    else:
        generation, day = timed(lambda: make_day({args.sheet: args.games}, rng_seed=args.seed))
        published = json.dumps(day.games[args.sheet])
        if args.save_day:
            args.save_day.parent.mkdir(parents=True, exist_ok=True)
            args.save_day.write_bytes(pickle.dumps((day.ledger, day.date, args.sheet,
                                                    published)))
            print(f"Saved {args.games} {args.sheet} games to {args.save_day} "
                  f"({generation:.0f} s to generate).")
            return 0
        print(f"Generated {args.games} finished {args.sheet} games of {day.date} on the core "
              f"in {generation:.1f} s.", end=" ")
    # the games as an auditor has them: parsed from the JSON the service publishes
    day.games[args.sheet] = json.loads(published)
    day.pages = service_pages(day, args.sheet)
    args.games = len(day.games[args.sheet])
    print(f"{args.games} games, {len(published) / 1e6:.0f} MB of game JSON, "
          f"{len(day.ledger)} ledger entries. Load average {load_average()}.")

    standalone = load_standalone()
    exported = tempfile.TemporaryDirectory(prefix="bench_audit_")
    if args.once:
        if not args.scan_kept:
            gc.freeze()
        core = audit
        if args.against:
            core, standalone = load_baseline(args.against, Path(exported.name))
        run_once(args.once, day, args.sheet, core, standalone)
        exported.cleanup()
        return 0
    floor = Floor(day, args.sheet)
    if not args.scan_kept:
        # the day as the bench keeps it for every row (1.3 million containers on 10,000 games)
        # is no audit's work: no collection walks it (an auditor holds one page at a time)
        gc.freeze()
    work = {
        "core: fairness.audit.audit_day": lambda: audit_with_core(day, args.sheet),
        "standalone: verify.py check_day": lambda: audit_with_standalone(standalone, day,
                                                                         args.sheet),
        **({"core, no signatures": lambda: audit_with_core(day, args.sheet, signatures=False),
            "verify.py, no signatures": lambda: audit_with_standalone(
                standalone, day, args.sheet, signatures=False)}
           if args.without_signatures else {}),
        "json.loads of the pages": lambda: parse_pages(day),
        "floor: HMAC-SHA256 + SHA-256 only": floor.hashing,
        "floor: + Ed25519 (receipts, entries)": floor.everything,
    }
    if args.against:
        core_then, standalone_then = load_baseline(args.against, Path(exported.name))
        work = {f"core at {args.against}": lambda: audit_with_core(day, args.sheet, core_then),
                f"verify.py at {args.against}": lambda: audit_with_standalone(
                    standalone_then, day, args.sheet),
                **({f"core at {args.against}, no signatures": lambda: audit_with_core(
                    day, args.sheet, core_then, signatures=False),
                    f"verify.py at {args.against}, no signatures": lambda: audit_with_standalone(
                        standalone_then, day, args.sheet, signatures=False)}
                   if args.without_signatures else {}),
                **work}
    best, results = best_of(args.rounds, work)
    exported.cleanup()
    floor_cpu = best["floor: + Ed25519 (receipts, entries)"][0]
    hashing_cpu = best["floor: HMAC-SHA256 + SHA-256 only"][0]

    print(f"\nBest of {args.rounds} interleaved rounds; load average now {load_average()}.")
    print(f"{'':44} {'CPU s':>7} {'wall s':>7} {'games/s':>9} {'÷ floor':>8} {'× hashing':>10}")
    for label, (cpu, wall) in best.items():
        print(f"{label:44} {cpu:7.2f} {wall:7.2f} {args.games / cpu:9.0f} "
              f"{floor_cpu / cpu:8.2f} {cpu / hashing_cpu:10.1f}")
    print("(games/s and ÷ floor from CPU seconds; ÷ floor = games/s over the Ed25519 floor's)")

    failed = [check for label, result in results.items()
              if not label.startswith(("floor", "json")) and "no signatures" not in label
              for check in getattr(result, "checks", [])
              if (check.ok if hasattr(check, "ok") else check[1]) is not True]
    if failed:
        print("\nThe audits did not all hold:", *failed, sep="\n  ")
        return 1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    checks = len(results["core: fairness.audit.audit_day"].checks)
    print(f"\nEvery audit: all {checks} checks hold. Peak memory {peak:.0f} MB.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
