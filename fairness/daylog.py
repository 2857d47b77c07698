"""Building a (date, sheet)'s log: checkpoints over the finished games' receipts in finish
order, the consistency proofs between them, and the close checkpoint with the final
transcripts. Signing is the caller's (a function from note text to a signature line)."""

from collections.abc import Callable, Mapping, Sequence

from . import merkle
from .checkpoint import NO_PREVIOUS, Checkpoint, Close, body_hash, origin
from .ledger import receipt_leaf_hash
from .note import NoteSignature, format_note

Sign = Callable[[str], NoteSignature]


def next_checkpoint(*, public_key_hex: str, date: str, ruleset: str, leaf_hashes: Sequence[bytes],
                    time: str, previous_body: str | None, close: Close | None = None
                    ) -> Checkpoint:
    """The checkpoint of the log's first ``len(leaf_hashes)`` leaves at ``time``."""
    return Checkpoint(origin=origin(public_key_hex, date, ruleset), size=len(leaf_hashes),
                      root=merkle.root(leaf_hashes), time=time,
                      prev=NO_PREVIOUS if previous_body is None else body_hash(previous_body),
                      close=close)


def published_log(*, public_key_hex: str, date: str, ruleset: str,
                  receipts: Sequence[Mapping], cuts: Sequence[tuple[int, str]],
                  close: Close, sign: Sign) -> dict:
    """The published log: a checkpoint of the first ``size`` receipts (in ``index`` order)
    at ``time`` for each (size, time) of ``cuts``, the last one closing with ``close``."""
    hashes = [receipt_leaf_hash(r) for r in receipts]
    checkpoints, previous, previous_size = [], None, 0
    for position, (size, time) in enumerate(cuts):
        last = position == len(cuts) - 1
        cp = next_checkpoint(public_key_hex=public_key_hex, date=date, ruleset=ruleset,
                             leaf_hashes=hashes[:size], time=time, previous_body=previous,
                             close=close if last else None)
        body = cp.body()
        proof = [] if previous is None else merkle.consistency_path(previous_size,
                                                                    hashes[:size])
        checkpoints.append({"note": format_note(body, [sign(body)]),
                            "consistency": [h.hex() for h in proof]})
        previous, previous_size = body, size
    return {"checkpoints": checkpoints}
