"""Rule "two players": the penalty of the player who received minus points."""
from __future__ import annotations

from games.color_doubt.state import card
from games.color_doubt.winning import won
from games.rng import derive
from games.story import Story


def penalty(story: Story, taker: int) -> None:
    """Rule "two players": who received minus points takes two cards from
    the other player's hand (at random: decision "two players")."""
    state = story.state
    other = 1 - taker
    rng = derive(state.seed, "penalty", state.game_no, state.plays)
    count = min(2, len(state.hands[other]))
    cards = rng.sample(sorted(state.hands[other]), count)
    story.add(
        "cards_taken",
        public={"seat": taker, "source": other, "count": count},
        private={taker: {"cards": [card(state, c) for c in cards]}, other: {"ids": cards}},
    )
    if count and count == len(state.hands[other]):
        # the object is to be rid of every card "by any means necessary"
        won(story, other)
