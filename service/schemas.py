"""Request shapes (marshmallow): the first of a command's two checks.

A shape error is a 400 with the offending fields; only a well-shaped request
reaches the rules, whose refusals are 422s.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from games.contract import Game, Option
from games.registry import GAMES
from service.problems import Problem, invalid_fields

NAME = validate.Length(min=1, max=40)


class BotSeat(Schema):
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=99))
    level = fields.String(required=True, validate=validate.Length(min=1, max=40))


class CreateGame(Schema):
    type = fields.String(required=True, validate=validate.OneOf(sorted(GAMES)))
    seats = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=99))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    bots = fields.List(fields.Nested(BotSeat), load_default=list, validate=validate.Length(max=99))


class JoinSeat(Schema):
    name = fields.String(required=True, validate=[NAME, validate.Regexp(r"^\S(.*\S)?$", error="No leading or trailing spaces.")])


class Wait(Schema):
    wait = fields.Integer(load_default=0, validate=validate.Range(min=0, max=30))


class StreamQuery(Schema):
    # view: the reader's view each time it changes; events: each event as the reader may see it
    data = fields.String(load_default="view", validate=validate.OneOf(["view", "events"]))
    last_event_id = fields.Integer(validate=validate.Range(min=0, max=2**53))


class GamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    type = fields.String(validate=validate.OneOf(sorted(GAMES)))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0))


class ReplayQuery(Schema):
    version = fields.Integer(validate=validate.Range(min=1))


class EventsQuery(Wait):
    # a version: the store's stream ids are 64-bit; no log comes near 2**53
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=2**53))


@lru_cache(maxsize=None)
def _instance(schema: type[Schema]) -> Schema:
    # a schema instance keeps no state between loads: one per class will do
    return schema()


def load(schema: type[Schema] | Schema, data: Any, where: str = "body") -> dict[str, Any]:
    """``data`` checked against ``schema`` (a class, or an instance), or a
    400 naming each field that is wrong."""
    if isinstance(schema, type):
        schema = _instance(schema)
    try:
        return schema.load(data, unknown=RAISE)
    except ValidationError as error:
        raise invalid_fields(error.messages_dict if isinstance(error.messages, dict) else {"_schema": error.messages}, where)


def _field(option: Option) -> fields.Field:
    if option.kind == "integer":
        return fields.Integer(strict=True, validate=validate.Range(min=option.minimum, max=option.maximum))
    if option.kind == "boolean":
        return fields.Boolean(truthy={True}, falsy={False})
    if option.kind == "string":
        return fields.String(validate=validate.OneOf(option.choices) if option.choices else None)
    if option.kind == "array":
        item = fields.String(validate=validate.OneOf(option.choices)) if option.choices else fields.String()
        return fields.List(item, validate=validate.Length(min=option.minimum, max=option.maximum))
    raise ValueError(f"option {option.name} has an unknown kind {option.kind!r}")


@lru_cache(maxsize=None)
def options_schema(game_type: str) -> Schema:
    game = GAMES[game_type]
    return Schema.from_dict({option.name: _field(option) for option in game.options}, name=f"{game_type}-options")()


def load_options(game_type: str, options: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return options_schema(game_type).load(options, unknown=RAISE)
    except ValidationError as error:
        raise invalid_fields({"options": error.messages_dict}, "body")


@lru_cache(maxsize=None)
def _command_schema(game_type: str, kind: str) -> Schema:
    return GAMES[game_type].command_schemas[kind]()


def load_command(game: Game, body: Any) -> dict[str, Any]:
    """A command's fields, shape-checked against its type's schema."""
    if not isinstance(body, dict):
        raise Problem(400, "invalid_json", "The body must be a JSON object.")
    kind = body.get("type")
    if kind not in game.command_schemas:
        raise invalid_fields({"type": [f"Must be one of: {', '.join(game.command_schemas)}."]})
    fields_only = {key: value for key, value in body.items() if key != "type"}
    return {"type": kind, **load(_command_schema(game.type, kind), fields_only)}
