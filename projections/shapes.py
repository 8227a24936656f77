"""The whole of what a seat is shown, declared: a view (``views.seat_view``)
and a feed entry (``views.told``) of a game, made of the table's part,
declared here, and the game's part, which the game declares
(``games.contract.Shapes``). openapi.yaml's views and events are generated
from these (``service/http/openapi.py``) and the conformance harness checks
every view and entry of its random games against them
(``tests/support/shapes.py``)."""
from __future__ import annotations

import copy
from typing import Any

from marshmallow import Schema, fields, validate

from games import shapes as table_shapes
from games import table as tables
from games.contract import Game, Option, Shapes
from games.shapes import count, describe, seat, seats
from projections.views import SEAT_ONLY

STATUSES = (tables.WAITING, tables.ACTIVE, tables.FINISHED, tables.ABANDONED)
ACTORS = ("player", "bot", "system")


def _by_type(make):
    """``make(game, *args)`` made once for each game type (a game is not hashable)."""
    made: dict[tuple, Any] = {}

    def cached(game: Game, *args: Any) -> Any:
        key = (game.type, *args)
        if key not in made:
            made[key] = make(game, *args)
        return made[key]

    cached.__doc__ = make.__doc__
    return cached


def shapes_of(game: Game) -> Shapes:
    shapes = game.shapes
    assert shapes is not None, f"{game.type} declares no shapes"
    return shapes


class Deadline(Schema):
    seat = seat(required=True)
    kind = fields.String(required=True, metadata=describe('"turn", or the name of a reaction window the seat may act in.'))
    at = fields.Integer(strict=True, required=True, metadata=describe("Milliseconds since the epoch."))


class TableSeat(Schema):
    """The table's part of a seat, the same in every game."""

    seat = seat(required=True)
    name = fields.String(required=True, allow_none=True, metadata=describe("The name the seat was taken under (null: free)."))
    display_name = fields.String(
        required=True,
        metadata=describe(
            "The name to show people, the one events' `text` uses: a player's name as given; a bot "
            '"Bot <n> (<level>)", bots numbered from 1 in seat order; a free seat "Seat <n>", numbered from 1.'
        ),
    )
    bot = fields.String(required=True, allow_none=True, metadata=describe("The bot's level, for a bot's seat."))
    autopilot = fields.Boolean(required=True, metadata=describe("The seat timed out too often: the system plays it until its player acts."))
    timeouts = count(required=True, metadata=describe("The seat's timeouts in a row."))
    left = fields.Boolean(required=True, metadata=describe("The player left the table: a bot plays the seat to the end."))


def _option(option: Option) -> fields.Field:
    """An option's field, from its declaration (``games.contract.Option``)."""
    bounds = validate.Range(min=option.minimum, max=option.maximum) if option.minimum is not None or option.maximum is not None else None
    checks = [check for check in (bounds, validate.OneOf(option.choices) if option.choices is not None else None) if check]
    meta = describe(option.description)
    kinds: dict[str, Any] = {
        "integer": lambda: fields.Integer(strict=True, validate=checks, metadata=meta),
        "boolean": lambda: fields.Boolean(validate=checks, metadata=meta),
        "string": lambda: fields.String(validate=checks, metadata=meta),
        # an array's bounds are its length, its choices its items' (as ``service/http/schemas.py`` reads them)
        "array": lambda: fields.List(
            fields.String(validate=validate.OneOf(option.choices) if option.choices is not None else None),
            validate=validate.Length(min=option.minimum, max=option.maximum),
            metadata=meta,
        ),
    }
    return kinds[option.kind]()


@_by_type
def options_schema(game: Game) -> type[Schema]:
    """A game's options, completed with their defaults: every option the game declares."""
    return Schema.from_dict({option.name: _option(option) for option in game.options}, name=f"{_name(game)}Options")


@_by_type
def seat_schema(game: Game) -> type[Schema]:
    """A seat in a view: the table's part and, once dealt, the game's."""
    return Schema.from_dict({**copies(TableSeat), **optional(shapes_of(game).seat)}, name=f"{_name(game)}Seat")


