"""The day's log in the core: what keeping and verifying it costs per finished game.

    .venv/bin/python bench/bench_log.py                        # 20,000 games, 60 checkpoints
    .venv/bin/python bench/bench_log.py --games 50000 --checkpoints 1440

It makes one (date, sheet)'s v2 receipts (signed by a TEST key, finished in order), then times,
interleaved over ``--rounds`` rounds and keeping each one's best, in CPU seconds of this process:

- ``leaf``: one game's leaf hash (canonical JSON of the receipt without sig, SHA-256), the
  only per-game work the log adds to signing the receipt;
- ``checkpoint``: one checkpoint cut from the leaf hashes as the log's operator would do it
  without an incremental tree — the root of every leaf so far, the consistency proof from the
  previous checkpoint, the body and its Ed25519 signature;
- ``verify``: ``fairness.audit.log_checks.check_log`` of the whole published log (every
  checkpoint's signature, the chain, every consistency proof, the close against the reveal).

It prints the per-game share of each (a checkpoint's cost is paid ``--checkpoints`` times a
day). The service's own cost (Redis round trips, its checkpoints from the tree's right edge) is
``bench/bench_daylog_service.py``'s.
"""

import argparse
import datetime as dt
import os
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from app.ledger.signing import verify_signature  # noqa: E402
from fairness import checkpoint as tlog  # noqa: E402
from fairness import ledger, merkle  # noqa: E402
from fairness import note as notes  # noqa: E402
from fairness.audit import log_checks  # noqa: E402
from fairness.chain import new_epoch  # noqa: E402
from fairness.daylog import published_log  # noqa: E402

TEST_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
DATE, SHEET = "2026-12-02", "yahtzee"


def cpu() -> float:
    """CPU seconds of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def receipts(key: Ed25519PrivateKey, count: int) -> list[dict]:
    """``count`` signed v2 receipts of one (date, sheet), in finish order."""
    out = []
    for index in range(count):
        unsigned = ledger.receipt_v2(
            game=f"{index:032x}", epoch=1, date=DATE, ruleset=SHEET, player=f"p-{index:012x}",
            transcript=[], total=index % 300, index=index,
            finished_at=f"2026-12-01T{10 + index * 24 // count:02d}:00:00Z")
        out.append({**unsigned, "sig": key.sign(ledger.signed_bytes(unsigned)).hex()})
    return out


def main(argv=None) -> int:
    """Time the three operations and print their per-game cost."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--checkpoints", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    key = Ed25519PrivateKey.from_private_bytes(TEST_SEED)
    public = key.public_key().public_bytes_raw()
    day = receipts(key, args.games)
    hashes = [ledger.receipt_leaf_hash(r) for r in day]
    opened, day_length = dt.datetime(2026, 12, 1, 10), dt.timedelta(hours=51)
    cuts = [(args.games * (i + 1) // args.checkpoints,
             (opened + day_length * (i + 1) / args.checkpoints).strftime("%Y-%m-%dT%H:%M:%SZ"))
            for i in range(args.checkpoints)]
    name = tlog.origin(public.hex(), DATE, SHEET)
    ident = notes.key_id(name, notes.ED25519, public)

    def sign(body: str) -> notes.NoteSignature:
        """The log's signature line."""
        return notes.NoteSignature(name, ident, key.sign(body.encode()))

    close = tlog.Close(args.games, merkle.root([]))
    log = published_log(public_key_hex=public.hex(), date=DATE, ruleset=SHEET, receipts=day,
                        cuts=cuts, close=close, sign=sign)
    entries = entries_for(key, public.hex(), log, args.games, hashes)
    middle = args.games // 2

    def one_leaf():
        """Every game's leaf hash once."""
        for receipt in day:
            ledger.receipt_leaf_hash(receipt)

    def one_checkpoint():
        """The checkpoint at the middle of the day, from scratch."""
        cp = tlog.Checkpoint(name, middle, merkle.root(hashes[:middle]), "2026-12-01T18:00:00Z",
                             bytes(32))
        merkle.consistency_path(middle - args.games // args.checkpoints, hashes[:middle])
        sign(cp.body())

    def one_verify():
        """The whole log verified."""
        checks = log_checks.check_log(entries, DATE, SHEET, log, verify_signature)
        assert all(check.ok for check in checks), [c for c in checks if not c.ok]

    best = {"leaf": float("inf"), "checkpoint": float("inf"), "verify": float("inf")}
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for _ in range(args.rounds):
        for label, job in (("leaf", one_leaf), ("checkpoint", one_checkpoint),
                           ("verify", one_verify)):
            start = cpu()
            job()
            best[label] = min(best[label], cpu() - start)
    per_game = {"leaf": best["leaf"] / args.games,
                "checkpoint": best["checkpoint"] * args.checkpoints / args.games,
                "verify": best["verify"] / args.games}
    print(f"{args.games} games, {args.checkpoints} checkpoints, best of {args.rounds} rounds "
          "(CPU seconds)")
    print(f"  leaf hashes of every game   {best['leaf']:.3f} s  = {per_game['leaf'] * 1e6:.1f} "
          "µs per game")
    print(f"  one mid-day checkpoint      {best['checkpoint']:.3f} s  × {args.checkpoints} "
          f"= {per_game['checkpoint'] * 1e6:.1f} µs per game")
    print(f"  verify the whole log        {best['verify']:.3f} s  = "
          f"{per_game['verify'] * 1e6:.1f} µs per game")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


def entries_for(key, public_hex, log, games, hashes) -> list[dict]:
    """An epoch entry and a v2 reveal whose yahtzee close is the log's."""
    epoch = new_epoch(bytes(32), "2026-12-01", 7)
    entries = [ledger.epoch_entry(seq=0, prev=ledger.GENESIS_PREV, number=1, epoch=epoch,
                                  public_key=public_hex, rulesets=["yahtzee"],
                                  published_at="2026-11-29T12:00:00Z")]
    entries[0]["sig"] = key.sign(ledger.signed_bytes(entries[0])).hex()
    close_body = notes.parse_note(log["checkpoints"][-1]["note"])[0]
    reveal = ledger.reveal_entry_v2(
        seq=1, prev=ledger.entry_hash(entries[0]), epoch=1, date=DATE, day=2, seed=bytes(32),
        games={SHEET: games}, roots={SHEET: merkle.root(hashes)},
        logs={SHEET: tlog.body_hash(close_body)}, revealed_at="2026-12-03T13:01:00Z")
    reveal["sig"] = key.sign(ledger.signed_bytes(reveal)).hex()
    return [*entries, reveal]


if __name__ == "__main__":
    sys.exit(main())
