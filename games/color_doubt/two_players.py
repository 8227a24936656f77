"""Rule "two players": the penalty of the player who received minus points."""
from __future__ import annotations

from games.color_doubt.evolve import evolve
from games.color_doubt.state import State, card
from games.color_doubt.winning import won
from games.contract import Event
from games.rng import derive


def penalty(state: State, taker: int) -> list[Event]:
    """Rule "two players": who received minus points takes two cards from
    the other player's hand (at random: decision "two players")."""
    other = 1 - taker
    rng = derive(state.seed, "penalty", state.game_no, state.plays)
    count = min(2, len(state.hands[other]))
    cards = rng.sample(sorted(state.hands[other]), count)
    events = [
        Event(
            "cards_taken",
            public={"seat": taker, "source": other, "count": count},
            private={taker: {"cards": [card(state, c) for c in cards]}, other: {"ids": cards}},
        )
    ]
    if count and count == len(state.hands[other]):
        # the object is to be rid of every card "by any means necessary"
        events += won(evolve(state, events[0]), other)
    return events
