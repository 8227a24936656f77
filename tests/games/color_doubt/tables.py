"""Color Doubt states set up card by card, for rule tests."""
from __future__ import annotations

from functools import partial
from typing import Any

from games.color_doubt import GAME
from games.color_doubt.evolve import evolve
from games.color_doubt.rules import decide, initial_state
from games.color_doubt.state import State
from games.color_doubt.view import view
from games.contract import Event
from tests.support import kit

act = partial(kit.act, GAME)
refused = partial(kit.refused, GAME)
types = kit.types
of = kit.of


def dealt(hands: list[list[str]], first: int = 0, options: dict | None = None, aside: list[str] = ()) -> State:
    """A game just dealt: seat n holds ``hands[n]`` (colours), ids ``s<n>c<i>``."""
    seats = len(hands)
    state = initial_state(seats, GAME.validate_options(seats, options or {}), "test-seed", GAME.rules_version)
    deal = Event(
        "dealt",
        public={"game": 1, "first": first, "hand_size": 0, "set_aside": len(aside)},
        private={
            seat: {"hand": [{"id": f"s{seat}c{i}", "color": color} for i, color in enumerate(hand)]}
            for seat, hand in enumerate(hands)
        },
        secret={"set_aside": [{"id": f"aside{i}", "color": color} for i, color in enumerate(aside)]},
    )
    return evolve(state, deal)


def world(state: State, commands: list[tuple[int, str, dict]]) -> list[tuple[Event, State]]:
    """Decide ``commands`` (``(seat, kind, fields)``) in turn: each event
    with the state after it."""
    steps = []
    for seat, kind, fields in commands:
        for event in decide(state, {"type": kind, "seat": seat, "at": 0, **fields}):
            state = evolve(state, event)
            steps.append((event, state))
    return steps


def observed(steps: list[tuple[Event, State]], viewer: int | None) -> list[tuple[dict, dict]]:
    """What ``viewer`` (``None``: a spectator) is shown of ``steps``: each
    event as its feed shows it, and its view after the event."""
    return [(event.seen_by(viewer), view(state, viewer)) for event, state in steps]


def renamed(value: Any, ids: set[str], names: dict[str, str] | None = None) -> Any:
    """``value`` with each card id of ``ids`` renamed in the order it first
    appears: two worlds a seat cannot tell apart look the same, whatever
    ids the cards it saw happen to have."""
    names = {} if names is None else names
    if isinstance(value, dict):
        return {key: renamed(item, ids, names) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [renamed(item, ids, names) for item in value]
    if isinstance(value, str) and value in ids:
        return names.setdefault(value, f"card{len(names)}")
    return value
