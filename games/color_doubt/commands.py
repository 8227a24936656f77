"""The shape of each Color Doubt command (marshmallow); legality is ``rules.decide``'s."""
from marshmallow import Schema, fields, validate

from games.color_doubt.state import COLORS

# the most cards one play may lay (the shape check's bound; ``legal`` lists no more)
MAX_CARDS = 80


class Play(Schema):
    cards = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=1, max=MAX_CARDS),
        metadata={"refers": "card"},
    )
    color = fields.String(required=True, validate=validate.OneOf(COLORS))


class NoFields(Schema):
    """``doubt`` and ``pass`` carry nothing but their type."""


SCHEMAS = {"play": Play, "doubt": NoFields, "pass": NoFields}
