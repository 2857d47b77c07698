"""The day's log endpoints under ``/api/v1/logs`` (docs/api.md, FAIRNESS.md "The day's log"):
what a witness polls, the published checkpoints, consistency proofs, and witnesses'
cosignatures. Every answer is public: a checkpoint reveals no dice."""

from flask import Blueprint, jsonify, request

from app.api.params import bounded_int
from app.daylog.errors import BadCosignature, InvalidSize, NoCheckpoint
from app.ledger.days import service_date
from app.services import services
from fairness.checkpoint import MAX_SIZE

bp = Blueprint("logs", __name__, url_prefix="/api/v1")


@bp.before_request
def settle_ledger() -> None:
    """Take on a new epoch before answering, as the other API routes do."""
    services().prepare()


def size_parameter(name: str) -> int:
    """The query parameter ``name``, a tree size; else a 400 ``invalid-size``."""
    value = bounded_int(request.args.get(name) or "", 0, MAX_SIZE)
    if value is None:
        raise InvalidSize(f"{name} must be a tree size (a whole number).")
    return value


@bp.get("/logs")
def logs():
    """Every log with a checkpoint of the open dates and of the dates closed in the last
    three days; a log nobody has finished a game in yet is not listed."""
    return jsonify({"logs": services().logs.listing()})


@bp.get("/logs/<date>/<sheet>")
def published_log(date: str, sheet: str):
    """The published log so far: each checkpoint's signed note and consistency proof."""
    return jsonify(services().logs.published(service_date(date), sheet))


@bp.get("/logs/<date>/<sheet>/checkpoint")
def latest_checkpoint(date: str, sheet: str):
    """The latest signed checkpoint of a log, with its cosignatures."""
    date = service_date(date)
    latest = services().logs.latest(date, sheet)
    if latest is None:
        raise NoCheckpoint(date, sheet)
    return jsonify({"note": services().logs.note(date, sheet, latest)})


@bp.get("/logs/<date>/<sheet>/consistency")
def consistency(date: str, sheet: str):
    """The consistency proof between two checkpoint sizes the log has served."""
    first, second = size_parameter("from"), size_parameter("to")
    proof = services().logs.consistency(service_date(date), sheet, first, second)
    return jsonify({"from": first, "to": second, "proof": proof})


@bp.post("/logs/<date>/<sheet>/cosignatures")
def cosignature(date: str, sheet: str):
    """Keep a configured witness's cosignature of one of the log's checkpoints."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadCosignature("Post a JSON object {\"body\", \"signature\"}.")
    services().logs.add_cosignature(service_date(date), sheet, body.get("body"),
                                    body.get("signature"))
    response = jsonify({"ok": True})
    response.status_code = 201
    return response
