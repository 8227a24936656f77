"""The shape of each tournament command (marshmallow); whether it may be
done now is ``rules.decide``'s. ``type`` and ``at`` (and the service's
``actor``, if it sends one) are the envelope, checked apart."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from games.tournaments.model import FORMATS

ID = validate.Regexp(r"^[0-9a-f]{32}$", error="32 lowercase hexadecimal digits.")
PLAYER = fields.String(required=True, validate=validate.Length(min=1, max=64))
NAME = validate.Length(min=1, max=100)
# a table's players are at most the largest table's seats
PLACE = fields.Integer(strict=True, validate=validate.Range(min=1, max=10))
# the longest arena and the most Swiss rounds a tournament may have
MAX_DURATION_SECONDS, MAX_ROUNDS = 7 * 86_400, 30


class Create(Schema):
    tournament_id = fields.String(required=True, validate=ID)
    name = fields.String(required=True, validate=NAME)
    game_type = fields.String(required=True, validate=validate.Length(min=1, max=64))
    seats_per_table = fields.Integer(strict=True, required=True, validate=validate.Range(min=2, max=10))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    rounds = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    duration_seconds = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=60, max=MAX_DURATION_SECONDS)
    )
    starts_at = fields.Integer(strict=True, required=True, validate=validate.Range(min=0))
    rated = fields.Boolean(load_default=False)
    min_rating = fields.Float(load_default=None, allow_none=True, allow_nan=False)
    max_rating = fields.Float(load_default=None, allow_none=True, allow_nan=False)
    no_show_seconds = fields.Integer(strict=True, load_default=120, validate=validate.Range(min=10, max=3600))
    created_by = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    seed = fields.String(required=True, validate=validate.Length(min=1, max=200))


class Join(Schema):
    player = PLAYER
    name = fields.String(required=True, validate=NAME)
    rating = fields.Float(required=True, allow_nan=False)


class Withdraw(Schema):
    player = PLAYER


class Tick(Schema):
    pass


class TableResult(Schema):
    game_id = fields.String(required=True, validate=ID)
    places = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)), values=PLACE, required=True)
    left = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=list)


class NoShow(Schema):
    game_id = fields.String(required=True, validate=ID)
    player = PLAYER


COMMAND_SCHEMAS: dict[str, type[Schema]] = {
    "create": Create,
    "join": Join,
    "withdraw": Withdraw,
    "tick": Tick,
    "table_result": TableResult,
    "no_show": NoShow,
}
