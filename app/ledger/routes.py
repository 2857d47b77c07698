"""The ledger and the public audit in the JSON API (docs/api.md, FAIRNESS.md): every ledger
entry, a date's reveal entry, a revealed day's games page by page, and the verification of a
game against the ledger. Routes on the API's blueprint (``app.api.blueprint``)."""

from flask import jsonify, request

from app.api.blueprint import bp
from app.api.errors import ApiError
from app.api.params import query_limit
from app.api.request import daily_ruleset, json_body, text_field
from app.daily.routes import GAME_ID, visible_game
from app.daily.scouting import looks_like_scouting
from app.daily.views import revealed_answer
from app.ledger.days import service_date
from app.ledger.signing import verify_signature
from app.services import services
from fairness import audit
from fairness.sheets import ANY_DAILY_RULESETS

DEFAULT_DAY_PAGE = 1000
MAX_DAY_PAGE = 1000


@bp.get("/ledger")
def ledger():
    """Every ledger entry."""
    return jsonify({"entries": services().ledger.entries()})


@bp.get("/ledger/<date>")
def ledger_date(date: str):
    """A date's reveal entry (404 until revealed)."""
    entry = services().ledger.reveal_entry(service_date(date))
    if entry is None:
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    return jsonify({"entry": entry})


@bp.get("/days/<date>/<ruleset>/games")
def day_games(date: str, ruleset: str):
    """A page of the games of a revealed (date, sheet) in id order (the Merkle leaf order):
    transcripts and receipts for a public audit, and the cursor of the next page."""
    date, ruleset = service_date(date), daily_ruleset(ruleset)
    limit = query_limit(DEFAULT_DAY_PAGE, MAX_DAY_PAGE)
    after = request.args.get("after")
    if after is not None and not GAME_ID.fullmatch(after):
        raise ApiError(400, "invalid-cursor",
                       "after must be a game id (32 lowercase hexadecimal digits).")
    if not services().ledger.is_revealed(date):
        raise ApiError(404, "not-revealed", f"{date} is not revealed yet.")
    store = services().game_store
    total, ids = store.day_game_page(date, ruleset, after, limit + 1)
    page = ids[:limit]
    return revealed_answer({
        "date": date,
        "ruleset": ruleset,
        "total": total,
        "games": [
            {
                "id": record.id,
                "player": record.player,
                "name": record.name or None,
                "status": "finished" if record.receipt else "abandoned",
                "scouting": looks_like_scouting(record.transcript, record.receipt is not None),
                "transcript": list(record.transcript),
                "receipt": record.receipt,
            }
            for record in store.load_games(page)
        ],
        "next": page[-1] if len(ids) > len(page) else None,
    })


@bp.post("/verify")
def verify():
    """Recompute a game (by id, or a posted receipt and transcript) against the ledger."""
    body = json_body()
    entries = services().ledger.entries()
    if "game" in body:
        played = visible_game(text_field(body, "game"))
        if played.record.receipt is None:
            raise ApiError(409, "no-receipt", "Only a finished game has a receipt to verify.")
        receipt, transcript = dict(played.record.receipt), list(played.record.transcript)
        found = services().ledger.proof(played.record)
        proof_given = found["proof"] if found else None
    else:
        receipt, transcript = body.get("receipt"), body.get("transcript")
        if not isinstance(receipt, dict) or not isinstance(transcript, list):
            raise ApiError(400, "invalid-body",
                           "Post {\"game\": id} or {\"receipt\": {...}, \"transcript\": [...]}.")
        proof_given = body.get("proof")
        if proof_given is not None and not isinstance(proof_given, dict):
            raise ApiError(400, "invalid-field", "The field 'proof' must be an object.")
        if proof_given is None:
            proof_given = _stored_proof(receipt)
    checks = audit.check_game(entries, receipt, transcript, proof_given, verify_signature)
    return jsonify({
        "ok": all(check.ok is True for check in checks),
        "checks": [{"name": c.name, "ok": c.ok, "detail": c.detail} for c in checks],
    })


def _stored_proof(receipt: dict) -> dict | None:
    """The inclusion proof of a posted receipt's game in its revealed day, if it is there."""
    date, ruleset, game_id = receipt.get("date"), receipt.get("ruleset"), receipt.get("game")
    if not all(isinstance(v, str) for v in (date, ruleset, game_id)):
        return None
    if ruleset not in ANY_DAILY_RULESETS:
        return None
    try:
        date = service_date(date)
    except ValueError:
        return None
    if not services().ledger.is_revealed(date):
        return None
    return services().ledger.leaf_proof(date, ruleset, game_id)
