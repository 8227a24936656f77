"""openapi.yaml is a valid OpenAPI document and describes exactly the routes."""
from __future__ import annotations

import re

from openapi_spec_validator import validate

from tests.openapi_contract import spec


def test_openapi_yaml_is_a_valid_openapi_document():
    validate(spec())


def routes_of(app) -> set[tuple[str, str]]:
    found = set()
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def documented() -> set[tuple[str, str]]:
    return {
        (path, method)
        for path, item in spec()["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }


def test_every_documented_route_exists_and_every_route_is_documented(app):
    assert routes_of(app) == documented()
