"""What a Diez game shows, declared (``games.contract.Shapes``): a seat's
view, its events' data and the result. ``view.py``, the events its modules
tell (``story.add``) and ``rules.result`` show nothing these do not declare
(the conformance harness checks every view and feed entry of its games).

A view may be replayed at any version of the log (``GET .../replay``), so
it may show a state between two events of one command: the ``resolving``
phase, or a Sub's question whose holder just used the token."""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from games import shapes as field
from games.diez.commands import EFFECTS
from games.diez.deck import BLACK, CHALLENGEABLE, COLORS, MUNDANE, POWER, WHITE, WILD
from games.diez.narration import CAUSES
from games.diez.state import CHALLENGE, DRAWN, GIVING, LINK, MAGNET, OVER, RESOLVING, SEARCH, SUB, TURN, WINDOW
from games.diez.tokens import ACTIONS, BAG
from games.diez.watchers import MOVES_STACK, ON_HOLDER, ON_NEXT
from games.contract import Center, Part
from games.shapes import describe

KIND = validate.OneOf((*MUNDANE, *POWER, *WILD))
COLOR = validate.OneOf(COLORS)
# a pile's colour: a card's own (white too), a wild card's chosen one, or null after a Blank
PILE_COLOR = validate.OneOf((*COLORS, WHITE))
TOKEN = validate.OneOf(sorted(BAG))
EFFECT = validate.OneOf(EFFECTS)
CAUSE = validate.OneOf(tuple(CAUSES))
OFFERS = (SEARCH, MAGNET, LINK)
DIRECTION = validate.OneOf((1, -1))


class Card(Schema):
    id = field.card_id(required=True)
    kind = fields.String(required=True, validate=KIND, metadata=describe('"number", or the card\'s name: "skip", "draw_four", "cut_deck"...'))
    color = fields.String(
        required=True, allow_none=True, validate=validate.OneOf((*COLORS, WHITE, BLACK)), metadata=describe("Black: a wild card; null: a Blank.")
    )
    number = fields.Integer(strict=True, required=True, allow_none=True, validate=validate.Range(min=0, max=9), metadata=describe("A number card's number (null on any other card)."))


def card_list(**kwargs) -> fields.List:
    return fields.List(fields.Nested(Card), **kwargs)


def pile_color(**kwargs) -> fields.String:
    return fields.String(validate=PILE_COLOR, **kwargs)


def direction_field(**kwargs) -> fields.Integer:
    return fields.Integer(strict=True, validate=DIRECTION, **kwargs)


# -- the view ---------------------------------------------------------------------


class Pile(Schema):
    index = field.count(required=True, metadata=describe("The pile's number (0 is the first), as a play names it."))
    top = fields.Nested(Card, required=True)
    color = pile_color(required=True, allow_none=True, metadata=describe("The colour a card must match (a wild card's chosen one; null after a Blank: anything goes)."))
    count = field.count(required=True)
    cards = card_list(required=True, metadata=describe("The pile's cards, bottom first."))


class Stack(Schema):
    pile = field.count(required=True, metadata=describe("The pile the stack lies on."))
    total = field.count(required=True, metadata=describe("The cards its victim draws unless it stacks on."))
    victim = field.seat(required=True)
    by = field.seat(required=True, allow_none=True, metadata=describe("The seat whose card put it on the victim (null in a game without tokens)."))


class PublicPlay(Schema):
    """A card played and the choices made with it that everyone sees."""

    card = fields.Nested(Card, required=True)
    seat = field.seat(required=True, metadata=describe("The seat that played it."))
    pile = field.count(required=True)
    color = pile_color(required=True, allow_none=True, metadata=describe("The colour it gives its pile."))
    jump_in = fields.Boolean(required=True)
    effect = fields.String(required=True, allow_none=True, validate=EFFECT, metadata=describe("A Choice's chosen effect."))
    target = field.seat(required=True, allow_none=True, metadata=describe("A Tag's target."))


class Window(PublicPlay):
    asked = field.seats(required=True, metadata=describe("The seats that may still jump in or pass."))


