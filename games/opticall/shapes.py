"""What an Opticall game shows, declared (``games.contract.Shapes``): a
seat's view, its events' data and the result. ``view.py``, the events its
rules tell (``setup``, ``playing``, ``calls``, ``drawing``, ``objective``)
and ``rules.result`` show nothing these do not declare (the conformance
harness checks every view and feed entry of its games)."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from games import shapes as field
from games.opticall.cards import ANNOUNCEMENTS, COLORS, ECLIPSE, REVEAL_ROUNDS, SPECIALS, SUITS
from games.opticall.setup import CLASSIC, EASY
from games.opticall.state import OVER, PLAY, REVEAL
from games.contract import Center, Part
from games.shapes import describe

FACE = validate.OneOf((*COLORS, ECLIPSE, *SPECIALS))
ANNOUNCED = validate.OneOf(ANNOUNCEMENTS)
SUIT = validate.OneOf(SUITS)
ROUND = validate.OneOf(REVEAL_ROUNDS)
SETUP = validate.OneOf((EASY, CLASSIC))
# the view's phase before the deal ("dealing"), then the state's
PHASES = ("dealing", REVEAL, PLAY, OVER)
# the words the rules write in events, which have no constant of their own:
# why cards are drawn (``calls``, ``playing``), why the pile is discarded
# (``calls``) and how the caller was chosen (``calls._who_calls``)
DRAW_REASONS = ("draw_back", "caught_a_lie", "final_reset")
DISCARD_REASONS = ("lie", "reset", "black_sheep")
HOW_CALLED = ("final_card", "alone", "highest")


class Card(Schema):
    id = field.card_id(required=True)
    color = fields.String(required=True, validate=FACE, metadata=describe("A colour, \"eclipse\", or a special card: \"reset\", \"spectrum\", \"black_sheep\"."))
    suit = fields.String(required=True, allow_none=True, validate=SUIT, metadata=describe("Sun or moon (null: an eclipse or a special card)."))


def card_list(**kwargs) -> fields.List:
    return fields.List(fields.Nested(Card), **kwargs)


def announced_suit(**kwargs) -> fields.String:
    return fields.String(required=True, allow_none=True, validate=SUIT, metadata=describe("The suit announced (null: eclipses or a reset)."), **kwargs)


class Face(Schema):
    color = fields.String(required=True, validate=FACE)
    suit = fields.String(required=True, allow_none=True, validate=SUIT)
    count = field.count(required=True, metadata=describe("How many cards of this face the deck holds."))


class Announcement(Schema):
    seat = field.seat(required=True, metadata=describe("The seat that played."))
    count = field.count(required=True, metadata=describe("How many cards were laid face down."))
    color = fields.String(required=True, validate=ANNOUNCED, metadata=describe("The colour announced (or \"eclipse\", \"reset\")."))
    suit = announced_suit()


class PlayOnPile(Announcement):
    final = fields.Boolean(required=True, metadata=describe("The player's last card(s): the play emptied their hand."))
    revealed = fields.Boolean(required=True, metadata=describe("Turned up by a call that found the truth."))
    cards = card_list(required=True, allow_none=True, metadata=describe("The cards laid (null: face down, unless the reader played them)."))


class Window(Schema):
    player = field.seat(required=True, metadata=describe("The seat whose play may be called."))
    play = fields.Nested(Announcement, required=True)
    asked = field.seats(required=True, metadata=describe("The seats that may call or let the play go."))
    waiting = field.seats(required=True, metadata=describe("The seats asked that have not answered yet."))
    calling = field.seats(required=True, metadata=describe("The seats that laid a calling card."))
    passed = field.seats(required=True, metadata=describe("The seats that let the play go."))
    deadline = fields.Integer(strict=True, required=True, allow_none=True, metadata=describe("When the window closes, milliseconds since the epoch (null: no clock)."))
    my_calling_card = fields.Nested(Card, required=True, allow_none=True, metadata=describe("The reader's own calling card, while it lies face down."))


class Revealing(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True, metadata=describe("The cards the seat revealed in the round."))


class Reveal(Schema):
    color = fields.String(required=True, validate=ROUND, metadata=describe("The colour this reveal round shows."))
    players = field.seats(required=True, metadata=describe("The seats taking part, in the order they reveal."))
    counts = fields.List(fields.Nested(Revealing), required=True, metadata=describe("What each seat revealed so far."))
    revealer = field.seat(required=True, allow_none=True, metadata=describe("The seat that reveals now (null: the round is over)."))


class CallFound(Schema):
    """A call and what it found: ``play_revealed``'s data, and the view's
    ``last_call`` (the deal's latest, kept as it was told)."""

    seat = field.seat(required=True, metadata=describe("The seat whose play was called."))
    caller = field.seat(required=True)
    color = fields.String(required=True, validate=ANNOUNCED, metadata=describe("The colour announced."))
    suit = announced_suit()
    cards = card_list(required=True, metadata=describe("The play's cards, turned up."))
    copied = card_list(required=True, metadata=describe("The cards a Spectrum among them copied, turned up too."))
    truthful = fields.Boolean(required=True)
    black_sheep = fields.Boolean(required=True, metadata=describe("A Black Sheep was among the cards: nobody draws, the pile resets."))


class Table(Schema):
    setup = fields.String(required=True, validate=SETUP)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    deal = field.count(required=True, metadata=describe("The deal (a tie in the classic setup's reveal rounds deals again)."))
    dealer = field.seat(required=True)
    composition = fields.List(fields.Nested(Face), required=True, metadata=describe("Every face in the deck, and how many of it."))
    deck = field.count(required=True, metadata=describe("Cards in the deck."))
    discard = field.count(required=True, metadata=describe("Cards in the discard pile."))
    pile = field.count(required=True, metadata=describe("Cards face down on the play pile."))
    plays = fields.List(fields.Nested(PlayOnPile), required=True, metadata=describe("The plays on the pile, oldest first."))
    to_beat = fields.Nested(Announcement, required=True, allow_none=True, metadata=describe("The play the next announcement must match or beat (null: an empty pile)."))
    turn = field.seat(required=True, allow_none=True, metadata=describe("The seat to play or reveal (null: during a call window)."))
    window = fields.Nested(Window, required=True, allow_none=True, metadata=describe("The call window on the last play, while it is open."))
    reveal = fields.Nested(Reveal, required=True, allow_none=True, metadata=describe("The classic setup's reveal round, while one runs."))
    last_call = fields.Nested(CallFound, required=True, allow_none=True, metadata=describe("The latest call of this deal and what it found."))
    discard_seen = card_list(required=True, metadata=describe("Cards the reader saw go to the discard pile (until it is shuffled into a new deck)."))
    winner = field.seat(required=True, allow_none=True)


class View(Schema):
    hand = card_list(required=True, metadata=describe("The reader's cards (empty for a spectator)."))
    table = fields.Nested(Table, required=True)
    eliminated = field.seats(required=True, metadata=describe("The seats out of the game, in the order they went out."))


class Seat(Schema):
    cards = field.count(required=True, metadata=describe("Cards in the seat's hand."))
    calling = fields.Boolean(required=True, metadata=describe("The seat has a calling card face down in the open call window."))
    out = fields.Boolean(required=True, metadata=describe("The seat is out of the game."))
    owed = field.count(required=True, metadata=describe("Cards the seat draws back after the next play."))
    known = card_list(required=True, metadata=describe("Cards the reader saw go into this seat's hand (it may have played them since)."))


class Says(Schema):
    reveal = fields.String()
    to_beat = fields.String()
    window = fields.String()
    last_call = fields.String()
    piles = fields.String(required=True)


class Result(Schema):
    winners = field.seats(required=True, metadata=describe("The last player with cards."))
    eliminated = field.seats(required=True, metadata=describe("The other seats, in the order they went out."))


class Dealt(Schema):
    deal = field.count(required=True)
    dealer = field.seat(required=True)
    setup = fields.String(required=True, validate=SETUP)
    hand_size = field.count(required=True)
    deck = field.count(required=True, metadata=describe("Cards left in the deck."))
    first = field.seat(required=True, allow_none=True, metadata=describe("The seat that plays first (null: the classic setup's reveal rounds decide)."))
    hand = card_list(metadata=describe("The reader's hand (the reader's seat only)."))


class Revealed(Schema):
    seat = field.seat(required=True)
    color = fields.String(required=True, validate=ROUND, metadata=describe("The reveal round's colour."))
    cards = card_list(required=True, metadata=describe("The cards shown (none is allowed)."))


class RevealRoundEnded(Schema):
    color = fields.String(required=True, validate=ROUND, metadata=describe("The round's colour."))
    counts = fields.List(fields.Nested(Revealing), required=True)
    starter = field.seat(required=True, allow_none=True, metadata=describe("The seat that revealed the most and plays first (null: a tie)."))
    tied = field.seats(required=True, metadata=describe("The tied seats, who go on to the next round."))
    next = fields.String(required=True, allow_none=True, validate=ROUND, metadata=describe("The next round's colour (null: a starter, or a tie after Purple: the cards are dealt again)."))


class Played(Announcement):
    final = fields.Boolean(required=True, metadata=describe("The player's last card(s)."))
    cards = fields.List(field.card_id(), metadata=describe("The ids of the cards laid (the player's seat only)."))


class CardsDrawn(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(DRAW_REASONS))
    short = field.count(required=True, metadata=describe("Cards that could not be drawn: the deck and the discard pile ran out."))
    cards = card_list(metadata=describe("The cards drawn (the drawer only)."))


class CountOnly(Schema):
    count = field.count(required=True)


class PileDiscarded(Schema):
    count = field.count(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(DISCARD_REASONS))


class DrawBackOwed(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True, metadata=describe("Cards the seat draws back after the next play."))


class WindowOpened(Schema):
    player = field.seat(required=True, metadata=describe("The seat whose play may be called."))
    asked = field.seats(required=True, metadata=describe("The seats that may call or let it go."))


class CallPlaced(Schema):
    seat = field.seat(required=True)
    card = field.card_id(metadata=describe("The id of the calling card (the caller only)."))


class Passed(Schema):
    seat = field.seat(required=True)
    timeout = fields.Boolean(required=True, metadata=describe("The seat ran out of time."))


class CallingCard(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, required=True)


class CallingCardsRevealed(Schema):
    cards = fields.List(fields.Nested(CallingCard), required=True, metadata=describe("Each caller's calling card."))


class CallMade(Schema):
    player = field.seat(required=True, metadata=describe("The seat whose play is called."))
    caller = field.seat(required=True)
    how = fields.String(required=True, validate=validate.OneOf(HOW_CALLED), metadata=describe("final_card: a final card calls first; alone: the only caller; highest: the highest calling card."))
    returned = field.seats(required=True, metadata=describe("The other callers, who take their calling cards back."))
    card = fields.Nested(Card, metadata=describe("The calling card taken back (each returned seat only)."))


class CallingCardGiven(Schema):
    seat = field.seat(required=True, metadata=describe("The caller."))
    to = field.seat(required=True, metadata=describe("The player, who takes the calling card."))
    card = fields.Nested(Card, required=True, allow_none=True, metadata=describe("The calling card (null: face down, except to the caller and the player, or after callers compared theirs)."))


class CallingCardDiscarded(Schema):
    seat = field.seat(required=True, metadata=describe("The caller."))
    card = fields.Nested(Card, required=True, allow_none=True, metadata=describe("The calling card (null: face down, except to the caller, or after callers compared theirs)."))


class WindowClosed(Schema):
    next = field.seat(required=True, metadata=describe("The seat to play."))


class SeatOnly(Schema):
    seat = field.seat(required=True)


VIEW, SEAT, RESULT, SAYS = View, Seat, Result, Says
EVENTS: dict[str, type[Schema]] = {
    "dealt": Dealt,
    "revealed": Revealed,
    "reveal_round_ended": RevealRoundEnded,
    "played": Played,
    "cards_drawn": CardsDrawn,
    "deck_rebuilt": CountOnly,
    "pile_discarded": PileDiscarded,
    "draw_back_owed": DrawBackOwed,
    "window_opened": WindowOpened,
    "call_placed": CallPlaced,
    "passed": Passed,
    "calling_cards_revealed": CallingCardsRevealed,
    "call_made": CallMade,
    "play_revealed": CallFound,
    "calling_card_given": CallingCardGiven,
    "calling_card_discarded": CallingCardDiscarded,
    "window_closed": WindowClosed,
    "eliminated": SeatOnly,
    "game_won": SeatOnly,
}

# the middle of the table, drawn from the view (``games.contract.Center``)
CENTER = Center(
    parts=(
        Part("say", say="reveal"),
        Part("claim", say="to_beat", of="to_beat"),
        Part("say", say="window", emphasis="alert"),
        Part("cards", say="last_call", of="last_call.cards"),
        Part("say", say="piles", emphasis="aside"),
    ),
    setup=("setup", "composition"),
    elsewhere=("pile", "deck", "discard", "turn", "plays", "phase", "winner", "discard_seen", "dealer", "deal"),
)

# what each card does, a sentence a player reads beside it (the web page's
# hover, long-press and focus help; ``GET /v1/game-types``'s ``cards``): a
# card is told by the first entry whose ``when`` its face matches (each key
# the face's value; ``{}`` any card), after the rules' card sections
CARDS: list[dict[str, Any]] = [
    {"when": {"color": "eclipse"}, "says": "Eclipse: the lowest colour, below red."},
    {"when": {"color": "reset"}, "says": "Reset: announce it as \u201creset\u201d: the pile is cleared and you play again."},
    {"when": {"color": "spectrum"}, "says": "Spectrum: copies the card below it."},
    {"when": {"color": "black_sheep"}, "says": "Black Sheep: always a lie when called, but the pile just resets "
     "and the calling card goes to its player."},
    {"when": {}, "says": "Played face down and announced as a colour and suit at least as high as the last play "
     "(red lowest, purple highest; sun and moon equal), or laid to call a play."},
]
