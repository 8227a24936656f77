"""The shape of each Diez command (marshmallow); legality is ``rules.decide``'s."""
from marshmallow import Schema, fields, validate

from games.diez.deck import COLORS, WHITE
from games.diez.tokens import ACTIONS, BAG

CARD_ID = fields.String(validate=validate.Length(min=1, max=64))
# every effect the seed lists for a Choice; Token and Proc are refused by the
# rules in a game without tokens, with a code that says so
EFFECTS = (
    "skip", "reverse", "draw_two", "stop", "tag", "dagger", "token", "trade", "share",
    "proc", "cut_deck", "revive", "stitch_deck",
)


class Play(Schema):
    """``play`` and ``jump_in``: the card, the pile, and the card's choices."""

    card = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})
    pile = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=200), metadata={"refers": "pile"})
    color = fields.String(load_default=None, validate=validate.OneOf(COLORS + (WHITE,)))
    effect = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(EFFECTS))
    target = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})
    share_from = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})
    revive = fields.String(load_default=None, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})
    stitch = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=200), metadata={"refers": "pile"})
    new_pile = fields.Boolean(load_default=False)
    discard = fields.List(CARD_ID, load_default=list, validate=validate.Length(max=200), metadata={"refers": "card"})
    # rule "tokens": Token gives or removes; Steal and Drop All name a holder
    token_action = fields.String(load_default=None, validate=validate.OneOf(ACTIONS))
    token_from = fields.Integer(strict=True, load_default=None, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})
    token = fields.String(load_default=None, validate=validate.OneOf(sorted(BAG)))
    # rule "proc": Magnet gives one of the player's cards, Block may be replaced
    give = fields.String(load_default=None, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})
    replace = fields.Boolean(load_default=False)


class GiveToken(Schema):
    """``give_token``: the seat that receives the token just drawn."""

    to = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})


class Search(Schema):
    """``search`` (rule "ace"): the card taken from the draw pile."""

    card = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})


class GiveCard(Schema):
    """``give_card`` (rule "magnet"): a card just drawn, to a Magnet holder."""

    card = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"refers": "card"})
    to = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=99), metadata={"refers": "seat"})


class ChooseColor(Schema):
    """``choose_color`` (rule "sub"): the colour the Sub holder gives a wild card."""

    color = fields.String(required=True, validate=validate.OneOf(COLORS + (WHITE,)))


class Draw(Schema):
    # rule "needle": stop the draw at the Needle (the default) or draw on
    needle = fields.String(load_default=None, validate=validate.OneOf(("stop", "continue")))


class NoFields(Schema):
    """``keep``, ``pass``, ``challenge`` and ``accept`` carry nothing but their type."""


SCHEMAS = {
    "play": Play,
    "jump_in": Play,
    "draw": Draw,
    "keep": NoFields,
    "pass": NoFields,
    "challenge": NoFields,
    "accept": NoFields,
    "give_token": GiveToken,
    "search": Search,
    "give_card": GiveCard,
    "choose_color": ChooseColor,
}
