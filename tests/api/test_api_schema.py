"""Schemathesis against the app's own OpenAPI spec: generated requests (a few per operation) never get
a 5xx and the responses match the documented schema."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from store.api import create_app


def test_no_server_errors(store_url):
    schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(store_url))
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 7
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case):
            response = case.call()
            assert response.status_code < 500, (case.method, case.formatted_path, case.query,
                                                response.status_code, response.text[:300])
            case.validate_response(response, checks=[not_a_server_error])

        check()
