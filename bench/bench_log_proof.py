"""A served inclusion proof of the day's log: read from the stored complete subtrees against
reading every leaf hash, on the embedded redis-server.

    .venv/bin/python bench/bench_log_proof.py                  # 1,000, 10,000 and 100,000 leaves
    .venv/bin/python bench/bench_log_proof.py --sizes 10000 --proofs 200

For each size it stores one log's leaf hashes and subtrees as the checkpoint cuts do (cuts of
1,000 leaves), then times ``--proofs`` proofs of random leaves each way, interleaved (one of
each in turn), and prints the median wall time, the hashes read and the bytes Redis sent:

- ``subtrees``: ``ProofNodes`` over ``LogStore.subtrees`` (one pipeline of at most one LINDEX a
  level) and the checkpoint's edge, as ``LogService.proof_of`` serves it now;
- ``leaves``: every leaf hash up to the size (``LogStore.leaf_hashes``, one LRANGE) and
  ``fairness.merkle``'s path and root, as it served it before (and still does for a log cut
  before the subtrees were stored).
"""

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.daylog.store import LogStore  # noqa: E402
from app.platform.embedded import EmbeddedRedis  # noqa: E402
from app.platform.redis import connect  # noqa: E402
from fairness import merkle  # noqa: E402
from fairness.log_tree import GrownTree, ProofNodes, new_subtrees  # noqa: E402

DATE, SHEET = "2026-12-01", "yacht"
CUT = 1000


def stored_log(logs: LogStore, size: int) -> list[bytes]:
    """Store a log of ``size`` leaves cut by CUT at a time; its edge at ``size``."""
    leaves = [merkle.leaf_hash(i.to_bytes(8, "big")) for i in range(size)]
    stored, edge = 0, []
    while stored < size:
        new = leaves[stored:stored + CUT]
        logs.store_subtrees(DATE, SHEET, new_subtrees(stored, edge, new))
        tree = GrownTree(stored, edge, new)
        stored, edge = tree.size, tree.edge()
    return edge


def net_out(client) -> int:
    """The bytes Redis has sent its clients so far."""
    return client.info("stats")["total_net_output_bytes"]


def main(argv=None) -> int:
    """Time both ways at each size and print a table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--proofs", type=int, default=100)
    options = parser.parse_args(argv)
    rng = random.Random(11)
    print("| leaves | from the subtrees: ms, hashes read, bytes sent | from the leaves: ms, "
          "hashes read, bytes sent |")
    print("|---:|---|---|")
    with tempfile.TemporaryDirectory() as workdir, EmbeddedRedis(Path(workdir)) as server:
        client = connect(server.url)
        logs = LogStore(client)
        reads = []

        def read(wanted):
            """The stored subtrees at ``wanted``, their number noted."""
            reads.append(len(wanted))
            return logs.subtrees(DATE, SHEET, wanted)

        for size in options.sizes:
            client.flushall()
            edge = stored_log(logs, size)
            reads.clear()
            nodes = ProofNodes(size, edge, read)
            times = {"subtrees": [], "leaves": []}
            sent = {"subtrees": 0, "leaves": 0}
            for _ in range(options.proofs):
                index = rng.randrange(size)
                for way in ("subtrees", "leaves"):
                    before_bytes, start = net_out(client), time.perf_counter()
                    if way == "subtrees":
                        path, root = nodes.inclusion(index), nodes.root()
                    else:
                        hashes = logs.leaf_hashes(DATE, SHEET, size)
                        path, root = merkle.inclusion_path(index, hashes), merkle.root(hashes)
                    times[way].append(time.perf_counter() - start)
                    sent[way] += net_out(client) - before_bytes
                    assert merkle.inclusion_root(merkle.leaf_hash(index.to_bytes(8, "big")),
                                                 index, size, path) == root
            print(f"| {size:,} | {1000 * statistics.median(times['subtrees']):.2f} ms, "
                  f"{max(reads)} at most, {sent['subtrees'] // options.proofs:,} B "
                  f"| {1000 * statistics.median(times['leaves']):.2f} ms, {size:,}, "
                  f"{sent['leaves'] // options.proofs:,} B |")
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
