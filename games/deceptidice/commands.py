"""The shape of each Deceptidice command (marshmallow); legality is
``rules.decide``'s (and ``guesses.parse``'s)."""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from games.deceptidice.deck import COLORS, MAX_NUMBER, POWER

COUNT = validate.Range(min=1, max=99)


class Guess(Schema):
    """One of the four forms: specific (``count`` + ``number`` or ``color``,
    optional ``modifier``), straight (``count`` + ``straight``), vague
    (``count`` + ``same``) or power (``power`` alone)."""

    count = fields.Integer(strict=True, validate=COUNT)
    number = fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_NUMBER))
    color = fields.String(validate=validate.OneOf(COLORS))
    modifier = fields.String(validate=validate.OneOf(("less_than", "without")))
    straight = fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_NUMBER))
    same = fields.String(validate=validate.OneOf(("number", "color")))
    power = fields.String(validate=validate.OneOf(sorted(POWER)))

    @validates_schema
    def one_form(self, data, **kwargs):
        if "power" in data:
            if len(data) > 1:
                raise ValidationError("A power-card guess names the card and nothing else.")
            return
        if "count" not in data:
            raise ValidationError("A guess needs a count.", "count")
        forms = [name for name in ("number", "color", "straight", "same") if name in data]
        if len(forms) != 1:
            raise ValidationError("Give exactly one of number, color, straight or same.")
        if "modifier" in data and forms[0] not in ("number", "color"):
            raise ValidationError("Only a number or colour TARGET takes a modifier.", "modifier")


class Die(Schema):
    die = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=9), metadata={"refers": "die"})


class Swap(Schema):
    card = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})
    # the seat to swap with, when the table swaps with players
    with_ = fields.Integer(data_key="with", attribute="with", strict=True, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})


class NoFields(Schema):
    """``challenge`` and ``skip_swap`` carry nothing but their type."""


SCHEMAS = {
    "guess": Guess,
    "challenge": NoFields,
    "reveal_die": Die,
    "discard_die": Die,
    "swap": Swap,
    "skip_swap": NoFields,
}
