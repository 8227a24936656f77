"""openapi.yaml's games, generated from their declarations.

Each game declares its commands (``games/<game>/commands.py``) and what it
shows (``games/<game>/shapes.py``, composed by ``projections/shapes.py``)
once, as marshmallow schemas; apispec's marshmallow plugin turns them into
the spec's schemas: for each game its view, summary, commands (a ``oneOf``
with a ``type`` discriminator), moves and events (likewise), and, over the
games, ``View`` and ``Summary`` (by the game's ``type``) and ``Command`` and
``Event`` (``anyOf``: the games share command and event types). The rest of
openapi.yaml (paths, problems, the other bodies) is written by hand; the
generated schemas sit between two marker lines in its
``components.schemas``, and ``python -m service.http.openapi`` writes them
there (``make openapi``). ``tests/service/http/test_openapi_generated.py``
fails when the file is not what the declarations make, and the answers the
suite checks against the spec (``tests/support/openapi_contract.py``) fail
on any field a declaration lacks: every generated object refuses other
properties.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields, validate

from games import table as tables
from games.contract import Game
from games.registry import GAMES
from projections import shapes
from projections.shapes import camel

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
BEGIN = "    # generated from the games' declarations by service/http/openapi.py (make openapi): do not edit by hand\n"
END = "    # end of the generated schemas\n"
REF = "#/components/schemas/"

# a free field of a structural move (``View.moves``' description)
CHOICE = {
    "oneOf": [
        {
            "type": "object",
            "required": ["one_of"],
            "additionalProperties": False,
            "properties": {"one_of": {"type": "array", "items": {}, "description": "The values the field may take."}},
        },
        {
            "type": "object",
            "required": ["from", "min", "max"],
            "additionalProperties": False,
            "properties": {
                "from": {"type": "array", "items": {}, "description": "The members a list may hold."},
                "min": {"type": "integer", "minimum": 0},
                "max": {"type": "integer", "minimum": 0},
            },
        },
    ]
}


def _name(schema: Any) -> str:
    """A nested schema's name in the spec: a game's own schemas carry the
    game's name (``ColorDoubtCard``), the table's as they are."""
    cls = schema if isinstance(schema, type) else type(schema)
    module = cls.__module__.split(".")
    if module[0] == "games" and len(module) == 3 and module[2] in ("shapes", "commands"):
        return camel(module[1]) + cls.__name__
    return cls.__name__


def _command(kind: str, schema: type[Schema] | None = None, game: Game | None = None, optional: bool = False) -> type[Schema]:
    """A command body of ``kind`` (its schema's fields and its ``type``);
    ``optional``: each field may be missing (a move lists some, ``choose``
    the rest)."""
    declared: dict[str, fields.Field] = {"type": fields.String(required=True, validate=validate.OneOf([kind]))}
    if schema is not None:
        declared.update(shapes.optional(schema) if optional else shapes.copies(schema))
    if optional:
        declared["choose"] = fields.Dict(keys=fields.String(), metadata={"description": "The free fields: each one's choices."})
    suffix = "Move" if optional else "Command"
    prefix = "" if game is None else camel(game.type)
    return Schema.from_dict(declared, name=f"{prefix}{camel(kind)}{suffix}")


def _union(kinds: dict[str, str]) -> dict[str, Any]:
    """``oneOf`` the schemas named in ``kinds`` (type -> schema name), told
    apart by their ``type``."""
    return {
        "oneOf": [{"$ref": REF + name} for name in dict.fromkeys(kinds.values())],
        "discriminator": {"propertyName": "type", "mapping": {kind: REF + name for kind, name in kinds.items()}},
    }


def generated() -> dict[str, Any]:
    """The spec's schemas made from the games' declarations, by name."""
    spec = APISpec("Tabletell", "1", "3.1.0", plugins=[MarshmallowPlugin(schema_name_resolver=_name)])
    add = spec.components.schema
    over: dict[str, dict[str, str]] = {"View": {}, "Summary": {}, "Command": {}, "Event": {}}
    added: set[str] = set()
    add("Choice", CHOICE)
    table_commands = {kind: _command(kind) for kind in sorted(tables.PLAYER_TABLE_COMMANDS)}
    for kind, schema in table_commands.items():
        add(schema.__name__, schema=schema)
    for game_type in sorted(GAMES):
        game, name = GAMES[game_type], camel(game_type)
        add(f"{name}View", schema=shapes.view_schema(game))
        add(f"{name}Summary", schema=shapes.summary_schema(game))
        commands, moves = {}, {}
        for kind, schema in game.command_schemas.items():
            command, move = _command(kind, schema, game), _command(kind, schema, game, optional=True)
            add(command.__name__, schema=command)
            add(move.__name__, schema=move)
            commands[kind], moves[kind] = command.__name__, move.__name__
        commands.update({kind: schema.__name__ for kind, schema in table_commands.items()})
        add(f"{name}Command", _union(commands))
        add(f"{name}Move", _union(moves))
        entries = {}
        for kind in sorted(shapes.event_schemas(game)):
            entry = shapes.entry_schema(game, kind)
            if entry.__name__ not in added:  # the table's own entries are every game's
                add(entry.__name__, schema=entry)
                added.add(entry.__name__)
            entries[kind] = entry.__name__
        add(f"{name}Event", {**_union(entries), "description": shapes.ENTRY})
        for union in over:
            over[union][game_type] = f"{name}{union}"
    for union in ("View", "Summary"):
        add(union, _union(over[union]))
    for union in ("Command", "Event"):  # a type means one thing in each game, not across them
        add(union, {"anyOf": [{"$ref": REF + name} for name in over[union].values()]})
    schemas = spec.to_dict()["components"]["schemas"]
    for game_type, game in GAMES.items():
        name = camel(game_type)
        schemas[f"{name}View"]["properties"]["moves"]["items"] = {"$ref": f"{REF}{name}Move"}
        for kind in game.command_schemas:
            schemas[f"{name}{camel(kind)}Move"]["properties"]["choose"]["additionalProperties"] = {"$ref": REF + "Choice"}
    return dict(sorted(schemas.items()))


def text() -> str:
    """openapi.yaml as the declarations make it."""
    current = SPEC.read_text()
    if BEGIN not in current or END not in current:
        raise SystemExit(f"{SPEC}: no lines {BEGIN.strip()!r} and {END.strip()!r} in components.schemas")
    head, rest = current.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    body = yaml.dump(generated(), Dumper=_Compact, sort_keys=False, allow_unicode=True, width=110)
    indented = "".join(f"    {line}\n" if line else "\n" for line in body.splitlines())
    return head + BEGIN + indented + END + tail


class _Compact(yaml.SafeDumper):
    """Block style, but a mapping or list of a few scalars on one line, as
    the hand-written part of openapi.yaml is."""


def _leaf(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _mapping(dumper: yaml.SafeDumper, data: dict) -> yaml.Node:
    flow = len(data) <= 4 and all(_leaf(v) or (isinstance(v, list) and all(map(_leaf, v))) for v in data.values())
    flow = flow and sum(len(str(k)) + len(str(v)) for k, v in data.items()) < 80
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


def _sequence(dumper: yaml.SafeDumper, data: list) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=all(map(_leaf, data)))


_Compact.add_representer(dict, _mapping)
_Compact.add_representer(list, _sequence)


def main() -> None:
    SPEC.write_text(text())
    print(f"wrote {SPEC}", file=sys.stderr)


if __name__ == "__main__":
    main()
