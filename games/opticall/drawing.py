"""The moves several rules share: drawing (with the deck rebuilt from the
discard pile) and discarding the pile (the players left with nothing are
put out by ``objective``)."""
from __future__ import annotations

from games.opticall.cards import cards
from games.rng import derive
from games.story import Story


def draw(story: Story, seat: int, count: int, reason: str) -> None:
    """Rule "running out of cards in the deck": draw ``count`` cards; an empty
    deck is rebuilt from the discard pile, shuffled; what neither holds is not
    drawn (decision: the draw lapses). One ``cards_drawn`` event per part
    drawn between rebuilds; ``short`` on the last says how many lapsed."""
    left = count
    while True:
        if not story.state.deck and story.state.discard and left:
            _rebuild(story)
        take = story.state.deck[:left]
        left -= len(take)
        done = not left or not (story.state.deck[len(take):] or story.state.discard)
        if take or done:
            story.add(
                "cards_drawn",
                public={"seat": seat, "count": len(take), "reason": reason, "short": left if done else 0},
                private={seat: {"cards": cards(story.state.faces, take)}},
            )
        if done:
            return


def _rebuild(story: Story) -> None:
    state = story.state
    order = list(state.discard)
    derive(state.seed, "rebuild", state.deal, state.rebuilds).shuffle(order)
    story.add("deck_rebuilt", public={"count": len(order)}, secret={"deck": order})


def discard_pile(story: Story, reason: str) -> None:
    count = sum(len(play.cards) for play in story.state.pile)
    story.add("pile_discarded", public={"count": count, "reason": reason})
