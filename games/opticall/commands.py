"""The shape of each Opticall command (marshmallow); legality is ``decide``'s."""
from marshmallow import Schema, fields, validate

from games.opticall.cards import ANNOUNCEMENTS, SUITS

CARD_ID = fields.String(validate=validate.Length(min=1, max=64), metadata={"refers": "card"})


class Play(Schema):
    """``{"cards": [ids], "color": "green", "suit": "sun"}``; eclipses and
    reset carry no suit (``null`` or left out)."""

    cards = fields.List(CARD_ID, required=True, validate=validate.Length(min=1, max=80))
    color = fields.String(required=True, validate=validate.OneOf(ANNOUNCEMENTS))
    suit = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(SUITS))


class Call(Schema):
    card = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})


class Reveal(Schema):
    """The cards of the round's colour to show; an empty list shows none."""

    cards = fields.List(CARD_ID, required=True, validate=validate.Length(max=80))


class NoFields(Schema):
    """``pass`` carries nothing but its type."""


SCHEMAS = {"play": Play, "call": Call, "pass": NoFields, "reveal": Reveal}
