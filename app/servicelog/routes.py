"""The service log's endpoints: its C2SP tlog-tiles resources under ``/log`` (the checkpoint
with its witnesses' cosignatures, hash tiles, entry bundles) and its JSON beside them under
``/api/v1/log`` (the log's identity, consistency and inclusion proofs). Every answer is public:
an entry is a day checkpoint, which reveals no dice."""

import base64
import gzip

from flask import Blueprint, Response, jsonify, request

from app.api.params import bounded_int
from app.ledger.days import service_date
from app.servicelog.errors import BadTilePath, InvalidLogSize
from app.services import services
from fairness.tiles import TileError, parse_tile_path

CHECKPOINT_CACHE = "public, max-age=5"
TILE_CACHE = "public, max-age=31536000, immutable"
MAX_LOG_SIZE = 2**53 - 1

tiles = Blueprint("servicelog_tiles", __name__, url_prefix="/log")
api = Blueprint("servicelog", __name__, url_prefix="/api/v1")


def _b64(proof) -> list[str]:
    """Proof hashes as base64 strings."""
    return [base64.b64encode(node).decode("ascii") for node in proof]


@tiles.get("/checkpoint")
def checkpoint():
    """The latest checkpoint, signed by the log key, with its witnesses' cosignatures."""
    log = services().service_log
    response = Response(log.cosigned_note(log.latest()), content_type="text/plain; charset=utf-8")
    response.headers["Cache-Control"] = CHECKPOINT_CACHE
    return response


@tiles.get("/tile/<path:rest>")
def tile(rest: str):
    """A hash tile ``tile/<L>/<N>[.p/<W>]`` or an entry bundle ``tile/entries/<N>[.p/<W>]``
    within the latest checkpoint."""
    try:
        address = parse_tile_path(f"tile/{rest}")
    except TileError as error:
        raise BadTilePath(str(error)) from None
    data = services().service_log.tile(address)
    response = Response(content_type="application/octet-stream")
    if address.entries:  # bundles compressed when the client takes gzip (c2sp.org/tlog-tiles)
        response.vary.add("Accept-Encoding")
        if "gzip" in request.accept_encodings:
            data = gzip.compress(data, mtime=0)
            response.headers["Content-Encoding"] = "gzip"
    response.set_data(data)
    response.headers["Cache-Control"] = TILE_CACHE
    return response


@api.get("/log")
def identity():
    """The service log's origin, key, latest checkpoint (with cosignatures) and witnesses."""
    log = services().service_log
    head = log.store.last_checkpoint()
    return jsonify({"origin": log.origin, "vkey": log.key.vkey,
                    "size": head.size if head else 0,
                    "checkpoint": log.cosigned_note(head) if head else None,
                    "witnesses": [witness.key.text() for witness in log.witnesses()]})


def size_parameter(name: str, required: bool = True) -> int | None:
    """The query parameter ``name``, a tree size; else a 400 ``invalid-size``."""
    text = request.args.get(name)
    if text is None and not required:
        return None
    value = bounded_int(text or "", 0, MAX_LOG_SIZE)
    if value is None:
        raise InvalidLogSize(f"{name} must be a tree size (a whole number).")
    return value


@api.get("/log/consistency")
def consistency():
    """The consistency proof between two checkpointed sizes of the service log."""
    old, size = size_parameter("old"), size_parameter("size")
    proof, subproof = services().service_log.consistency(old, size)
    return jsonify({"old": old, "size": size, "proof": _b64(proof), "subproof": _b64(subproof)})


@api.get("/log/entries/<date>/<sheet>/<position>")
def entry(date: str, sheet: str, position: str):
    """The service log entry of a day checkpoint and its inclusion proof."""
    index = bounded_int(position, 0, MAX_LOG_SIZE)
    if index is None:
        raise InvalidLogSize("The checkpoint position must be a whole number.")
    found = services().service_log.entry(service_date(date), sheet, index,
                                         size_parameter("size", required=False))
    return jsonify({**found, "proof": _b64(found["proof"])})