class Challenge(PublicPlay):
    victim = field.seat(required=True, metadata=describe("The seat that may challenge it."))
    played_on = pile_color(required=True, allow_none=True, metadata=describe("The pile's colour it was played on: a challenge asks whether its player held that colour."))
    deferred = fields.Boolean(required=True, metadata=describe("The card waits for the answer (false: it already moved a stack onto the victim)."))


class Deck(Schema):
    cards = field.count(required=True)
    colors = fields.Nested(
        Schema.from_dict({name: field.count() for name in (*COLORS, WHITE, BLACK, "none")}, name="DiezDeckColors"),
        required=True,
        metadata=describe('Cards of each colour in the deck ("none": Blanks); a colour with none is left out.'),
    )


class Giving(Schema):
    seat = field.seat(required=True, metadata=describe("The seat that drew the token and gives it."))
    token = fields.String(required=True, validate=TOKEN)
    recipients = field.seats(required=True, metadata=describe("The seats it may go to."))


class Tokens(Schema):
    bag = fields.Nested(
        Schema.from_dict({name: field.count() for name in sorted(BAG)}, name="DiezBag"),
        required=True,
        metadata=describe("Tokens left in the bag, by name; a token with none left is left out."),
    )
    giving = fields.Nested(Giving, required=True, allow_none=True, metadata=describe("A token drawn from the bag that waits to be given."))
    underlined = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=9)), required=True, metadata=describe("The numbers a Link holder plays on one another regardless of colour."))


class Offer(Schema):
    kind = fields.String(required=True, validate=validate.OneOf((*OFFERS, SUB)), metadata=describe("The question: an Ace's search, a Magnet gift, a Link play, or a Sub's colour."))
    seat = field.seat(
        required=True, allow_none=True, metadata=describe("The seat that answers (null only in a replay between a Sub's use and the colour it gives).")
    )
    holders = field.seats(metadata=describe("A Magnet's: the seats that may receive the card."))
    player = field.seat(metadata=describe("A Sub's: the seat that played the wild card."))
    color = fields.String(validate=COLOR, metadata=describe("A Sub's: the colour the wild card's player chose."))


class Table(Schema):
    phase = fields.String(
        required=True,
        validate=validate.OneOf((TURN, DRAWN, WINDOW, CHALLENGE, GIVING, *OFFERS, SUB, RESOLVING, OVER)),
        metadata=describe("What the game waits for (resolving: only in a replay, between two events of one command)."),
    )
    turn = field.seat(required=True)
    direction = fields.String(required=True, validate=validate.OneOf(("clockwise", "counterclockwise")))
    draw_pile = field.count(required=True, metadata=describe("Cards in the draw pile."))
    piles = fields.List(fields.Nested(Pile), required=True, metadata=describe("The discard piles."))
    stack = fields.Nested(Stack, required=True, allow_none=True)
    window = fields.Nested(Window, required=True, allow_none=True, metadata=describe("An open jump-in window, on the card just played."))
    challenge = fields.Nested(Challenge, required=True, allow_none=True, metadata=describe("A [C] card waiting for its victim's answer."))
    winner = field.seat(required=True, allow_none=True)
    colors = fields.List(fields.String(validate=COLOR), required=True, metadata=describe("The colours a wild card may choose."))
    choice_effects = fields.List(fields.String(validate=EFFECT), required=True, metadata=describe("The effects a Choice may take."))
    challengeable = fields.List(fields.String(validate=validate.OneOf(CHALLENGEABLE)), required=True, metadata=describe("The kinds of the [C] cards."))
    deck = fields.Nested(Deck, required=True)
    tokens = fields.Nested(Tokens, metadata=describe("The bag and a token to give (a game with tokens only)."))
    offer = fields.Nested(Offer, allow_none=True, metadata=describe("A question a seat answers before play goes on (a game with tokens only)."))


class Playable(Schema):
    card = field.card_id(required=True)
    piles = fields.List(field.count(), required=True, metadata=describe("The piles it may go on."))


class View(Schema):
    hand = card_list(required=True, metadata=describe("The reader's cards (empty for a spectator)."))
    drawn = fields.Nested(Card, required=True, allow_none=True, metadata=describe("The card the reader just drew in its turn, which it may play or keep."))
    playable = fields.List(fields.Nested(Playable), required=True, metadata=describe("The cards the reader may play or jump in with now, and where."))
    table = fields.Nested(Table, required=True, allow_none=True)
    token_actions = fields.List(
        fields.String(validate=validate.OneOf(ACTIONS)), metadata=describe("What a Token card played now may do (a seat's view of a game with tokens only).")
    )
    search = card_list(metadata=describe("The draw pile, in a fixed order, to the seat searching it with an Ace only."))
    offered = card_list(metadata=describe("The cards a Magnet lets the reader give, to that seat only."))


