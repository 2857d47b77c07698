"""Liveness and readiness for load balancers and orchestrators.

``/healthz``: the process answers (restart it if not), and, when it runs the embedded Redis
itself (``serve`` without ``REDIS_URL``), that Redis answers too: a restart of the process is
then what brings it back. ``/readyz``: it can serve players —
Redis answers, the loaded secrets are those the ledger published, and the epoch covers today
(send it traffic only then).

``/readyz`` also reports the reveals (``reveal``: the last revealed date, or the failing date,
its error and attempts, as recorded in Redis by whichever process tried). A failing reveal
does not make a process unready: every replica would fail alike and the load balancer would
take the whole site down, while playing today does not need the reveal. It is an alert
(``yacht_daily_reveal_failed_attempts``, ``yacht_daily_reveal_overdue_seconds``), not a
reason to stop serving.
"""

import redis
from flask import Blueprint, current_app, jsonify
from redis.exceptions import RedisClusterException

from app.ledger.service import LedgerMismatch
from app.platform.embedded import socket_url
from app.services import redis_url, services
from fairness import ChainError

READY_RETRY_AFTER = "5"

blueprint = Blueprint("health", __name__)


@blueprint.get("/healthz")
def healthz():
    """The process is up and answering (and so is its embedded Redis, when it has one); else
    503 with the Redis check."""
    if uses_embedded_redis():
        check = redis_check()
        if not check["ok"]:
            response = jsonify({"status": "unavailable", "checks": {"redis": check}})
            response.status_code = 503
            response.headers["Retry-After"] = READY_RETRY_AFTER
            return response
    return jsonify({"status": "ok"})


def uses_embedded_redis() -> bool:
    """True when the app's Redis is the embedded server of its own data directory."""
    return redis_url(current_app.config) == socket_url(current_app.config["DATA_DIR"])


@blueprint.get("/readyz")
def readyz():
    """Each readiness check with its outcome; 200 when all hold, else 503 with Retry-After."""
    checks = {"redis": redis_check(), "secrets": secrets_check(), "epoch": epoch_check()}
    ready = all(check["ok"] for check in checks.values())
    response = jsonify({"status": "ready" if ready else "unavailable", "checks": checks,
                        "reveal": reveal_status()})
    if not ready:
        response.status_code = 503
        response.headers["Retry-After"] = READY_RETRY_AFTER
    return response


def redis_check() -> dict:
    """Whether Redis answers PING (its error type when not; never its address)."""
    try:
        services().ledger_store.client.ping()
    except (redis.RedisError, RedisClusterException) as error:
        return {"ok": False, "detail": type(error).__name__}
    return {"ok": True, "detail": "pong"}


def secrets_check() -> dict:
    """Whether the loaded epoch secret and signing key are the ones the ledger published."""
    try:
        services().ledger.ensure_epoch()
    except LedgerMismatch:
        return {"ok": False, "detail": "the ledger was published with another secret or key"}
    except (redis.RedisError, RedisClusterException) as error:
        return {"ok": False, "detail": f"cannot read the ledger: {type(error).__name__}"}
    return {"ok": True, "detail": "match the ledger"}


def reveal_status() -> dict:
    """Whether the reveals are up to date (never part of readiness, see the module)."""
    try:
        store = services().ledger_store
        failure = store.reveal_failure()
        last = store.last_revealed()
    except (redis.RedisError, RedisClusterException) as error:
        return {"ok": False, "detail": f"cannot read the ledger: {type(error).__name__}"}
    if failure is not None:
        return {"ok": False, "date": failure["date"], "error": failure.get("error"),
                "attempts": failure["attempts"], "since": failure.get("since"),
                "last_attempt": failure.get("last"), "last_revealed": last,
                "detail": f"the reveal of {failure['date'] or 'the due dates'} has failed "
                          f"{failure['attempts']} times since {failure.get('since')}"}
    return {"ok": True, "last_revealed": last,
            "detail": f"last revealed {last}" if last else "nothing revealed yet"}


def epoch_check() -> dict:
    """Whether today's UTC date lies in the loaded epoch (else no game can start)."""
    the_services = services()
    today = the_services.now().date()
    try:
        keys = the_services.secrets.for_date(today)
    except ChainError:
        return {"ok": False, "detail": f"{today.isoformat()} is outside every epoch"}
    day = keys.epoch.day_index(today)
    return {"ok": True, "detail": f"epoch {keys.epoch_number}, day {day} of {keys.epoch.length}"}


def init_app(app) -> None:
    """Serve /healthz and /readyz."""
    app.register_blueprint(blueprint)
