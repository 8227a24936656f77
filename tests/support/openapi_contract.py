"""Checking answers against openapi.yaml, so the contract stays true."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema
import yaml
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from service.http.docs import LOADER

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
SPEC_URI = "urn:tabletell:openapi"


@lru_cache(maxsize=None)
def spec() -> dict:
    return yaml.load(SPEC_PATH.read_text(), Loader=LOADER)


@lru_cache(maxsize=None)
def _registry() -> Registry:
    return Registry().with_resource(SPEC_URI, Resource.from_contents(spec(), default_specification=DRAFT202012))


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def operations_with_body() -> list[tuple[str, str]]:
    """Every (path, method) of openapi.yaml whose operation takes a JSON
    body (a ``requestBody``), in the spec's order."""
    return [
        (path, method)
        for path, item in spec()["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "requestBody" in operation
    ]


def security_of(path: str, method: str) -> set[str]:
    """The security schemes an operation names (``seatToken``,
    ``playerKey``, ``operatorToken``); none: anyone may call it."""
    return {name for requirement in spec()["paths"][path][method].get("security", []) for name in requirement}


def response_spec(path: str, method: str, status: int) -> dict:
    response = spec()["paths"][path][method.lower()]["responses"][str(status)]
    if "$ref" in response:
        name = response["$ref"].rsplit("/", 1)[-1]
        response = spec()["components"]["responses"][name]
    return response


def check(path: str, method: str, response) -> None:
    """Raises if ``response`` (a Flask test response) breaks the contract for
    ``method path`` (a path template such as /v1/games/{game_id})."""
    described = response_spec(path, method, response.status_code)
    content = described.get("content")
    if not content:
        assert not response.data, f"{method} {path} {response.status_code} should have no body"
        return
    assert response.mimetype in content, f"{method} {path}: {response.mimetype} not in {list(content)}"
    status = response.status_code
    schema_pointer = _pointer("paths", path, method.lower(), "responses", str(status), "content", response.mimetype, "schema")
    raw = spec()["paths"][path][method.lower()]["responses"][str(status)]
    if "$ref" in raw:
        name = raw["$ref"].rsplit("/", 1)[-1]
        schema_pointer = _pointer("components", "responses", name, "content", response.mimetype, "schema")
    if response.mimetype == "application/x-ndjson":
        # a stream of JSON lines: each line against the content's line schema
        line_pointer = schema_pointer.rsplit("/", 1)[0] + "/x-line-schema"
        validator = jsonschema.Draft202012Validator({"$ref": f"{SPEC_URI}#/{line_pointer}"}, registry=_registry())
        lines = response.get_data(as_text=True).splitlines()
        assert lines, f"{method} {path}: an empty stream"
        for line in lines:
            validator.validate(json.loads(line))
    else:
        validator = jsonschema.Draft202012Validator({"$ref": f"{SPEC_URI}#/{schema_pointer}"}, registry=_registry())
        validator.validate(response.get_json())
    check_headers(f"{method} {path} {status}", described.get("headers", {}), response.headers)


# the headers the service itself sets, which each answer carrying one declares
OWN_HEADERS = ("ETag", "Location", "Retry-After", "RateLimit", "RateLimit-Policy", "WWW-Authenticate", "X-Request-ID")


def check_headers(what: str, declared: dict, headers) -> None:
    """Raises if ``headers`` (an answer's) lack one the spec's ``declared``
    (a response's ``headers``) marks ``required``, or carry one of
    ``OWN_HEADERS`` the response does not declare."""
    for name, header in declared.items():
        if "$ref" in header:
            header = spec()["components"]["headers"][header["$ref"].rsplit("/", 1)[-1]]
        if header.get("required"):
            assert name in headers, f"{what} lacks the {name} header"
    names = {name.lower() for name in declared}
    undeclared = [name for name in OWN_HEADERS if name in headers and name.lower() not in names]
    assert not undeclared, f"{what} answers headers openapi.yaml does not declare: {undeclared}"


def check_schema(name: str, instance) -> None:
    """Raises if ``instance`` breaks ``components/schemas/<name>``."""
    validator = jsonschema.Draft202012Validator(
        {"$ref": f"{SPEC_URI}#/{_pointer('components', 'schemas', name)}"}, registry=_registry()
    )
    validator.validate(instance)


def check_schema_of(schema: dict, instance, where: str = "") -> None:
    """Raises if ``instance`` breaks ``schema`` (a schema as openapi.yaml
    writes it, its ``$ref``s resolved in the spec)."""
    resolved = _resolve_refs(schema)
    validator = jsonschema.Draft202012Validator(resolved, registry=_registry())
    errors = sorted(validator.iter_errors(instance), key=str)
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].absolute_path)}"


def _resolve_refs(value):
    """``value`` with every local ``$ref`` made absolute to the spec's URI."""
    if isinstance(value, dict):
        return {
            key: (f"{SPEC_URI}{item}" if key == "$ref" and isinstance(item, str) and item.startswith("#/") else _resolve_refs(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_resolve_refs(item) for item in value]
    return value