class SeenPile(Schema):
    top = fields.Nested(Card, required=True)
    color = pile_color(required=True, allow_none=True)


class Drew(Schema):
    piles = fields.List(fields.Nested(SeenPile), required=True, metadata=describe("Each discard pile's top card and colour then."))
    held = field.count(required=True, metadata=describe("How many of the cards it held then it surely holds still."))


class Seat(Schema):
    cards = field.count(required=True, metadata=describe("Cards in the seat's hand."))
    tokens = fields.List(fields.String(validate=TOKEN), required=True, metadata=describe("The tokens the seat holds."))
    drew = fields.Nested(Drew, metadata=describe("What the table saw when the seat last drew in its turn."))
    hand = card_list(metadata=describe("The seat's hand, face up while it holds the Reveal token."))


class Says(Schema):
    """Empty while ``table`` is null (before the deal: a replay at the
    version of ``game_started`` shows an active game not yet dealt)."""

    direction = fields.String(metadata=describe("The way play goes (every dealt table)."))
    stack = fields.String()
    window = fields.String()
    challenge = fields.String()
    offer = fields.String()


class Result(Schema):
    winners = field.seats(required=True)
    cards_left = fields.List(field.count(), required=True, metadata=describe("Cards left in each seat's hand."))


# -- the events -------------------------------------------------------------------


class SeatOnly(Schema):
    seat = field.seat(required=True)


class Dealt(Schema):
    first = field.seat(required=True, metadata=describe("The seat that plays first."))
    direction = direction_field(required=True, metadata=describe("1: clockwise."))
    hand_size = field.count(required=True)
    start = fields.Nested(Card, required=True, metadata=describe("The card that starts the discard pile."))
    turned = card_list(required=True, metadata=describe("Cards turned up before it and shuffled back."))
    draw_pile = field.count(required=True, metadata=describe("Cards in the draw pile."))
    hand = card_list(metadata=describe("The reader's hand (the reader's seat only)."))


class Played(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, required=True)
    pile = field.count(required=True)
    jump_in = fields.Boolean(required=True)
    color = pile_color(required=True, allow_none=True, metadata=describe("The colour it gives its pile."))
    snared = fields.Boolean(metadata=describe("A Snare cancels it: it does nothing."))
    effect = fields.String(allow_none=True, validate=EFFECT, metadata=describe("A Choice's chosen effect."))
    target = field.seat(metadata=describe("A Tag's target."))
    share_from = field.seat(allow_none=True, metadata=describe("A Share's chosen giver among tied largest hands."))
    revive = fields.Nested(Card, metadata=describe("A Revive's card taken back."))
    stitch = field.count(metadata=describe("A Stitch Deck's other pile, placed on it."))
    new_pile = fields.Boolean(metadata=describe("A Cut Deck starts a new pile."))
    discards = field.count(metadata=describe("How many cards a Mulligan or Flush discards."))
    token_action = fields.String(allow_none=True, validate=validate.OneOf(ACTIONS), metadata=describe("A Token's: give or remove (null: neither is open)."))
    token_from = field.seat(metadata=describe("The seat holding the token named."))
    token = fields.String(validate=TOKEN, metadata=describe("The token named (Token, Steal, Proc)."))
    replace = fields.Boolean(metadata=describe("A Proc of Block: a new token replaces it."))
    discard = fields.List(field.card_id(), metadata=describe("The ids of a Mulligan's or Flush's discards (the player's seat only)."))
    give = field.card_id(metadata=describe("A Proc of Magnet's card given to the next player (the player's seat only)."))


class WindowOpened(Schema):
    seat = field.seat(required=True, metadata=describe("The seat that played the card."))
    card = fields.Nested(Card, required=True)
    pile = field.count(required=True)
    asked = field.seats(required=True, metadata=describe("The seats that may jump in."))


