"""Every operation of openapi.yaml has its method in the Python client
(clients/python): ``operationId`` in snake_case, ``webhookEvent`` (the
service's call to a receiver) as the receiver's check of it."""
from __future__ import annotations

import re

import yaml

from tabletell_client import Tabletell
from tests.support.paths import ROOT


def operation_ids() -> list[str]:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return [
        operation["operationId"]
        for section in ("paths", "webhooks")
        for item in spec.get(section, {}).values()
        for operation in item.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]


def test_every_operation_has_a_method_in_the_python_client():
    ids = operation_ids()
    assert len(ids) > 25
    names = {operation: re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", operation).lower() for operation in ids}
    missing = sorted(f"{operation} ({name})" for operation, name in names.items() if not callable(getattr(Tabletell, name, None)))
    assert not missing, f"the Python client lacks {missing}"
