"""Opticall states set up card by card, for rule tests.

Faces are written as at the table: "red sun", "eclipse", "reset",
"spectrum", "black_sheep". Seat n's i-th card has the id ``s<n>c<i>``; the
deck's i-th card (from the top) ``d<i>``.
"""
from __future__ import annotations

from functools import partial

from games.contract import Event
from games.opticall import GAME, rules
from games.opticall.state import State
from tests.support import kit

act = partial(kit.act, GAME)
refused = partial(kit.refused, GAME)
types = kit.types
of = kit.of


def face(text: str) -> dict:
    color, _, suit = text.partition(" ")
    return {"color": color, "suit": suit or None}


def dealt(
    hands: list[list[str]],
    deck: list[str] = (),
    first: int | None = 0,
    dealer: int | None = None,
    options: dict | None = None,
) -> State:
    """A game just dealt. ``first`` None: the classic setup's reveal rounds
    (then ``dealer`` says who dealt; by default the seat right of seat 0)."""
    seats = len(hands)
    options = {"two_players": seats == 2, **(options or {})}
    if first is None:
        options.setdefault("setup", "classic")
    state = rules.initial_state(seats, GAME.validate_options(seats, options), "test-seed", GAME.rules_version)
    if dealer is None:
        dealer = (first - 1) % seats if first is not None else seats - 1
    deal = Event(
        "dealt",
        public={"deal": 1, "dealer": dealer, "setup": options.get("setup", "easy"), "hand_size": 0, "deck": len(deck), "first": first},
        private={
            seat: {"hand": [{"id": f"s{seat}c{i}", **face(text)} for i, text in enumerate(hand)]}
            for seat, hand in enumerate(hands)
        },
        secret={"deck": [{"id": f"d{i}", **face(text)} for i, text in enumerate(deck)]},
    )
    return GAME.evolve(state, deal)


def play(state: State, seat: int, cards: list[str], color: str, suit: str | None = None) -> tuple[list[Event], State]:
    return act(state, seat, "play", cards=cards, color=color, suit=suit)


def answer_all(state: State, calls: dict[int, str] | None = None) -> tuple[list[Event], State]:
    """Every seat waiting in the call window answers: ``calls`` maps the seats
    that call to their calling card; the others pass."""
    calls = calls or {}
    events: list[Event] = []
    for seat in list(state.window.waiting()):
        if state.window is None:
            break
        more, state = act(state, seat, "call", card=calls[seat]) if seat in calls else act(state, seat, "pass")
        events += more
    return events, state


# the deck under the hands of ``four`` and of the call tests
DECK = ["purple moon", "orange sun", "yellow sun", "blue sun", "red moon", "green sun"]


def four(deck=DECK, **options) -> State:
    """Four seats of three cards each, dealt over ``deck``: the calls' table."""
    return dealt(
        [
            ["red sun", "red sun", "blue moon"],
            ["green sun", "purple sun", "eclipse"],
            ["eclipse", "yellow moon", "purple moon"],
            ["orange sun", "blue sun", "red moon"],
        ],
        list(deck),
        options=options,
    )