class DrewCards(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True)
    cause = fields.String(required=True, validate=CAUSE, metadata=describe('What made the seat draw ("turn": its own draw).'))
    forced = fields.Boolean(required=True, metadata=describe("Another player's card made it draw."))
    cards = card_list(metadata=describe("The cards drawn (the drawer only)."))


class Reshuffled(Schema):
    count = field.count(required=True, metadata=describe("Cards in the new draw pile."))


class NeedleUsed(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, required=True)
    cause = fields.String(required=True, validate=CAUSE, metadata=describe("What made the seat draw."))


class BombExploded(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, required=True)


class DrawnCardOffered(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, metadata=describe("The card drawn (the drawer only)."))


class StackSet(Schema):
    pile = field.count(required=True)
    total = field.count(required=True)
    victim = field.seat(required=True)
    by = field.seat(metadata=describe("The seat whose card put it on the victim (a game with tokens only)."))


class DirectionReversed(Schema):
    direction = direction_field(required=True, metadata=describe("1: clockwise, -1: counterclockwise."))


class HandsTraded(Schema):
    seats = field.seats(required=True, metadata=describe("The two seats."))
    hand = card_list(metadata=describe("The reader's new hand (the two seats only)."))


class CardsShared(Schema):
    seat = field.seat(required=True, metadata=describe("The seat that takes the cards."))
    source = field.seat(required=True, metadata=describe("The seat they are taken from."))
    count = field.count(required=True)
    cards = card_list(metadata=describe("The cards taken (the taker only)."))
    ids = fields.List(field.card_id(), metadata=describe("The ids of the cards taken (the seat they were taken from only)."))


class CardRevived(Schema):
    seat = field.seat(required=True)
    card = fields.Nested(Card, required=True)
    pile = field.count(required=True)


class PileOnly(Schema):
    pile = field.count(required=True)


class PilesStitched(Schema):
    pile = field.count(required=True, metadata=describe("The Stitch Deck's pile."))
    added = field.count(required=True, metadata=describe("The pile placed on it (its number before it went)."))


class MulliganDiscarded(Schema):
    seat = field.seat(required=True)
    count = field.count(required=True)
    ids = fields.List(field.card_id(), metadata=describe("The ids of the cards put back (the player only)."))


class Flushed(Schema):
    seat = field.seat(required=True)
    pile = field.count(required=True)
    cards = card_list(required=True, metadata=describe("The cards discarded face up, the last on top."))


class StackBefore(Schema):
    pile = field.count(required=True)
    total = field.count(required=True)
    victim = field.seat(required=True)


class ChallengeOpened(Schema):
    player = field.seat(required=True, metadata=describe("The seat that played the [C] card."))
    card = fields.Nested(Card, required=True)
    played_on = pile_color(required=True, allow_none=True, metadata=describe("The pile's colour it was played on."))
    stack_before = fields.Nested(StackBefore, required=True, allow_none=True, metadata=describe("The stack it was played onto."))
    victim = field.seat(required=True, metadata=describe("The seat that may challenge it."))
    deferred = fields.Boolean(required=True, metadata=describe("The card waits for the answer (false: it already moved a stack onto the victim)."))


class Challenged(Schema):
    challenger = field.seat(required=True)
    player = field.seat(required=True)
    card = fields.Nested(Card, required=True)
    guilty = fields.Boolean(required=True, metadata=describe("The player held a card of the colour it played on."))
    hand = card_list(metadata=describe("The player's other cards when it played, shown as proof (the challenger only)."))


class SeatToken(Schema):
    seat = field.seat(required=True)
    token = fields.String(required=True, validate=TOKEN)


class TokenChoiceOpened(SeatToken):
    then = field.seat(required=True, metadata=describe("Whose turn begins once the token is given."))


class TokenGiven(SeatToken):
    to = field.seat(required=True)


class TokenTaken(SeatToken):
    """``token_removed`` and ``token_stolen``."""

    from_ = field.seat(required=True, data_key="from", metadata=describe("The seat that held it."))


class TokensDropped(Schema):
    seat = field.seat(required=True)
    from_ = field.seat(required=True, data_key="from", metadata=describe("The seat whose tokens go back to the bag."))
    tokens = fields.List(fields.String(validate=TOKEN), required=True)