@_by_type
def view_schema(game: Game) -> type[Schema]:
    """A seat's view of a game of this type (``projections.views.seat_view``)."""
    shapes = shapes_of(game)
    table: dict[str, fields.Field] = {
        "game_id": fields.String(required=True),
        "type": fields.String(required=True, validate=validate.Equal(game.type)),
        "version": count(required=True, metadata=describe("The game's version: its log's length.")),
        "log_hash": fields.String(required=True, allow_none=True, metadata=describe("The hash of the log's last entry: it seals the log up to here.")),
        "status": fields.String(required=True, validate=validate.OneOf(STATUSES)),
        "seat": seat(required=True, allow_none=True, metadata=describe("The reader's seat (null: a spectator).")),
        "hand": fields.List(fields.Raw(), required=True),
        "table": fields.Raw(required=True, allow_none=True),
        "seats": fields.List(fields.Nested(seat_schema(game)), required=True),
        "to_act": seats(required=True, metadata=describe("The seats the game waits for.")),
        "actions": fields.List(fields.String(), required=True, metadata=describe("The command types this seat may send now.")),
        "moves": fields.List(
            fields.Dict(keys=fields.String()),
            required=True,
            metadata=describe(
                "What this seat may send now (empty while it is not waited for). Each entry is either a complete "
                "command body, sent as it is, or, where a command has too many forms to list, a structural one: "
                "its fixed fields, and under `choose` each free field as `{\"one_of\": [values]}` or "
                "`{\"from\": [values], \"min\": a, \"max\": b}` (a list of a to b distinct members, in any order). "
                "Every body that fits an entry is accepted, and nothing else is."
            ),
        ),
        "options": fields.Nested(options_schema(game), required=True),
        "rules": count(required=True, metadata=describe("The rules version the game plays by.")),
        "rated": fields.Boolean(required=True, metadata=describe("The result moves the players' ratings.")),
        "deadlines": fields.List(fields.Nested(Deadline), required=True),
        "result": fields.Nested(shapes.result, required=True, allow_none=True),
        "ended": fields.Nested(
            table_shapes.EndedByOperator, required=True, allow_none=True,
            metadata=describe("An operator ended the game where it stood (its result that standing), and why; else null."),
        ),
        "voided": fields.Nested(
            table_shapes.EndedByOperator, required=True, allow_none=True,
            metadata=describe("An operator voided the game (over, with no result, never rated), and why; else null."),
        ),
        # a waiting table says nothing yet: each of the game's sentences may be missing
        "says": fields.Nested(Schema.from_dict(optional(shapes.says), name=f"{_name(game)}Says"), required=True),
    }
    # the game's part (hand, table and the rest) replaces the table's
    # placeholders once dealt; a waiting table shows none of it
    dealt = optional(shapes.view)
    for name in ("hand", "table"):
        if name in dealt:
            dealt[name].required = True
    if "table" in dealt:
        dealt["table"].allow_none = True
    return Schema.from_dict({**table, **dealt}, name=f"{_name(game)}View")


@_by_type
def summary_schema(game: Game) -> type[Schema]:
    """The public summary of a game of this type (``projections.views.summary``):
    a spectator's view without what only a seat has."""
    declared = copies(view_schema(game))
    for private in SEAT_ONLY:
        declared.pop(private)
    return Schema.from_dict(declared, name=f"{_name(game)}Summary")


@_by_type
def event_schemas(game: Game) -> dict[str, type[Schema]]:
    """Event type -> its data as a reader may be shown it: the table's own
    events and the game's."""
    shapes = shapes_of(game)
    return {**table_shapes.table_events(shapes.result, _name(game)), **shapes.events}


# what every feed entry is, whatever its event (each game's ``Event`` in the
# spec says it once, not each entry of it)
ENTRY = (
    "A feed entry: the event as the reader may see it. `seat` is the acting seat, `time` milliseconds since "
    "the epoch, `command_id` shown to the acting seat only, and `text` the event told in one short English "
    "sentence from the reader's side: the reader is \"you\", every other seat is named by its `display_name`. "
    "Made from `data` and the seats' names alone, so it says no more than the reader may know. For people: "
    "parse `data`, not `text`."
)


def entry_schema(game: Game, kind: str) -> type[Schema]:
    """A feed entry (``projections.views.told``) of an event of ``kind``:
    the table's own events (but the end, which carries the game's result)
    are the same in every game, and so is their entry (``TableEntry``)."""
    if kind in tables.TABLE_EVENTS and kind != "game_finished":
        return _table_entry(kind)
    return _entry(game, kind)


@_by_type
def _entry(game: Game, kind: str) -> type[Schema]:
    return _entry_of(kind, event_schemas(game)[kind], f"{_name(game)}{camel(kind)}Entry")


_TABLE_ENTRIES: dict[str, type[Schema]] = {}


def _table_entry(kind: str) -> type[Schema]:
    if kind not in _TABLE_ENTRIES:
        _TABLE_ENTRIES[kind] = _entry_of(kind, table_shapes.table_events(Schema, "")[kind], f"{camel(kind)}Entry")
    return _TABLE_ENTRIES[kind]


def _entry_of(kind: str, data: type[Schema], name: str) -> type[Schema]:
    return Schema.from_dict(
        {
            "version": count(required=True),
            "type": fields.String(required=True, validate=validate.Equal(kind)),
            "time": fields.Integer(strict=True, required=True),
            "seat": seat(required=True, allow_none=True),
            "actor": fields.String(required=True, validate=validate.OneOf(ACTORS)),
            "data": fields.Nested(data, required=True),
            "text": fields.String(required=True),
            "command_id": fields.String(),
        },
        name=name,
    )


def copies(schema: type[Schema]) -> dict[str, fields.Field]:
    """Copies of ``schema``'s declared fields, to make another schema of."""
    return copy.deepcopy(schema._declared_fields)


def optional(schema: type[Schema]) -> dict[str, fields.Field]:
    """Copies of ``schema``'s declared fields, each of which may be missing."""
    out = copies(schema)
    for field in out.values():
        field.required = False
    return out


def _name(game: Game) -> str:
    return camel(game.type)


def camel(name: str) -> str:
    """A game's or an event's name as the spec's schemas spell it: "color-doubt" -> "ColorDoubt"."""
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))
