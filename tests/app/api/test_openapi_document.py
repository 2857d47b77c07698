"""The OpenAPI document is the API's contract: moving code between modules must not change a
byte of it. A deliberate change of the contract updates ``openapi.sha256`` (and the version)."""

import hashlib
from pathlib import Path

DIGEST_FILE = Path(__file__).with_name("openapi.sha256")


def test_the_served_document_is_the_recorded_contract(client):
    served = client.get("/api/v1/openapi.json")
    assert served.status_code == 200
    digest = hashlib.sha256(served.get_data()).hexdigest()
    assert digest == DIGEST_FILE.read_text().split()[0], (
        "the OpenAPI document changed; if on purpose, bump its version and record "
        f"{digest} in {DIGEST_FILE.name}")
