"""The service log tests' shared pieces: a v2 app with the service log's routes, its service,
the day checkpoints' notes as the day logs stored them, and Ed25519 verification."""

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from app import servicelog
from app.daylog.store import LogStore
from app.services import EXTENSION


def with_service_log(app):
    """``app`` with the service log's routes (idempotent once the app factory adds them)."""
    servicelog.init_app(app)
    return app


def service_log(app):
    """The app's service log, reading every day log at each pass (not only those that may
    still change): the tests' reveals close dates out of the recent window."""
    log = app.extensions[EXTENSION].service_log
    log.full_scan_seconds = 0.0
    return log


def day_notes(app) -> dict[tuple[str, str], list[str]]:
    """Each day log's checkpoints' signed notes (of every log the service log reads), in chain
    order, as stored."""
    logs = LogStore(app.extensions[EXTENSION].logs.logs.client)
    return {(date, sheet): [checkpoint.note for checkpoint in logs.checkpoints(date, sheet)]
            for date, sheet in service_log(app).every_log()}


def verify_raw(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Ed25519 verification on raw bytes, by the cryptography package."""
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        return False
    return True


def verify_hex(public_key_hex: str, message: bytes, signature_hex: str) -> bool:
    """Ed25519 verification on hex key and signature (``fairness.service_log``'s shape)."""
    return verify_raw(bytes.fromhex(public_key_hex), message, bytes.fromhex(signature_hex))
