"""Diez states set up card by card, for rule tests.

Cards are written as text: ``"red 5"``, ``"white 2"``, ``"green skip"``,
``"blue draw_two"``, ``"wild"``, ``"draw_four"``, ``"blank"``, ``"needle"``,
``"trade"``... (a single-colour card takes its deck colour, a wild card is
black, a Blank has none). Seat ``n``'s cards get the ids ``s<n>c<i>``, the
draw pile's ``d<i>`` (the top first), the starting card ``start``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial

from games.contract import Event
from games.diez import GAME, rules
from games.diez.deck import COLORS, COUNTS, WHITE, WILD
from games.diez.evolve import evolve
from games.diez.state import Pile, State
from tests.support import kit

act = partial(kit.act, GAME)
refused = partial(kit.refused, GAME)
types = kit.types
of = kit.of


def face(spec: str, card_id: str) -> dict:
    words = spec.split()
    if words[0] in COLORS + (WHITE,):
        color, what = words
        if what.isdigit():
            return {"id": card_id, "kind": "number", "color": color, "number": int(what)}
        return {"id": card_id, "kind": what, "color": color, "number": None}
    kind = words[0]
    if kind in WILD:
        color = "black"
    else:
        color = next(c.color for c in COUNTS if c.kind == kind)
    return {"id": card_id, "kind": kind, "color": color, "number": None}


def dealt(
    hands: list[list[str]],
    start: str = "red 5",
    draw: list[str] = (),
    first: int = 0,
    options: dict | None = None,
    version: int | None = None,
) -> State:
    """``version``: the rules version the game was created under (default: today's)."""
    seats = len(hands)
    version = GAME.rules_version if version is None else version
    state = rules.initial_state(seats, GAME.validate_options(seats, options or {}), "test-seed", version)
    deal = Event(
        "dealt",
        public={
            "first": first,
            "direction": 1,
            "hand_size": 0,
            "start": face(start, "start"),
            "turned": [],
            "draw_pile": len(draw),
        },
        private={seat: {"hand": [face(spec, f"s{seat}c{i}") for i, spec in enumerate(hand)]} for seat, hand in enumerate(hands)},
        secret={"draw_pile": [face(spec, f"d{i}") for i, spec in enumerate(draw)]},
    )
    return evolve(state, deal)


def pass_all(state: State) -> State:
    """Everyone asked in the open jump-in window passes."""
    while state.phase == "window":
        _, state = act(state, state.asked[0], "pass")
    return state


def hand(state: State, seat: int) -> list[str]:
    return list(state.hands[seat])


def with_pile(state: State, spec: str, card_id: str = "x") -> State:
    """``state`` with one more discard pile, topped by ``spec`` (as after a Cut Deck)."""
    card = face(spec, card_id)
    fields = dict(state.__dict__)
    fields.update(piles=state.piles + (Pile((card_id,), (card["color"],)),), faces={**state.faces, card_id: card})
    return State(**fields)


# -- tokens ---------------------------------------------------------------------

DRAW = ["blue 1", "blue 2", "blue 3", "blue 4", "blue 5", "blue 6", "blue 7", "blue 8", "blue 9"]


def table(hands, held=None, start="red 5", options=None, draw=DRAW, version=None):
    """A dealt table whose seats hold the tokens ``held`` (taken from the bag)."""
    state = dealt(hands, start=start, draw=draw, options=options, version=version)
    if held:
        taken = Counter(t for seat in held for t in seat)
        bag = list(state.bag)
        for token, n in taken.items():
            for _ in range(n):
                bag.remove(token)
        state = replace(state, tokens=tuple(tuple(seat) for seat in held), bag=tuple(bag))
    return state


def play(state, seat=0, **fields):
    """Play, then everyone asked in the jump-in window passes: every event."""
    events, state = act(state, seat, "play", card=fields.pop("card", f"s{seat}c0"), **fields)
    while state.phase == "window":
        more, state = act(state, state.asked[0], "pass")
        events += more
    return events, state
