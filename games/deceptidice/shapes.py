"""What a Deceptidice game shows, declared (``games.contract.Shapes``): a
seat's view, its events' data and the result. ``view.py``, ``evolve.py``'s
events and ``rules.result`` show nothing these do not declare (the
conformance harness checks every view and feed entry of its games)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from games.deceptidice.deck import COLORS, MAX_NUMBER, POWER, POWER_CARDS
from games.deceptidice.rules import OPTIONS
from games.deceptidice.state import DISCARD, GUESSING, OVER, ROLLING, SETTING_UP, SWAP
from games import shapes as field
from games.contract import Center, Part
from games.shapes import describe

COLOR = validate.OneOf(COLORS)
NUMBER = validate.Range(min=1, max=MAX_NUMBER)
POWER_CARD = validate.OneOf(tuple(POWER))
# what a seat's guess may be, and what it may swap with (rule "Variant: Swap")
MODIFIERS = ("less_than", "without")
SAME = ("number", "color")
LOSER_SWAP = next(option.choices or () for option in OPTIONS if option.name == "loser_swap")
DRAW_PILE = "draw_pile"
# every phase a folded game can be in: ``setting_up`` before the deal is
# rolled and ``rolling`` between a loss and the next roll show only in the
# view of a version inside one command (the deal and the first roll, a
# discard and the roll after it)
PHASES = (SETTING_UP, ROLLING, GUESSING, DISCARD, SWAP, OVER)


def card_number(**kwargs: Any) -> fields.Integer:
    """A number printed on a number card."""
    return fields.Integer(strict=True, validate=NUMBER, **kwargs)


class Card(Schema):
    """A card: a number card (``color``, ``number``), a wildcard (``wild``)
    or a power card (``power``, ``value``), always with its id."""

    id = field.card_id(required=True)
    color = fields.String(validate=COLOR, metadata=describe("A number card's colour."))
    number = card_number(metadata=describe("A number card's number."))
    wild = fields.Boolean(validate=validate.Equal(True), metadata=describe("A wildcard: it matches the guess being challenged."))
    power = fields.String(validate=POWER_CARD, metadata=describe("A power card's combo."))
    value = field.count(metadata=describe("A power card's value: the NUMBER its bid counts as."))

    @validates_schema
    def one_face(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A card has one of the deck's three faces, whole."""
        face = set(data) - {"id"}
        if face not in ({"color", "number"}, {"wild"}, {"power", "value"}):
            raise ValidationError(f"a card is a number card (color, number), a wildcard (wild) or a power card (power, value), not {sorted(face)}")


def card_list(**kwargs: Any) -> fields.List:
    return fields.List(fields.Nested(Card), **kwargs)


class Guess(Schema):
    """A guess as views and events show it: a specific guess (``count`` and
    a ``number`` or a ``color``, perhaps a ``modifier``), a straight
    (``count``, ``straight``), a vague guess (``count``, ``same``) or a power
    bid (``power``, ``value``)."""

    count = field.count(metadata=describe("The NUMBER: how many cards the guess says are on the table (none in a power bid)."))
    number = card_number(metadata=describe("A number TARGET."))
    color = fields.String(validate=COLOR, metadata=describe("A colour TARGET."))
    modifier = fields.String(validate=validate.OneOf(MODIFIERS), metadata=describe('"less_than" a number TARGET, or "without" a colour TARGET.'))
    straight = card_number(metadata=describe("A straight's ELEMENT: the number the run of cards goes through."))
    same = fields.String(validate=validate.OneOf(SAME), metadata=describe("A vague guess: cards of the same number or of the same colour."))
    power = fields.String(validate=POWER_CARD, metadata=describe("A power bid: the combo of the power card named."))
    value = field.count(metadata=describe("A power bid's value, printed on its card: the NUMBER it counts as."))


class SeatGuess(Guess):
    seat = field.seat(required=True, metadata=describe("The seat that made the guess."))


