"""Rule "objective": a player with no cards left is out; the last player
standing wins."""
from __future__ import annotations

from games.opticall.state import State, active
from games.story import Story


def over(state: State) -> bool:
    """Whether the game has been won (the story told so far ended it)."""
    return state.winner is not None


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
