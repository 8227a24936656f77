"""The first of a command's two checks: its shape, by the marshmallow schema
of its game and type (the rules check its legality). Every command is
checked so, whoever sends it: a player over HTTP, a bot, a worker. A shape
refused is ``Invalid`` (``invalid_request``), naming each field."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from marshmallow import RAISE, Schema, ValidationError

from games import table as tables
from games.contract import Game
from games.registry import GAMES
from service.app.errors import Invalid, invalid_fields


@lru_cache(maxsize=None)
def _instance(schema: type[Schema]) -> Schema:
    # a schema instance keeps no state between loads: one per class will do
    return schema()


IMMUTABLE = (int, float, str, bool, type(None))
# schema instance -> what it loads from {} (a schema with a required field
# refuses {}, and is never here)
_DEFAULTS: dict[Schema, dict[str, Any]] = {}


def load(schema: type[Schema] | Schema, data: Any, where: str = "body") -> dict[str, Any]:
    """``data`` checked against ``schema`` (a class, or an instance), or
    ``Invalid`` naming each field that is wrong."""
    if isinstance(schema, type):
        schema = _instance(schema)
    if data == {}:  # most reads send no query: the defaults, worked out once per schema
        defaults = _DEFAULTS.get(schema)
        if defaults is not None:
            return dict(defaults)
    try:
        loaded = schema.load(data, unknown=RAISE)
        if data == {} and all(isinstance(value, IMMUTABLE) for value in loaded.values()):
            _DEFAULTS[schema] = dict(loaded)  # a default list or dict would be shared: never kept
        return loaded
    except ValidationError as error:
        raise invalid_fields(error.messages_dict if isinstance(error.messages, dict) else {"_schema": error.messages}, where)


@lru_cache(maxsize=None)
def _command_schema(game_type: str, kind: str) -> Schema:
    return GAMES[game_type].command_schemas[kind]()


def load_command(game: Game, body: Any) -> dict[str, Any]:
    """A command's fields, shape-checked against its type's schema."""
    if not isinstance(body, dict):
        raise Invalid("invalid_json", "The body must be a JSON object.")
    kind = body.get("type")
    fields_only = {key: value for key, value in body.items() if key != "type"}
    if kind in tables.PLAYER_TABLE_COMMANDS:  # the table's (``leave``, ``return``): no fields
        if fields_only:
            raise invalid_fields({name: ["Unknown field."] for name in fields_only})
        return {"type": kind}
    if not isinstance(kind, str) or kind not in game.command_schemas:
        known = [*game.command_schemas, *tables.PLAYER_TABLE_COMMANDS]
        raise invalid_fields({"type": [f"Must be one of: {', '.join(known)}."]})
    return {"type": kind, **load(_command_schema(game.type, kind), fields_only)}


