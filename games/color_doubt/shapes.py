"""What a Color Doubt game shows, declared (``games.contract.Shapes``): a
seat's view, its events' data and the result. ``view.py``, ``evolve.py``'s
events and ``rules.result`` show nothing these do not declare (the
conformance harness checks every view and feed entry of its games)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from games.color_doubt.state import COLORS, RAINBOW
from games import shapes as field
from games.contract import Center, Part
from games.shapes import describe

COLOR = validate.OneOf(COLORS)


class Card(Schema):
    id = field.card_id(required=True)
    color = fields.String(required=True, validate=validate.OneOf((*COLORS, RAINBOW)), metadata=describe("A rainbow card is every colour."))


def card_list(**kwargs) -> fields.List:
    return fields.List(fields.Nested(Card), **kwargs)


class Claim(Schema):
    seat = field.seat(required=True, metadata=describe("The seat that made the claim."))
    count = field.count(required=True, metadata=describe("How many cards were laid face down."))
    color = fields.String(required=True, validate=COLOR, metadata=describe("The colour announced."))
    on = field.count(required=True, metadata=describe("The count the claim was laid on (1 on a free lead)."))


class Table(Schema):
    colors = fields.List(fields.String(validate=COLOR), required=True, metadata=describe("The colours in play."))
    cards_per_suit = field.count(required=True)
    game = field.count(required=True, metadata=describe("The game of the match being played (1 outside a match)."))
    games = field.count(required=True, metadata=describe("The match's games (1 outside a match)."))
    pile = field.count(required=True, metadata=describe("Cards face down on the table."))
    claim = fields.Nested(Claim, required=True, allow_none=True, metadata=describe("The last play's claim (null: a free lead)."))
    required = field.count(required=True, metadata=describe("The fewest cards a play on the claim may lay."))
    doubt_open = fields.Boolean(required=True, metadata=describe("The last claim may be doubted."))
    last_card = fields.Boolean(required=True, metadata=describe("The claimant has laid their last card: it wins unless doubted and a lie."))
    turn = field.seat(required=True, allow_none=True)
    revealed = card_list(required=True, metadata=describe("The cards doubts turned up this game."))


class View(Schema):
    hand = card_list(required=True, metadata=describe("The reader's cards (empty for a spectator)."))
    minus = card_list(required=True, metadata=describe("The reader's minus pile."))
    table = fields.Nested(Table, required=True)


class Seat(Schema):
    cards = field.count(required=True, metadata=describe("Cards in the seat's hand."))
    minus = field.count(required=True, metadata=describe("Cards in the seat's minus pile."))
    score = fields.Integer(strict=True, required=True, allow_none=True, metadata=describe("The seat's match score (null outside a match)."))
    known = card_list(required=True, metadata=describe("Cards the reader saw go into this seat's hand and not leave it."))


class Says(Schema):
    pile = fields.String(required=True)
    claim = fields.String()
    last_card = fields.String()
    required = fields.String()
    game = fields.String()


class GameOutcome(Schema):
    game = field.count(required=True)
    winner = field.seat(required=True)
    scores = fields.List(fields.Integer(strict=True), required=True, allow_none=True)


class Result(Schema):
    winners = field.seats(required=True)
    scores = fields.List(fields.Integer(strict=True), required=True, allow_none=True, metadata=describe("Each seat's match score (null outside a match)."))
    games = fields.List(fields.Nested(GameOutcome), required=True, metadata=describe("Each game of the match, in order."))


class Dealt(Schema):
    game = field.count(required=True)
    first = field.seat(required=True, metadata=describe("The seat that leads."))
    hand_size = field.count(required=True)
    set_aside = field.count(required=True, metadata=describe("Cards dealt to nobody."))
    hand = card_list(metadata=describe("The reader's hand (the reader's seat only)."))


class Played(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True)
    color = fields.String(required=True, validate=COLOR)
    next = field.seat(required=True)
    cards = fields.List(field.card_id(), metadata=describe("The ids of the cards laid (the player's seat only)."))


class Passed(Schema):
    seat = field.seat(required=True)
    next = field.seat(required=True)


class TableCleared(Schema):
    leader = field.seat(required=True)


class Doubted(Schema):
    seat = field.seat(required=True, metadata=describe("The doubter."))
    claimant = field.seat(required=True)
    cards = card_list(required=True, metadata=describe("The claim's cards, turned up."))
    truthful = fields.Boolean(required=True)
    taker = field.seat(required=True, metadata=describe("The seat that takes the pile."))
    taken = field.count(required=True)
    leader = field.seat(required=True)
    minus = card_list(metadata=describe("The cards taken as minus points (the taker only)."))


class CardsTaken(Schema):
    seat = field.seat(required=True)
    source = field.seat(required=True)
    count = field.count(required=True)
    cards = card_list(metadata=describe("The cards taken (the taker only)."))
    ids = fields.List(field.card_id(), metadata=describe("The ids of the cards taken (the seat they were taken from only)."))


class GameWon(Schema):
    seat = field.seat(required=True)
    game = field.count(required=True)
    scores = fields.List(fields.Integer(strict=True), required=True, allow_none=True)


VIEW, SEAT, RESULT, SAYS = View, Seat, Result, Says
EVENTS: dict[str, type[Schema]] = {
    "dealt": Dealt,
    "played": Played,
    "passed": Passed,
    "table_cleared": TableCleared,
    "doubted": Doubted,
    "cards_taken": CardsTaken,
    "game_won": GameWon,
}

# the middle of the table, drawn from the view (``games.contract.Center``)
CENTER = Center(
    parts=(
        Part("say", say="pile", emphasis="count"),
        Part("claim", say="claim", of="claim"),
        Part("say", say="last_card", emphasis="alert"),
        Part("say", say="required", emphasis="hint"),
        Part("say", say="game", emphasis="aside"),
        Part("cards", of="revealed", label="Turned up this game:"),
    ),
    setup=("colors", "cards_per_suit"),
    elsewhere=("doubt_open", "turn", "games"),
)

# what each card does, a sentence a player reads beside it (the web page's
# hover, long-press and focus help; ``GET /v1/game-types``'s ``cards``): a
# card is told by the first entry whose ``when`` its face matches (each key
# the face's value; ``{}`` any card), after the rules' card sections
CARDS: list[dict[str, Any]] = [
    {"when": {"color": "rainbow"}, "says": "Rainbow: counts as any colour, so it never makes a claim a lie. "
     "Worth -10 at the end of a match."},
    {"when": {}, "says": "Laid face down with the others you play: announce its colour, or lie about it. "
     "The next player may doubt the claim."},
]
