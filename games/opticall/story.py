"""Deciding a command as a story: events emitted one after another, each
folded at once, so the next step is decided on the state it leads to.

The moves several rules share live here: drawing (with the deck rebuilt from
the discard pile), discarding the pile, and putting out the players left with
nothing.
"""
from __future__ import annotations

from games.opticall.cards import cards
from games.opticall.evolve import evolve
from games.opticall.state import State, active
from games.rng import derive
from games.unfolding import Unfolding


class Story(Unfolding):
    state: State

    def __init__(self, state: State, at: int):
        super().__init__(state, at, evolve)

    @property
    def over(self) -> bool:
        return self.state.winner is not None


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


def put_out_the_empty(story: Story, pending: int | None = None) -> None:
    """Rule "objective": a player with no cards who will receive none is out
    (decision: checked once the draws of a step are done); the last player
    standing wins. ``pending``: a player whose play is not yet settled (it may
    still earn a draw-back or a calling card)."""
    state = story.state
    for seat in active(state):
        if not state.hands[seat] and not state.owed[seat] and seat != pending:
            story.add("eliminated", public={"seat": seat})
    left = active(story.state)
    if len(left) == 1:
        story.add("game_won", public={"seat": left[0]})