class Challenge(Schema):
    seat = field.seat(required=True, metadata=describe("The challenger."))
    guesser = field.seat(required=True, metadata=describe("The seat whose guess was challenged."))
    guess = fields.Nested(Guess, required=True)
    tops = fields.List(card_list(), required=True, metadata=describe("Every seat's tops, die by die, revealed by the challenge."))
    truthful = fields.Boolean(required=True, metadata=describe("The guess held: its combo is on the table."))
    loser = field.seat(required=True, metadata=describe("The seat that lost the round: the challenger if the guess held, else the guesser."))


class Die(Schema):
    die = field.count(required=True, metadata=describe("The die's index among the reader's dice (0 is the first)."))
    size = field.count(required=True, metadata=describe("Cards in the die."))
    top = fields.Nested(Card, required=True, metadata=describe("The die's top card."))
    revealed = fields.Boolean(required=True, metadata=describe("The top is shown to everyone this round."))


class DeckPowerCard(Schema):
    power = fields.String(required=True, validate=POWER_CARD)
    value = field.count(required=True)
    combo = fields.String(required=True, metadata=describe("The combo the card bids, in words."))


class Deck(Schema):
    colors = fields.List(fields.String(validate=COLOR), required=True, metadata=describe("The colours in the deck."))
    numbers = fields.Integer(strict=True, required=True, validate=NUMBER, metadata=describe("Each colour's numbers run from 1 to this."))
    copies = field.count(required=True, metadata=describe("Copies of each number in each colour."))
    wildcards = field.count(required=True, metadata=describe("Wildcards in the deck (0 without the expansion)."))
    power_cards = fields.List(fields.Nested(DeckPowerCard), required=True, metadata=describe("The power cards in the deck (none without the expansion)."))
    size = field.count(required=True, metadata=describe("Cards in the deck."))


class PowerBid(Schema):
    power = fields.String(required=True, validate=POWER_CARD)
    value = field.count(required=True)


class Guessing(Schema):
    colors = fields.List(fields.String(validate=COLOR), required=True, metadata=describe("The colours a guess may name."))
    numbers = fields.Integer(strict=True, required=True, validate=NUMBER, metadata=describe("A guess may name the numbers 1 to this."))
    modifiers = fields.Boolean(required=True, metadata=describe('Guesses may say "less than" and "without" (not in the introductory game).'))
    straights = fields.Boolean(required=True, metadata=describe("Variant Straights is played."))
    vague_guesses = fields.Boolean(required=True, metadata=describe("Variant Vague Guesses is played."))
    power_cards = fields.List(fields.Nested(PowerBid), required=True, metadata=describe("The power bids a guess may make (none without the expansion)."))
    max_count = field.count(required=True, metadata=describe("The largest NUMBER a guess may name: the dice on the table."))
    rules_version = field.count(required=True, metadata=describe("The rules the game was created under, which decide what is higher and what holds."))


class Variants(Schema):
    loser_swap = fields.String(required=True, validate=validate.OneOf(LOSER_SWAP), metadata=describe("Variant Swap: what the loser of a round may swap a card with (off: no swap)."))
    predictable = fields.Boolean(required=True, metadata=describe("Variant Predictable is played."))
    wildcards = fields.Boolean(required=True, metadata=describe("The Wildcards expansion is played."))
    power_cards = fields.Boolean(required=True, metadata=describe("The Power Cards expansion is played."))


class Discard(Schema):
    round = field.count(required=True)
    seat = field.seat(required=True)
    cards = card_list(required=True, metadata=describe("The die's cards, face up."))


class Discarded(Schema):
    seat = field.seat(required=True)
    die = field.count(required=True, metadata=describe("The index the die had among the seat's dice."))
    cards = card_list(required=True, metadata=describe("The die's cards, face up."))


