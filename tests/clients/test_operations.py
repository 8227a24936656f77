"""Every operation of openapi.yaml has a method in each client, named by its
operationId, and the JavaScript client sends it as the contract says.

The operations are those of ``paths`` (what a client calls) and of
``webhooks`` (what the service sends to an app backend: the receiver's
check of it, a static method, tests/clients/test_webhook_receivers.py).

Each client is in ``CLIENTS``: a function listing its public methods, and
how it names an operation (the JavaScript client by the operationId itself,
the Python client in snake_case).
"""
from __future__ import annotations

import inspect
import re
from functools import lru_cache

import pytest

from tabletell_client import Tabletell as PythonClient
from tests.support.node import JS_CLIENT, evaluate
from tests.support.openapi_contract import spec

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


@lru_cache(maxsize=None)
def operations() -> dict[str, dict]:
    """Each operation of ``paths`` by operationId: its method, path and
    parameters (path-level ones and ``$ref``s resolved)."""
    found = {}
    for path, item in spec()["paths"].items():
        for method in HTTP_METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = [_resolved(p) for p in item.get("parameters", []) + operation.get("parameters", [])]
            found[operation["operationId"]] = {
                "method": method.upper(),
                "path": path,
                "query": {p["name"] for p in parameters if p["in"] == "query"},
                "headers": {p["name"] for p in parameters if p["in"] == "header"},
                "body": "requestBody" in operation,
            }
    return found


def _resolved(parameter: dict) -> dict:
    if "$ref" in parameter:
        return spec()["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[-1]]
    return parameter


def received() -> set[str]:
    """The operationIds of ``webhooks``: requests the service makes."""
    return {
        operation["operationId"]
        for item in spec().get("webhooks", {}).values()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


@lru_cache(maxsize=None)
def js_client() -> dict:
    """The JavaScript class's methods (its static ones too) and its table of
    operations, as node imports the module."""
    return evaluate(
        "import { Tabletell, OPERATIONS } from './tabletell.js';"
        "const methods = Object.getOwnPropertyNames(Tabletell.prototype).filter((name) => name !== 'constructor');"
        "const statics = Object.getOwnPropertyNames(Tabletell).filter((name) => typeof Tabletell[name] === 'function');"
        "console.log(JSON.stringify({ methods: [...methods, ...statics], operations: OPERATIONS }));"
    )


def js_methods() -> set[str]:
    return set(js_client()["methods"])


# the Python client's public methods that are no operation: its own lifecycle
# and the backoff it waits between attempts (a method, so a subclass may change it)
PYTHON_MACHINERY = {"close", "backoff"}


def python_methods() -> set[str]:
    return {
        name
        for name, value in vars(PythonClient).items()
        if not name.startswith("_") and (inspect.isfunction(value) or isinstance(value, staticmethod))
    } - PYTHON_MACHINERY


def snake_case(operation_id: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", operation_id).lower()


# name: (its public methods, the method named for an operationId)
CLIENTS = {
    "js": (js_methods, lambda operation_id: operation_id),
    "python": (python_methods, snake_case),
}


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_every_operation_has_a_method_in_each_client(client):
    methods, named = CLIENTS[client]
    assert len(operations()) > 25 and received() == {"webhookEvent"}
    expected = {named(operation_id) for operation_id in set(operations()) | received()}
    have = methods()
    assert not expected - have, f"operations of openapi.yaml without a method in the {client} client"
    assert not have - expected, f"public methods of the {client} client that are no operation of openapi.yaml"


def test_the_js_client_sends_each_operation_as_openapi_yaml_says():
    table = js_client()["operations"]
    assert set(table) == set(operations())
    for operation_id, contract in operations().items():
        sent = table[operation_id]
        assert (sent["method"], sent["path"]) == (contract["method"], contract["path"]), operation_id
        # every query parameter, under its own name (from the options in camelCase)
        assert set(sent["query"]) == contract["query"], operation_id
        # every header but Last-Event-ID, for which streams send ?last_event_id=
        assert set(sent["headers"]) == contract["headers"] - {"Last-Event-ID"}, operation_id


def test_the_js_client_sends_again_only_what_cannot_be_done_twice():
    """After a network error a request may have been carried out: only
    reads, a DELETE, a command with its Idempotency-Key, rematch (the
    same seat asking again is given the same seat: lobby.py), enabling a
    webhook (enabled twice, it is enabled once), renaming a player (the
    same name set twice) and asking for an analysis (asked twice, it is
    queued once) are sent again; the rest
    only after a 503 that did nothing."""
    table = js_client()["operations"]
    for operation_id, contract in operations().items():
        kind = table[operation_id]["retry"]
        assert kind in ("idempotent", "once", "probe"), operation_id
        safe = (
            contract["method"] in ("GET", "DELETE")
            or "Idempotency-Key" in contract["headers"]
            or operation_id in ("rematch", "enableWebhook", "renamePlayer", "requestAnalysis")
        )
        assert kind != "idempotent" or safe, f"{operation_id} is sent again after a network error"
        assert kind != "probe" or contract["path"].startswith("/v1/health"), operation_id
        if contract["method"] == "GET":
            assert kind != "once", operation_id


def test_the_js_declarations_declare_every_method_and_operation():
    declarations = (JS_CLIENT / "tabletell.d.ts").read_text()
    body = declarations[declarations.index("export class Tabletell {") :]
    body = body[: body.index("\n}\n")]
    declared = set(re.findall(r"^  (\w+)\(", body, re.MULTILINE)) - {"constructor"}
    assert declared == set(operations()), "methods of tabletell.d.ts"
    assert set(re.findall(r"^  static (\w+)\(", body, re.MULTILINE)) == received(), "static methods of tabletell.d.ts"
    union = declarations[declarations.index("export type OperationId =") :]
    union = union[: union.index(";")]
    assert set(re.findall(r'"(\w+)"', union)) == set(operations()), "OperationId in tabletell.d.ts"
