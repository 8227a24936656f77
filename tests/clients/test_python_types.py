"""The Python client's types (``tabletell_client.types``, written by hand
for people to read) say what openapi.yaml says, which the games' own
declarations make (``service/http/openapi.py``): each TypedDict named as a
schema of the spec has that schema's fields, and requires what it requires."""
from __future__ import annotations

import typing

from games.registry import GAMES
from projections.shapes import camel
from tabletell_client import types
from tests.support.openapi_contract import spec


def _typed_dicts() -> dict[str, type]:
    return {name: value for name, value in vars(types).items() if typing.is_typeddict(value)}


def test_each_typeddict_named_as_a_schema_of_the_spec_has_its_fields():
    """The games' own types (``ColorDoubtView``, ``DiezSeat``...): what the
    spec generates from the games' declarations."""
    schemas = spec()["components"]["schemas"]
    prefixes = tuple(camel(game_type) for game_type in GAMES)
    compared = []
    for name, typed in _typed_dicts().items():
        schema = schemas.get(name) if name.startswith(prefixes) else None
        if schema is None or "properties" not in schema:
            continue
        keys = set(typed.__required_keys__) | set(typed.__optional_keys__)
        assert keys == set(schema["properties"]), (
            f"tabletell_client.types.{name}: fields {sorted(keys ^ set(schema['properties']))} differ from the spec's"
        )
        missing = set(schema.get("required", [])) - set(typed.__required_keys__)
        assert not missing, f"tabletell_client.types.{name} leaves {sorted(missing)} optional; the spec requires them"
        compared.append(name)
    for game_type in GAMES:
        for part in ("View", "Summary", "Seat", "Table", "Card", "Result"):
            assert f"{camel(game_type)}{part}" in compared, f"no {camel(game_type)}{part} in tabletell_client.types to compare"