class TokenTriggered(SeatToken):
    player = field.seat(metadata=describe("A Mirror's: the seat whose card it sends back."))
    effect = fields.String(
        validate=validate.OneOf(sorted({*ON_NEXT, *MOVES_STACK, *ON_HOLDER, "token", "proc"})), metadata=describe("A Mirror's: the effect sent back.")
    )
    count = field.count(metadata=describe("A Double's: the draw doubled."))


class OfferOwed(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(OFFERS))
    seat = field.seat(required=True)
    holders = field.seats(metadata=describe("A Magnet's: the seats that may receive a card."))
    count = field.count(allow_none=True, metadata=describe("A search's: the cards to draw (null: until a card of `color`)."))
    color = fields.String(allow_none=True, validate=COLOR, metadata=describe("A search's: the colour drawn until."))
    cause = fields.String(validate=CAUSE, metadata=describe("A search's: what made the seat draw."))
    cards = fields.List(field.card_id(), metadata=describe("A Magnet's: the ids of the cards it may give (the seat only)."))


class OfferOpened(Schema):
    seat = field.seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(OFFERS))
    then = field.seat(required=True, metadata=describe("Whose turn begins once it is answered."))


class OfferDeclined(Schema):
    seat = field.seat(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(OFFERS))


class Searched(Schema):
    seat = field.seat(required=True)
    cause = fields.String(required=True, validate=CAUSE, metadata=describe("The token or draw that let the seat take it."))
    card = fields.Nested(Card, metadata=describe("The card taken (the taker only)."))


class CardGiven(Schema):
    seat = field.seat(required=True)
    to = field.seat(required=True)
    cause = fields.String(required=True, validate=validate.OneOf(("magnet", "proc")))
    card = fields.Nested(Card, metadata=describe("The card given (the giver and the receiver only)."))


class HandPeeked(Schema):
    seat = field.seat(required=True)
    of = field.seat(required=True, metadata=describe("The seat whose hand was looked at."))
    hand = card_list(metadata=describe("That hand (the looker only)."))


class SubAsked(Schema):
    seat = field.seat(required=True, metadata=describe("The Sub holder."))
    player = field.seat(required=True, metadata=describe("The seat that played the wild card."))
    pile = field.count(required=True)
    color = fields.String(required=True, validate=COLOR, metadata=describe("The colour its player chose."))


class ColorSubstituted(Schema):
    seat = field.seat(required=True)
    pile = field.count(required=True)
    color = fields.String(required=True, validate=COLOR)


VIEW, SEAT, RESULT, SAYS = View, Seat, Result, Says
EVENTS: dict[str, type[Schema]] = {
    "dealt": Dealt,
    "played": Played,
    "window_opened": WindowOpened,
    "passed": SeatOnly,
    "window_closed": field.NoData,
    "drew": DrewCards,
    "reshuffled": Reshuffled,
    "needle_used": NeedleUsed,
    "bomb_exploded": BombExploded,
    "drawn_card_offered": DrawnCardOffered,
    "kept": SeatOnly,
    "stack_set": StackSet,
    "stack_cleared": field.NoData,
    "direction_reversed": DirectionReversed,
    "hands_traded": HandsTraded,
    "cards_shared": CardsShared,
    "card_revived": CardRevived,
    "pile_cut": PileOnly,
    "piles_stitched": PilesStitched,
    "mulligan_discarded": MulliganDiscarded,
    "flushed": Flushed,
    "challenge_opened": ChallengeOpened,
    "challenged": Challenged,
    "accepted": SeatOnly,
    "token_drawn": SeatToken,
    "token_choice_opened": TokenChoiceOpened,
    "token_given": TokenGiven,
    "token_removed": TokenTaken,
    "token_stolen": TokenTaken,
    "tokens_dropped": TokensDropped,
    "token_triggered": TokenTriggered,
    "offer_owed": OfferOwed,
    "offer_opened": OfferOpened,
    "offer_declined": OfferDeclined,
    "searched": Searched,
    "card_given": CardGiven,
    "hand_peeked": HandPeeked,
    "sub_asked": SubAsked,
    "color_substituted": ColorSubstituted,
    "sub_declined": SeatOnly,
    "turn_began": SeatOnly,
    "won": SeatOnly,
}

