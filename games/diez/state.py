"""The state of a Diez game, folded from its events (see ``evolve``).

Everything is frozen: ``evolve`` builds a new state with ``dataclasses.replace``.
Rule names in comments are the headings of ``docs/rules/diez.md``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from games.diez.deck import matches
from games.kit import GameState


# phases: whose move the game waits for
DEALING = "dealing"
TURN = "turn"  # the seat whose turn it is plays or draws (or answers a stack)
DRAWN = "drawn"  # after a draw in its turn, the seat plays the drawn card or keeps it
WINDOW = "window"  # a jump-in window: the asked seats jump in or pass
CHALLENGE = "challenge"  # the seat a [C] card affects challenges it or accepts it
GIVING = "giving"  # a player who drew a token from the bag chooses whom to give it
# offers: a seat owes a decision before the next turn begins (rule "offers")
SEARCH = "search"  # an Ace's search of the draw pile
MAGNET = "magnet"  # a forced drawer may give a drawn card to a Magnet holder
LINK = "link"  # a Proc-Link: the player may play an underlined number
SUB = "sub"  # the Sub holder may choose the colour of a wild card just played
RESOLVING = "resolving"  # between events of one command only, never seen outside decide
OVER = "over"


@dataclass(frozen=True)
class Pile:
    """A discard pile, bottom card first. ``colors`` holds, for each card, the
    colour the pile had once that card was on top: its own colour, the colour
    chosen for a wild card, ``None`` after a Blank (anything may follow). So
    taking a top card off (Cut Deck) gives the pile back its previous colour."""

    cards: tuple[str, ...]
    colors: tuple[str | None, ...]

    @property
    def top(self) -> str:
        return self.cards[-1]

    @property
    def color(self) -> str | None:
        return self.colors[-1]

    def add(self, card: str, color: str | None) -> "Pile":
        return Pile(self.cards + (card,), self.colors + (color,))


@dataclass(frozen=True)
class Stack:
    """Rule "stacking": a draw total on ``pile`` that ``victim`` must draw or stack onto."""

    pile: int
    total: int
    victim: int
    by: int | None = None  # the seat whose card put it on the victim (Proc-Mirror sends it back)


@dataclass(frozen=True)
class Play:
    """A card just played (or jumped in) whose effect has not happened yet,
    with everything the player chose for it."""

    seat: int
    card: str
    pile: int
    color: str | None  # the colour the card gives its pile
    played_on: str | None  # the pile's colour before it: what a challenge asks about
    held: tuple[str, ...]  # the player's other cards when it was played (challenges)
    jump_in: bool = False
    effect: str | None = None  # a Choice's chosen effect
    target: int | None = None  # Tag
    share_from: int | None = None  # Share, among tied largest hands
    revive: str | None = None  # Revive: the card taken back
    stitch: int | None = None  # Stitch Deck: the pile placed on top
    new_pile: bool = False  # Cut Deck: start a new pile with it
    discard: tuple[str, ...] = ()  # Mulligan or Flush: the cards to discard
    tokens: Mapping[str, Any] | None = None  # Token, Steal, Drop All, Proc: the token choices
    give: str | None = None  # Proc-Magnet: the card given to the next player
    snared: bool = False  # rule "snare": the card has no effect
    sub_asked: bool = False  # rule "sub": the Sub holder has had its chance to recolour it


@dataclass(frozen=True)
class Threat:
    """A [C] card the ``victim`` may challenge before it resolves (rule
    "challenging"). ``deferred``: the effect waits for the answer; otherwise
    the card already moved a stack onto the victim, who may also stack on it.
    ``stack_before`` is the stack the card was played onto, if any."""

    play: Play
    victim: int
    deferred: bool
    stack_before: Stack | None = None


@dataclass(frozen=True)
class Offer:
    """A decision a seat owes before the next turn begins (rule "offers"):
    an Ace's ``search`` of the draw pile for a forced draw of ``count`` cards
    (or until a card of ``color``); a ``magnet`` gift of one of ``cards``
    (just drawn) to one of ``holders``; a ``link`` play."""

    kind: str
    seat: int
    count: int | None = None
    color: str | None = None
    cause: str | None = None
    cards: tuple[str, ...] = ()
    holders: tuple[int, ...] = ()


@dataclass(frozen=True)
class Drew:
    """What the table saw when a seat last drew in its turn (rule "drawing",
    "What a seat sees"): each discard pile's top card (its face) and colour then, and
    ``held``, how many of the cards it held then it surely holds still: the
    hand's size then, less one for each card that has left its hand since,
    face down or one that could have gone on those piles face up. Every part
    is public. A player draws in its turn when it has nothing to play, or
    (one card) when it chooses to, so the expert believes (its sampler,
    "The expert's sampler") those cards fit none of those piles."""

    piles: tuple[tuple[Mapping[str, Any], str | None], ...]  # (top card's face, colour)
    held: int

    def fits(self, face: Mapping[str, Any]) -> bool:
        """``face`` could have gone on one of those piles (rule "matching")."""
        return any(matches(face, top, color) for top, color in self.piles)


@dataclass(frozen=True)
class State(GameState):
    # cards of each colour in the deck (from the options), shown to every seat;
    # ``initial_state`` sets it
    deck_colors: Mapping[str, int] = field(default_factory=dict)
    # card id -> face, this deal's cards (none before the deal)
    faces: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    draw_pile: tuple[str, ...] = ()  # the top card first
    piles: tuple[Pile, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    # rule "tokens": per seat, the tokens it holds; the bag (sorted), and a
    # token drawn from it that its drawer must give before the game goes on
    tokens: tuple[tuple[str, ...], ...] = ()
    bag: tuple[str, ...] = ()
    giving: str | None = None
    giving_seat: int | None = None
    resume: int | None = None  # whose turn begins once the token is given and the offers answered
    offers: tuple[Offer, ...] = ()  # the first is open in its phase once the command's effects are done
    turn: int = 0
    direction: int = 1  # 1: seat order (clockwise), -1: reversed
    phase: str = DEALING
    since: int = 0  # when the current phase's clock started (ms)
    stack: Stack | None = None
    pending: Play | None = None  # a card whose effect waits for its jump-in window
    asked: tuple[int, ...] = ()  # the seats the jump-in window still waits for
    threat: Threat | None = None
    drawn: str | None = None  # the card drawn this turn that may still be played
    drew: tuple[Drew | None, ...] = ()  # per seat: what the table saw of its last draw in its turn
    serial: int = 0  # events folded so far: labels random draws
    winner: int | None = None


def next_seat(state: State, seat: int, steps: int = 1, direction: int | None = None) -> int:
    return (seat + steps * (direction or state.direction)) % state.seats


def face(state: State, card: str) -> Mapping[str, Any]:
    return state.faces[card]


def pending_play(state: State) -> Play:
    """The card whose effect waits: set in the phases that ask about it (a
    jump-in window, the Sub holder's colour) and while it resolves."""
    play = state.pending
    assert play is not None, f"no card is pending in phase {state.phase}"
    return play


def open_threat(state: State) -> Threat:
    """The [C] card whose victim may challenge it: set in the ``challenge``
    phase (rule "challenging") and while a stack it moved is answered."""
    threat = state.threat
    assert threat is not None, f"no [C] card is open in phase {state.phase}"
    return threat



def without(cards: tuple[str, ...], gone) -> tuple[str, ...]:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


def drawable(state: State) -> int:
    """Cards a draw can still reach: the draw pile and every discard pile
    below its top card (reshuffled when the draw pile runs out)."""
    return len(state.draw_pile) + sum(len(pile.cards) - 1 for pile in state.piles)


def cards_in_play(state: State) -> int:
    """Rule "the deck": every card is in the draw pile, a discard pile or a hand."""
    return len(state.draw_pile) + sum(len(p.cards) for p in state.piles) + sum(map(len, state.hands))