class SwapWith(fields.Field):
    """Whom a loser swapped a card with: another seat, or ``"draw_pile"``."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("metadata", describe('The seat the card was swapped with, or "draw_pile".'))
        kwargs["metadata"] = {**kwargs["metadata"], "oneOf": [{"type": "integer", "minimum": 0, "maximum": 99}, {"type": "string", "enum": [DRAW_PILE]}]}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value == DRAW_PILE:
            return value
        return field.seat().deserialize(value)


class Swap(Schema):
    seat = field.seat(required=True, metadata=describe("The loser who swapped."))
    with_ = SwapWith(required=True, data_key="with")


class Round(Schema):
    round = field.count(required=True)
    liar = field.seat(required=True, metadata=describe("The seat that opened the round."))
    guesses = fields.List(fields.Nested(SeatGuess), required=True, metadata=describe("The round's guesses, in order."))
    challenge = fields.Nested(Challenge, required=True)
    discarded = fields.Nested(Discarded, required=True, metadata=describe("The die the loser discarded."))
    swap = fields.Nested(Swap, required=True, allow_none=True, metadata=describe("The loser's swap, without its cards (null: none)."))


class Table(Schema):
    round = field.count(required=True, metadata=describe("The round being played (0 before the first roll)."))
    liar = field.seat(required=True, metadata=describe("The Liar: the seat that opens the round with a guess."))
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    turn = field.seat(required=True, allow_none=True, metadata=describe("The seat to act (null: none, between rounds and at the end)."))
    must_reveal = fields.Boolean(required=True, metadata=describe("Variant Predictable: the seat to act reveals a die before it guesses."))
    deck = fields.Nested(Deck, required=True)
    guessing = fields.Nested(Guessing, required=True, metadata=describe("What a guess may be at this table."))
    rules = fields.Nested(Variants, required=True, metadata=describe("The variants and expansions played."))
    guesses = fields.List(fields.Nested(SeatGuess), required=True, metadata=describe("This round's guesses, in order."))
    current = fields.Nested(SeatGuess, required=True, allow_none=True, metadata=describe("The guess on the table (null: none yet this round)."))
    challenge = fields.Nested(Challenge, required=True, allow_none=True, metadata=describe("This round's challenge (null: none yet)."))
    draw_pile = field.count(required=True, metadata=describe("Cards in the draw pile."))
    discards = fields.List(fields.Nested(Discard), required=True, metadata=describe("Every die discarded this game, in order."))
    history = fields.List(fields.Nested(Round), required=True, metadata=describe("The finished rounds, in order."))


class View(Schema):
    hand = card_list(required=True, metadata=describe("The reader's cards (empty for a spectator)."))
    dice = fields.List(fields.Nested(Die), required=True, metadata=describe("The reader's dice with their tops (empty for a spectator)."))
    table = fields.Nested(Table, required=True)


class Seat(Schema):
    cards = field.count(required=True, metadata=describe("Cards in the seat's hand."))
    dice = field.count(required=True, metadata=describe("The seat's dice."))
    die_sizes = fields.List(field.count(), required=True, metadata=describe("Cards in each of the seat's dice."))
    tops = fields.List(fields.Nested(Card, allow_none=True), required=True, metadata=describe("Each die's top, once revealed this round (null: still secret)."))
    shown = card_list(required=True, metadata=describe("Variant Predictable: the seat's starting hand, shown to everyone."))
    seen = card_list(required=True, metadata=describe("Cards the table saw in the seat's hand and not leave it."))


class Says(Schema):
    round = fields.String(required=True)
    current = fields.String()
    guesses = fields.String()
    challenge = fields.String()


class Rank(Schema):
    seat = field.seat(required=True)
    cards = field.count(required=True, metadata=describe("Cards the seat has left."))
    rank = fields.Integer(strict=True, required=True, validate=validate.Range(min=1), metadata=describe("1 is first; tied seats share a rank."))


class Result(Schema):
    winners = field.seats(required=True, metadata=describe("The seats ranked first."))
    ranking = fields.List(fields.Nested(Rank), required=True, metadata=describe("Every seat, from the most cards left to the fewest."))
    cards = fields.List(field.count(), required=True, metadata=describe("Cards each seat has left, by seat."))


class Dealt(Schema):
    cards_each = field.count(required=True, metadata=describe("Cards dealt to each player."))
    liar = field.seat(required=True, metadata=describe("The start player, the first Liar."))
    draw_pile = field.count(required=True, metadata=describe("Cards left in the draw pile."))
    shown = fields.List(card_list(), metadata=describe("Variant Predictable: every starting hand, by seat, shown to everyone."))
    hand = card_list(metadata=describe("The reader's hand (the reader's seat only)."))


class Rolled(Schema):
    round = field.count(required=True)
    liar = field.seat(required=True, metadata=describe("The round's Liar, who guesses first."))
    sizes = fields.List(fields.List(field.count()), required=True, metadata=describe("Each seat's dice sizes, by seat."))
    tops = card_list(metadata=describe("The reader's tops, die by die (the reader's seat only)."))


class DieRevealed(Schema):
    seat = field.seat(required=True)
    die = field.count(required=True, metadata=describe("The index of the die revealed."))
    card = fields.Nested(Card, required=True, metadata=describe("The die's top."))


class Guessed(Schema):
    seat = field.seat(required=True)
    guess = fields.Nested(Guess, required=True)
    next = field.seat(required=True)


class DieDiscarded(Schema):
    seat = field.seat(required=True)
    die = field.count(required=True, metadata=describe("The index the die had among the seat's dice."))
    cards = card_list(required=True, metadata=describe("The die's cards, face up."))
    cards_left = field.count(required=True, metadata=describe("Cards the seat has left: 3 or fewer ends the game."))


class Swapped(Swap):
    gave = fields.Nested(Card, metadata=describe("The card the loser gave (the loser only)."))
    got = fields.Nested(Card, metadata=describe("The card the reader got, under a fresh id (the two seats of the swap only)."))
    lost = fields.Nested(Card, metadata=describe("The card taken from the reader (the seat swapped with only)."))


class SwapSkipped(Schema):
    seat = field.seat(required=True)


class GameEnded(Schema):
    winners = field.seats(required=True)
    ranking = fields.List(fields.Nested(Rank), required=True)


VIEW, SEAT, RESULT, SAYS = View, Seat, Result, Says
EVENTS: dict[str, type[Schema]] = {
    "dealt": Dealt,
    "rolled": Rolled,
    "die_revealed": DieRevealed,
    "guessed": Guessed,
    "challenged": Challenge,
    "die_discarded": DieDiscarded,
    "swapped": Swapped,
    "swap_skipped": SwapSkipped,
    "game_ended": GameEnded,
}

# the middle of the table, drawn from the view (``games.contract.Center``)
CENTER = Center(
    parts=(
        Part("say", say="round", emphasis="aside"),
        Part("claim", say="current", of="current", backs=False),
        Part("say", say="guesses", emphasis="aside"),
        Part("rows", say="challenge", of="challenge.tops"),
    ),
    setup=("deck", "guessing", "rules"),
    elsewhere=("liar", "draw_pile", "turn", "phase", "must_reveal", "history"),
)

# what each card does, a sentence a player reads beside it (the web page's
# hover, long-press and focus help; ``GET /v1/game-types``'s ``cards``): a
# card is told by the first entry whose ``when`` its face matches (each key
# the face's value; ``{}`` any card), after the rules' card sections
CARDS: list[dict[str, Any]] = [
    {"when": {"wild": True}, "says": "Wildcard: on top of a die it is whatever number or colour the guess "
     "being challenged wants."},
    *({"when": {"power": card.name}, "says": f"Power card worth {card.value}: a guess of it holds when the top "
       f"cards show {card.combo}."} for card in POWER_CARDS),
    {"when": {}, "says": "Counts in a guess while it is on top of a die: its number and its colour."},
]