# the middle of the table, drawn from the view (``games.contract.Center``)
CENTER = Center(
    parts=(
        Part("piles", of="piles", draw="draw_pile"),
        Part("say", say="direction", emphasis="aside"),
        Part("say", say="stack", emphasis="alert"),
        Part("say", say="window", emphasis="hint"),
        Part("say", say="challenge", emphasis="alert"),
        Part("say", say="offer", emphasis="hint"),
    ),
    setup=("deck", "colors", "choice_effects", "challengeable", "tokens.underlined"),
    elsewhere=("turn", "phase", "winner"),
)

# what each card does, a sentence a player reads beside it (the web page's
# hover, long-press and focus help; ``GET /v1/game-types``'s ``cards``): a
# card is told by the first entry whose ``when`` its face matches (each key
# the face's value; ``{}`` any card), after the rules' card sections
CARDS: list[dict[str, Any]] = [
    {"when": {"kind": "number", "color": "white"}, "says": "White: a plain number card; no wild card can choose white."},
    {"when": {"kind": "number"}, "says": "A plain number card: it matches its colour or its number."},
    {"when": {"kind": "dek"}, "says": "Dek: a plain card of its colour; it matches another Dek."},
    {"when": {"kind": "el"}, "says": "El: a plain card of its colour; it matches another El."},
    {"when": {"kind": "blank"}, "says": "Blank: goes on any colour, and any colour may follow it."},
    {"when": {"kind": "needle"}, "says": "Needle: when you draw it you may stop drawing, whatever made you draw."},
    {"when": {"kind": "skip"}, "says": "Skip: the next player misses a turn."},
    {"when": {"kind": "reverse"}, "says": "Reverse: turns play around (with two players, a Skip)."},
    {"when": {"kind": "draw_two"}, "says": "Draw 2: the next player draws 2, or stacks onto it."},
    {"when": {"kind": "stop"}, "says": "Stop: jump in with it on a power or wild card of its colour to cancel "
     "that card."},
    {"when": {"kind": "tag"}, "says": "Tag: the turn goes to any player you choose, you included."},
    {"when": {"kind": "dagger"}, "says": "Dagger [C]: the next player draws 1 and keeps the turn; it may be "
     "challenged."},
    {"when": {"kind": "token"}, "says": "Token: draw a token and give it to a player, or remove one from a player."},
    {"when": {"kind": "trade"}, "says": "Trade: swap hands with the next player (as your last card it still wins)."},
    {"when": {"kind": "share"}, "says": "Share: the next player draws from the biggest hand until theirs is as big."},
    {"when": {"kind": "proc"}, "says": "Proc: use the special effect of any token in play."},
    {"when": {"kind": "cut_deck"}, "says": "Cut Deck: starts a new discard pile beside the others."},
    {"when": {"kind": "steal"}, "says": "Steal: take a token from another player for yourself."},
    {"when": {"kind": "revive"}, "says": "Revive: take any non-wild card back from the discard pile."},
    {"when": {"kind": "stitch_deck"}, "says": "Stitch Deck: puts another discard pile on top of this one."},
    {"when": {"kind": "wild"}, "says": "Wild: goes on anything; you choose the colour."},
    {"when": {"kind": "draw_four"}, "says": "Draw 4 [C]: you choose the colour; the next player draws 4 or stacks "
     "onto it; it may be challenged."},
    {"when": {"kind": "mulligan"}, "says": "Mulligan: a wild card; you may throw cards from your hand back and "
     "draw as many."},
    {"when": {"kind": "flush"}, "says": "Flush: a wild card; you may throw away your cards of the colour you choose."},
    {"when": {"kind": "bomb"}, "says": "Bomb: a wild card; drawn in a natural draw, it makes you draw 3 more."},
    {"when": {"kind": "draw_color"}, "says": "Draw Color [C]: the next player draws until they get the colour you "
     "choose; it may be challenged."},
    {"when": {"kind": "drop_all"}, "says": "Drop All: a wild card that removes every token of one player."},
    {"when": {"kind": "choice"}, "says": "Choice [C]: a wild card that may also act as any non-wild card's effect; "
     "it may be challenged."},
    {"when": {}, "says": "Play it on a card of its colour or symbol."},
]
