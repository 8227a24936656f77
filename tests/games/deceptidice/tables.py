"""Deceptidice states set up die by die, for rule tests.

Faces are written short: ``"r3"`` is red 3 (r, b, g, p, y, o: red, blue,
green, purple, yellow, orange), ``"W"`` a wildcard, ``"P:full_house"`` a
power card.
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial

from games.contract import Event
from games.deceptidice import GAME, rules
from games.deceptidice.deck import COLORS, POWER
from games.deceptidice.evolve import evolve
from games.deceptidice.state import State
from games.deceptidice.state import hand as held
from tests.support import kit

act = partial(kit.act, GAME)
refused = partial(kit.refused, GAME)
types = kit.types
of = kit.of

SHORT = {color[0]: color for color in COLORS}

# option sets the random-play tests run under
OPTION_SETS = {
    "published": {},
    "introductory, swap with the draw pile": {"introductory": True, "loser_swap": "draw_pile"},
    "straights, vague guesses, wildcards": {"straights": True, "vague_guesses": True, "wildcards": True},
    "predictable, swap with players, power cards": {"predictable": True, "loser_swap": "player", "power_cards": True},
    "everything, small deck": {
        "suits": 2, "numbers": 3, "copies": 6, "straights": True, "vague_guesses": True, "wildcards": True,
        "wildcard_count": 3, "power_cards": True, "predictable": True, "loser_swap": "draw_pile",
    },
    "everything, large deck": {
        "suits": 6, "numbers": 9, "copies": 1, "straights": True, "vague_guesses": True, "wildcards": True,
        "power_cards": True, "predictable": True, "loser_swap": "player",
    },
}  # fmt: skip


def face(short: str) -> dict:
    if short == "W":
        return {"wild": True}
    if short.startswith("P:"):
        return {"power": short[2:], "value": POWER[short[2:]].value}
    return {"color": SHORT[short[0]], "number": int(short[1:])}


def faces(shorts) -> list[dict]:
    return [face(s) for s in shorts]


def rolled(
    dice: list[list[list[str]]],
    liar: int = 0,
    options: dict | None = None,
    draw_pile: list[str] = (),
    at: int = 0,
    rules_version: int = GAME.rules_version,
) -> State:
    """Round 1 just rolled: seat n's die d holds ``dice[n][d]`` (top first),
    card ids ``s<n>d<d>c<i>``; the draw pile's ids are ``pile<i>``. The game
    plays by ``rules_version`` (today's by default)."""
    seats = len(dice)
    options = GAME.validate_options(seats, {"turn_seconds": 60, **(options or {})})
    state = rules.initial_state(seats, options, "test-seed", rules_version)
    cards = [
        [[{"id": f"s{s}d{d}c{i}", **face(short)} for i, short in enumerate(die)] for d, die in enumerate(seat_dice)]
        for s, seat_dice in enumerate(dice)
    ]
    hands = [[c for die in seat_cards for c in die] for seat_cards in cards]
    public = {"cards_each": 0, "liar": liar, "draw_pile": len(draw_pile)}
    if options["predictable"]:
        public["shown"] = hands
    deal = Event(
        "dealt",
        public=public,
        private={s: {"hand": hand} for s, hand in enumerate(hands)},
        secret={"draw_pile": [{"id": f"pile{i}", **face(short)} for i, short in enumerate(draw_pile)]},
    )
    roll = Event(
        "rolled",
        public={"round": 1, "liar": liar, "sizes": [[len(die) for die in seat_dice] for seat_dice in dice]},
        private={s: {"tops": [die[0] for die in seat_cards]} for s, seat_cards in enumerate(cards)},
        secret={"dice": [[[c["id"] for c in die] for die in seat_cards] for seat_cards in cards]},
        at=at,
    )
    return evolve(evolve(state, deal), roll)


def timed(state: State, seat: int, kind: str, at: int, **fields) -> tuple[list[Event], State]:
    """``act``, with every event stamped with the command's time as the
    command layer stamps it (``games.table``), so deadlines count from it."""
    events = [replace(e, at=at) for e in GAME.decide(state, {"type": kind, "seat": seat, "at": at, **fields})]
    for event in events:
        state = evolve(state, event)
    return events, state


def hand(state: State, seat: int) -> set[str]:
    return set(held(state, seat))
