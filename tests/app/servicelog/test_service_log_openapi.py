"""The service log's part of the OpenAPI document: the document served with it is the recorded
contract (``tests/app/api/openapi.sha256``) and describes its three JSON routes."""

import hashlib
from pathlib import Path

from tests.app.servicelog.servicelog_kit import with_service_log

DIGEST_FILE = Path(__file__).resolve().parents[1] / "api" / "openapi.sha256"


def test_the_document_with_the_service_log_is_the_recorded_contract(app):
    served = with_service_log(app).test_client().get("/api/v1/openapi.json")
    assert served.status_code == 200
    document = served.get_json()
    assert document["info"]["version"] == "1.4.0"
    assert {"/log", "/log/consistency", "/log/entries/{date}/{sheet}/{position}"} <= \
        set(document["paths"])
    assert {"ServiceLog", "ServiceLogEntry"} <= set(document["components"]["schemas"])
    digest = hashlib.sha256(served.get_data()).hexdigest()
    assert digest == DIGEST_FILE.read_text().split()[0], (
        f"the OpenAPI document changed; if on purpose, record {digest}")
