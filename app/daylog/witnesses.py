"""The witness keys the operator configured (FAIRNESS.md, "Witnesses and cosignatures"): the
``YACHT_DAILY_WITNESSES`` setting and ``<data dir>/witnesses.txt``."""

import logging
from pathlib import Path

from fairness.errors import LedgerError
from fairness.note import COSIGNATURE_V1, VerifierKey, parse_vkey

WITNESSES_FILE = "witnesses.txt"

log = logging.getLogger(__name__)


def load_witnesses(setting: str | None, data_dir: Path) -> list[VerifierKey]:
    """The witness keys the operator configured: the setting's comma or space separated vkeys
    and ``<data dir>/witnesses.txt`` (one a line); a malformed one is logged and skipped."""
    texts = (setting or "").replace(",", " ").split()
    path = data_dir / WITNESSES_FILE
    if path.exists():
        texts += [line.strip() for line in path.read_text().splitlines() if line.strip()]
    keys = []
    for text in texts:
        try:
            key = parse_vkey(text)
        except LedgerError as error:
            log.warning("ignoring witness key %r: %s", text, error)
            continue
        if key.kind != COSIGNATURE_V1 or len(key.public_key) != 32:
            log.warning("ignoring witness key %r: not a cosignature/v1 Ed25519 key", text)
            continue
        keys.append(key)
    return keys
