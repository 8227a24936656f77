"""Color Doubt states set up card by card, for rule tests."""
from __future__ import annotations

from games.color_doubt import GAME, rules
from games.contract import Event


def dealt(hands: list[list[str]], first: int = 0, options: dict | None = None, aside: list[str] = ()) -> rules.State:
    """A game just dealt: seat n holds ``hands[n]`` (colours), ids ``s<n>c<i>``."""
    seats = len(hands)
    state = rules.initial_state(seats, GAME.validate_options(seats, options or {}), "test-seed", GAME.rules_version)
    deal = Event(
        "dealt",
        public={"game": 1, "first": first, "hand_size": 0, "set_aside": len(aside)},
        private={
            seat: {"hand": [{"id": f"s{seat}c{i}", "color": color} for i, color in enumerate(hand)]}
            for seat, hand in enumerate(hands)
        },
        secret={"set_aside": [{"id": f"aside{i}", "color": color} for i, color in enumerate(aside)]},
    )
    return rules.evolve(state, deal)


def act(state: rules.State, seat: int, kind: str, **fields) -> tuple[list[Event], rules.State]:
    """Decide a command and fold its events: (events, state after)."""
    events = rules.decide(state, {"type": kind, "seat": seat, "at": 0, **fields})
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]
