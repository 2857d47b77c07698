"""Fuzz the API from its own OpenAPI document (schemathesis) on the app and a real Redis: no
answer is a 5xx, and every answer matches the document (status, content type, body schema).

Requests are generated both fitting the document and not fitting it. Bounded: a few examples
per operation and mode, so the whole run stays within seconds. (Schemathesis's own pytest
plugin does not run on this pytest, so the operations are driven with hypothesis directly.)
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES_PER_OPERATION = 10
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


def operations(app) -> list:
    """Every operation of the app's OpenAPI document."""
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


def fuzz(operation, mode: GenerationMode) -> int:
    """Send generated requests to one operation and check each answer; how many were sent.

    An operation with nothing a request could get wrong (no parameter, no body) has no
    request that does not fit the document: none is sent then.
    """
    sent = 0

    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        """One generated request and the checks on its answer."""
        nonlocal sent
        sent += 1
        # The WSGI client reads bodies as sent: ask for them uncompressed.
        case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})

    try:
        check()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
    return sent


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_api_answers_match_its_openapi_document(app, mode):
    """Every operation answers generated requests as documented, never with a 5xx."""
    found = operations(app)
    assert len(found) >= 10
    sent = {f"{operation.method.upper()} {operation.path}": fuzz(operation, mode)
            for operation in found}
    fuzzed = [name for name, count in sent.items() if count]
    assert len(fuzzed) >= len(found) // 2, sent
